import { appError, fail, ok } from "@pasarela/errors";
import { capturingLogger } from "@pasarela/testing";
import { describe, expect, it } from "vitest";
import type { ClaimedEmision, EmisionFinal } from "../../src/db/repositories/emisiones.js";
import { retryDelayMs } from "../../src/domain/emision-async.js";
import { startAsyncIssuance } from "../../src/flows/async-issuance.js";

const facturaCall = {
  environment: "homologacion",
  representada: "20111111112",
  ptoVta: 1,
  cbteTipo: 11,
  concepto: 1,
  docTipo: 99,
  docNro: "0",
  condicionIvaReceptorId: 5,
  items: [{ descripcion: "Clase", cantidad: 1, precioUnitario: "1000", alicuotaIva: 0 }],
  idempotencyKey: "k",
  fingerprint: "f",
  keyScope: "read_write",
};

function row(overrides: Partial<ClaimedEmision> = {}): ClaimedEmision {
  const now = new Date();
  return {
    id: "0b7a3c52-8d3e-4a8e-9b62-1f6f1f2a7c11",
    account_id: "7d1f0a8e-1b2c-4d5e-8f90-123456789abc",
    environment: "homologacion",
    tipo: "factura",
    idempotency_key: "k",
    llave: "k",
    fingerprint: "f",
    request: facturaCall,
    estado: "pendiente",
    admitted: true,
    intentos: 1,
    next_attempt_at: now,
    last_error: null,
    answer: null,
    created_at: now,
    updated_at: now,
    finished_at: null,
    leasedUntil: new Date(now.getTime() + 60_000),
    ...overrides,
  };
}

/** A worker over one claimed row and lifecycles that answer `answer`; what it recorded. */
async function attempt(claimed: ClaimedEmision, answer: unknown, maxAgeMs = 60_000) {
  const calls: string[] = [];
  const finished: { estado: EmisionFinal; answer: unknown }[] = [];
  const retried: { at: Date; error: unknown }[] = [];
  const published: unknown[] = [];
  let given = false;
  const lifecycle = (name: string) => () => {
    calls.push(name);
    return Promise.resolve(answer as never);
  };
  const kind = {
    call: lifecycle("call"),
    issueAdmitted: lifecycle("issueAdmitted"),
    retry: lifecycle("retry"),
    abandon: lifecycle("abandon"),
  };
  const { logger } = capturingLogger("wsfe");
  let done!: () => void;
  const settled = new Promise<void>((resolve) => (done = resolve));
  const worker = startAsyncIssuance({
    emisiones: {
      claim: () => {
        const first = !given;
        given = true;
        return Promise.resolve(first ? [claimed] : []);
      },
      finish: (_row, estado, body) => {
        finished.push({ estado, answer: body });
        done();
        return Promise.resolve(true);
      },
      retryAt: (_row, at, error) => {
        retried.push({ at, error });
        done();
        return Promise.resolve();
      },
    },
    kinds: { factura: kind, exportacion: kind },
    bus: {
      publish: (_contract: unknown, body: unknown) => {
        published.push(body);
        return Promise.resolve();
      },
    } as never,
    logger,
    maxAgeMs,
    retryMaxMs: 300_000,
    pollMs: 10_000,
    concurrency: 4,
    leaseMs: 60_000,
    random: () => 0.5,
  });
  await settled;
  await worker.stop();
  return { calls, finished, retried, published };
}

describe("asynchronous issuance worker", () => {
  it("runs the first attempt under the admission made when it was queued", async () => {
    const factura = { cae: "1" };
    const r = await attempt(row(), ok({ factura, replayed: false }));
    expect(r.calls).toEqual(["issueAdmitted"]);
    expect(r.finished).toEqual([{ estado: "autorizado", answer: { kind: "authorized", factura } }]);
    expect(r.published).toMatchObject([{ estado: "autorizado", emisionId: row().id }]);
  });

  it("waits through an authority failure, and retries settle what came before", async () => {
    const r = await attempt(row({ intentos: 3 }), fail(appError("AUTHORITY_UNAVAILABLE")));
    expect(r.calls).toEqual(["retry"]);
    expect(r.finished).toEqual([]);
    expect(r.published).toEqual([]);
    expect(r.retried).toHaveLength(1);
    const wait = r.retried[0]!.at.getTime() - Date.now();
    expect(wait).toBeGreaterThan(8_000);
    expect(wait).toBeLessThanOrEqual(10_000);
  });

  it("ends with the authority's rejection, and with what waiting cannot mend", async () => {
    const rejected = await attempt(row({ intentos: 2 }), fail(appError("AUTHORITY_REJECTED")));
    expect(rejected.finished.map((f) => f.estado)).toEqual(["rechazado"]);
    const quota = await attempt(row({ intentos: 2 }), fail(appError("QUOTA_FACTURAS_EXHAUSTED")));
    expect(quota.finished.map((f) => f.estado)).toEqual(["no_emitido"]);
    expect(quota.published).toMatchObject([
      { estado: "no_emitido", error: { code: "QUOTA_FACTURAS_EXHAUSTED" } },
    ]);
  });

  it("past its maximum age it only settles, and ends no_emitido when nothing was issued", async () => {
    const old = row({ intentos: 5, created_at: new Date(Date.now() - 120_000) });
    const r = await attempt(old, fail(appError("ASYNC_ISSUANCE_EXPIRED")));
    expect(r.calls).toEqual(["abandon"]);
    expect(r.finished).toMatchObject([
      {
        estado: "no_emitido",
        answer: { kind: "error", error: { code: "ASYNC_ISSUANCE_EXPIRED" } },
      },
    ]);
  });

  it("a row it cannot read back ends, rather than looping", async () => {
    const r = await attempt(row({ request: { nonsense: true } }), ok({}));
    expect(r.calls).toEqual([]);
    expect(r.finished).toMatchObject([
      { estado: "no_emitido", answer: { error: { code: "INTERNAL" } } },
    ]);
  });
});

describe("retryDelayMs", () => {
  it("grows from seconds to the maximum, within ±20%", () => {
    expect(retryDelayMs(1, 300_000, 0.5)).toBe(2_000);
    expect(retryDelayMs(1, 300_000, 0)).toBe(1_600);
    expect(retryDelayMs(1, 300_000, 1)).toBe(2_400);
    expect(retryDelayMs(6, 300_000, 0.5)).toBe(60_000);
    expect(retryDelayMs(50, 300_000, 0.5)).toBe(300_000);
    expect(retryDelayMs(50, 5_000, 0.5)).toBe(5_000);
  });
});
