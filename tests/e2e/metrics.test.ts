import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  http,
  newAccount,
  registerWsfeIssuer,
  scratch,
  type Account,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { laggingConsumers, parsePrometheus as parse, type Sample } from "../support/prometheus.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";

const env = "homologacion" as const;
const PTO_VTA = 4;

describe("metrics: every service serves Prometheus metrics on its own port", () => {
  let stack: E2EStack;
  let dir: Scratch;
  let account: Account;
  let issuer: Registered;

  beforeAll(async () => {
    // each service's own port is the topology of one process per service (topologies.test.ts
    // has the one process's single endpoint)
    stack = await startE2EStack({ env: { LOG_LEVEL: "info" }, topology: "processes" });
    dir = scratch();
    account = await newAccount(stack, "Medida");
    issuer = await registerWsfeIssuer(stack, dir, account.accountId, env, PTO_VTA);
  });

  afterAll(async () => {
    await stack?.teardown();
    dir?.remove();
  });

  async function scrape(service: string): Promise<Sample[]> {
    const url = stack.metricsUrls[service];
    expect(url, `metrics URL of ${service}`).toBeDefined();
    const response = await fetch(url!);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    return parse(await response.text());
  }
  /** the sum of the samples of `name` whose labels include `labels` (0 when there are none) */
  const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
    samples
      .filter((s) => s.name === name)
      .filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      .reduce((sum, s) => sum + s.value, 0);
  const has = (samples: Sample[], name: string) => samples.some((s) => s.name === name);

  const ultimo = (ptoVta = PTO_VTA) =>
    http(stack, "POST", "/api/wsfe/ultimo-comprobante", account.rw, {
      environment: env,
      representada: issuer.cuit,
      cbteTipo: 11,
      ptoVta,
    });

  it("serves Node's own metrics, labelled with the service, and nothing on other paths", async () => {
    for (const service of ["edge", "billing", "ticket", "catalog", "wsfe", "wsfex", "padron"]) {
      const samples = await scrape(service);
      expect(has(samples, "nodejs_eventloop_lag_seconds"), service).toBe(true);
      expect(has(samples, "process_resident_memory_bytes"), service).toBe(true);
      expect(samples.find((s) => s.name === "nodejs_heap_size_used_bytes")?.labels.service).toBe(
        service,
      );
    }
    const other = await fetch(stack.metricsUrls.edge!.replace(/\/metrics$/, "/"));
    expect(other.status).toBe(404);
  });

  it("moves the request, subject, authority, ticket and issuance series with the calls", async () => {
    const route = { route: "/api/wsfe/ultimo-comprobante" };
    const [edge0, wsfe0, ticket0] = await Promise.all([
      scrape("edge"),
      scrape("wsfe"),
      scrape("ticket"),
    ]);

    expect((await ultimo()).status).toBe(200);
    expect((await ultimo()).status).toBe(200);
    const refused = await ultimo(98);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const { code } = refused.json<{ code: string }>();
    const issued = await http(stack, "POST", "/api/wsfe/facturas", account.rw, {
      environment: env,
      representada: issuer.cuit,
      cbteTipo: 11,
      concepto: 1,
      docTipo: 99,
      docNro: "0",
      condicionIvaReceptorId: 5,
      items: [{ descripcion: "Clase", cantidad: 1, precioUnitario: "100", alicuotaIva: 0 }],
    });
    expect(issued.status, issued.text).toBe(200);

    const [edge, wsfe, ticket, billing] = await Promise.all([
      scrape("edge"),
      scrape("wsfe"),
      scrape("ticket"),
      scrape("billing"),
    ]);
    const moved = (after: Sample[], before: Sample[], name: string, labels = {}) =>
      value(after, name, labels) - value(before, name, labels);

    // the edge: rate, errors by catalogue code, duration, per route pattern
    expect(
      moved(edge, edge0, "pasarela_http_requests_total", { ...route, status: "200", code: "" }),
    ).toBe(2);
    expect(
      moved(edge, edge0, "pasarela_http_requests_total", {
        ...route,
        status: String(refused.status),
        code,
      }),
    ).toBe(1);
    expect(moved(edge, edge0, "pasarela_http_request_duration_seconds_count", route)).toBe(3);
    expect(
      moved(edge, edge0, "pasarela_bus_requests_total", {
        subject: "wsfe.ultimo-comprobante.last",
        outcome: "ok",
      }),
    ).toBe(2);

    // wsfe: the subject it answered, the authority operations with their outcome and duration
    expect(
      moved(wsfe, wsfe0, "pasarela_bus_handled_total", {
        subject: "wsfe.ultimo-comprobante.last",
        outcome: "ok",
      }),
    ).toBe(2);
    expect(
      moved(wsfe, wsfe0, "pasarela_bus_handled_total", {
        subject: "wsfe.ultimo-comprobante.last",
        outcome: code,
      }),
    ).toBe(1);
    const operation = {
      service: "wsfe",
      operation: "FECompUltimoAutorizado",
      environment: env,
    };
    expect(
      moved(wsfe, wsfe0, "pasarela_authority_calls_total", { ...operation, outcome: "ok" }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      moved(wsfe, wsfe0, "pasarela_authority_calls_total", { ...operation, outcome: "err" }),
    ).toBe(1);
    expect(
      moved(wsfe, wsfe0, "pasarela_authority_error_codes_total", {
        service: "wsfe",
        operation: "FECompUltimoAutorizado",
      }),
    ).toBe(1);
    expect(
      moved(wsfe, wsfe0, "pasarela_authority_call_duration_seconds_count", operation),
    ).toBeGreaterThanOrEqual(3);
    expect(
      moved(wsfe, wsfe0, "pasarela_authority_calls_total", {
        service: "wsfe",
        operation: "FECAESolicitar",
        outcome: "ok",
      }),
    ).toBe(1);
    expect(
      moved(wsfe, wsfe0, "pasarela_issuance_total", { environment: env, outcome: "authorized" }),
    ).toBe(1);
    // the voucher went alone: one batch of one
    expect(moved(wsfe, wsfe0, "pasarela_issuance_batch_size_count", { environment: env })).toBe(1);
    expect(
      moved(wsfe, wsfe0, "pasarela_issuance_batch_size_bucket", { environment: env, le: "1" }),
    ).toBe(1);
    // one TA asked of the ticket service, the other calls served from the cache
    expect(
      moved(wsfe, wsfe0, "pasarela_ticket_cache_lookups_total", {
        service: "wsfe",
        result: "miss",
      }),
    ).toBe(1);
    expect(
      moved(wsfe, wsfe0, "pasarela_ticket_cache_lookups_total", { service: "wsfe", result: "hit" }),
    ).toBeGreaterThanOrEqual(3);

    // ticket: one WSAA login, and the certificates that expire soon
    expect(
      moved(ticket, ticket0, "pasarela_authority_calls_total", {
        service: "wsaa",
        operation: "loginCms",
        environment: env,
        outcome: "ok",
      }),
    ).toBe(1);
    expect(
      value(ticket, "pasarela_certificates_expiring", { environment: env, window: "expired" }),
    ).toBe(0);
    expect(has(ticket, "pasarela_certificates_expiring")).toBe(true);

    // billing answered the key verifications
    expect(
      value(billing, "pasarela_bus_handled_total", {
        subject: "billing.key.verify",
        outcome: "ok",
      }),
    ).toBeGreaterThan(0);
  });

  it("reports the lag of every durable consumer, of events and of job queues, caught up after the calls", async () => {
    // the usage of the calls above and the voucher's event reach billing, and nothing waits
    await expect
      .poll(async () =>
        value(await scrape("billing"), "pasarela_jetstream_consumer_pending", {
          consumer: "billing-uso",
        }),
      )
      .toBe(0);
    const [billing, mail] = await Promise.all([scrape("billing"), scrape("mail")]);
    expect(laggingConsumers(billing)).toEqual([
      "billing-cobros on EVENTS",
      "billing-comprobantes on EVENTS",
      "billing-emisiones on EVENTS",
      "billing-uso on EVENTS",
    ]);
    // mail reads an event and two work queues
    expect(laggingConsumers(mail)).toEqual([
      "mail on MAIL_JOBS",
      "mail on MAIL_MENSAJES",
      "mail-emision on EVENTS",
    ]);
    for (const sample of mail.filter((s) => s.name.startsWith("pasarela_jetstream_consumer_"))) {
      expect(sample.value, JSON.stringify(sample.labels)).toBe(0);
    }
  });
});
