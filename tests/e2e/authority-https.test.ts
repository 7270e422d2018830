import { join } from "node:path";
import { freePort, simulatorAuthorityEnv } from "@pasarela/stack";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  http,
  newAccount,
  register,
  scratch,
  type Account,
  type ErrorBody,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";

const env = "homologacion" as const;

/**
 * A stack whose ticket, wsfe and wsfex reach the simulator over HTTPS only (every authority
 * URL is the simulator's https origin), trusting its CA through AUTHORITY_CA_FILE or not.
 */
async function httpsStack(dir: Scratch, trusted: boolean) {
  const httpsPort = await freePort();
  const tlsCaFile = join(dir.dir, "authority-sim-ca.pem");
  const stack = await startE2EStack({
    simulator: { httpsPort, tlsCaFile },
    env: {
      ...simulatorAuthorityEnv(`https://127.0.0.1:${httpsPort}`),
      ...(trusted ? { AUTHORITY_CA_FILE: tlsCaFile } : {}),
      AUTHORITY_TIMEOUT_MS: "5000",
    },
  });
  const account = await newAccount(stack, "TLS");
  const main = await register(stack, dir, {
    accountId: account.accountId,
    environment: env,
    ptoVta: 3,
    delegate: ["wsfe", "wsfex"],
    pos: [
      { ptoVta: 3, service: "wsfe" },
      { ptoVta: 5, service: "wsfex" },
    ],
  });
  return { stack, account, main };
}

const query = (stack: E2EStack, account: Account, main: Registered, path: string, body: object) =>
  http(stack, "POST", path, account.rw, {
    environment: env,
    representada: main.cuit,
    ...body,
  });

describe("the authority over HTTPS (simulator with its own CA)", () => {
  describe("with AUTHORITY_CA_FILE naming the simulator's CA", () => {
    let dir: Scratch;
    let stack: E2EStack;
    let account: Account;
    let main: Registered;

    beforeAll(async () => {
      dir = scratch();
      ({ stack, account, main } = await httpsStack(dir, true));
    });
    afterAll(async () => {
      await stack?.teardown();
      dir?.remove();
    });

    it("logs in (ticket) and queries WSFEv1 and WSFEXv1 over HTTPS: 200", async () => {
      expect(stack.env["WSAA_URL_HOMOLOGACION"]).toMatch(/^https:\/\//);
      const fe = await query(stack, account, main, "/api/wsfe/ultimo-comprobante", {
        cbteTipo: 11,
      });
      expect(fe.status, fe.text).toBe(200);
      expect(fe.json()).toEqual({ cbteNro: 0, ptoVta: 3, cbteTipo: 11 });
      const fex = await query(stack, account, main, "/api/wsfex/ultimo-comprobante", {
        ptoVta: 5,
        cbteTipo: 19,
      });
      expect(fex.status, fex.text).toBe(200);
      expect(fex.json()).toEqual({ cbteNro: 0, ptoVta: 5, cbteTipo: 19 });
    });
  });

  describe("without it", () => {
    let dir: Scratch;
    let stack: E2EStack;
    let account: Account;
    let main: Registered;

    beforeAll(async () => {
      dir = scratch();
      ({ stack, account, main } = await httpsStack(dir, false));
    });
    afterAll(async () => {
      await stack?.teardown();
      dir?.remove();
    });

    it("answers the authority's failure (502, certificate not trusted), and nothing crashes", async () => {
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await query(stack, account, main, "/api/wsfe/ultimo-comprobante", {
          cbteTipo: 11,
        });
        expect(response.status, response.text).toBe(502);
        const body = response.json<ErrorBody>();
        expect(body.code).toBe("AUTHORITY_UNAVAILABLE");
        expect(body.error).toMatch(/^La AFIP no respondió correctamente/);
        expect(body.error).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|certificate/);
      }
      const ready = await http(stack, "GET", "/readyz", undefined);
      expect(ready.status, ready.text).toBe(200);
      expect(stack.output()).not.toMatch(/exited with code|uncaught/i);
    });
  });
});
