import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  http,
  newAccount,
  opensslKeyAndCsr,
  register,
  scratch,
  signCsr,
  simDelegate,
  simStats,
  type Account,
  type Environment,
  type ErrorBody,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";

const MINUTE = 60_000;
/** the edge's wait for any API call in this file's stack (API_TIMEOUT_MS) */
const API_TIMEOUT_MS = 10_000;
/** each authority call's own timeout: a login and a WSFE call together outlast the edge */
const AUTHORITY_TIMEOUT_MS = 8_000;
/** each test registers representadas with the operator CLIs, a process per command */
const TEST_TIMEOUT_MS = 180_000;

/**
 * Access tickets over the real processes and the simulator. A ticket the authority
 * refuses is replaced; a replaced certificate stops reaching the authority at once; a slow
 * authority ends as 502 before the edge stops waiting.
 */
describe("access tickets end to end: refused tickets, certificate changes, time budgets", () => {
  let stack: E2EStack;
  let dir: Scratch;
  let account: Account;

  beforeAll(async () => {
    stack = await startE2EStack({
      env: {
        LOG_LEVEL: "info",
        API_TIMEOUT_MS: String(API_TIMEOUT_MS),
        AUTHORITY_TIMEOUT_MS: String(AUTHORITY_TIMEOUT_MS),
      },
    });
    dir = scratch();
    account = await newAccount(stack, "Tickets");
  });

  afterAll(async () => {
    await stack?.teardown();
    dir?.remove();
  });

  const lastVoucher = (who: Registered) =>
    http(stack, "POST", "/api/wsfe/ultimo-comprobante", account.rw, {
      environment: who.environment,
      representada: who.cuit,
      cbteTipo: 11,
      ptoVta: 3,
    });
  const lastExportVoucher = (who: Registered) =>
    http(stack, "POST", "/api/wsfex/ultimo-comprobante", account.rw, {
      environment: who.environment,
      representada: who.cuit,
      cbteTipo: 19,
      ptoVta: 5,
    });
  const logins = async (environment: Environment, alias: string, service = "wsfe") =>
    (await simStats(stack, environment)).logins[`${alias}|${service}`] ?? 0;
  const simSettings = (environment: Environment, ...flags: string[]) =>
    stack.sim("settings", "--environment", environment, ...flags);
  const simFault = (
    environment: Environment,
    service: "wsaa" | "wsfe",
    mode: "none" | "timeout",
    latencyMs = 0,
  ) =>
    stack.sim(
      "fault",
      "--environment",
      environment,
      "--service",
      service,
      "--mode",
      mode,
      "--latency-ms",
      String(latencyMs),
    );

  it(
    "replaces a ticket WSFE refuses for its dates while the gateway's clock counts it valid, logging in once",
    async () => {
      const env = "homologacion";
      const registerOne = () =>
        register(stack, dir, {
          accountId: account.accountId,
          environment: env,
          delegate: ["wsfe"],
          pos: [{ ptoVta: 3, service: "wsfe" }],
        });
      // Both tickets are issued while the authority's clock runs 9 minutes ahead (inside the
      // 10 minutes a TRA allows), then its clock is set 9 minutes behind: for WSFE the tickets
      // now start in the future and it answers 600 "No validaron las fechas del token", while
      // by the gateway's clock they have almost 12 h left. (With 12 h tickets and TRAs of
      // ±10 min, a ticket expired by the authority's clock alone cannot be made without
      // waiting for it; a ticket from the future is refused with the same error.) The
      // certificates are issued with the clock behind, so they are valid in both phases.
      try {
        await simSettings(env, "--clock-offset-ms", String(-9 * MINUTE));
        const [kept, replaced] = await Promise.all([registerOne(), registerOne()]);
        await simSettings(env, "--clock-offset-ms", String(9 * MINUTE));
        for (const who of [kept, replaced]) {
          const first = await lastVoucher(who);
          expect(first.status, first.text).toBe(200);
          expect(await logins(env, who.alias)).toBe(1);
        }
        await simSettings(env, "--clock-offset-ms", String(-9 * MINUTE));

        // WSAA, like the real one, issues no other ticket while the refused one is valid for it:
        // one attempt, then 502 naming the refusal, and no further login while TA_RETRY_AFTER_MS
        for (let i = 0; i < 3; i++) {
          const refused = await lastVoucher(kept);
          expect(refused.status, refused.text).toBe(502);
          expect(refused.json<ErrorBody>().code).toBe("AUTHORITY_UNAVAILABLE");
          expect(refused.json<ErrorBody>().error).toContain("WSFE rechazó el ticket de acceso");
        }
        expect(await logins(env, kept.alias)).toBe(2);

        // once WSAA issues a new ticket while one is valid (the simulator's relaxed rule), the
        // refused ticket is replaced by exactly one login and every query answers again
        await simSettings(env, "--enforce-single-ta", "false");
        for (let i = 0; i < 4; i++) {
          const recovered = await lastVoucher(replaced);
          expect(recovered.status, recovered.text).toBe(200);
        }
        expect(await logins(env, replaced.alias)).toBe(2);
      } finally {
        await simSettings(env, "--clock-offset-ms", "0", "--enforce-single-ta", "true");
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "signs with the new certificate from the first query after a replacement is uploaded, on wsfe and wsfex",
    async () => {
      const env = "produccion";
      const who = await register(stack, dir, {
        accountId: account.accountId,
        environment: env,
        delegate: ["wsfe", "wsfex"],
        pos: [
          { ptoVta: 3, service: "wsfe" },
          { ptoVta: 5, service: "wsfex" },
        ],
      });
      for (const query of [lastVoucher, lastExportVoucher]) {
        const answer = await query(who);
        expect(answer.status, answer.text).toBe(200);
      }
      expect(await logins(env, who.alias, "wsfe")).toBe(1);
      expect(await logins(env, who.alias, "wsfex")).toBe(1);

      // the taxpayer replaces the certificate with a pair made outside, under another alias
      const alias = `${who.alias}-renovado`;
      const { keyFile, csrFile } = await opensslKeyAndCsr(dir, who.cuit, alias);
      const pem = await signCsr(stack, dir, env, readFileSync(csrFile, "utf8"));
      for (const service of ["wsfe", "wsfex"] as const) {
        await simDelegate(stack, env, { cuit: who.cuit, alias, service });
      }
      await stack.admin(
        "certificate",
        "upload",
        "--representada",
        who.representadaId,
        "--cert",
        dir.file("renovado.pem", pem),
        "--key",
        keyFile,
      );

      for (const query of [lastVoucher, lastExportVoucher]) {
        const answer = await query(who);
        expect(answer.status, answer.text).toBe(200);
      }
      // the tickets the gateway held for the old certificate (11 h and more left) were dropped:
      // each service logged in once with the new one, and the old one was not used again
      expect(await logins(env, alias, "wsfe")).toBe(1);
      expect(await logins(env, alias, "wsfex")).toBe(1);
      expect(await logins(env, who.alias, "wsfe")).toBe(1);
      expect(await logins(env, who.alias, "wsfex")).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );

  describe("a slow authority ends as 502 from the layer that waited on it, never as 503", () => {
    const env = "homologacion";
    const registerOne = () =>
      register(stack, dir, {
        accountId: account.accountId,
        environment: env,
        delegate: ["wsfe"],
        pos: [{ ptoVta: 3, service: "wsfe" }],
      });

    it(
      "answers 502 naming WSFE when a slow first login and a hanging WSFE outlast the edge's wait",
      async () => {
        const who = await registerOne();
        // a login that takes 5 s and a WSFE that never answers: 5 s + AUTHORITY_TIMEOUT_MS (8 s)
        // is more than the edge waits (10 s); before the deadline, the edge gave up first: 503
        await simFault(env, "wsaa", "none", 5_000);
        await simFault(env, "wsfe", "timeout");
        try {
          const slow = await lastVoucher(who);
          expect(slow.status, slow.text).toBe(502);
          const error = slow.json<ErrorBody>();
          expect(error.code).toBe("AUTHORITY_UNAVAILABLE");
          expect(error.error).toContain("WSFE");
        } finally {
          await simFault(env, "wsaa", "none");
          await simFault(env, "wsfe", "none");
        }
        // the ticket obtained on the way was kept: the authority is back, no other login
        const back = await lastVoucher(who);
        expect(back.status, back.text).toBe(200);
        expect(await logins(env, who.alias)).toBe(1);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      "answers 502 naming WSAA when WSAA does not answer, and recovers once it does",
      async () => {
        const who = await registerOne();
        await simFault(env, "wsaa", "timeout");
        try {
          const hanging = await lastVoucher(who);
          expect(hanging.status, hanging.text).toBe(502);
          const error = hanging.json<ErrorBody>();
          expect(error.code).toBe("AUTHORITY_UNAVAILABLE");
          expect(error.error).toContain("WSAA");
        } finally {
          await simFault(env, "wsaa", "none");
        }
        // the abandoned login ends by its own timeout; then a new one gets the ticket
        let status = 0;
        const until = Date.now() + 4 * AUTHORITY_TIMEOUT_MS;
        while (status !== 200 && Date.now() < until) {
          const answer = await lastVoucher(who);
          status = answer.status;
          expect([200, 502], answer.text).toContain(status);
        }
        expect(status).toBe(200);
      },
      TEST_TIMEOUT_MS,
    );
  });
});
