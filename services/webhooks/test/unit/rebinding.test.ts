import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { capturingLogger } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EndpointsRepository } from "../../src/db/repositories/endpoints.js";
import type {
  AttemptResult,
  ClaimedEntrega,
  EntregasRepository,
} from "../../src/db/repositories/entregas.js";
import { newSecreto } from "../../src/domain/secreto.js";
import { checkDestino, urlHostProblem } from "../../src/domain/url.js";
import { enviar, RESPONSE_READ_MAX } from "../../src/flows/envio.js";
import { startEntregaWorker } from "../../src/flows/worker.js";

const { logger } = capturingLogger("webhooks");
const payload = {
  id: "evt_rebind",
  tipo: "comprobante.autorizado" as const,
  createdAt: "2026-11-27T10:00:00.000Z",
  environment: "homologacion",
  data: {},
};

/**
 * A receiver on loopback: what a rebinding name would reach if the delivery resolved the
 * name again instead of connecting to the address it checked.
 */
describe("DNS rebinding: the address checked is the address called", () => {
  let server: Server;
  let port: number;
  const received: { url: string; headers: IncomingMessage["headers"] }[] = [];
  let endless = false;

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        received.push({ url: req.url ?? "", headers: req.headers });
        if (!endless) {
          res.writeHead(200).end("ok");
          return;
        }
        // an answer that never ends: only its first RESPONSE_READ_MAX bytes may be read
        res.writeHead(500);
        const chunk = Buffer.alloc(16 * 1024, "x");
        const write = () => {
          while (res.write(chunk));
          res.once("drain", write);
        };
        write();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it("refuses an attempt when the name now resolves to loopback, recording a clear failure", async () => {
    // public when the endpoint is registered, 127.0.0.1 when the delivery is due
    const answers = [["203.0.113.10"], ["127.0.0.1"]];
    const asked: string[] = [];
    const resolve = (hostname: string) => {
      asked.push(hostname);
      return Promise.resolve(answers.shift() ?? ["127.0.0.1"]);
    };
    const url = `http://rebind.example.test:${port}/hook`;
    expect(await urlHostProblem(url, resolve)).toBeUndefined();

    const finished = new Map<string, AttemptResult>();
    const due: ClaimedEntrega[] = [
      {
        id: "1",
        accountId: "a",
        endpointId: "e1",
        url,
        payload,
        attempts: 0,
        createdAt: new Date(),
        leasedUntil: new Date(Date.now() + 60_000),
      },
    ];
    const failures: string[] = [];
    const worker = startEntregaWorker({
      entregas: {
        claim: () => Promise.resolve(due.splice(0)),
        finish: ({ id }: { id: string }, result: AttemptResult) => {
          finished.set(id, result);
          return Promise.resolve();
        },
      } as unknown as EntregasRepository,
      endpoints: {
        signingSecrets: () => Promise.resolve([newSecreto()]),
        recordSuccess: () => Promise.resolve(),
        recordFailure: (id: string) => {
          failures.push(id);
          return Promise.resolve(undefined);
        },
      } as unknown as EndpointsRepository,
      destino: (target) => checkDestino(target, resolve),
      logger,
      concurrency: 1,
      retryScale: 1,
      failureWindowMs: 3 * 24 * 3600_000,
    });
    const deadline = Date.now() + 5_000;
    while (!finished.has("1") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await worker.stop();

    expect(asked).toEqual(["rebind.example.test", "rebind.example.test"]);
    expect(received).toEqual([]);
    expect(finished.get("1")).toMatchObject({ status: "pending", statusCode: null });
    expect(finished.get("1")!.error).toBe(
      "La url tiene un host que resuelve a una dirección privada, local o reservada " +
        "(127.0.0.1): no se aceptan loopback, redes privadas, link-local, CGNAT, multicast " +
        "ni direcciones de metadatos",
    );
    // a failed attempt like any other: it counts towards disabling the endpoint
    expect(failures).toEqual(["e1"]);
  });

  it("resolves once, checks every address and pins the first", async () => {
    const resolve = (hostname: string) =>
      Promise.resolve(
        hostname === "mixed.example.test"
          ? ["203.0.113.5", "10.0.0.7"]
          : ["2001:db8::5", "203.0.113.6"],
      );
    expect(await checkDestino("https://ok.example.test/h", resolve)).toEqual({
      pinned: { address: "2001:db8::5", family: 6 },
    });
    const mixed = await checkDestino("https://mixed.example.test/h", resolve);
    expect("problem" in mixed && mixed.problem).toContain("(10.0.0.7)");
    expect(await checkDestino("https://203.0.113.9:8443/h", resolve)).toEqual({
      pinned: { address: "203.0.113.9", family: 4 },
    });
  });

  it("connects to the pinned address, sending the URL's own name as Host, without credentials", async () => {
    // the name resolves nowhere: only the pinned address can have been called
    const result = await enviar(`http://nowhere.invalid:${port}/pinned`, payload, [newSecreto()], {
      pinned: { address: "127.0.0.1", family: 4 },
    });
    expect(result).toMatchObject({ delivered: true, statusCode: 200 });
    const last = received.at(-1)!;
    expect(last.url).toBe("/pinned");
    expect(last.headers.host).toBe(`nowhere.invalid:${port}`);
    expect(last.headers.authorization).toBeUndefined();
    expect(last.headers.cookie).toBeUndefined();
  });

  it("reads no more than the cap of an answer that never ends", async () => {
    endless = true;
    try {
      const started = Date.now();
      const result = await enviar(`http://127.0.0.1:${port}/endless`, payload, [newSecreto()], {
        pinned: { address: "127.0.0.1", family: 4 },
        timeoutMs: 5_000,
      });
      expect(result).toMatchObject({ delivered: false, statusCode: 500 });
      expect(result.error!.length).toBeLessThan(600);
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(RESPONSE_READ_MAX).toBe(64 * 1024);
    } finally {
      endless = false;
    }
  });
});
