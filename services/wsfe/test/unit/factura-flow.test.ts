import type { AccountContext, Bus } from "@pasarela/bus";
import { billing, pdf, wsfe, type Contract } from "@pasarela/contracts";
import { appError, authorityRejected, fail, ok, type Result } from "@pasarela/errors";
import { createLogger } from "@pasarela/telemetry";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { StoredComprobante } from "../../src/db/repositories/comprobantes.js";
import type { OutcomeEvent } from "../../src/flows/events.js";
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
/** billing applied the event and stores the answer it carries (none for a refusal) */
const recorded = (body: Record<string, unknown>) => {
  const { tipo, event } = body as unknown as OutcomeEvent;
  if (tipo === "autorizado") {
    return ok(event.answer ? { answer: { kind: "authorized", factura: event.answer } } : {});
  }
  if (tipo === "rechazado")
    return ok(event.answer ? { answer: { kind: "error", error: event.answer } } : {});
  return ok(event.error ? { answer: { kind: "error", error: event.error } } : {});
};

/** The voucher as the issuer stored it, in the state it reached. */
const storedAs = (state: "authorized" | "rejected", requestId = "req-1") =>
  ({ id: `comprobante-${state}`, state, requestId }) as unknown as StoredComprobante;

/** Outcome events as wsfe builds them, reduced to what the flow passes on; and those published. */
function fakeEvents() {
  const published: OutcomeEvent[] = [];
  const events: FacturaFlowDeps["events"] = {
    outcomeOf: (stored, answer) =>
      ({
        tipo: stored.state === "authorized" ? "autorizado" : "rechazado",
        event: {
          id: `${stored.id}.${stored.state}`,
          accountId: "cuenta-1",
          requestId: stored.requestId,
          ...(answer?.kind === "authorized" ? { answer: answer.factura } : {}),
          ...(answer?.kind === "error" ? { answer: answer.error } : {}),
        },
      }) as unknown as OutcomeEvent,
    publish: (event) => {
      published.push(event);
      return Promise.resolve(true);
    },
  };
  return { events, published };
}
const link = () =>
  ok({
    url: "https://pasarela.example/comprobantes/abc.pdf",
    token: "abc",
    expiresAt: "2026-04-15T00:00:00.000Z",
  });

function flow(
  bus: Pick<Bus, "request">,
  overrides: Partial<FacturaFlowDeps> = {},
): ReturnType<typeof makeFacturaFlow<wsfe.FacturaIssueCall>> {
  return makeFacturaFlow<wsfe.FacturaIssueCall>({
    bus,
    events: fakeEvents().events,
    issueVoucher: (_request, ctx) => {
      ctx.settled?.(storedAs("authorized"));
      return Promise.resolve(ok(reply));
    },
    facturaGet: () => Promise.resolve(ok({ state: "not_issued" as const })),
    vouchersOfKey: () => Promise.resolve([]),
    ...overrides,
  });
}

describe("the issuance flow owned by wsfe", () => {
  it("admits, issues, links the PDF and hands over its voucher's event, answer and PDF link included", async () => {
    const { bus, sent } = fakeBus({
      [billing.facturaAdmit.subject]: proceed,
      [pdf.linkCreate.subject]: link,
      [billing.facturaSettle.subject]: recorded,
    });
    const { events, published } = fakeEvents();
    const answer = await flow(bus, { events })(request, ctx);
    const factura = {
      ...wsfe.facturaHttpReply(reply),
      pdfUrl: "https://pasarela.example/comprobantes/abc.pdf",
    };
    expect(answer).toEqual(ok({ factura, replayed: false }));
    expect(sent.map((s) => s.subject)).toEqual([
      "billing.factura.admit",
      "pdf.link.create",
      "billing.factura.settle",
    ]);
    expect(sent[0]!.body).toEqual({
      environment: "produccion",
      idempotencyKey: "pedido-1",
      fingerprint: "huella",
    });
    // the event billing gets is the one published on JetStream, carrying the answer given
    expect(sent[2]!.body).toMatchObject({ tipo: "autorizado", event: { answer: factura } });
    expect(published).toEqual([sent[2]!.body]);
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

  it("a repeat of a key in flight waits for that attempt and answers what it ended in", async () => {
    const factura = { ...wsfe.facturaHttpReply(reply), pdfUrl: "https://p.example/c/x.pdf" };
    let asked = 0;
    const { bus, sent } = fakeBus({
      [billing.facturaAdmit.subject]: () =>
        ++asked < 4
          ? fail(appError("IDEMPOTENCY_IN_PROGRESS"))
          : ok({ decision: "replay", answer: { kind: "authorized", factura } }),
    });
    const answer = await flow(bus)(request, { ...ctx, deadline: Date.now() + 20_000 });
    expect(answer).toEqual(ok({ factura, replayed: true }));
    expect(sent.map((s) => s.subject)).toEqual(Array(4).fill("billing.factura.admit"));
  });

  it("a repeat answers 409 once the attempt in flight outlasts half of its own time", async () => {
    const { bus, sent } = fakeBus({
      [billing.facturaAdmit.subject]: () => fail(appError("IDEMPOTENCY_IN_PROGRESS")),
    });
    const started = Date.now();
    const answer = await flow(bus)(request, { ...ctx, deadline: started + 2_000 });
    expect(answer).toEqual(fail(appError("IDEMPOTENCY_IN_PROGRESS")));
    // asked again after 100, 200 and 400 ms; the next pause would end past half of its 2 s
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.length).toBeLessThanOrEqual(4);
  });

  it("ends a rejection as final, an outage as unknown, a refusal as refused", async () => {
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
        [billing.facturaSettle.subject]: recorded,
      });
      const answer = await flow(bus, { issueVoucher: () => Promise.resolve(result) })(request, ctx);
      expect(answer).toEqual(result);
      const report = sent.find((s) => s.subject === billing.facturaSettle.subject)!;
      const { tipo, event } = report.body as unknown as OutcomeEvent;
      expect(tipo).toBe("terminada");
      if (tipo !== "terminada") continue;
      expect(event.outcome, JSON.stringify(result)).toBe(outcome);
      expect(event.id).toBe(wsfe.emisionEventId("req-1", event.outcome));
      expect(event.error).toEqual(outcome === "final" && !result.ok ? result.error : undefined);
    }
  });

  it("an outcome that reached neither JetStream nor billing is handed over again within the call", async () => {
    // NATS moving to another server: the first two hand-overs and publications do not get out
    let refusals = 2;
    const { bus, sent } = fakeBus({
      [billing.facturaAdmit.subject]: proceed,
      [billing.facturaSettle.subject]: (body) =>
        refusals-- > 0 ? fail(appError("SERVICE_UNAVAILABLE")) : recorded(body),
    });
    const published: OutcomeEvent[] = [];
    const events: FacturaFlowDeps["events"] = {
      ...fakeEvents().events,
      publish: (event) => {
        published.push(event);
        return Promise.resolve(published.length > 2);
      },
    };
    const unknown = fail(appError("AUTHORITY_UNAVAILABLE"));
    const answer = await flow(bus, { events, issueVoucher: () => Promise.resolve(unknown) })(
      request,
      ctx,
    );
    expect(answer).toEqual(unknown);
    const handedOver = sent.filter((s) => s.subject === billing.facturaSettle.subject);
    expect(handedOver).toHaveLength(3);
    expect(handedOver.map((s) => (s.body as unknown as OutcomeEvent).event.id)).toEqual(
      Array(3).fill(wsfe.emisionEventId("req-1", "unknown")),
    );
  });

  it("once billing has the outcome the caller is answered, JetStream's acknowledgement not awaited", async () => {
    const { bus } = fakeBus({
      [billing.facturaAdmit.subject]: proceed,
      [pdf.linkCreate.subject]: link,
      [billing.facturaSettle.subject]: recorded,
    });
    const published: OutcomeEvent[] = [];
    // a stream without a leader: the publication neither succeeds nor fails for now
    const events: FacturaFlowDeps["events"] = {
      ...fakeEvents().events,
      publish: (event) => {
        published.push(event);
        return new Promise<boolean>(() => {});
      },
    };
    const answer = await flow(bus, { events })(request, ctx);
    expect(answer.ok && answer.value.factura.cae).toBe(reply.cae);
    expect(published.map((e) => e.tipo)).toEqual(["autorizado"]);
  });

  it("an outcome published on JetStream is not handed over again: billing consumes it", async () => {
    const { bus, sent } = fakeBus({
      [billing.facturaAdmit.subject]: proceed,
      [billing.facturaSettle.subject]: () => fail(appError("SERVICE_UNAVAILABLE")),
    });
    const unknown = fail(appError("AUTHORITY_UNAVAILABLE"));
    expect(await flow(bus, { issueVoucher: () => Promise.resolve(unknown) })(request, ctx)).toEqual(
      unknown,
    );
    expect(sent.filter((s) => s.subject === billing.facturaSettle.subject)).toHaveLength(1);
  });

  it("a voucher the authority rejected ends in its own event, with the 422 answered", async () => {
    const rejected = authorityRejected({ observaciones: [], errores: [{ code: 10016, msg: "m" }] });
    const { bus, sent } = fakeBus({
      [billing.facturaAdmit.subject]: proceed,
      [billing.facturaSettle.subject]: recorded,
    });
    const issueVoucher: FacturaFlowDeps["issueVoucher"] = (_request, c) => {
      c.settled?.(storedAs("rejected"));
      return Promise.resolve(fail(rejected));
    };
    expect(await flow(bus, { issueVoucher })(request, ctx)).toEqual(fail(rejected));
    expect(sent.at(-1)!.body).toMatchObject({ tipo: "rechazado", event: { answer: rejected } });
  });

  it("a refusal of billing is the answer, and nothing is issued or reported", async () => {
    const { bus, sent } = fakeBus({
      [billing.facturaAdmit.subject]: () => fail(appError("QUOTA_FACTURAS_EXHAUSTED")),
    });
    const answer = await flow(bus)(request, ctx);
    expect(answer).toEqual(fail(appError("QUOTA_FACTURAS_EXHAUSTED")));
    expect(sent.map((s) => s.subject)).toEqual(["billing.factura.admit"]);
  });

  it("an attempt of unknown outcome is resolved: the voucher it became, its event for that attempt", async () => {
    const { bus, sent } = fakeBus({
      [billing.facturaAdmit.subject]: () => ok({ decision: "resolve", requestId: "req-0" }),
      [pdf.linkCreate.subject]: () => fail(appError("COMPROBANTE_NOT_FOUND")),
      [billing.facturaSettle.subject]: recorded,
    });
    const facturaGet = () => Promise.resolve(ok({ state: "authorized" as const, reply }));
    const vouchersOfKey = () => Promise.resolve([storedAs("authorized", "req-0")]);
    const answer = await flow(bus, { facturaGet, vouchersOfKey })(request, ctx);
    // without a link the voucher is answered all the same, without pdfUrl
    expect(answer).toEqual(ok({ factura: wsfe.facturaHttpReply(reply), replayed: false }));
    expect(sent.at(-1)!.body).toMatchObject({
      tipo: "autorizado",
      event: { requestId: "req-0", answer: wsfe.facturaHttpReply(reply) },
    });
  });

  it("what the key already replays is answered, when the voucher's event was applied first", async () => {
    const stored = { ...wsfe.facturaHttpReply(reply), pdfUrl: "https://p.example/c/y.pdf" };
    const { bus } = fakeBus({
      [billing.facturaAdmit.subject]: () => ok({ decision: "resolve", requestId: "req-0" }),
      [pdf.linkCreate.subject]: link,
      [billing.facturaSettle.subject]: () =>
        ok({ answer: { kind: "authorized", factura: stored } }),
    });
    const facturaGet = () => Promise.resolve(ok({ state: "authorized" as const, reply }));
    const vouchersOfKey = () => Promise.resolve([storedAs("authorized", "req-0")]);
    const answer = await flow(bus, { facturaGet, vouchersOfKey })(request, ctx);
    expect(answer).toEqual(ok({ factura: stored, replayed: false }));
  });

  it("never issued: the first attempt is given back and the voucher issued now, once", async () => {
    let admissions = 0;
    const { bus, sent } = fakeBus({
      [billing.facturaAdmit.subject]: () =>
        ++admissions === 1 ? ok({ decision: "resolve", requestId: "req-0" }) : proceed(),
      [pdf.linkCreate.subject]: link,
      [billing.facturaSettle.subject]: recorded,
    });
    const answer = await flow(bus)(request, ctx);
    expect(answer.ok).toBe(true);
    const steps = sent.map((s) => {
      const { tipo, event } = s.body as Partial<OutcomeEvent>;
      const outcome = tipo === "terminada" ? event?.outcome : tipo;
      return [s.subject, outcome ?? "", event?.requestId ?? "", event?.id ?? ""];
    });
    expect(steps).toEqual([
      ["billing.factura.admit", "", "", ""],
      // given back under an id of this call's: a giving back of its own may have come first
      ["billing.factura.settle", "refused", "req-0", "wsfe.emision.refused.req-0.req-1"],
      ["billing.factura.admit", "", "", ""],
      ["pdf.link.create", "", "", ""],
      ["billing.factura.settle", "autorizado", "req-1", "comprobante-authorized.authorized"],
    ]);
  });

  it("a read-only key is refused before billing is asked", async () => {
    const { bus, sent } = fakeBus({});
    const answer = await flow(bus)({ ...request, keyScope: "read_only" }, ctx);
    expect(answer.ok ? "" : answer.error.code).toBe("READ_ONLY_KEY");
    expect(sent).toEqual([]);
  });

  describe("the key's lease while the attempt runs", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    /**
     * An attempt admitted with a 3 s lease whose issuance takes `ms`, reading its hold on the
     * key each second; billing answers each hold with `hold`.
     */
    async function attempt(ms: number, hold: () => Result<unknown>) {
      vi.useFakeTimers();
      const { bus, sent } = fakeBus({
        [billing.facturaAdmit.subject]: () => ok({ decision: "proceed", leaseMs: 3_000 }),
        [billing.facturaHold.subject]: hold,
        [pdf.linkCreate.subject]: link,
        [billing.facturaSettle.subject]: recorded,
      });
      const seen: boolean[] = [];
      const issueVoucher: FacturaFlowDeps["issueVoucher"] = async (_request, c) => {
        for (let t = 0; t < ms; t += 1_000) {
          seen.push(c.keyHeld!());
          await vi.advanceTimersByTimeAsync(1_000);
        }
        seen.push(c.keyHeld!());
        c.settled?.(storedAs("authorized"));
        return ok(reply);
      };
      const answer = await flow(bus, { issueVoucher })(request, {
        ...ctx,
        deadline: Date.now() + 60_000,
      });
      const holds = () => sent.filter((s) => s.subject === billing.facturaHold.subject);
      const during = holds().length;
      // the attempt is over: nothing more is asked
      await vi.advanceTimersByTimeAsync(10_000);
      return { answer, seen, holds: holds(), during };
    }

    it("a long attempt extends its key every third of the lease and holds it throughout", async () => {
      const { answer, seen, holds, during } = await attempt(7_000, () => ok({ held: true }));
      expect(answer.ok).toBe(true);
      expect(seen.every(Boolean)).toBe(true);
      expect(during).toBe(7);
      expect(holds).toHaveLength(during);
      expect(holds[0]!.body).toEqual({ idempotencyKey: "pedido-1" });
      expect(holds[0]!.headers).toMatchObject({ accountId: "cuenta-1", requestId: "req-1" });
    });

    it("a key billing no longer holds for the attempt is let go at once", async () => {
      const { seen, during } = await attempt(3_000, () => ok({ held: false }));
      expect(seen).toEqual([true, false, false, false]);
      // told once: it stops asking
      expect(during).toBe(1);
    });

    it("a key it cannot extend is let go a third of the lease before it may lapse", async () => {
      const { seen } = await attempt(4_000, () => fail(appError("SERVICE_UNAVAILABLE")));
      // admitted at 0 with 3 s: held while under 2 s, whatever billing answers after
      expect(seen).toEqual([true, true, false, false, false]);
    });

    it("an admission without a key holds nothing and asks nothing", async () => {
      vi.useFakeTimers();
      const { bus, sent } = fakeBus({
        [billing.facturaAdmit.subject]: proceed,
        [pdf.linkCreate.subject]: link,
        [billing.facturaSettle.subject]: recorded,
      });
      const { idempotencyKey: _key, ...unkeyed } = request;
      const issueVoucher: FacturaFlowDeps["issueVoucher"] = async (_request, c) => {
        await vi.advanceTimersByTimeAsync(5_000);
        expect(c.keyHeld!()).toBe(true);
        return ok(reply);
      };
      expect((await flow(bus, { issueVoucher })(unkeyed, ctx)).ok).toBe(true);
      expect(sent.map((s) => s.subject)).not.toContain(billing.facturaHold.subject);
    });
  });
});
