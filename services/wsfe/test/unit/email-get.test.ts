import type { AccountContext } from "@pasarela/bus";
import { wsfe } from "@pasarela/contracts";
import { capturingLogger } from "@pasarela/testing";
import { describe, expect, it } from "vitest";
import type { ComprobanteKey, EmailRecord } from "../../src/domain/comprobante.js";
import { makeEmailGet } from "../../src/handlers/email-get.js";

/** The repository's `find` over records kept in memory, by the whole key as the table is. */
function emailsHolding(records: [ComprobanteKey, EmailRecord][]) {
  const id = (key: ComprobanteKey) =>
    [key.accountId, key.environment, key.cuit, key.ptoVta, key.cbteTipo, key.cbteNro].join("|");
  const byKey = new Map(records.map(([key, record]) => [id(key), record]));
  const asked: ComprobanteKey[] = [];
  return {
    asked,
    find: (key: ComprobanteKey) => {
      asked.push(key);
      return Promise.resolve(byKey.get(id(key)));
    },
  };
}

const ctx = (accountId: string): AccountContext => ({
  accountId,
  requestId: "req-1",
  subject: wsfe.emailGet.subject,
  deadline: undefined,
  logger: capturingLogger("wsfe").logger,
});
const body = {
  environment: "homologacion",
  representada: "30111111118",
  ptoVta: 7,
  cbteTipo: 19,
  cbteNro: 43,
};
const stored: ComprobanteKey = {
  accountId: "acct-1",
  environment: "homologacion",
  cuit: "30111111118",
  ptoVta: 7,
  cbteTipo: 19,
  cbteNro: 43,
};
const sent: EmailRecord = { to: "compras@importadora.com.uy", status: "sent", error: null };

describe("wsfe.email.get", () => {
  it("answers the account's record of an export voucher in the lookup's shape", async () => {
    const emails = emailsHolding([[stored, sent]]);
    const reply = await makeEmailGet({ emails })(wsfe.emailGet.request.parse(body), ctx("acct-1"));
    expect(reply).toEqual({ ok: true, value: { email: sent } });
    expect(reply.ok && wsfe.emailGet.reply.parse(reply.value)).toEqual({ email: sent });
    expect(emails.asked).toEqual([stored]);
  });

  it("keeps a failed delivery's error", async () => {
    const failed = { to: "x@importadora.com.uy", status: "failed", error: "550 no such user" };
    const emails = emailsHolding([[stored, failed]]);
    const reply = await makeEmailGet({ emails })(wsfe.emailGet.request.parse(body), ctx("acct-1"));
    expect(reply).toEqual({ ok: true, value: { email: failed } });
  });

  it("answers null for another account's voucher and for one without a record", async () => {
    const emails = emailsHolding([[stored, sent]]);
    const handler = makeEmailGet({ emails });
    expect(await handler(wsfe.emailGet.request.parse(body), ctx("acct-2"))).toEqual({
      ok: true,
      value: { email: null },
    });
    expect(
      await handler(wsfe.emailGet.request.parse({ ...body, cbteNro: 44 }), ctx("acct-1")),
    ).toEqual({ ok: true, value: { email: null } });
    expect(wsfe.emailGet.reply.safeParse({ email: null }).success).toBe(true);
  });

  it("takes domestic and export types and refuses a type the gateway does not issue", () => {
    for (const cbteTipo of [1, 11, 19, 20, 21]) {
      expect(wsfe.emailGet.request.safeParse({ ...body, cbteTipo }).success).toBe(true);
    }
    expect(wsfe.emailGet.request.safeParse({ ...body, cbteTipo: 99 }).success).toBe(false);
    expect(wsfe.emailGet.request.safeParse({ ...body, ptoVta: undefined }).success).toBe(false);
  });
});
