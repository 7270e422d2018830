import { randomUUID } from "node:crypto";
import {
  makeControlClient,
  startSimulator,
  type ControlClient,
  type Simulator,
} from "@pasarela/authority-sim";
import type { Bus } from "@pasarela/bus";
import { ticket } from "@pasarela/contracts";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, loginCount, newAccount, startInstance, uniqueAlias } from "./helpers.js";

const CUIT = "20111111112";
// under the helper instance's AUTHORITY_TIMEOUT_MS (5 s): slow, but answering
const SLOW_WSAA_MS = 3_000;

/**
 * A login in progress must not pin a database connection for the length of
 * the WSAA call, or a burst of first logins starves every lookup behind them.
 */
describe("ticket: logins in flight leave the database pool to lookups", () => {
  let infra: FileInfra;
  let sim: Simulator;
  let control: ControlClient;
  let client: Bus;
  let instance: { stop: () => Promise<void> };
  const { logger } = capturingLogger("ticket");

  beforeAll(async () => {
    infra = await fileInfra();
    sim = await startSimulator({ port: 0 });
    control = makeControlClient(sim.url);
    // one instance with the default pool of 10 connections
    instance = await startInstance(infra, sim, logger);
    client = await connectClient(infra, logger);
  });

  afterAll(async () => {
    await client?.close();
    await instance?.stop();
    await sim?.close();
    await infra?.cleanup();
  });

  async function registered() {
    const accountId = newAccount();
    const created = await client.request(ticket.representadaCreate, {
      accountId,
      cuit: CUIT,
      environment: "homologacion",
      alias: uniqueAlias("lease"),
    });
    if (!created.ok) throw new Error(created.error.message);
    const { alias, representadaId, csr } = created.value;
    const certificate = await control.issueCertificate("homologacion", csr);
    await control.delegate("homologacion", { cuit: CUIT, alias, service: "wsfe" });
    const uploaded = await client.request(ticket.certificateCreate, {
      representadaId,
      certificate,
    });
    if (!uploaded.ok) throw new Error(uploaded.error.message);
    return { accountId, alias };
  }

  const access = (accountId: string) =>
    client.request(
      ticket.accessGet,
      { cuit: CUIT, environment: "homologacion", service: "wsfe" },
      { accountId },
    );

  const loginsArrived = async () => (await control.stats("homologacion")).requests.loginCms ?? 0;

  it(
    "answers a ticketed representada while 20 certificates wait on a slow WSAA",
    { timeout: 120_000 },
    async () => {
      const ready = await registered();
      expect((await access(ready.accountId)).ok).toBe(true);
      // one at a time: 20 RSA keys generated at once on a loaded machine outlast the request
      const fresh: Awaited<ReturnType<typeof registered>>[] = [];
      for (let i = 0; i < 20; i++) fresh.push(await registered());

      const before = await loginsArrived();
      await control.setFault("homologacion", {
        service: "wsaa",
        mode: "none",
        latencyMs: SLOW_WSAA_MS,
      });
      let settled = 0;
      try {
        const logins = fresh.map((f) =>
          access(f.accountId).finally(() => {
            settled++;
          }),
        );
        // more logins reached the authority than the pool has connections: were each one
        // holding a connection for its call, the pool would be exhausted from here on
        const deadline = Date.now() + 30_000;
        while ((await loginsArrived()) - before < 10 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect((await loginsArrived()) - before).toBeGreaterThanOrEqual(10);
        expect(settled).toBe(0);

        for (let i = 0; i < 3; i++) {
          const served = await access(ready.accountId);
          expect(served.ok ? "ok" : served.error).toBe("ok");
        }
        // the lookups were answered while every login was still waiting on the authority
        expect(settled).toBe(0);

        const answers = await Promise.all(logins);
        expect(answers.filter((a) => !a.ok)).toEqual([]);
      } finally {
        await control.setFault("homologacion", { service: "wsaa", mode: "none", latencyMs: 0 });
      }
      for (const f of fresh) expect(await loginCount(control, f.alias)).toBe(1);
    },
  );

  it("takes over the login of an instance that died holding it, once its lease runs out", async () => {
    const { accountId, alias } = await registered();
    const sql = postgres(infra.databaseUrl, { max: 1 });
    try {
      // an instance took the login and died: its lease stays on the row until it expires
      const [certificate] = await sql<{ fingerprint: string }[]>`
        select c.fingerprint from ticket.certificates c
        join ticket.representadas r on r.id = c.representada_id
        where r.account_id = ${accountId} and c.status = 'active'`;
      await sql`
        insert into ticket.access_tickets
          (environment, fingerprint, service, login_owner, login_lease_until)
        values ('homologacion', ${certificate!.fingerprint}, 'wsfe', ${randomUUID()},
          now() + interval '2 seconds')`;
    } finally {
      await sql.end();
    }
    const answer = await access(accountId);
    expect(answer.ok ? "ok" : answer.error).toBe("ok");
    expect(await loginCount(control, alias)).toBe(1);
  });

  it("answers 502 naming WSAA by the caller's deadline, and keeps the ticket the login brings later", async () => {
    const { accountId, alias } = await registered();
    await control.setFault("homologacion", {
      service: "wsaa",
      mode: "none",
      latencyMs: SLOW_WSAA_MS,
    });
    try {
      const late = await client.request(
        ticket.accessGet,
        { cuit: CUIT, environment: "homologacion", service: "wsfe" },
        { accountId, deadline: Date.now() + 1_500 },
      );
      expect(late.ok).toBe(false);
      if (late.ok) return;
      expect(late.error.code).toBe("AUTHORITY_UNAVAILABLE");
      expect(late.error.message).toContain("WSAA no entregó el ticket de acceso de wsfe");
      // the login went on: its ticket is stored and answered, without a second login
      await expect.poll(async () => (await access(accountId)).ok, { timeout: 20_000 }).toBe(true);
    } finally {
      await control.setFault("homologacion", { service: "wsaa", mode: "none", latencyMs: 0 });
    }
    expect(await loginCount(control, alias)).toBe(1);
  });
});
