import { makeWsfexAdapter } from "@pasarela/authority";
import { asmxAnswer, fakeFetch, fakeTickets, xml } from "@pasarela/authority/testing";
import type { AccountContext, Bus } from "@pasarela/bus";
import { wsfe, wsfex } from "@pasarela/contracts";
import { appError, fail, ok, type Result } from "@pasarela/errors";
import { capturingLogger } from "@pasarela/testing";
import { describe, expect, it } from "vitest";
import { makeComprobanteGet } from "../../src/handlers/comprobante-get.js";

const NS = "http://ar.gov.afip.dif.fexv1/";
const OK =
  "<FEXErr><ErrCode>0</ErrCode><ErrMsg>OK</ErrMsg></FEXErr><FEXEvents><EventCode>0</EventCode><EventMsg>Ok</EventMsg></FEXEvents>";
const FOUND = `<FEXResultGet><Id>81</Id><Cbte_tipo>19</Cbte_tipo><Punto_vta>7</Punto_vta><Cbte_nro>43</Cbte_nro><Cae>76123456789012</Cae><Resultado>A</Resultado></FEXResultGet>${OK}`;
const NOT_FOUND =
  "<FEXResultGet><Id>0</Id><Cbte_tipo>0</Cbte_tipo></FEXResultGet><FEXErr><ErrCode>1020</ErrCode><ErrMsg>Comprobante inexistente</ErrMsg></FEXErr>";
const urls = { homologacion: "http://homo.test/wsfexv1", produccion: "http://prod.test/wsfexv1" };
const key = {
  environment: "homologacion" as const,
  representada: "30111111118",
  ptoVta: 7,
  cbteTipo: 19,
  cbteNro: 43,
};
const record = { to: "compras@importadora.com.uy", status: "sent", error: null };

type EmailAnswer = Result<wsfe.EmailGetReply> | Error;

/**
 * The handler over the real adapter (the authority answering `inner` to FEXGetCMP) and a bus
 * whose wsfe.email.get answers `email`; `gate` lets a test hold either side until the other
 * has been asked.
 */
function handlerWith(
  inner: string,
  email: EmailAnswer,
  gate: { beforeAuthority?: Promise<void>; beforeEmail?: Promise<void> } = {},
) {
  const asked: { subject: string; body: unknown; options: unknown }[] = [];
  const { fetch, sent } = fakeFetch(async () => {
    await gate.beforeAuthority;
    return xml(asmxAnswer(NS, "FEXGetCMP", inner));
  });
  const bus: Pick<Bus, "request"> = {
    request: (async (contract: { subject: string }, body: unknown, options: unknown) => {
      asked.push({ subject: contract.subject, body, options });
      await gate.beforeEmail;
      if (email instanceof Error) throw email;
      return email;
    }) as Bus["request"],
  };
  const adapter = makeWsfexAdapter({ urls, timeoutMs: 1_000, tickets: fakeTickets(), fetch });
  const { logger, lines } = capturingLogger();
  const ctx: AccountContext = {
    accountId: "acct-1",
    requestId: "req-1",
    subject: wsfex.comprobanteGet.subject,
    deadline: Date.now() + 10_000,
    logger,
  };
  const handler = makeComprobanteGet({ wsfex: adapter, bus });
  const run = () => handler(wsfex.comprobanteGet.request.parse(key), ctx);
  return { run, asked, sent, lines, ctx };
}

const warnings = (lines: string[]) =>
  lines
    .map((line) => JSON.parse(line) as { level: string; msg: string; code?: string })
    .filter((line) => line.level === "warn");

describe("wsfex.comprobante.get with the voucher's e-mail", () => {
  it("adds wsfe's record as email, asking it for the account with the five fields", async () => {
    const { run, asked, ctx } = handlerWith(FOUND, ok({ email: record }));
    const reply = await run();
    expect(reply.ok).toBe(true);
    if (!reply.ok) return;
    expect(reply.value).toMatchObject({ found: true, email: record });
    expect(reply.value.found && reply.value.comprobante.FEXGetCMPResult).toHaveProperty(
      "FEXResultGet",
    );
    expect(wsfex.comprobanteGet.reply.parse(reply.value)).toEqual(reply.value);
    expect(asked).toEqual([
      {
        subject: wsfe.emailGet.subject,
        body: key,
        options: { accountId: "acct-1", requestId: "req-1", deadline: ctx.deadline },
      },
    ]);
    expect(wsfe.emailGet.request.safeParse(asked[0]!.body).success).toBe(true);
  });

  it("carries a failed delivery's error text as it is", async () => {
    const failed = {
      to: "x@importadora.com.uy",
      status: "failed",
      error: "550 mailbox unavailable",
    };
    const { run } = handlerWith(FOUND, ok({ email: failed }));
    const reply = await run();
    expect(reply.ok && reply.value.found && reply.value.email).toEqual(failed);
  });

  it("has no email member when wsfe keeps no record", async () => {
    const { run } = handlerWith(FOUND, ok({ email: null }));
    const reply = await run();
    expect(reply.ok && reply.value.found).toBe(true);
    expect(reply.ok && "email" in reply.value).toBe(false);
  });

  it("asks the authority and wsfe at once", async () => {
    let emailAsked!: () => void;
    let authorityAsked!: () => void;
    const beforeAuthority = new Promise<void>((resolve) => (emailAsked = resolve));
    const beforeEmail = new Promise<void>((resolve) => (authorityAsked = resolve));
    // each side answers only once the other was asked: one after the other never finishes
    const { run, asked, sent } = handlerWith(FOUND, ok({ email: record }), {
      beforeAuthority,
      beforeEmail,
    });
    const watch = setInterval(() => {
      if (asked.length > 0) emailAsked();
      if (sent.length > 0) authorityAsked();
    }, 5);
    try {
      const reply = await Promise.race([
        run(),
        new Promise<"sequential">((resolve) => setTimeout(() => resolve("sequential"), 2_000)),
      ]);
      expect(reply).not.toBe("sequential");
      expect(reply !== "sequential" && reply.ok && reply.value.found && reply.value.email).toEqual(
        record,
      );
    } finally {
      clearInterval(watch);
    }
  });

  it.each([
    ["an unavailable wsfe", fail(appError("SERVICE_UNAVAILABLE")), "SERVICE_UNAVAILABLE"],
    ["an error from wsfe", fail(appError("INTERNAL")), "INTERNAL"],
    ["a throwing bus", new Error("connection closed"), undefined],
  ] as const)(
    "answers the authority's voucher without email, with a warning, on %s",
    async (_, answer, code) => {
      const { run, lines } = handlerWith(FOUND, answer);
      const reply = await run();
      expect(reply.ok && reply.value.found).toBe(true);
      expect(reply.ok && "email" in reply.value).toBe(false);
      const warned = warnings(lines).filter((line) => line.msg.includes("e-mail record"));
      expect(warned).toHaveLength(1);
      if (code) expect(warned[0]!.code).toBe(code);
    },
  );

  it("answers not found (1020) without email even when wsfe has a record", async () => {
    const { run } = handlerWith(NOT_FOUND, ok({ email: record }));
    expect(await run()).toEqual({ ok: true, value: { found: false, comprobante: null } });
  });

  it("passes the authority's failure through whatever wsfe answers", async () => {
    const { run } = handlerWith(
      "<FEXErr><ErrCode>501</ErrCode><ErrMsg>Error interno de base de datos</ErrMsg></FEXErr>",
      ok({ email: record }),
    );
    const reply = await run();
    expect(!reply.ok && reply.error.code).toBe("AUTHORITY_UNAVAILABLE");
  });
});

describe("wsfex.comprobante.get reply", () => {
  it("takes email only on a found voucher and in the domestic shape", () => {
    const found = { found: true, comprobante: { FEXGetCMPResult: {} } };
    expect(wsfex.comprobanteReplySchema.safeParse({ ...found, email: record }).success).toBe(true);
    expect(
      wsfex.comprobanteReplySchema.safeParse({ ...found, email: { to: "a@b.com" } }).success,
    ).toBe(false);
    expect(
      wsfex.comprobanteReplySchema.safeParse({ found: false, comprobante: null, email: record })
        .success,
    ).toBe(false);
  });
});
