import { capturingLogger } from "@pasarela/testing";
import { describe, expect, it } from "vitest";
import type { EndpointsRepository } from "../../src/db/repositories/endpoints.js";
import type {
  AttemptResult,
  ClaimedEntrega,
  EntregasRepository,
} from "../../src/db/repositories/entregas.js";
import { newSecreto } from "../../src/domain/secreto.js";
import type { EnvioResult } from "../../src/flows/envio.js";
import { startEntregaWorker } from "../../src/flows/worker.js";

const { logger } = capturingLogger("webhooks");

const entrega = (id: string, endpointId: string, extra: Partial<ClaimedEntrega> = {}) => ({
  id,
  accountId: "a",
  endpointId,
  url: `https://hooks.example.com/${endpointId}`,
  payload: {
    id: `evt_${id}`,
    tipo: "comprobante.autorizado" as const,
    createdAt: new Date().toISOString(),
    environment: "homologacion",
    data: {},
  },
  attempts: 0,
  createdAt: new Date(),
  leasedUntil: new Date(Date.now() + 60_000),
  ...extra,
});

/** A table of due deliveries that hands each out once, as the leases do. */
function fakeTable(due: ClaimedEntrega[]) {
  const finished = new Map<string, AttemptResult>();
  const claims: { max: number; busy: readonly string[] }[] = [];
  const entregas = {
    claim: (max: number, busy: readonly string[]) => {
      claims.push({ max, busy });
      const taken: ClaimedEntrega[] = [];
      for (const item of [...due]) {
        if (taken.length >= max) break;
        if (busy.includes(item.endpointId) || taken.some((t) => t.endpointId === item.endpointId)) {
          continue;
        }
        taken.push(item);
        due.splice(due.indexOf(item), 1);
      }
      return Promise.resolve(taken);
    },
    finish: ({ id }: { id: string }, result: AttemptResult) => {
      finished.set(id, result);
      return Promise.resolve();
    },
  } as unknown as EntregasRepository;
  const endpoints = {
    signingSecrets: () => Promise.resolve([newSecreto()]),
    recordSuccess: () => Promise.resolve(),
    recordFailure: () => Promise.resolve(undefined),
  } as unknown as EndpointsRepository;
  return { entregas, endpoints, finished, claims };
}

const until = async (check: () => boolean) => {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe("delivery worker", () => {
  it("fails an attempt whose address is no longer allowed, without calling it", async () => {
    const table = fakeTable([entrega("1", "e1")]);
    const sent: string[] = [];
    const worker = startEntregaWorker({
      ...table,
      destino: () =>
        Promise.resolve({
          problem: "apunta a una dirección privada, local o reservada (10.0.0.1)",
        }),
      logger,
      concurrency: 4,
      retryScale: 1,
      failureWindowMs: 3 * 24 * 3600_000,
      send: (url) => {
        sent.push(url);
        return Promise.resolve({ delivered: true, statusCode: 200, error: null, latencyMs: 1 });
      },
    });
    await until(() => table.finished.has("1"));
    await worker.stop();
    expect(sent).toEqual([]);
    const result = table.finished.get("1")!;
    expect(result).toMatchObject({ status: "pending", statusCode: null });
    expect(result.error).toBe(
      "La url apunta a una dirección privada, local o reservada (10.0.0.1)",
    );
    // the first retry: 5 s, give or take 10%
    const wait = result.nextAttemptAt!.getTime() - Date.now();
    expect(wait).toBeGreaterThan(4_000);
    expect(wait).toBeLessThanOrEqual(5_500);
  });

  it("keeps a slow endpoint to one slot while the others are delivered", async () => {
    const due = [
      entrega("s1", "slow"),
      entrega("s2", "slow"),
      entrega("f1", "fast1"),
      entrega("f2", "fast2"),
    ];
    const table = fakeTable(due);
    let release: () => void = () => undefined;
    const slow = new Promise<void>((r) => (release = r));
    const worker = startEntregaWorker({
      ...table,
      destino: () => Promise.resolve({}),
      logger,
      concurrency: 2,
      retryScale: 1,
      failureWindowMs: 3 * 24 * 3600_000,
      pollMs: 20,
      send: async (url): Promise<EnvioResult> => {
        if (url.endsWith("/slow")) await slow;
        return { delivered: true, statusCode: 204, error: null, latencyMs: 1 };
      },
    });
    await until(() => table.finished.has("f1") && table.finished.has("f2"));
    // the second delivery of the slow endpoint waits for the first one
    expect(table.finished.has("s1")).toBe(false);
    expect(table.finished.has("s2")).toBe(false);
    expect(table.claims.every((c) => c.max <= 2)).toBe(true);
    expect(table.claims.some((c) => c.busy.includes("slow"))).toBe(true);
    release();
    await until(() => table.finished.has("s2"));
    await worker.stop();
    expect(table.finished.get("s1")).toMatchObject({ status: "delivered", nextAttemptAt: null });
  });

  it("gives up on a delivery once it has been tried for the whole schedule", async () => {
    const old = new Date(Date.now() - 3 * 24 * 3600_000 - 1_000);
    const table = fakeTable([entrega("o", "e", { attempts: 11, createdAt: old })]);
    const worker = startEntregaWorker({
      ...table,
      destino: () => Promise.resolve({}),
      logger,
      concurrency: 1,
      retryScale: 1,
      failureWindowMs: 3 * 24 * 3600_000,
      send: () =>
        Promise.resolve({ delivered: false, statusCode: 503, error: "HTTP 503", latencyMs: 3 }),
    });
    await until(() => table.finished.has("o"));
    await worker.stop();
    expect(table.finished.get("o")).toEqual({
      status: "failed",
      statusCode: 503,
      error: "HTTP 503",
      latencyMs: 3,
      nextAttemptAt: null,
    });
  });
});
