import type { AccountContext, Bus } from "@pasarela/bus";
import { billing, pdf, wsfe, type Contract } from "@pasarela/contracts";
import { appError, authorityRejected, fail, ok, type Result } from "@pasarela/errors";
import { createLogger } from "@pasarela/telemetry";
import { describe, expect, it } from "vitest";
import { makeFacturaFlow, type FacturaFlowDeps } from "../../src/flows/factura-issue.js";

const logger = createLogger({ service: "test", level: "silent" });
const ctx: AccountContext = {
  accountId: "cuenta-1",
  requestId: "req-1",
  subject: wsfe.facturaIssue.subject,
  deadline: Date.now() + 60_000,
  logger,
};

const request = wsfe.facturaIssueCallSchema.parse({
  environment: "produccion",
  representada: "20111111112",
  cbteTipo: 11,
  concepto: 1,
  items: [{ descripcion: "x", cantidad: 1, precioUnitario: "100", alicuotaIva: 0 }],
  idempotencyKey: "pedido-1",
  fingerprint: "huella",
  keyScope: "read_write",
});

const reply: wsfe.FacturaIssueReply = {
  resultado: "A",
  cae: "71000000000001",
  caeVencimiento: "20260326",
  cbteNro: 8,
  ptoVta: 3,
  cbteTipo: 11,
  cbteFch: "20260316",
  impTotal: "100.00",
  impNeto: "100.00",
  impIVA: "0.00",
  impTrib: "0.00",
  impTotConc: "0.00",
  impOpEx: "0.00",
  moneda: { id: "PES", cotizacion: "1", mismaMonedaExtranjera: false },
  observaciones: [],
  qr: "https://www.afip.gob.ar/fe/qr/?p=x",
};

interface Sent {
  subject: string;
  body: Record<string, unknown>;
  headers: unknown;
}

/** A bus that answers billing and pdf as scripted and keeps what was asked, in order. */
function fakeBus(answers: Record<string, (body: Record<string, unknown>) => Result<unknown>>) {
  const sent: Sent[] = [];
  const bus: Pick<Bus, "request"> = {
    request: ((contract: Contract, body: unknown, headers: unknown) => {
      sent.push({ subject: contract.subject, body: body as Record<string, unknown>, headers });
      const answer = answers[contract.subject];
      if (!answer) return Promise.reject(new Error(`unexpected ${contract.subject}`));
      return Promise.resolve(answer(body as Record<string, unknown>));
    }) as Bus["request"],
  };
  return { bus, sent };
}

const proceed = () => ok({ decision: "proceed" });
const recorded = () => ok({ recorded: true });
const link = () =>
  ok({
    url: "https://pasarela.example/comprobantes/abc.pdf",
    token: "abc",
    expiresAt: "2026-04-15T00:00:00.000Z",
  });

function flow(
  bus: Pick<Bus, "request">,
  overrides: Partial<FacturaFlowDeps> = {},
): ReturnType<typeof makeFacturaFlow> {
  return makeFacturaFlow({
    bus,
    issueVoucher: () => Promise.resolve(ok(reply)),
    facturaGet: () => Promise.resolve(ok({ state: "not_issued" as const })),
    ...overrides,
  });
}

describe("the issuance flow owned by wsfe", () => {
  it("admits, issues, links the PDF and reports the answer it gives, PDF link included", async () => {
    const { bus, sent } = fakeBus({
      [billing.facturaAdmit.subject]: proceed,
      [pdf.linkCreate.subject]: link,
      [billing.facturaComplete.subject]: recorded,
    });
    const answer = await flow(bus)(request, ctx);
    const factura = {
      ...wsfe.facturaHttpReply(reply),
      pdfUrl: "https://pasarela.example/comprobantes/abc.pdf",
    };
    expect(answer).toEqual(ok({ factura, replayed: false }));
    expect(sent.map((s) => s.subject)).toEqual([
      "billing.factura.admit",
      "pdf.link.create",
      "billing.factura.complete",
    ]);
    expect(sent[0]!.body).toEqual({
      environment: "produccion",
      idempotencyKey: "pedido-1",
      fingerprint: "huella",
    });
    expect(sent[2]!.body).toEqual({
      environment: "produccion",
      outcome: "final",
      answer: { kind: "authorized", factura },
      idempotencyKey: "pedido-1",
    });
    // every hop carries the account, the request id and the call's deadline
    for (const s of sent) {
      expect(s.headers).toEqual({
        accountId: "cuenta-1",
        requestId: "req-1",
        deadline: ctx.deadline,
      });
    }
  });

  it("a replay answers the stored answer and issues nothing", async () => {
    const factura = { ...wsfe.facturaHttpReply(reply), pdfUrl: "https://p.example/c/x.pdf" };
    const rejected = authorityRejected({ observaciones: [], errores: [{ code: 10016, msg: "m" }] });
    let issued = 0;
    const issueVoucher = () => {
      issued++;
      return Promise.resolve(ok(reply));
    };
    const replays = [
      { kind: "authorized" as const, factura },
      { kind: "error" as const, error: rejected },
    ];
    const answers = [];
    for (const stored of replays) {
      const { bus, sent } = fakeBus({
        [billing.facturaAdmit.subject]: () => ok({ decision: "replay", answer: stored }),
      });
      answers.push(await flow(bus, { issueVoucher })(request, ctx));
      expect(sent.map((s) => s.subject)).toEqual(["billing.factura.admit"]);
    }
    expect(answers).toEqual([ok({ factura, replayed: true }), fail(rejected)]);
    expect(issued).toBe(0);
  });

  it("reports a rejection as final, an outage as unknown, a refusal as refused", async () => {
    const cases: [Result<wsfe.FacturaIssueReply>, string][] = [
      [fail(appError("TOTALS_INVALID")), "final"],
      [fail(appError("AUTHORITY_UNAVAILABLE")), "unknown"],
      [fail(appError("SERVICE_UNAVAILABLE")), "unknown"],
      [fail(appError("NO_ACTIVE_CERTIFICATE")), "refused"],
      [fail(appError("UNSUPPORTED_CBTE_TIPO")), "refused"],
    ];
    for (const [result, outcome] of cases) {
      const { bus, sent } = fakeBus({
        [billing.facturaAdmit.subject]: proceed,
        [billing.facturaComplete.subject]: recorded,
      });
      const answer = await flow(bus, { issueVoucher: () => Promise.resolve(result) })(request, ctx);
      expect(answer).toEqual(result);
      const report = sent.find((s) => s.subject === billing.facturaComplete.subject)!;
      expect(report.body.outcome, JSON.stringify(result)).toBe(outcome);
      expect(report.body.answer).toEqual(
        outcome === "final" && !result.ok ? { kind: "error", error: result.error } : undefined,
      );
    }
  });

  it("a refusal of billing is the answer, and nothing is issued or reported", async () => {
    const { bus, sent } = fakeBus({
      [billing.facturaAdmit.subject]: () => fail(appError("QUOTA_FACTURAS_EXHAUSTED")),
    });
    const answer = await flow(bus)(request, ctx);
    expect(answer).toEqual(fail(appError("QUOTA_FACTURAS_EXHAUSTED")));
    expect(sent.map((s) => s.subject)).toEqual(["billing.factura.admit"]);
  });

  it("an attempt of unknown outcome is resolved: the voucher it became, reported for that attempt", async () => {
    const { bus, sent } = fakeBus({
      [billing.facturaAdmit.subject]: () => ok({ decision: "resolve", requestId: "req-0" }),
      [pdf.linkCreate.subject]: () => fail(appError("COMPROBANTE_NOT_FOUND")),
      [billing.facturaComplete.subject]: recorded,
    });
    const facturaGet = () => Promise.resolve(ok({ state: "authorized" as const, reply }));
    const answer = await flow(bus, { facturaGet })(request, ctx);
    // without a link the voucher is answered all the same, without pdfUrl
    expect(answer).toEqual(ok({ factura: wsfe.facturaHttpReply(reply), replayed: false }));
    expect(sent.at(-1)!.body).toMatchObject({ outcome: "final", attempt: "req-0" });
  });

  it("never issued: the first attempt is given back and the voucher issued now, once", async () => {
    let admissions = 0;
    const { bus, sent } = fakeBus({
      [billing.facturaAdmit.subject]: () =>
        ++admissions === 1 ? ok({ decision: "resolve", requestId: "req-0" }) : proceed(),
      [pdf.linkCreate.subject]: link,
      [billing.facturaComplete.subject]: recorded,
    });
    const answer = await flow(bus)(request, ctx);
    expect(answer.ok).toBe(true);
    expect(sent.map((s) => [s.subject, s.body.outcome ?? "", s.body.attempt ?? ""])).toEqual([
      ["billing.factura.admit", "", ""],
      ["billing.factura.complete", "refused", "req-0"],
      ["billing.factura.admit", "", ""],
      ["pdf.link.create", "", ""],
      ["billing.factura.complete", "final", ""],
    ]);
  });

  it("a read-only key is refused before billing is asked", async () => {
    const { bus, sent } = fakeBus({});
    const answer = await flow(bus)({ ...request, keyScope: "read_only" }, ctx);
    expect(answer.ok ? "" : answer.error.code).toBe("READ_ONLY_KEY");
    expect(sent).toEqual([]);
  });
});
