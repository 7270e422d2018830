import { ok } from "@pasarela/errors";
import { createLogger } from "@pasarela/telemetry";
import { describe, expect, it } from "vitest";
import type { CaeOutcome, WsfeCaller } from "../../src/adapters/wsfe.js";
import { viaWsfe } from "./via-wsfe.js";
import type { StoredComprobante } from "../../src/db/repositories/comprobantes.js";
import type { SeriesKey } from "../../src/db/repositories/series.js";
import type { DecimalText } from "../../src/domain/amount.js";
import type { AuthorityComprobante } from "../../src/domain/comprobante.js";
import type { FECAEDetRequest } from "../../src/domain/issuance/index.js";
import { makeReconciler } from "../../src/flows/reconcile.js";
import type { HeldSeries } from "../../src/flows/series-writer.js";

const logger = createLogger({ service: "test", level: "silent" });
const series: SeriesKey = {
  environment: "homologacion",
  cuit: "20111111112",
  ptoVta: 7,
  cbteTipo: 11,
};
const caller: WsfeCaller = { accountId: "a", cuit: series.cuit, environment: "homologacion" };
const held: HeldSeries = { renew: () => Promise.resolve(true) };

const detalle = (cbteNro: number, total = "50.00"): FECAEDetRequest => ({
  Concepto: 1,
  DocTipo: 99,
  DocNro: "0",
  CbteDesde: cbteNro,
  CbteHasta: cbteNro,
  CbteFch: "20261201",
  ImpTotal: total,
  ImpTotConc: "0.00",
  ImpNeto: total,
  ImpOpEx: "0.00",
  ImpTrib: "0.00",
  ImpIVA: "0.00",
  MonId: "PES",
  MonCotiz: "1",
  CondicionIVAReceptorId: 5,
});

/**
 * The authority as far as numbering goes: each accepted
 * detail must carry the next number, one request at a time per series ("Transacción Activa"
 * for a second one meanwhile), a total of 13 is rejected on its own merits. `inTransit` is a
 * FECAESolicitar a writer sent before it died: it reaches the authority whenever the test says.
 */
function fakeAuthority() {
  let last = 0;
  let cae = 70000000000000;
  const held = new Map<number, { sent: FECAEDetRequest; cae: string }>();
  let transit: FECAEDetRequest | undefined;
  const sends: number[] = [];
  /** every send from now on is lost on its way back: no answer, it may still land */
  let losing = false;

  function judge(d: FECAEDetRequest): CaeOutcome {
    if (d.CbteDesde !== last + 1) {
      return {
        kind: "judged",
        resultado: "R",
        detalles: [rejected(d, [])],
        errores: [{ code: 10016, msg: "no es el próximo a autorizar" }],
        eventos: [],
      };
    }
    if (d.ImpTotal === "13.00") {
      return {
        kind: "judged",
        resultado: "R",
        detalles: [rejected(d, [{ code: 10048, msg: "importe de la suerte" }])],
        errores: [],
        eventos: [],
      };
    }
    last = d.CbteDesde;
    const granted = String(++cae);
    held.set(last, { sent: d, cae: granted });
    return {
      kind: "judged",
      resultado: "A",
      detalles: [
        {
          cbteDesde: d.CbteDesde,
          cbteHasta: d.CbteHasta,
          cbteFch: d.CbteFch,
          resultado: "A",
          cae: granted,
          caeFchVto: "20261211",
          observaciones: [],
        },
      ],
      errores: [],
      eventos: [],
    };
  }

  return {
    held,
    sends,
    loseEverySend: () => (losing = true),
    /**
     * A send of a writer that died, being processed: it is judged when `land` is called, or
     * when another send on the series arrives meanwhile (which is refused).
     */
    inTransit(d: FECAEDetRequest) {
      transit = d;
      return {
        land: () => {
          transit = undefined;
          return judge(d);
        },
      };
    },
    ultimoAutorizado: () => Promise.resolve(ok(last)),
    consultar: (_c: WsfeCaller, q: { cbteNro: number }) => {
      const v = held.get(q.cbteNro);
      if (!v) return Promise.resolve(ok(undefined));
      const found: AuthorityComprobante = {
        codAutorizacion: v.cae,
        resultado: "A",
        docTipo: v.sent.DocTipo,
        docNro: v.sent.DocNro,
        fchVto: "20261211",
        cbteDesde: v.sent.CbteDesde,
        cbteHasta: v.sent.CbteHasta,
        cbteFch: v.sent.CbteFch,
        impTotal: v.sent.ImpTotal as DecimalText,
        impNeto: v.sent.ImpNeto as DecimalText,
        impIVA: v.sent.ImpIVA as DecimalText,
      };
      return Promise.resolve(ok(found));
    },
    solicitar: (
      _c: WsfeCaller,
      r: { detalles: readonly FECAEDetRequest[] },
      options?: { mayStart?: () => boolean },
    ): Promise<CaeOutcome> => {
      if (options?.mayStart && !options.mayStart()) {
        return Promise.resolve({
          kind: "refused",
          error: { code: "SERVICE_UNAVAILABLE", message: "no" },
        });
      }
      sends.push(r.detalles[0]!.CbteDesde);
      if (losing) {
        return Promise.resolve({
          kind: "unknown",
          error: { code: "AUTHORITY_UNAVAILABLE", message: "WSFE inalcanzable: ECONNRESET" },
          over: false,
        });
      }
      if (transit) {
        // refused while the first one is processed, which then completes
        judge(transit);
        transit = undefined;
        return Promise.resolve({
          kind: "unknown",
          error: { code: "AUTHORITY_UNAVAILABLE", message: "WSFE 502: Transaccion Activa" },
          over: true,
        });
      }
      return Promise.resolve(judge(r.detalles[0]!));
    },
  };
}

function rejected(d: FECAEDetRequest, observaciones: { code: number; msg: string }[]) {
  return {
    cbteDesde: d.CbteDesde,
    cbteHasta: d.CbteHasta,
    cbteFch: d.CbteFch,
    resultado: "R",
    cae: "",
    caeFchVto: "",
    observaciones,
  };
}

/**
 * The vouchers' rows in memory, with the time a send of each may still land; `landed()`
 * says every send made so far can no longer arrive (the time has passed).
 */
function fakeRepository() {
  const rows = new Map<string, StoredComprobante>();
  /** ids a send may still land with, and whether a send made before the last one still may */
  const flying = new Map<string, boolean>();
  const set = (id: string, changes: Partial<StoredComprobante>) => {
    const row = rows.get(id)!;
    if (row.state !== "pending" && row.state !== "unknown") return undefined;
    const next = { ...row, ...changes };
    rows.set(id, next);
    return next;
  };
  return {
    rows,
    add(id: string, cbteNro: number, options: { inFlight: boolean; total?: string }) {
      rows.set(id, {
        id,
        cbteNro,
        state: "pending",
        series,
        sent: detalle(cbteNro, options.total),
        resends: 0,
      } as StoredComprobante);
      if (options.inFlight) flying.set(id, false);
    },
    landed: () => flying.clear(),
    markAuthorized: (id: string, a: { cae: string }) =>
      Promise.resolve(set(id, { state: "authorized", cae: a.cae })),
    markNotIssued: (id: string) => Promise.resolve(set(id, { state: "not_issued" })),
    markConflict: (id: string) => Promise.resolve(set(id, { state: "conflict" })),
    markUnknown: (id: string) => Promise.resolve(set(id, { state: "unknown" }) !== undefined),
    markResending: (id: string) => {
      const before = flying.has(id);
      flying.set(id, before);
      const row = rows.get(id)!;
      rows.set(id, { ...row, resends: row.resends + 1 });
      return Promise.resolve({ before: before ? new Date(8.64e15) : null });
    },
    stopResending: (id: string, resends: number) => {
      const row = rows.get(id)!;
      rows.set(id, { ...row, resends: Math.max(row.resends, resends) });
      return Promise.resolve();
    },
    endSend: (ids: readonly string[], until: Date | null) => {
      for (const id of ids) {
        if (until === null) flying.delete(id);
      }
      return Promise.resolve();
    },
    inFlight: (ids: readonly string[]) =>
      Promise.resolve(new Set(ids.filter((id) => flying.has(id)))),
  };
}

function setup() {
  const authority = fakeAuthority();
  const repository = fakeRepository();
  const published: string[] = [];
  const reconcile = makeReconciler({
    authority: viaWsfe(authority),
    comprobantes: repository,
    series: { flagReconciliation: () => Promise.resolve() },
    events: {
      publishOutcome: (v) => {
        published.push(`${v.cbteNro}:${v.state}`);
        return Promise.resolve();
      },
      publishOutcomes: () => Promise.resolve(),
    },
    logger,
    authorityTimeoutMs: 1_000,
    inFlightMs: 10_000,
  });
  const open = () =>
    [...repository.rows.values()].filter((r) => r.state === "pending" || r.state === "unknown");
  const run = async () => {
    const last = await authority.ultimoAutorizado();
    return reconcile(caller, series, last.ok ? last.value : -1, open(), held);
  };
  return { authority, repository, published, run };
}

describe("reconciliation of a series taken over while a send may still land", () => {
  it("a send still being processed: the copy sent again is refused, the first one's CAE adopted", async () => {
    const { authority, repository, published, run } = setup();
    repository.add("v1", 1, { inFlight: true });
    // the writer that died sent voucher 1; the authority is still processing it when the
    // series' new writer sends it again ("Transacción Activa" for the copy)
    authority.inTransit(detalle(1));
    expect(await run()).toEqual({ ok: true, value: 1 });
    expect(authority.sends).toEqual([1]);
    expect(repository.rows.get("v1")).toMatchObject({
      state: "authorized",
      cae: authority.held.get(1)!.cae,
    });
    expect([...authority.held.keys()]).toEqual([1]);
    expect(published).toEqual(["1:authorized"]);
  });

  it("a send that never arrives: the copy sent again is authorized, once", async () => {
    const { authority, repository, run } = setup();
    repository.add("v1", 1, { inFlight: true });
    repository.add("v2", 2, { inFlight: true });
    expect(await run()).toEqual({ ok: true, value: 2 });
    expect(authority.sends).toEqual([1, 2]);
    expect(repository.rows.get("v1")).toMatchObject({ state: "authorized" });
    expect(repository.rows.get("v2")).toMatchObject({ state: "authorized" });
    // the first writer's send arrives after all: not the next number, nothing more issued
    const late = authority.inTransit(detalle(1)).land();
    expect(late).toMatchObject({ kind: "judged", errores: [{ code: 10016 }] });
    expect([...authority.held.keys()]).toEqual([1, 2]);
  });

  it("a send that arrived before the takeover: adopted without sending anything", async () => {
    const { authority, repository, run } = setup();
    repository.add("v1", 1, { inFlight: true });
    authority.inTransit(detalle(1)).land();
    expect(await run()).toEqual({ ok: true, value: 1 });
    expect(authority.sends).toEqual([]);
    expect(repository.rows.get("v1")).toMatchObject({ state: "authorized" });
  });

  it("no send can land any more and the number is free: never issued, nothing sent", async () => {
    const { authority, repository, published, run } = setup();
    repository.add("v1", 1, { inFlight: false });
    expect(await run()).toEqual({ ok: true, value: 0 });
    expect(authority.sends).toEqual([]);
    expect(repository.rows.get("v1")).toMatchObject({ state: "not_issued" });
    expect(published).toEqual(["1:not_issued"]);
  });

  it("a copy rejected on its own merits settles nothing while the first send may land", async () => {
    const { authority, repository, run } = setup();
    repository.add("v1", 1, { inFlight: true, total: "13.00" });
    const waiting = await run();
    expect(waiting.ok || waiting.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(repository.rows.get("v1")?.state).toBe("pending");
    // sent once, not again and again, by this reconciliation nor by the next ones
    expect(authority.sends).toEqual([1]);
    expect((await run()).ok).toBe(false);
    expect(authority.sends).toEqual([1]);
    // once no send can land any more, the number still free: never issued
    repository.landed();
    expect(await run()).toEqual({ ok: true, value: 0 });
    expect(repository.rows.get("v1")).toMatchObject({ state: "not_issued" });
  });

  it("a voucher whose copies keep getting lost is sent again a few times in all, then waits", async () => {
    const { authority, repository, run } = setup();
    repository.add("v1", 1, { inFlight: true });
    authority.loseEverySend();
    // every issuance on the series reconciles it again: the sends stay bounded
    for (let i = 0; i < 6; i++) {
      const waiting = await run();
      expect(waiting.ok || waiting.error.code).toBe("SERVICE_UNAVAILABLE");
    }
    expect(authority.sends).toEqual([1, 1, 1]);
    expect(repository.rows.get("v1")?.state).toBe("unknown");
    // once none of those can land any more: never issued
    repository.landed();
    expect(await run()).toEqual({ ok: true, value: 0 });
    expect(repository.rows.get("v1")).toMatchObject({ state: "not_issued" });
  });
});
