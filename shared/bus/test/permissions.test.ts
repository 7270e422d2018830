import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  billing,
  contractsOf,
  wsfex,
  natsAuthorization,
  natsGrants,
  natsPasswordVariable,
  newNatsPassword,
  type Contract,
  type NatsIdentity,
} from "@pasarela/contracts";
import { appError, fail } from "@pasarela/errors";
import { startPrivateNats, type Running } from "@pasarela/servers";
import { capturingLogger } from "@pasarela/testing";
import { startTracing } from "@pasarela/telemetry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bind, connectBus, type Bus } from "../src/index.js";

// A private nats-server with the generated grants (deploy/nats), under a subject prefix as a
// shared deployment would use; every identity connects with its own user and password.
const prefix = "perm";
const identities = Object.keys(natsGrants) as NatsIdentity[];

describe("least-privilege NATS: each identity gets only its grants", () => {
  let dataDir: string;
  let nats: Running;
  const passwords = Object.fromEntries(identities.map((id) => [id, newNatsPassword()])) as Record<
    NatsIdentity,
    string
  >;
  const buses = new Map<NatsIdentity, Bus>();
  const { logger } = capturingLogger();
  const { tracer } = startTracing({ service: "test" });
  const bus = (id: NatsIdentity) => buses.get(id)!;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "pasarela-perm-"));
    const configFile = join(dataDir, "nats.conf");
    writeFileSync(configFile, natsAuthorization(prefix));
    nats = await startPrivateNats(join(dataDir, "nats"), {
      configFile,
      env: Object.fromEntries(identities.map((id) => [natsPasswordVariable(id), passwords[id]])),
    });
    for (const id of identities) {
      buses.set(
        id,
        await connectBus({
          url: nats.url,
          prefix,
          name: id,
          credentials: { user: id, password: passwords[id] },
          logger,
          tracer,
          defaultTimeoutMs: 5_000,
        }),
      );
    }
    // every service answers its own contracts (the stub refuses with a catalogue code: any
    // answer proves the request went through)
    for (const id of identities) {
      const grant = natsGrants[id];
      if (!("serves" in grant)) continue;
      bus(id).serve(
        { name: id },
        contractsOf(grant.serves).map((contract) =>
          bind(contract, () => Promise.resolve(fail(appError("UNAUTHORIZED")))),
        ),
      );
      await bus(id).connection.flush();
    }
    await bus("billing").ensureEventStream();
  });

  afterAll(async () => {
    for (const b of buses.values()) await b.close().catch(() => {});
    await nats?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("refuses a connection without credentials", async () => {
    await expect(
      connectBus({ url: nats.url, prefix, name: "anonymous", logger, tracer }),
    ).rejects.toThrow(/Authorization/i);
  });

  it("lets every identity call each subject it is granted, answered by its owner", async () => {
    const answered: string[] = [];
    for (const id of identities) {
      for (const contract of natsGrants[id].calls as readonly Contract[]) {
        const result = await bus(id).request(contract, {});
        expect(result.ok ? "ok" : result.error.code, `${id} → ${contract.subject}`).not.toBe(
          "SERVICE_UNAVAILABLE",
        );
        answered.push(`${id}:${contract.subject}`);
      }
    }
    // the operator CLI's commands and the edge's routes are among them
    expect(answered).toContain("admin:billing.account.create");
    expect(answered).toContain("admin:ticket.certificate.create");
    expect(answered).toContain("edge:wsfe.factura.issue");
    expect(answered).toContain("wsfe:ticket.access.get");
  });

  it("refuses the edge billing.account.create at once with a catalogue error, not a hang", async () => {
    const result = await bus("edge").request(
      billing.accountCreate,
      { name: "Intrusa" },
      // a wait far longer than the test's: only the server's refusal can end it in time
      { timeoutMs: 600_000 },
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(String(result.error.details?.reason)).toMatch(/permission denied/i);
  });

  it("lets nothing but billing answer billing subjects", async () => {
    for (const id of identities.filter((i) => i !== "billing")) {
      const refused = await new Promise<Error | null>((resolve) => {
        bus(id).connection.subscribe(`${prefix}.billing.account.create`, {
          queue: "billing",
          callback: (error) => resolve(error),
        });
        void bus(id)
          .connection.flush()
          .then(() => bus("admin").request(billing.accountCreate, { name: "Prueba" }));
      });
      expect(refused?.name, id).toBe("PermissionViolationError");
      expect(refused?.message, id).toMatch(/Subscription/i);
    }
  });

  it("carries events only from their publisher to their listeners", async () => {
    const received = new Promise<string>((resolve) => {
      bus("edge").listen(billing.keyRevoked, (event) => resolve(event.keyId));
    });
    await bus("edge").connection.flush();
    const event = {
      id: "00000000-0000-4000-8000-000000000001",
      version: 1 as const,
      keyId: "00000000-0000-4000-8000-000000000002",
      accountId: "00000000-0000-4000-8000-000000000003",
      revokedAt: new Date().toISOString(),
    };
    await bus("billing").publish(billing.keyRevoked, event);
    await expect(received).resolves.toBe(event.keyId);
    const forged = { ...event, id: "00000000-0000-4000-8000-000000000009" };
    await expect(bus("edge").publish(billing.keyRevoked, forged)).rejects.toThrow(/permission/i);
  });

  it("carries an answer that takes several progress periods: progress messages, then the reply", async () => {
    // wsfex answers slowly from now on: a handler at work sends progress to the inbox every
    // 750 ms before it replies, and the server must let all of them through
    await bus("wsfex").close();
    const slow = await connectBus({
      url: nats.url,
      prefix,
      name: "wsfex",
      credentials: { user: "wsfex", password: passwords.wsfex },
      logger,
      tracer,
    });
    buses.set("wsfex", slow);
    slow.serve(
      { name: "wsfex" },
      contractsOf(wsfex).map((contract) =>
        bind(contract, async () => {
          await new Promise((resolve) => setTimeout(resolve, 2_500));
          return fail(appError("COMPROBANTE_NOT_FOUND"));
        }),
      ),
    );
    await slow.connection.flush();
    const result = await bus("edge").request(
      wsfex.ultimoComprobanteLast,
      {
        environment: "homologacion",
        representada: "20111111112",
        ptoVta: 1,
        cbteTipo: 19,
      },
      { accountId: "00000000-0000-4000-8000-000000000001" },
    );
    expect(result.ok ? "ok" : result.error.code).toBe("COMPROBANTE_NOT_FOUND");
  });
});
