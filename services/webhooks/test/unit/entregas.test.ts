import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { wsfe, type EventOf } from "@pasarela/contracts";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firma } from "../../src/domain/firma.js";
import { payloadId, payloadOf } from "../../src/domain/payload.js";
import {
  nextRetryDelay,
  RETRY_DELAYS_MS,
  RETRY_EVERY_MS,
  RETRY_FOR_MS,
} from "../../src/domain/reintentos.js";
import { newSecreto } from "../../src/domain/secreto.js";
import { enviar } from "../../src/flows/envio.js";

const headersOf = (id: string, timestamp: number, signature: string) => ({
  "webhook-id": id,
  "webhook-timestamp": String(timestamp),
  "webhook-signature": signature,
});

describe("signature (Standard Webhooks)", () => {
  const body = JSON.stringify({ id: "evt_1", tipo: "comprobante.autorizado", data: { n: 1 } });
  const now = Math.floor(Date.now() / 1000);

  it("verifies with the standardwebhooks package", () => {
    const secreto = newSecreto();
    const signature = firma([secreto], "evt_1", now, body);
    expect(signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secreto).verify(body, headersOf("evt_1", now, signature))).toEqual(
      JSON.parse(body),
    );
  });

  it("signs with the current and the previous secret while both are valid", () => {
    const [current, previous] = [newSecreto(), newSecreto()];
    const signature = firma([current, previous], "evt_1", now, body);
    expect(signature.split(" ")).toHaveLength(2);
    for (const secreto of [current, previous]) {
      expect(() =>
        new Webhook(secreto).verify(body, headersOf("evt_1", now, signature)),
      ).not.toThrow();
    }
  });

  it("fails with another secret, another body, another id or another timestamp", () => {
    const secreto = newSecreto();
    const signature = firma([secreto], "evt_1", now, body);
    const verify = (s: string, b: string, id: string, t: number) => () =>
      new Webhook(s).verify(b, headersOf(id, t, signature));
    expect(verify(newSecreto(), body, "evt_1", now)).toThrow();
    expect(verify(secreto, body.replace("1}", "2}"), "evt_1", now)).toThrow();
    expect(verify(secreto, body, "evt_2", now)).toThrow();
    expect(verify(secreto, body, "evt_1", now + 1)).toThrow();
  });
});

describe("retry schedule", () => {
  const middle = () => 0.5;

  it("waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then every 12 h", () => {
    const waits = Array.from({ length: 8 }, (_, i) => nextRetryDelay(i + 1, 0, { random: middle }));
    expect(waits).toEqual([...RETRY_DELAYS_MS, RETRY_EVERY_MS, RETRY_EVERY_MS]);
    expect(RETRY_DELAYS_MS).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]);
  });

  it("keeps trying for 3 days and then gives up", () => {
    let elapsed = 0;
    let attempts = 1;
    for (;;) {
      const wait = nextRetryDelay(attempts, elapsed, { random: middle });
      if (wait === undefined) break;
      elapsed += wait;
      attempts++;
    }
    expect(elapsed).toBeGreaterThanOrEqual(RETRY_FOR_MS);
    expect(elapsed - RETRY_EVERY_MS).toBeLessThan(RETRY_FOR_MS);
    expect(attempts).toBe(12);
  });

  it("spreads each wait by up to 10% either way", () => {
    expect(nextRetryDelay(2, 0, { random: () => 0 })).toBe(270_000);
    expect(nextRetryDelay(2, 0, { random: () => 0.999999 })).toBe(330_000);
  });

  it("shrinks the whole schedule by the scale", () => {
    expect(nextRetryDelay(1, 0, { scale: 0.001, random: middle })).toBe(5);
    expect(nextRetryDelay(3, 0, { scale: 0.001, random: middle })).toBe(1_800);
    expect(nextRetryDelay(9, RETRY_FOR_MS * 0.001, { scale: 0.001 })).toBeUndefined();
  });
});

describe("payload", () => {
  const common = {
    version: 1 as const,
    comprobanteId: randomUUID(),
    accountId: randomUUID(),
    environment: "homologacion" as const,
    representada: "20111111112",
    ptoVta: 5,
    cbteTipo: 11,
    cbteNro: 42,
    cbteFch: "20261127",
    totales: {
      impTotal: "100.00",
      impNeto: "100.00",
      impIVA: "0.00",
      impTrib: "0.00",
      impTotConc: "0.00",
      impOpEx: "0.00",
    },
    moneda: { id: "PES", cotizacion: "1" },
    requestId: "req-1",
    idempotencyKey: null,
    occurredAt: "2026-11-27T10:00:00.000Z",
  };

  it("has a stable id per event that names no internal subject", () => {
    const id = wsfe.comprobanteEventId(common.comprobanteId, "autorizado");
    expect(payloadId(id)).toBe(payloadId(id));
    expect(payloadId(id)).toMatch(/^evt_[A-Za-z0-9_-]{32}$/);
    expect(payloadId(id)).not.toBe(
      payloadId(wsfe.comprobanteEventId(common.comprobanteId, "rechazado")),
    );
  });

  it("carries the issuance's 200 body for an authorized voucher", () => {
    const answer = { cae: "12345678901234" } as unknown as EventOf<
      typeof wsfe.comprobanteAutorizado
    >["answer"];
    const event = {
      ...common,
      id: wsfe.comprobanteEventId(common.comprobanteId, "autorizado"),
      cae: "12345678901234",
      caeVencimiento: "20261207",
      observaciones: [],
      answer,
    };
    expect(payloadOf({ tipo: "comprobante.autorizado", event })).toEqual({
      id: payloadId(event.id),
      tipo: "comprobante.autorizado",
      createdAt: common.occurredAt,
      environment: "homologacion",
      data: answer,
    });
  });

  it("carries the 422 body for a rejected one, rebuilt when the event lacks it", () => {
    const event = {
      ...common,
      id: wsfe.comprobanteEventId(common.comprobanteId, "rechazado"),
      observaciones: [],
      errores: [{ code: 10016, msg: "Numero incorrecto" }],
    };
    const answer = { code: "AUTHORITY_REJECTED", message: "rechazado", details: { x: 1 } };
    expect(payloadOf({ tipo: "comprobante.rechazado", event: { ...event, answer } }).data).toBe(
      answer,
    );
    const rebuilt = payloadOf({ tipo: "comprobante.rechazado", event }).data as {
      code: string;
      message: string;
      details: Record<string, unknown>;
    };
    expect(rebuilt.code).toBe("AUTHORITY_REJECTED");
    expect(rebuilt.message).toContain("10016 Numero incorrecto");
    expect(rebuilt.details).toMatchObject({ ptoVta: 5, cbteTipo: 11, cbteNro: 42 });
  });

  it("says which voucher was not issued and why", () => {
    const event = {
      ...common,
      id: wsfe.comprobanteEventId(common.comprobanteId, "no_emitido"),
      motivo: "conflicto" as const,
    };
    expect(payloadOf({ tipo: "comprobante.no_emitido", event }).data).toEqual({
      representada: "20111111112",
      ptoVta: 5,
      cbteTipo: 11,
      cbteNro: 42,
      cbteFch: "20261127",
      idempotencyKey: null,
      motivo: "conflicto",
    });
  });
});

describe("one POST to a receiver", () => {
  let server: Server;
  let base: string;
  let answer: (
    req: IncomingMessage,
    body: string,
  ) => { status: number; body?: string; location?: string; delayMs?: number };
  const received: { headers: IncomingMessage["headers"]; body: string }[] = [];
  const payload = {
    id: "evt_abc",
    tipo: "comprobante.autorizado" as const,
    createdAt: "2026-11-27T10:00:00.000Z",
    environment: "homologacion",
    data: { cae: "1" },
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        received.push({ headers: req.headers, body });
        const a = answer(req, body);
        setTimeout(() => {
          res.writeHead(a.status, a.location ? { location: a.location } : {});
          res.end(a.body ?? "");
        }, a.delayMs ?? 0);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it("sends the signed JSON and counts a 2xx as delivered", async () => {
    answer = () => ({ status: 204 });
    const secreto = newSecreto(randomBytes(32));
    const result = await enviar(`${base}/hook`, payload, [secreto]);
    expect(result).toMatchObject({ delivered: true, statusCode: 204, error: null });
    const last = received.at(-1)!;
    expect(last.headers["content-type"]).toBe("application/json");
    expect(last.headers["user-agent"]).toMatch(/^Pasarela-Webhooks\//);
    expect(last.headers["webhook-id"]).toBe("evt_abc");
    expect(new Webhook(secreto).verify(last.body, last.headers as Record<string, string>)).toEqual(
      payload,
    );
  });

  it("does not follow a redirect: a 3xx is a failure", async () => {
    answer = (req) =>
      req.url === "/moved" ? { status: 302, location: `${base}/elsewhere` } : { status: 200 };
    const before = received.length;
    const result = await enviar(`${base}/moved`, payload, [newSecreto()]);
    expect(result.delivered).toBe(false);
    expect(result.statusCode).toBe(302);
    expect(result.error).toContain("redirección");
    expect(received.length).toBe(before + 1);
  });

  it("reports a 5xx with the start of its text, and a receiver that does not answer in time", async () => {
    answer = () => ({ status: 500, body: "x".repeat(200_000) });
    const failed = await enviar(`${base}/boom`, payload, [newSecreto()]);
    expect(failed).toMatchObject({ delivered: false, statusCode: 500 });
    expect(failed.error!.length).toBeLessThan(600);
    answer = () => ({ status: 200, delayMs: 1_000 });
    const slow = await enviar(`${base}/slow`, payload, [newSecreto()], { timeoutMs: 200 });
    expect(slow).toMatchObject({ delivered: false, statusCode: null });
    expect(slow.error).toContain("sin respuesta");
  });
});
