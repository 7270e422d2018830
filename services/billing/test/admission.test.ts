import { randomUUID } from "node:crypto";
import { connectBus, type Bus } from "@pasarela/bus";
import { billing, wsfe, type Environment } from "@pasarela/contracts";
import { startTracing } from "@pasarela/telemetry";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, startBilling } from "../src/index.js";

const HOUR = 3_600_000;

/**
 * Issuance admission against real NATS and PostgreSQL, with billing's clock in the test's
 * hands: quota per period, the rejection cap's rolling hour and Idempotency-Key expiry.
 */
describe("billing: admission of issuances (quota, rejection cap, Idempotency-Key)", () => {
  let infra: FileInfra;
  let client: Bus;
  let stop: () => Promise<void>;
  let sweep: () => Promise<void>;
  let clock = Date.now();
  const { logger, lines } = capturingLogger("billing");

  beforeAll(async () => {
    infra = await fileInfra();
    const config = loadConfig({
      NATS_URL: infra.natsUrl,
      NATS_PREFIX: infra.prefix,
      DATABASE_URL: infra.databaseUrl,
      CURSOR_KEY: "Y3Vyc29yLXRlc3Qta2V5LWN1cnNvci10ZXN0LWtleSE=",
      API_KEY_PEPPER: "test-pepper-test-pepper-test-pepper-0123",
      QUOTA_RESERVATION_TTL_MS: "60000",
    });
    const service = await startBilling(config, logger, { now: () => new Date(clock) });
    stop = service.stop;
    sweep = service.deps.sweep;
    client = await connectBus({
      url: infra.natsUrl,
      prefix: infra.prefix,
      name: "test",
      logger,
      tracer: startTracing({ service: "test" }).tracer,
    });
  });

  afterAll(async () => {
    await client?.close();
    await stop?.();
    await infra?.cleanup();
  });

  const value = <T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }) => {
    if (!result.ok) throw new Error(result.error.message);
    return result.value;
  };

  async function account(plan?: { facturas: number; padrones?: number; cap?: number }) {
    const { accountId } = value(await client.request(billing.accountCreate, { name: "Cuenta" }));
    if (plan) {
      const name = `p-${randomUUID().slice(0, 8)}`;
      value(
        await client.request(billing.planCreate, {
          name,
          facturas: plan.facturas,
          padrones: plan.padrones ?? 10,
          ...(plan.cap === undefined ? {} : { rejectionCapPerHour: plan.cap }),
        }),
      );
      value(await client.request(billing.planAssign, { accountId, plan: name }));
    }
    return accountId;
  }

  const admit = (
    accountId: string,
    environment: Environment,
    key?: { key: string; fingerprint: string },
    requestId: string = randomUUID(),
  ) =>
    client.request(
      billing.facturaAdmit,
      {
        environment,
        ...(key ? { idempotencyKey: key.key, fingerprint: key.fingerprint } : {}),
      },
      { accountId, requestId },
    );

  const reply: wsfe.FacturaIssueReply = {
    resultado: "A",
    cae: "74123456789012",
    caeVencimiento: "20261202",
    cbteNro: 12,
    ptoVta: 3,
    cbteTipo: 11,
    cbteFch: "20261122",
    impTotal: "1000.00",
    impNeto: "1000.00",
    impIVA: "0.00",
    impTrib: "0.00",
    impTotConc: "0.00",
    impOpEx: "0.00",
    moneda: { id: "PES", cotizacion: "1", mismaMonedaExtranjera: false },
    observaciones: [],
    qr: "https://www.afip.gob.ar/fe/qr/?p=e30=",
  };
  const outcome = (accountId: string, requestId: string, key: string | null) => ({
    version: 1 as const,
    comprobanteId: randomUUID(),
    accountId,
    environment: "produccion" as const,
    representada: "20111111112",
    ptoVta: 3,
    cbteTipo: 11,
    cbteNro: 12,
    cbteFch: "20261122",
    totales: {
      impTotal: "1000.00",
      impNeto: "1000.00",
      impIVA: "0.00",
      impTrib: "0.00",
      impTotConc: "0.00",
      impOpEx: "0.00",
    },
    moneda: { id: "PES", cotizacion: "1" },
    requestId,
    idempotencyKey: key,
    occurredAt: new Date(clock).toISOString(),
  });

  /**
   * The outcome event of an attempt answered with `status` (what the edge answers), handed
   * over as the issuance flow does: a 200 is its voucher's `autorizado`, anything else the
   * attempt's `terminada` (final for a 422, unknown for a 5xx, refused otherwise).
   */
  const complete = (
    accountId: string,
    requestId: string,
    environment: Environment,
    answer: { status: number; body?: wsfe.FacturaHttpReply; code?: string; key?: string },
  ) => {
    const common = {
      version: 1 as const,
      accountId,
      environment,
      requestId,
      idempotencyKey: answer.key ?? null,
      occurredAt: new Date(clock).toISOString(),
    };
    if (answer.status === 200) {
      const event = {
        ...outcome(accountId, requestId, answer.key ?? null),
        environment,
        cae: reply.cae,
        caeVencimiento: reply.caeVencimiento,
        observaciones: [],
        reply,
        answer: answer.body ?? wsfe.facturaHttpReply(reply),
      };
      return client.request(
        billing.facturaSettle,
        {
          tipo: "autorizado",
          event: { id: wsfe.comprobanteEventId(event.comprobanteId, "autorizado"), ...event },
        },
        { accountId, requestId },
      );
    }
    const ended = answer.status === 422 ? "final" : answer.status >= 500 ? "unknown" : "refused";
    return client.request(
      billing.facturaSettle,
      {
        tipo: "terminada",
        event: {
          ...common,
          id: wsfe.emisionEventId(requestId, ended),
          outcome: ended,
          ...(ended === "final"
            ? { error: { code: answer.code ?? "", message: "Rechazado" } }
            : {}),
        },
      },
      { accountId, requestId },
    );
  };

  /** admits and completes one issuance with `status`; answers the admission */
  async function issuance(
    accountId: string,
    environment: Environment,
    status: number,
    code?: string,
  ) {
    const requestId = randomUUID();
    const admitted = await admit(accountId, environment, undefined, requestId);
    if (admitted.ok) value(await complete(accountId, requestId, environment, { status, code }));
    return admitted;
  }

  const usage = async (accountId: string) =>
    value(await client.request(billing.accountUsage, { accountId }));

  describe("quota", () => {
    it("new accounts are on the default plan inicial: 100 facturas, 500 padrones, monthly, cap 50", async () => {
      const accountId = await account();
      expect(await usage(accountId)).toMatchObject({
        plan: {
          name: "inicial",
          facturas: 100,
          padrones: 500,
          periodo: "mensual",
          rejectionCapPerHour: 50,
        },
        facturas: { quota: 100, used: 0, left: 100 },
        padrones: { quota: 500, used: 0, left: 500 },
      });
    });

    it("counts only production CAEs: not homologacion, not rejections, not failures", async () => {
      const accountId = await account({ facturas: 5 });
      await issuance(accountId, "homologacion", 200);
      await issuance(accountId, "produccion", 422, "AUTHORITY_REJECTED");
      await issuance(accountId, "produccion", 403, "SERVICE_NOT_DELEGATED");
      await issuance(accountId, "produccion", 200);
      expect((await usage(accountId)).facturas).toEqual({ quota: 5, used: 1, left: 4 });
    });

    it("answers 402 with the exact message once the period's quota is used; the next period starts afresh", async () => {
      const accountId = await account({ facturas: 1 });
      expect((await issuance(accountId, "produccion", 200)).ok).toBe(true);
      const refused = await admit(accountId, "produccion");
      expect(refused).toEqual({
        ok: false,
        error: {
          code: "QUOTA_FACTURAS_EXHAUSTED",
          message: "Cuota de facturas del período agotada",
        },
      });
      // homologacion is never metered
      expect((await admit(accountId, "homologacion")).ok).toBe(true);
      const saved = clock;
      clock += 32 * 24 * HOUR;
      try {
        expect(await admit(accountId, "produccion")).toEqual({
          ok: true,
          value: { decision: "proceed" },
        });
      } finally {
        clock = saved;
      }
    });

    it("with 1 left, 20 concurrent admissions reserve exactly one", async () => {
      const accountId = await account({ facturas: 3 });
      await issuance(accountId, "produccion", 200);
      await issuance(accountId, "produccion", 200);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => admit(accountId, "produccion")),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      const refused = results.filter((r) => !r.ok);
      expect(refused).toHaveLength(19);
      for (const r of refused) expect(r.ok ? "" : r.error.code).toBe("QUOTA_FACTURAS_EXHAUSTED");
    });

    it("a reservation never reported back stops holding quota once it expires, and is swept", async () => {
      const accountId = await account({ facturas: 1 });
      expect((await admit(accountId, "produccion")).ok).toBe(true);
      expect((await admit(accountId, "produccion")).ok).toBe(false);
      clock += 61_000;
      expect((await usage(accountId)).facturas.used).toBe(0);
      await sweep();
      const requestId = randomUUID();
      expect((await admit(accountId, "produccion", undefined, requestId)).ok).toBe(true);
      value(await complete(accountId, requestId, "produccion", { status: 200 }));
      expect((await usage(accountId)).facturas.used).toBe(1);
    });
  });

  describe("rejection cap", () => {
    it("429 after the cap in one environment only, saying when; clears as the hour passes", async () => {
      const accountId = await account({ facturas: 10, cap: 3 });
      const start = clock;
      for (let i = 0; i < 3; i++) {
        clock = start + i * 60_000;
        await issuance(
          accountId,
          "homologacion",
          422,
          i === 0 ? "TOTALS_INVALID" : "AUTHORITY_REJECTED",
        );
      }
      clock = start + 10 * 60_000;
      const capped = await admit(accountId, "homologacion");
      expect(capped.ok).toBe(false);
      if (capped.ok) return;
      expect(capped.error.code).toBe("REJECTION_CAP");
      expect(capped.error.message.startsWith("Demasiados comprobantes rechazados")).toBe(true);
      // the oldest leaves the window at start + 1 h: 50 minutes from now
      expect(capped.error.details).toMatchObject({
        retryAfterSeconds: 50 * 60,
        acceptedFrom: new Date(start + HOUR).toISOString(),
      });
      expect(capped.error.message).toContain(new Date(start + HOUR).toISOString());
      // produccion is another window
      expect((await admit(accountId, "produccion")).ok).toBe(true);
      // a 422 that is not a rejection of the voucher (a reused key) and a 200 do not count
      clock = start + HOUR - 1;
      expect((await admit(accountId, "homologacion")).ok).toBe(false);
      clock = start + HOUR;
      expect((await admit(accountId, "homologacion")).ok).toBe(true);
      clock = start;
    });

    it("authorized issuances do not count toward the cap", async () => {
      const accountId = await account({ facturas: 10, cap: 1 });
      await issuance(accountId, "homologacion", 200);
      await issuance(accountId, "homologacion", 200);
      expect((await admit(accountId, "homologacion")).ok).toBe(true);
    });
  });

  describe("Idempotency-Key", () => {
    const key = () => ({ key: `pedido-${randomUUID()}`, fingerprint: randomUUID() });

    it("replays the first answer for the same body; 422 for another body; 409 while in flight", async () => {
      const accountId = await account();
      const k = key();
      const first = randomUUID();
      expect(await admit(accountId, "homologacion", k, first)).toEqual({
        ok: true,
        value: { decision: "proceed", leaseMs: 15_000 },
      });
      const inFlight = await admit(accountId, "homologacion", k);
      expect(inFlight.ok ? "" : inFlight.error.code).toBe("IDEMPOTENCY_IN_PROGRESS");
      const other = await admit(accountId, "homologacion", { ...k, fingerprint: "otro" });
      expect(other.ok ? "" : other.error.code).toBe("IDEMPOTENCY_KEY_REUSED");
      const body = { ...wsfe.facturaHttpReply(reply), cae: "12345678901234", cbteNro: 7 };
      value(await complete(accountId, first, "homologacion", { status: 200, body, key: k.key }));
      expect(await admit(accountId, "homologacion", k)).toEqual({
        ok: true,
        value: { decision: "replay", answer: { kind: "authorized", factura: body } },
      });
      // keys are the account's: another account's same key is its own
      expect((await admit(await account(), "homologacion", k)).ok).toBe(true);
    });

    it("a refusal before the authority unbinds the key; a 502 keeps it bound to that attempt", async () => {
      const accountId = await account();
      const k = key();
      const first = randomUUID();
      expect((await admit(accountId, "homologacion", k, first)).ok).toBe(true);
      value(await complete(accountId, first, "homologacion", { status: 400, key: k.key }));
      const second = randomUUID();
      expect(
        await admit(accountId, "homologacion", { ...k, fingerprint: "corregido" }, second),
      ).toEqual({
        ok: true,
        value: { decision: "proceed", leaseMs: 15_000 },
      });
      value(await complete(accountId, second, "homologacion", { status: 502, key: k.key }));
      expect(await admit(accountId, "homologacion", { ...k, fingerprint: "corregido" })).toEqual({
        ok: true,
        value: { decision: "resolve", requestId: second },
      });
    });

    it("an attempt admitted after its own giving back is freed by the call that looks it up", async () => {
      const accountId = await account();
      const k = key();
      const first = randomUUID();
      // its giving back arrives first (its admission was delivered late), then its admission
      value(await complete(accountId, first, "homologacion", { status: 400, key: k.key }));
      expect((await admit(accountId, "homologacion", k, first)).ok).toBe(true);
      const second = randomUUID();
      value(
        await client.request(
          billing.facturaSettle,
          {
            tipo: "terminada",
            event: {
              version: 1,
              id: wsfe.emisionEventId(first, "refused", second),
              accountId,
              environment: "homologacion",
              requestId: first,
              idempotencyKey: k.key,
              outcome: "refused",
              occurredAt: new Date(clock).toISOString(),
            },
          },
          { accountId, requestId: second },
        ),
      );
      expect(await admit(accountId, "homologacion", k, second)).toEqual({
        ok: true,
        value: { decision: "proceed", leaseMs: 15_000 },
      });
    });

    it("a running attempt keeps its key for another lease; a lapsed lease is looked up and never extended", async () => {
      const accountId = await account();
      const k = key();
      const first = randomUUID();
      expect((await admit(accountId, "homologacion", k, first)).ok).toBe(true);
      const hold = (requestId: string) =>
        client.request(billing.facturaHold, { idempotencyKey: k.key }, { accountId, requestId });
      // another request id never holds the key
      expect(value(await hold(randomUUID()))).toEqual({ held: false });
      // held 10 s in, then 20 s in: the lease runs 15 s from each hold
      clock += 10_000;
      expect(value(await hold(first))).toEqual({ held: true });
      clock += 10_000;
      const running = await admit(accountId, "homologacion", k);
      expect(running.ok ? "" : running.error.code).toBe("IDEMPOTENCY_IN_PROGRESS");
      expect(value(await hold(first))).toEqual({ held: true });
      // its process died: 15 s later the key is looked up, and the attempt can no longer hold it
      clock += 15_001;
      expect(await admit(accountId, "homologacion", k)).toEqual({
        ok: true,
        value: { decision: "resolve", requestId: first },
      });
      expect(value(await hold(first))).toEqual({ held: false });
      // another account's request never holds this account's key
      const other = await client.request(
        billing.facturaHold,
        { idempotencyKey: k.key },
        { accountId: await account(), requestId: first },
      );
      expect(value(other)).toEqual({ held: false });
    });

    it("the same request asked again is admitted once: one binding, one unit, even the period's last", async () => {
      const accountId = await account({ facturas: 1 });
      const k = key();
      const requestId = randomUUID();
      const admitted = { ok: true, value: { decision: "proceed", leaseMs: 15_000 } };
      expect(await admit(accountId, "produccion", k, requestId)).toEqual(admitted);
      expect(await admit(accountId, "produccion", k, requestId)).toEqual(admitted);
      expect((await usage(accountId)).facturas).toEqual({ quota: 1, used: 1, left: 0 });
      // without a key: the unit its first asking reserved is its own
      const other = await account({ facturas: 1 });
      const unkeyed = randomUUID();
      expect((await admit(other, "produccion", undefined, unkeyed)).ok).toBe(true);
      expect((await admit(other, "produccion", undefined, unkeyed)).ok).toBe(true);
      const next = await admit(other, "produccion");
      expect(next.ok ? "" : next.error.code).toBe("QUOTA_FACTURAS_EXHAUSTED");
      expect((await usage(other)).facturas).toEqual({ quota: 1, used: 1, left: 0 });
    });

    it("first askings of one key by several requests at once: one binding, one unit", async () => {
      const accountId = await account({ facturas: 100 });
      const k = key();
      const askings = await Promise.all(
        Array.from({ length: 12 }, () => admit(accountId, "produccion", k)),
      );
      const codes = askings.map((a) => (a.ok ? a.value.decision : a.error.code)).sort();
      expect(codes).toEqual([...Array<string>(11).fill("IDEMPOTENCY_IN_PROGRESS"), "proceed"]);
      // the requests that lost the key hold nothing: only the bound one counts
      expect((await usage(accountId)).facturas).toEqual({ quota: 100, used: 1, left: 99 });
    });

    it("keys expire after 24 h: the same key then admits a new issuance", async () => {
      const accountId = await account();
      const k = key();
      const first = randomUUID();
      expect((await admit(accountId, "homologacion", k, first)).ok).toBe(true);
      value(
        await complete(accountId, first, "homologacion", {
          status: 200,
          body: { ...wsfe.facturaHttpReply(reply), cae: "1" },
          key: k.key,
        }),
      );
      const start = clock;
      clock = start + 24 * HOUR - 1;
      expect((await admit(accountId, "homologacion", k)).ok && "replay").toBe("replay");
      clock = start + 24 * HOUR;
      expect(await admit(accountId, "homologacion", k)).toEqual({
        ok: true,
        value: { decision: "proceed", leaseMs: 15_000 },
      });
      clock = start;
    });

    it("a 429 or a 402 does not bind the key", async () => {
      const accountId = await account({ facturas: 0 });
      const k = key();
      const refused = await admit(accountId, "produccion", k);
      expect(refused.ok ? "" : refused.error.code).toBe("QUOTA_FACTURAS_EXHAUSTED");
      expect(await admit(accountId, "homologacion", { ...k, fingerprint: "otro" })).toEqual({
        ok: true,
        value: { decision: "proceed", leaseMs: 15_000 },
      });
    });
  });

  describe("the voucher events (a crash between the authority's answer and the caller's)", () => {
    const eventually = async <T>(probe: () => Promise<T | undefined>): Promise<T> => {
      for (let i = 0; i < 400; i++) {
        const value = await probe();
        if (value !== undefined) return value;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error("timed out");
    };

    it("an authorization never reported by the edge completes the key and commits the quota, once", async () => {
      const accountId = await account({ facturas: 3 });
      const k = { key: `pedido-${randomUUID()}`, fingerprint: "f" };
      const requestId = randomUUID();
      expect((await admit(accountId, "produccion", k, requestId)).ok).toBe(true);
      const event = {
        ...outcome(accountId, requestId, k.key),
        cae: reply.cae,
        caeVencimiento: reply.caeVencimiento,
        observaciones: [],
        reply,
      };
      const id = wsfe.comprobanteEventId(event.comprobanteId, "autorizado");
      await client.publish(wsfe.comprobanteAutorizado, { id, ...event });
      const replayed = await eventually(async () => {
        const r = await admit(accountId, "produccion", k);
        return r.ok && r.value.decision === "replay" ? r.value : undefined;
      });
      expect(replayed).toEqual({
        decision: "replay",
        answer: { kind: "authorized", factura: wsfe.facturaHttpReply(reply) },
      });
      // delivered again under another message id: applied once
      await client.publish(wsfe.comprobanteAutorizado, { id, ...event });
      await client.publish(wsfe.comprobanteAutorizado, {
        id: `${id}-otra-vez`,
        ...event,
      });
      await eventually(async () =>
        (await usage(accountId)).facturas.used === 1 ? true : undefined,
      );
      expect((await usage(accountId)).facturas).toEqual({ quota: 3, used: 1, left: 2 });
    });

    it("skips the voucher events it does not read, without calling them broken", async () => {
      const accountId = await account();
      const requestId = randomUUID();
      const event = { ...outcome(accountId, requestId, null), motivo: "no_emitido" as const };
      await client.publish(wsfe.comprobanteNoEmitido, {
        id: wsfe.comprobanteEventId(event.comprobanteId, "no_emitido"),
        ...event,
      });
      // an authorization published after it is applied: the consumer went past the skipped one
      const k = { key: `pedido-${randomUUID()}`, fingerprint: "f" };
      const next = randomUUID();
      expect((await admit(accountId, "produccion", k, next)).ok).toBe(true);
      const authorized = {
        ...outcome(accountId, next, k.key),
        cae: reply.cae,
        caeVencimiento: reply.caeVencimiento,
        observaciones: [],
        reply,
      };
      await client.publish(wsfe.comprobanteAutorizado, {
        id: wsfe.comprobanteEventId(authorized.comprobanteId, "autorizado"),
        ...authorized,
      });
      await eventually(async () => {
        const r = await admit(accountId, "produccion", k);
        return r.ok && r.value.decision === "replay" ? r.value : undefined;
      });
      expect(lines.join("\n")).not.toContain("event breaks its schema");
    });

    it("one event, two deliveries: the flow's hand-over and JetStream's are applied once, PDF link and all", async () => {
      const accountId = await account({ facturas: 3 });
      const k = { key: `pedido-${randomUUID()}`, fingerprint: "f" };
      const requestId = randomUUID();
      expect((await admit(accountId, "produccion", k, requestId)).ok).toBe(true);
      const answered = {
        ...wsfe.facturaHttpReply(reply),
        pdfUrl: "https://pasarela.example/comprobantes/abc.pdf",
      };
      const event = {
        ...outcome(accountId, requestId, k.key),
        cae: reply.cae,
        caeVencimiento: reply.caeVencimiento,
        observaciones: [],
        reply,
        answer: answered,
      };
      const id = wsfe.comprobanteEventId(event.comprobanteId, "autorizado");
      const settled = value(
        await client.request(
          billing.facturaSettle,
          { tipo: "autorizado", event: { id, ...event } },
          { accountId, requestId },
        ),
      );
      // what the flow answers is what the key replays
      expect(settled).toEqual({ answer: { kind: "authorized", factura: answered } });
      // the same event from JetStream, and once more by hand: nothing changes
      await client.publish(wsfe.comprobanteAutorizado, { id, ...event });
      const again = value(
        await client.request(
          billing.facturaSettle,
          { tipo: "autorizado", event: { id, ...event, answer: wsfe.facturaHttpReply(reply) } },
          { accountId, requestId },
        ),
      );
      expect(again).toEqual(settled);
      expect(await admit(accountId, "produccion", k)).toEqual({
        ok: true,
        value: { decision: "replay", answer: { kind: "authorized", factura: answered } },
      });
      await new Promise((r) => setTimeout(r, 300));
      expect((await usage(accountId)).facturas).toEqual({ quota: 3, used: 1, left: 2 });
      // another account's event is never applied on this one's behalf
      const other = await client.request(
        billing.facturaSettle,
        { tipo: "autorizado", event: { id: randomUUID(), ...event } },
        { accountId: await account(), requestId },
      );
      expect(other.ok ? "" : other.error.code).toBe("UNAUTHORIZED");
    });

    it("a rejection learnt from its event counts toward the cap once and is replayed as the 422", async () => {
      const accountId = await account({ facturas: 3, cap: 1 });
      const k = { key: `pedido-${randomUUID()}`, fingerprint: "f" };
      const requestId = randomUUID();
      expect((await admit(accountId, "homologacion", k, requestId)).ok).toBe(true);
      const event = {
        ...outcome(accountId, requestId, k.key),
        environment: "homologacion" as const,
        observaciones: [],
        errores: [{ code: 10016, msg: "El numero o fecha del comprobante no se corresponde" }],
      };
      const id = wsfe.comprobanteEventId(event.comprobanteId, "rechazado");
      await client.publish(wsfe.comprobanteRechazado, { id, ...event });
      await client.publish(wsfe.comprobanteRechazado, { id: `${id}-bis`, ...event });
      const replayed = await eventually(async () => {
        const r = await admit(accountId, "homologacion", k);
        return r.ok && r.value.decision === "replay" ? r.value : undefined;
      });
      // the 422's error: the edge lifts resultado, observaciones and errores to the top
      expect(replayed.answer).toMatchObject({
        kind: "error",
        error: {
          code: "AUTHORITY_REJECTED",
          details: {
            resultado: "R",
            errores: event.errores,
            ptoVta: 3,
            cbteTipo: 11,
            cbteNro: 12,
          },
        },
      });
      const capped = await admit(accountId, "homologacion");
      expect(capped.ok ? "" : capped.error.code).toBe("REJECTION_CAP");
      expect((await admit(accountId, "produccion")).ok).toBe(true);
    });

    it("a contingency voucher refused at informing gives its unit back, before or after its authorization is applied", async () => {
      const accountId = await account({ facturas: 3 });
      const caeaEvent = (requestId: string, comprobanteId: string) => ({
        ...outcome(accountId, requestId, null),
        comprobanteId,
        caea: "36123456789012",
        observaciones: [],
        errores: [{ code: 10119, msg: "El importe total no coincide" }],
        id: wsfe.comprobanteEventId(comprobanteId, "caea_rechazado"),
      });
      const authorizedEvent = (requestId: string, comprobanteId: string) => ({
        ...outcome(accountId, requestId, null),
        comprobanteId,
        cae: "36123456789012",
        caeVencimiento: "20261130",
        tipoAutorizacion: "CAEA" as const,
        observaciones: [],
        id: wsfe.comprobanteEventId(comprobanteId, "autorizado"),
      });
      const used = async (n: number) => {
        await eventually(async () =>
          (await usage(accountId)).facturas.used === n ? true : undefined,
        );
        await new Promise((r) => setTimeout(r, 200));
        expect((await usage(accountId)).facturas.used).toBe(n);
      };

      // authorized (counted), then refused at informing: given back, twice delivered or not
      const first = randomUUID();
      const firstVoucher = randomUUID();
      expect((await admit(accountId, "produccion", undefined, first)).ok).toBe(true);
      await client.publish(wsfe.comprobanteAutorizado, authorizedEvent(first, firstVoucher));
      await used(1);
      await client.publish(wsfe.comprobanteCaeaRechazado, caeaEvent(first, firstVoucher));
      await client.publish(wsfe.comprobanteCaeaRechazado, {
        ...caeaEvent(first, firstVoucher),
        id: `${caeaEvent(first, firstVoucher).id}-bis`,
      });
      await used(0);

      // the refusal applied before its authorization: the authorization never counts it
      const second = randomUUID();
      const secondVoucher = randomUUID();
      expect((await admit(accountId, "produccion", undefined, second)).ok).toBe(true);
      await client.publish(wsfe.comprobanteCaeaRechazado, caeaEvent(second, secondVoucher));
      await client.publish(wsfe.comprobanteAutorizado, authorizedEvent(second, secondVoucher));
      await used(0);
      expect(lines.join("\n")).not.toContain("event breaks its schema");
    });
  });

  describe("the usage history's events", () => {
    const call = (accountId: string, route: string): billing.UsageCall => ({
      id: randomUUID(),
      accountId,
      keyId: randomUUID(),
      at: new Date(clock).toISOString(),
      method: "POST",
      route,
      environment: "homologacion",
      representada: "20111111112",
      status: 200,
      code: null,
      latencyMs: 3.25,
      quotaConsumed: false,
    });

    it("records every call of a batch once", async () => {
      const accountId = await account();
      const batch = [call(accountId, "/api/a"), call(accountId, "/api/b")];
      const event = { id: randomUUID(), version: 1 as const, llamadas: batch };
      await client.publish(billing.usoRegistrado, event);
      // the same calls again under another event id (a retried publication): recorded once
      await client.publish(billing.usoRegistrado, { ...event, id: randomUUID() });
      const listed = async () =>
        value(await client.request(billing.usageList, { limit: 50 }, { accountId })).items;
      for (let i = 0; i < 400 && (await listed()).length < 2; i++) {
        await new Promise((r) => setTimeout(r, 25));
      }
      await new Promise((r) => setTimeout(r, 200));
      expect((await listed()).map((r) => r.route).sort()).toEqual(["/api/a", "/api/b"]);
    });

    it("a key's last use is its latest call in the history", async () => {
      const accountId = await account();
      const key = value(await client.request(billing.keyCreate, { accountId, scope: "read_only" }));
      const lastUsed = async () =>
        value(await client.request(billing.keyList, { accountId })).keys[0]?.lastUsedAt;
      expect(await lastUsed()).toBeNull();
      const older = {
        ...call(accountId, "/api/a"),
        keyId: key.keyId,
        at: "2026-11-20T10:00:00.000Z",
      };
      const newer = {
        ...call(accountId, "/api/b"),
        keyId: key.keyId,
        at: "2026-11-21T10:00:00.000Z",
      };
      await client.publish(billing.usoRegistrado, {
        id: randomUUID(),
        version: 1,
        llamadas: [newer, older, call(accountId, "/api/c")],
      });
      for (let i = 0; i < 400 && (await lastUsed()) === null; i++) {
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(await lastUsed()).toBe(newer.at);
    });
  });
});
