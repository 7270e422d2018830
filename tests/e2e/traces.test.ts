import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  newAccount,
  registerWsfeIssuer,
  scratch,
  type Account,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../support/otlp.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { eventually, sleep } from "../support/wait.js";

const env = "homologacion" as const;
const PTO_VTA = 3;
/** a point of sale the authority never enabled: FECompUltimoAutorizado answers an Err */
const UNKNOWN_PTO_VTA = 98;
const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;
const ERROR = 2;

/** A W3C traceparent of a fresh trace, so the test knows which spans are its own. */
function freshTrace(): { traceId: string; traceparent: string } {
  const traceId = randomBytes(16).toString("hex");
  return { traceId, traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01` };
}

describe("traces: one tree per API call, from the edge through NATS to the authority", () => {
  let receiver: OtlpReceiver;
  let stack: E2EStack;
  let dir: Scratch;
  let account: Account;
  let issuer: Registered;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    stack = await startE2EStack({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        // export quickly: the test waits for the spans rather than for the default 5 s batches
        OTEL_BSP_SCHEDULE_DELAY: "200",
        LOG_LEVEL: "info",
      },
    });
    dir = scratch();
    account = await newAccount(stack, "Trazada");
    issuer = await registerWsfeIssuer(stack, dir, account.accountId, env, PTO_VTA);
  });

  afterAll(async () => {
    await stack?.teardown();
    await receiver?.close();
    dir?.remove();
  });

  const post = async (path: string, body: unknown, traceparent: string) => {
    const response = await fetch(`${stack.edgeUrl}${path}`, {
      method: "POST",
      headers: { authorization: account.rw, "content-type": "application/json", traceparent },
      body: JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  };

  /** The spans of one trace, once every name in `names` has arrived. */
  async function traceWith(traceId: string, names: string[]): Promise<ReceivedSpan[]> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const spans = receiver.spans.filter((s) => s.traceId === traceId);
      if (names.every((name) => spans.some((s) => s.name === name))) return spans;
      if (Date.now() > deadline) {
        throw new Error(
          `missing spans ${names.filter((n) => !spans.some((s) => s.name === n)).join(", ")}; ` +
            `got ${spans.map((s) => `${s.service}:${s.name}`).join(", ")}`,
        );
      }
      await sleep(100);
    }
  }

  const one = (spans: ReceivedSpan[], name: string, service?: string) => {
    const found = spans.filter((s) => s.name === name && (!service || s.service === service));
    expect(found.map((s) => `${s.service}:${s.name}`)).toHaveLength(1);
    return found[0]!;
  };
  const parentOf = (spans: ReceivedSpan[], span: ReceivedSpan) =>
    spans.find((s) => s.spanId === span.parentSpanId);
  /** `span` descends from `ancestor` through parent links within the trace */
  const descends = (spans: ReceivedSpan[], span: ReceivedSpan, ancestor: ReceivedSpan) => {
    for (let at = parentOf(spans, span); at; at = parentOf(spans, at)) {
      if (at.spanId === ancestor.spanId) return true;
    }
    return false;
  };

  /** No attribute names or carries a credential: token, sign, keys, secrets, the API key. */
  function expectNoSecrets(spans: ReceivedSpan[]) {
    const apiSecret = account.rw.replace(/^Bearer /, "");
    for (const span of spans) {
      for (const [key, value] of Object.entries(span.attributes)) {
        expect(key, `${span.name} ${key}`).not.toMatch(
          /token|sign|secret|password|authorization|cookie|private|cms/i,
        );
        const text = JSON.stringify(value);
        expect(text, `${span.name} ${key}`).not.toContain(apiSecret);
        // a TA's token and sign are base64 of XML; certificates and keys are PEM
        expect(text, `${span.name} ${key}`).not.toMatch(/PD94bWwg|BEGIN |MII[A-Za-z0-9+/]{20}/);
      }
    }
  }

  it("an issuance: edge → wsfe → ticket → WSAA and WSFEv1, with who, what and the CAE", async () => {
    const { traceId, traceparent } = freshTrace();
    const answer = await post(
      "/api/wsfe/facturas",
      {
        environment: env,
        representada: issuer.cuit,
        cbteTipo: 11,
        concepto: 1,
        docTipo: 99,
        docNro: "0",
        condicionIvaReceptorId: 5,
        items: [{ descripcion: "Clase", cantidad: 1, precioUnitario: "1500", alicuotaIva: 0 }],
      },
      traceparent,
    );
    expect(answer.status, answer.text).toBe(200);
    const issued = JSON.parse(answer.text) as { cae: string; cbteNro: number };

    const spans = await traceWith(traceId, [
      "POST /api/wsfe/facturas",
      "wsfe.factura.issue send",
      "wsfe.factura.issue process",
      "ticket.access.get process",
      "wsaa loginCms",
      "wsfe FECAESolicitar",
      "evt.wsfe.comprobante.autorizado publish",
    ]);

    const edge = one(spans, "POST /api/wsfe/facturas", "edge");
    expect(edge.kind).toBe(SERVER);
    expect(edge.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.route": "/api/wsfe/facturas",
      "http.response.status_code": 200,
      "pasarela.account_id": account.accountId,
      "pasarela.environment": env,
      "pasarela.representada": issuer.cuit,
    });

    // key verification aside, the edge makes one NATS request: wsfe owns the issuance from there
    const natsChildren = spans.filter(
      (s) =>
        s.parentSpanId === edge.spanId &&
        s.kind === CLIENT &&
        s.attributes["messaging.system"] === "nats" &&
        s.attributes["messaging.destination.name"] !== "billing.key.verify",
    );
    expect(natsChildren.map((s) => s.name)).toEqual(["wsfe.factura.issue send"]);

    const send = one(spans, "wsfe.factura.issue send", "edge");
    expect(send.kind).toBe(CLIENT);
    expect(send.parentSpanId).toBe(edge.spanId);
    expect(send.attributes).toMatchObject({
      "messaging.system": "nats",
      "messaging.destination.name": "wsfe.factura.issue",
      "messaging.operation.type": "send",
    });
    const wsfe = one(spans, "wsfe.factura.issue process", "wsfe");
    expect(wsfe.kind).toBe(SERVER);
    expect(wsfe.parentSpanId).toBe(send.spanId);
    expect(wsfe.attributes).toMatchObject({
      "messaging.operation.type": "process",
      "pasarela.account_id": account.accountId,
      "pasarela.cbte_nro": issued.cbteNro,
      "pasarela.cae": issued.cae,
      // it went to the authority alone
      "pasarela.batch_size": 1,
    });

    const ticket = one(spans, "ticket.access.get process", "ticket");
    expect(descends(spans, ticket, wsfe)).toBe(true);
    const login = one(spans, "wsaa loginCms", "ticket");
    expect(login.kind).toBe(CLIENT);
    expect(descends(spans, login, ticket)).toBe(true);
    expect(login.attributes).toMatchObject({
      "rpc.system": "soap",
      "rpc.service": "wsaa",
      "rpc.method": "loginCms",
      "pasarela.environment": env,
      "server.address": "127.0.0.1",
      "http.response.status_code": 200,
    });

    const solicitar = one(spans, "wsfe FECAESolicitar", "wsfe");
    expect(solicitar.kind).toBe(CLIENT);
    expect(descends(spans, solicitar, wsfe)).toBe(true);
    expect(solicitar.attributes).toMatchObject({
      "rpc.service": "wsfe",
      "rpc.method": "FECAESolicitar",
      "pasarela.environment": env,
      "http.response.status_code": 200,
    });
    expect(solicitar.status).not.toBe(ERROR);

    // the database work: wsfe stored the voucher inside the issuance's trace, values unrecorded
    const stored = spans.filter(
      (s) =>
        s.service === "wsfe" &&
        s.attributes["db.system.name"] === "postgresql" &&
        s.attributes["db.collection.name"] === "comprobantes" &&
        s.attributes["db.operation.name"] === "INSERT",
    );
    expect(stored.length, spans.map((s) => s.name).join(", ")).toBeGreaterThan(0);
    for (const span of stored) {
      expect(span.kind).toBe(CLIENT);
      expect(span.attributes["db.namespace"]).toBe("wsfe");
      expect(descends(spans, span, wsfe)).toBe(true);
      expect(String(span.attributes["db.query.text"])).not.toContain(issuer.cuit);
    }

    const published = one(spans, "evt.wsfe.comprobante.autorizado publish", "wsfe");
    expect(published.kind).toBe(PRODUCER);
    expect(descends(spans, published, wsfe)).toBe(true);

    // the durable consumers of the event: mail reads it alone, in the producer's trace;
    // billing reads it in a batch whose span links to every producer
    const linksTo = (span: ReceivedSpan) =>
      span.links.some((l) => l.traceId === traceId && l.spanId === published.spanId);
    const consumed = await eventually("the consumers' spans of the event", () => {
      const mailSpan = receiver.spans.find(
        (s) => s.service === "mail" && s.kind === CONSUMER && linksTo(s),
      );
      const billingSpan = receiver.spans.find(
        (s) => s.service === "billing" && s.kind === CONSUMER && linksTo(s),
      );
      return mailSpan && billingSpan ? { mailSpan, billingSpan } : undefined;
    });
    expect(consumed.mailSpan.name).toBe("evt.wsfe.comprobante.autorizado process");
    expect(consumed.mailSpan.traceId).toBe(traceId);
    expect(consumed.mailSpan.parentSpanId).toBe(published.spanId);
    expect(consumed.mailSpan.attributes).toMatchObject({
      "messaging.system": "nats",
      "messaging.operation.type": "process",
      "messaging.message.delivery_count": 1,
    });
    expect(consumed.billingSpan.name).toMatch(/^evt\.wsfe\.comprobante\..* process$/);
    expect(consumed.billingSpan.status).not.toBe(ERROR);

    expectNoSecrets(spans);
  });

  it("a failing query: the authority's error code on its span, the catalogue code up the tree", async () => {
    const { traceId, traceparent } = freshTrace();
    const answer = await post(
      "/api/wsfe/ultimo-comprobante",
      { environment: env, representada: issuer.cuit, cbteTipo: 11, ptoVta: UNKNOWN_PTO_VTA },
      traceparent,
    );
    expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
    const { code } = JSON.parse(answer.text) as { code: string };

    const spans = await traceWith(traceId, [
      "POST /api/wsfe/ultimo-comprobante",
      "wsfe.ultimo-comprobante.last process",
      "wsfe FECompUltimoAutorizado",
    ]);
    const edge = one(spans, "POST /api/wsfe/ultimo-comprobante", "edge");
    expect(edge.attributes).toMatchObject({
      "http.response.status_code": answer.status,
      "pasarela.error_code": code,
    });
    const wsfe = one(spans, "wsfe.ultimo-comprobante.last process", "wsfe");
    expect(wsfe.attributes["pasarela.error_code"]).toBe(code);
    const authority = one(spans, "wsfe FECompUltimoAutorizado", "wsfe");
    expect(descends(spans, authority, wsfe)).toBe(true);
    expect(authority.attributes["pasarela.authority.error_codes"]).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\d+$/)]),
    );
    expectNoSecrets(spans);
  });
});
