import { wsfe } from "@pasarela/contracts";
import { ok, type Result } from "@pasarela/errors";
import { createLogger } from "@pasarela/telemetry";
import { describe, expect, it } from "vitest";
import type { CaeOutcome, WsfeCaller } from "../../src/adapters/wsfe.js";
import type { NewComprobante, StoredComprobante } from "../../src/db/repositories/comprobantes.js";
import type { SeriesKey } from "../../src/db/repositories/series.js";
import type { CaeDetalleRespuesta } from "../../src/domain/cae-answer.js";
import {
  prepareIssuance,
  type FECAEDetRequest,
  type PreparedVoucher,
} from "../../src/domain/issuance/index.js";
import { judgeBatch, makeBatchIssuer, type BatchIssuerDeps } from "../../src/flows/batches.js";
import { KEY_LAPSED } from "../../src/flows/issuance-job.js";
import type { IssuanceJob } from "../../src/flows/issuance-job.js";
import type { SeriesWriter } from "../../src/flows/series-writer.js";
import { domesticVoucher } from "../../src/flows/voucher-issue.js";
import { viaWsfe } from "./via-wsfe.js";

const NOW = new Date("2026-03-16T12:00:00Z");
const logger = createLogger({ service: "test", level: "silent" });
const series: SeriesKey = {
  environment: "homologacion",
  cuit: "20111111112",
  ptoVta: 3,
  cbteTipo: 11,
};
const caller: WsfeCaller = { accountId: "a", cuit: series.cuit, environment: "homologacion" };

/** A Factura C of `total`; a total of 13 the fake authority rejects on its own merits. */
function voucher(total: number, cbteTipo = 11): PreparedVoucher {
  const prepared = prepareIssuance(
    wsfe.facturaIssueRequestSchema.parse({
      environment: "homologacion",
      representada: series.cuit,
      cbteTipo,
      concepto: 1,
      items: [{ descripcion: "x", cantidad: 1, precioUnitario: total, alicuotaIva: 0 }],
      ...(cbteTipo === 211
        ? {
            docTipo: 80,
            docNro: "30000000007",
            condicionIvaReceptorId: 1,
            fchVtoPago: "20260330",
            fce: { cbu: "0170099220000067797370", opcionTransferencia: "SCA" },
          }
        : { docTipo: 99, docNro: "0", condicionIvaReceptorId: 5 }),
    }),
    { productos: new Map() },
    NOW,
  );
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.error));
  return prepared.value;
}

/**
 * A fake authority that numbers like the real one: each detail
 * must carry the next number; a rejected one leaves the numbering where it was, so every later
 * detail of the batch is refused with 10016.
 */
function fakeAuthority(options: { regXReq?: number; unknown?: boolean } = {}) {
  let last = 0;
  const requests: number[][] = [];
  let totAsked = 0;
  return {
    requests,
    totAsked: () => totAsked,
    ultimoAutorizado: () => Promise.resolve(ok(last)),
    totXRequest: () => {
      totAsked++;
      return Promise.resolve(ok(options.regXReq ?? 250));
    },
    solicitar: (_c: WsfeCaller, r: { detalles: readonly FECAEDetRequest[] }) => {
      requests.push(r.detalles.map((d) => d.CbteDesde));
      if (options.unknown) {
        return Promise.resolve<CaeOutcome>({
          kind: "unknown",
          error: { code: "AUTHORITY_UNAVAILABLE", message: "WSFE no respondió" },
        });
      }
      let not10016 = false;
      const detalles = r.detalles.map((d): CaeDetalleRespuesta => {
        const base = { cbteDesde: d.CbteDesde, cbteHasta: d.CbteHasta, cbteFch: d.CbteFch };
        if (d.CbteDesde !== last + 1) {
          not10016 = true;
          return { ...base, resultado: "R", cae: "", caeFchVto: "", observaciones: [] };
        }
        if (d.ImpTotal === "13.00") {
          return {
            ...base,
            resultado: "R",
            cae: "",
            caeFchVto: "",
            observaciones: [{ code: 10048, msg: "importe de la suerte" }],
          };
        }
        last = d.CbteDesde;
        return {
          ...base,
          resultado: "A",
          cae: String(70000000000000 + last),
          caeFchVto: "20260326",
          observaciones: [],
        };
      });
      return Promise.resolve<CaeOutcome>({
        kind: "judged",
        resultado: "P",
        detalles,
        errores: not10016 ? [{ code: 10016, msg: "no es el próximo" }] : [],
        eventos: [],
      });
    },
  };
}

/** The repository's state changes, in memory. */
function fakeRepository() {
  const rows = new Map<string, StoredComprobante>();
  const set = (id: string, changes: Partial<StoredComprobante>) => {
    const row = rows.get(id)!;
    if (row.state !== "pending" && row.state !== "unknown") return undefined;
    const next: StoredComprobante = { ...row, ...changes };
    rows.set(id, next);
    return next;
  };
  return {
    rows,
    unresolved: () => Promise.resolve([]),
    insertPending: (vs: readonly NewComprobante[]) => {
      for (const v of vs) {
        rows.set(v.id, {
          id: v.id,
          accountId: v.accountId,
          series: v.series,
          cbteNro: v.cbteNro,
          state: "pending",
          idempotencyKey: v.idempotencyKey,
        } as StoredComprobante);
      }
      return Promise.resolve("stored" as const);
    },
    markManyAuthorized: (list: readonly { id: string; cae: string }[]) =>
      Promise.resolve(list.flatMap((a) => set(a.id, { state: "authorized", cae: a.cae }) ?? [])),
    markRejected: (id: string) => Promise.resolve(set(id, { state: "rejected" })),
    markUnknown: (id: string) => Promise.resolve(set(id, { state: "unknown" }) !== undefined),
    markNotIssued: (id: string) => Promise.resolve(set(id, { state: "not_issued" })),
    markManyUnresolved: (ids: readonly string[], state: "unknown" | "not_issued") =>
      Promise.resolve(ids.filter((id) => set(id, { state }) !== undefined)),
    liveKeys: () => Promise.resolve(new Set<string>()),
    endSend: () => Promise.resolve(),
  };
}

/** One process alone: its queue per series is all the serialization there is. */
const localWriter: SeriesWriter = {
  run: (_key, _deadline, work) => work({ renew: () => Promise.resolve(true) }),
};

function setup(authority = fakeAuthority()) {
  const repository = fakeRepository();
  const published: StoredComprobante[] = [];
  const deps: BatchIssuerDeps = {
    authority: viaWsfe(authority),
    comprobantes: repository,
    series: { flagReconciliation: () => Promise.resolve() },
    writer: localWriter,
    reconcile: (_caller, _series, last) => Promise.resolve(ok(last)),
    events: {
      publishOutcome: (v) => {
        published.push(v);
        return Promise.resolve();
      },
      publishOutcomes: (vs) => {
        published.push(...vs);
        return Promise.resolve();
      },
    },
    authorityTimeoutMs: 1_000,
    logger,
  };
  const issue = makeBatchIssuer(deps);
  const job = (total: number, cbteTipo = 11): IssuanceJob => ({
    accountId: "a",
    caller,
    series: { ...series, cbteTipo },
    ...domesticVoucher(voucher(total, cbteTipo), series, "1"),
    idempotencyKey: `k-${total}`,
    requestId: `r-${total}`,
    deadline: Date.now() + 60_000,
    logger,
  });
  return { issue, job, authority, repository, published };
}

const numberOf = (r: Result<{ cbteNro: number }>) => (r.ok ? r.value.cbteNro : r.error.code);

describe("coalesced batches", () => {
  it("concurrent vouchers on one series go in one FECAESolicitar, consecutive, each answered", async () => {
    const { issue, job, authority } = setup();
    const answers = await Promise.all([10, 20, 30, 40, 50].map((t) => issue(job(t))));
    expect(authority.requests).toEqual([[1, 2, 3, 4, 5]]);
    expect(answers.map(numberOf)).toEqual([1, 2, 3, 4, 5]);
    expect(answers.map((a) => a.ok && a.value.impTotal)).toEqual([
      "10.00",
      "20.00",
      "30.00",
      "40.00",
      "50.00",
    ]);
    expect(answers.map((a) => a.ok && a.value.cae)).toEqual(
      [1, 2, 3, 4, 5].map((n) => String(70000000000000 + n)),
    );
  });

  it("a voucher whose call let its Idempotency-Key go is neither stored nor sent; the rest go", async () => {
    const { issue, job, authority, repository } = setup();
    const answers = await Promise.all([
      issue(job(10)),
      issue({ ...job(20), keyHeld: () => false }),
      issue({ ...job(30), keyHeld: () => true }),
    ]);
    expect(authority.requests).toEqual([[1, 2]]);
    expect(answers.map(numberOf)).toEqual([1, "SERVICE_UNAVAILABLE", 2]);
    expect(answers[1]).toMatchObject({ error: { details: { reason: KEY_LAPSED } } });
    expect([...repository.rows.values()].map((r) => r.idempotencyKey)).toEqual(["k-10", "k-30"]);
  });

  it("a detail rejected in the middle answers 422; the ones after it go again, never reported", async () => {
    const { issue, job, authority, repository, published } = setup();
    const answers = await Promise.all([10, 20, 13, 40, 50].map((t) => issue(job(t))));
    expect(authority.requests).toEqual([
      [1, 2, 3, 4, 5],
      [3, 4],
    ]);
    expect(answers.map(numberOf)).toEqual([1, 2, "AUTHORITY_REJECTED", 3, 4]);
    const rejected = answers[2]!;
    expect(rejected.ok).toBe(false);
    if (!rejected.ok) {
      expect(rejected.error.details).toMatchObject({ cbteNro: 3, resultado: "R" });
      // the 10016 the details after it got is theirs, not this voucher's
      expect(JSON.stringify(rejected.error.details)).not.toContain("10016");
    }
    // published (right after the answers): four authorizations and one rejection; the re-sent
    // ones were never rejected
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(published.map((v) => [v.state, v.idempotencyKey]).sort()).toEqual(
      [
        ["authorized", "k-10"],
        ["authorized", "k-20"],
        ["authorized", "k-40"],
        ["authorized", "k-50"],
        ["rejected", "k-13"],
      ].sort(),
    );
    const states = [...repository.rows.values()].map((v) => `${v.idempotencyKey}:${v.state}`);
    expect(states.filter((s) => s.endsWith("not_issued")).sort()).toEqual([
      "k-40:not_issued",
      "k-50:not_issued",
    ]);
  });

  it("never sends more details than FECompTotXRequest allows, asked once per environment", async () => {
    const authority = fakeAuthority({ regXReq: 2 });
    const { issue, job } = setup(authority);
    const answers = await Promise.all([1, 2, 3, 4, 5].map((t) => issue(job(t))));
    expect(answers.map(numberOf)).toEqual([1, 2, 3, 4, 5]);
    expect(authority.requests).toEqual([[1, 2], [3, 4], [5]]);
    await issue(job(6));
    expect(authority.totAsked()).toBe(1);
  });

  it("sends FCE vouchers one per request, without asking", async () => {
    const authority = fakeAuthority();
    const { issue, job } = setup(authority);
    const answers = await Promise.all([100, 200, 300].map((t) => issue(job(t, 211))));
    expect(answers.map(numberOf)).toEqual([1, 2, 3]);
    expect(authority.requests).toEqual([[1], [2], [3]]);
    expect(authority.totAsked()).toBe(0);
  });

  it("a batch without a usable answer is unknown for every voucher in it, each with its number", async () => {
    const { issue, job, repository } = setup(fakeAuthority({ unknown: true }));
    const answers = await Promise.all([10, 20, 30].map((t) => issue(job(t))));
    expect(answers.map((a) => !a.ok && a.error.details?.cbteNro)).toEqual([1, 2, 3]);
    expect(answers.every((a) => !a.ok && a.error.details?.outcome === "unknown")).toBe(true);
    expect([...repository.rows.values()].map((v) => v.state)).toEqual([
      "unknown",
      "unknown",
      "unknown",
    ]);
  });
});

describe("judgeBatch", () => {
  const d = (cbteDesde: number, resultado: string): CaeDetalleRespuesta => ({
    cbteDesde,
    cbteHasta: cbteDesde,
    cbteFch: "20260316",
    resultado,
    cae: resultado === "A" ? "1".repeat(14) : "",
    caeFchVto: "",
    observaciones: [],
  });
  it("only the first rejection is the voucher's own; a detail left out is missing", () => {
    expect(judgeBatch([1, 2, 3, 4], [d(1, "A"), d(2, "R"), d(3, "R")]).map((v) => v.kind)).toEqual([
      "authorized",
      "rejected",
      "resend",
      "missing",
    ]);
  });
});
