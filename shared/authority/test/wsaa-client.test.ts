import { makeControlClient, startSimulator, type Simulator } from "@pasarela/authority-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWsaaClient } from "../src/index.js";
import { certificateFrom, signedTra } from "./sim-login.js";

const CUIT = "20111111112";

describe("WSAA soap client against the simulator", () => {
  let sim: Simulator;
  let keyPem: string;
  let certPem: string;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, timeoutHoldMs: 3_000 });
    const control = makeControlClient(sim.url);
    ({ keyPem, certPem } = await certificateFrom(control, "homologacion", CUIT, "clienttest"));
    await control.delegate("homologacion", { cuit: CUIT, alias: "clienttest", service: "wsfe" });
  });

  afterAll(async () => {
    await sim?.close();
  });

  it("obtains and parses a TA, then reads the fault of a second login", async () => {
    const client = makeWsaaClient({
      endpoint: sim.endpoints("homologacion").wsaa,
      timeoutMs: 5_000,
    });
    const first = await client.loginCms(signedTra(keyPem, certPem, "wsfe"));
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.ticket.token.length).toBeGreaterThan(10);
    expect(first.ticket.expirationTime.getTime() - first.ticket.generationTime.getTime()).toBe(
      12 * 3600_000,
    );
    const second = await client.loginCms(signedTra(keyPem, certPem, "wsfe"));
    expect(second).toEqual({
      ok: false,
      failure: {
        kind: "fault",
        code: "coe.alreadyAuthenticated",
        message: "El CEE ya posee un TA valido para el acceso al WSN solicitado",
        status: 500,
      },
    });
  });

  it("reads coe.notAuthorized for a service not delegated", async () => {
    const client = makeWsaaClient({
      endpoint: sim.endpoints("homologacion").wsaa,
      timeoutMs: 5_000,
    });
    const outcome = await client.loginCms(signedTra(keyPem, certPem, "wsfex"));
    expect(!outcome.ok && outcome.failure.kind === "fault" && outcome.failure.code).toBe(
      "coe.notAuthorized",
    );
  });

  it("reports a timeout as such", async () => {
    const control = makeControlClient(sim.url);
    await control.setFault("produccion", { service: "wsaa", mode: "timeout", rate: 1 });
    const client = makeWsaaClient({ endpoint: sim.endpoints("produccion").wsaa, timeoutMs: 300 });
    const outcome = await client.loginCms(signedTra(keyPem, certPem, "wsfe"));
    expect(outcome).toEqual({ ok: false, failure: { kind: "timeout", timeoutMs: 300 } });
    await control.setFault("produccion", { service: "wsaa", mode: "none" });
  });

  it("reports an HTTP error without a SOAP fault as http", async () => {
    const client = makeWsaaClient({ endpoint: `${sim.url}/nowhere/LoginCms`, timeoutMs: 5_000 });
    const outcome = await client.loginCms("AAAA");
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(["http", "unreadable"]).toContain(outcome.failure.kind);
  });

  it("reports a refused connection as a network failure", async () => {
    const client = makeWsaaClient({ endpoint: "http://127.0.0.1:9/LoginCms", timeoutMs: 2_000 });
    const outcome = await client.loginCms("AAAA");
    expect(!outcome.ok && outcome.failure.kind).toBe("network");
  });
});
