import { makeControlClient, type ControlClient } from "@pasarela/authority-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  newAccount,
  registerWsfeIssuer,
  scratch,
  type Account,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { qrPayload } from "../support/pdf.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { eventually } from "../support/wait.js";

const env = "homologacion" as const;
const CAE_PTO_VTA = 3;
const CAEA_PTO_VTA = 90;

interface Answer {
  status: number;
  text: string;
  json<T = Record<string, unknown>>(): T;
}

interface Factura {
  cae: string;
  caeVencimiento: string;
  tipoAutorizacion?: string;
  caea?: string;
  caeaVencimiento?: string;
  ptoVta: number;
  cbteNro: number;
  qr: string;
  pdfUrl?: string;
}

interface CaeaShown {
  caea: string;
  fchVigDesde: string;
  fchVigHasta: string;
}

/**
 * Issuing in CAEA contingency through the running stack: a till that says it is offline, and
 * an issuance whose FECAESolicitar cannot get through, both answered with a voucher authorized
 * by the fortnight's CAEA on the CAEA point of sale (QR tipoCodAut A), numbered in order and
 * issued once per Idempotency-Key; a send whose answer was lost but which the authority did
 * authorize is answered with its CAE rather than issued twice; a representada without
 * contingency is refused. The simulator's own state shows what reached FECAESolicitar.
 */
describe("CAEA contingency: issuing", { timeout: 180_000 }, () => {
  let stack: E2EStack;
  let dir: Scratch;
  let control: ControlClient;
  let account: Account;
  let rep: Registered;
  let plain: Registered;
  let caea: CaeaShown;
  let keyN = 0;
  const newKey = () => `caea-${Date.now()}-${keyN++}`;

  beforeAll(async () => {
    stack = await startE2EStack({
      env: {
        LOG_LEVEL: "warn",
        CAEA_CHECK_INTERVAL_MS: "1000",
        AUTHORITY_TIMEOUT_MS: "4000",
        API_TIMEOUT_MS: "20000",
      },
    });
    dir = scratch();
    control = makeControlClient(stack.simulatorUrl!);
    account = await newAccount(stack, "Caja en contingencia");
    [rep, plain] = await Promise.all([
      registerWsfeIssuer(stack, dir, account.accountId, env, CAE_PTO_VTA),
      registerWsfeIssuer(stack, dir, account.accountId, env, CAE_PTO_VTA),
    ]);
    await control.enablePointOfSale(env, {
      cuit: rep.cuit,
      ptoVta: CAEA_PTO_VTA,
      emisionTipo: "CAEA",
    });
    const on = await http("PATCH", `/api/representadas/${rep.representadaId}`, {
      body: { contingencia: { caea: true, puntosDeVenta: [CAEA_PTO_VTA] } },
    });
    expect(on.status, on.text).toBe(200);
    caea = await eventually(
      "the fortnight's CAEA",
      async () => {
        const shown = await http("GET", `/api/representadas/${rep.representadaId}`);
        return (
          shown.json<{ caea: { actual: CaeaShown | null } | null }>().caea?.actual ?? undefined
        );
      },
      { timeoutMs: 30_000, intervalMs: 300 },
    );
  });

  afterAll(async () => {
    await control?.setFault(env, { service: "wsfe", mode: "none" }).catch(() => {});
    await stack?.teardown();
    dir?.remove();
  });

  async function http(
    method: string,
    path: string,
    options: { body?: unknown; key?: string } = {},
  ): Promise<Answer> {
    const response = await fetch(`${stack.edgeUrl}${path}`, {
      method,
      headers: {
        authorization: account.rw,
        ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        ...(options.key === undefined ? {} : { "idempotency-key": options.key }),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const text = await response.text();
    return { status: response.status, text, json: <T>() => JSON.parse(text) as T };
  }

  const facturaC = (cuit: string, precio: string, extra: Record<string, unknown> = {}) => ({
    environment: env,
    representada: cuit,
    ptoVta: CAE_PTO_VTA,
    cbteTipo: 11,
    concepto: 1,
    docTipo: 99,
    docNro: "0",
    condicionIvaReceptorId: 5,
    items: [{ descripcion: "Café", cantidad: 1, precioUnitario: precio, alicuotaIva: 0 }],
    ...extra,
  });
  const issue = (body: unknown, key?: string) =>
    http("POST", "/api/wsfe/facturas", { body, ...(key === undefined ? {} : { key }) });

  /** Vouchers FECAESolicitar authorized on a series of the simulator. */
  async function solicitados(cuit: string, ptoVta: number): Promise<number> {
    const { series } = await control.vouchers(env);
    return series[`${cuit}|${ptoVta}|11`]?.vouchers.length ?? 0;
  }

  function expectCaeaVoucher(factura: Factura, cbteNro: number) {
    expect(factura).toMatchObject({
      tipoAutorizacion: "CAEA",
      caea: caea.caea,
      caeaVencimiento: caea.fchVigHasta,
      cae: caea.caea,
      caeVencimiento: caea.fchVigHasta,
      ptoVta: CAEA_PTO_VTA,
      cbteNro,
    });
    expect(qrPayload(factura.qr)).toMatchObject({
      ptoVta: CAEA_PTO_VTA,
      nroCmp: cbteNro,
      tipoCodAut: "A",
      codAut: Number(caea.caea),
    });
    expect(factura.pdfUrl).toMatch(/^http/);
  }

  it("issues under the CAEA at once when the till says it is offline, once per key", async () => {
    const key = newKey();
    const first = await issue(facturaC(rep.cuit, "1500", { contingencia: "caea" }), key);
    expect(first.status, first.text).toBe(200);
    expectCaeaVoucher(first.json<Factura>(), 1);
    // nothing reached FECAESolicitar
    expect(await solicitados(rep.cuit, CAE_PTO_VTA)).toBe(0);
    // the retry answers the same voucher, byte for byte, and numbers nothing
    const again = await issue(facturaC(rep.cuit, "1500", { contingencia: "caea" }), key);
    expect(again.status, again.text).toBe(200);
    expect(again.text).toBe(first.text);
    const next = await issue(facturaC(rep.cuit, "1600", { contingencia: "caea" }), newKey());
    expect(next.status, next.text).toBe(200);
    expectCaeaVoucher(next.json<Factura>(), 2);
  });

  it("falls back to the CAEA when FECAESolicitar fails, and answers a CAE the authority did grant", async () => {
    await control.setFault(env, {
      service: "wsfe",
      mode: "error-501",
      operation: "FECAESolicitar",
    });
    const failing = await issue(facturaC(rep.cuit, "1700"), newKey());
    expect(failing.status, failing.text).toBe(200);
    expectCaeaVoucher(failing.json<Factura>(), 3);
    await control.setFault(env, {
      service: "wsfe",
      mode: "unavailable",
      operation: "FECAESolicitar",
    });
    const down = await issue(facturaC(rep.cuit, "1800"), newKey());
    expect(down.status, down.text).toBe(200);
    expectCaeaVoucher(down.json<Factura>(), 4);
    expect(await solicitados(rep.cuit, CAE_PTO_VTA)).toBe(0);

    // the authority authorized the voucher but the answer never came back: it is settled and
    // answered with its own CAE, never issued a second time under the CAEA
    await control.setFault(env, {
      service: "wsfe",
      mode: "drop-after-commit",
      operation: "FECAESolicitar",
    });
    const lost = await issue(facturaC(rep.cuit, "1900"), newKey());
    await control.setFault(env, { service: "wsfe", mode: "none" });
    expect(lost.status, lost.text).toBe(200);
    const authorized = lost.json<Factura>();
    expect(authorized.tipoAutorizacion).toBeUndefined();
    expect(authorized.ptoVta).toBe(CAE_PTO_VTA);
    expect(await solicitados(rep.cuit, CAE_PTO_VTA)).toBe(1);
    expect(qrPayload(authorized.qr)).toMatchObject({ tipoCodAut: "E" });

    // the authority back: a CAE again, and the next CAEA voucher continues the series
    const back = await issue(facturaC(rep.cuit, "2000"), newKey());
    expect(back.status, back.text).toBe(200);
    expect(back.json<Factura>().ptoVta).toBe(CAE_PTO_VTA);
    const offline = await issue(facturaC(rep.cuit, "2100", { contingencia: "caea" }), newKey());
    expectCaeaVoucher(offline.json<Factura>(), 5);
  });

  it("refuses contingency for a representada without it, and keeps the 502 when it is off", async () => {
    const refused = await issue(facturaC(plain.cuit, "1000", { contingencia: "caea" }), newKey());
    expect(refused.status, refused.text).toBe(409);
    expect(refused.json()).toMatchObject({ code: "CONTINGENCY_NOT_ENABLED" });
    const wrong = await issue(facturaC(rep.cuit, "1000", { contingencia: "cae" }), newKey());
    expect(wrong.status, wrong.text).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: "INVALID_FIELD",
      details: { field: "contingencia" },
    });

    await control.setFault(env, {
      service: "wsfe",
      mode: "error-501",
      operation: "FECAESolicitar",
    });
    try {
      const down = await issue(facturaC(plain.cuit, "1000"), newKey());
      expect(down.status, down.text).toBe(502);
    } finally {
      await control.setFault(env, { service: "wsfe", mode: "none" });
    }
  });
});
