import {
  makeControlClient,
  startSimulator,
  type ControlClient,
  type Simulator,
} from "@pasarela/authority-sim";
import type { Bus } from "@pasarela/bus";
import { ticket } from "@pasarela/contracts";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, loginCount, newAccount, startInstance, uniqueAlias } from "./helpers.js";

const CUIT = "20111111112";
const MINUTE = 60_000;

/**
 * A caller reports the TA the authority refused; `ticket` replaces exactly
 * that TA, once, under the login lease, and never turns refusals into a loop of logins.
 */
describe("ticket: a TA the authority refused", () => {
  let infra: FileInfra;
  let sim: Simulator;
  let control: ControlClient;
  let client: Bus;
  const instances: { stop: () => Promise<void> }[] = [];
  const { logger } = capturingLogger("ticket");

  beforeAll(async () => {
    infra = await fileInfra();
    sim = await startSimulator({ port: 0 });
    control = makeControlClient(sim.url);
    for (let i = 0; i < 2; i++) instances.push(await startInstance(infra, sim, logger));
    client = await connectClient(infra, logger);
  });

  afterAll(async () => {
    await client?.close();
    for (const instance of instances) await instance.stop();
    await sim?.close();
    await infra?.cleanup();
  });

  const access = (accountId: string, rejectedToken?: string) =>
    client.request(
      ticket.accessGet,
      { cuit: CUIT, environment: "homologacion", service: "wsfe", rejectedToken },
      { accountId },
    );

  it("replaces the refused TA once for every report of it, and refuses to replace its replacement at once", async () => {
    // the certificate is issued with the authority's clock 9 minutes behind and the TA with
    // it 9 minutes ahead; back 9 minutes behind, WSFE sees a TA that starts in the future
    await control.settings("homologacion", { clockOffsetMs: -9 * MINUTE });
    try {
      const accountId = newAccount();
      const created = await client.request(ticket.representadaCreate, {
        accountId,
        cuit: CUIT,
        environment: "homologacion",
        alias: uniqueAlias("refused"),
      });
      if (!created.ok) throw new Error(created.error.message);
      const { alias, representadaId, csr } = created.value;
      const certificate = await control.issueCertificate("homologacion", csr);
      await control.delegate("homologacion", { cuit: CUIT, alias, service: "wsfe" });
      expect(
        (await client.request(ticket.certificateCreate, { representadaId, certificate })).ok,
      ).toBe(true);
      await control.settings("homologacion", { clockOffsetMs: 9 * MINUTE });
      const first = await access(accountId);
      if (!first.ok) throw new Error(first.error.message);
      expect(await loginCount(control, alias)).toBe(1);

      await control.settings("homologacion", {
        clockOffsetMs: -9 * MINUTE,
        enforceSingleTa: false,
      });
      const refused = ticket.accessTokenDigest(first.value.token);
      // every caller that saw it refused reports it, on both instances at once: one login
      const reports = await Promise.all(
        Array.from({ length: 20 }, () => access(accountId, refused)),
      );
      expect(reports.filter((r) => !r.ok)).toEqual([]);
      const replacements = new Set(reports.map((r) => (r.ok ? r.value.token : "")));
      expect(replacements.size).toBe(1);
      const [replacement] = [...replacements];
      expect(replacement).not.toBe(first.value.token);
      expect(await loginCount(control, alias)).toBe(2);

      // a late report of the old TA gets the replacement, without a login
      const late = await access(accountId, refused);
      expect(late.ok && late.value.token).toBe(replacement);
      // a plain request is answered the replacement
      const plain = await access(accountId);
      expect(plain.ok && plain.value.token).toBe(replacement);

      // the replacement refused at once: no login before TA_RETRY_AFTER_MS, a 502 naming it
      const again = await access(accountId, ticket.accessTokenDigest(replacement!));
      expect(again.ok).toBe(false);
      if (again.ok) return;
      expect(again.error.code).toBe("AUTHORITY_UNAVAILABLE");
      expect(again.error.message).toContain("WSFE rechazó el ticket de acceso vigente");
      expect(await loginCount(control, alias)).toBe(2);
    } finally {
      await control.settings("homologacion", { clockOffsetMs: 0, enforceSingleTa: true });
    }
  });

  it("refuses a malformed report as an invalid field", async () => {
    const answer = await access(newAccount(), "not-a-digest");
    expect(!answer.ok && answer.error.code).toBe("INVALID_FIELD");
  });
});
