import { AckPolicy, jetstreamManager, type JsMsg } from "@nats-io/jetstream";
import { makeControlClient, type ControlClient } from "@pasarela/authority-sim";
import { connectBus, type Bus } from "@pasarela/bus";
import { createLogger, startTracing } from "@pasarela/telemetry";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  http,
  newAccount,
  randomCuit,
  register,
  scratch,
  type Account,
  type ErrorBody,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { seeder, type Seeder } from "../support/seed.js";
import { qrPayload } from "../support/pdf.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { eventually } from "../support/wait.js";

const env = "homologacion" as const;
// short enough that a held FECAESolicitar times out quickly, long enough for a loaded machine
const AUTHORITY_TIMEOUT_MS = 5_000;
// an API call's whole budget: each issuance has 10 s (13 s less the edge's slack), of which
// FECAESolicitar needs AUTHORITY_TIMEOUT_MS and 2 s to store its answer still left when sent
const API_TIMEOUT_MS = 13_000;
const PTO_VTA = 3;
/** a point of sale of its own for the fault tests, so their numbering is easy to follow */
const FAULT_PTO_VTA = 9;
const DOLAR = 1050.25;

/** Today in Argentina (UTC−3, no daylight saving), as the authority writes dates. */
const today = (offsetDays = 0) =>
  new Date(Date.now() - 3 * 3_600_000 + offsetDays * 86_400_000)
    .toISOString()
    .slice(0, 10)
    .replaceAll("-", "");

interface Issued {
  resultado: string;
  cae: string;
  caeVencimiento: string;
  cbteNro: number;
  ptoVta: number;
  cbteTipo: number;
  cbteFch: string;
  impTotal: number;
  impNeto: number;
  impIVA: number;
  impTrib: number;
  impTotConc: number;
  impOpEx: number;
  moneda: { id: string; cotizacion: number; mismaMonedaExtranjera: boolean };
  observaciones: { code: number; msg: string }[];
  qr: string;
}

interface Rejected extends ErrorBody {
  resultado: string;
  observaciones: { code: number; msg: string }[];
  errores: { code: number; msg: string }[];
}

describe("issuance end to end: POST /api/wsfe/facturas through processes and the simulator", () => {
  let stack: E2EStack;
  let dir: Scratch;
  let control: ControlClient;
  let sql: postgres.Sql;
  let bus: Bus;
  let seed: Seeder;
  let account: Account;
  let stranger: Account;
  let issuer: Registered;
  /** a CUIT the vouchers of class A are issued to */
  const receptor = randomCuit("30");

  const post = (path: string, body: unknown, authorization: string = account.rw) =>
    http(stack, "POST", path, authorization, body);
  const base = (extra: Record<string, unknown>) => ({
    environment: env,
    representada: issuer.cuit,
    ptoVta: PTO_VTA,
    concepto: 1,
    ...extra,
  });
  const toResponsableInscripto = { docTipo: 80, docNro: receptor, condicionIvaReceptorId: 1 };
  const toConsumidorFinal = { docTipo: 99, docNro: "0", condicionIvaReceptorId: 5 };

  /** `POST /api/wsfe/facturas` that must be authorized */
  async function issue(body: Record<string, unknown>, headers: Record<string, string> = {}) {
    const response = await fetch(`${stack.edgeUrl}/api/wsfe/facturas`, {
      method: "POST",
      headers: { authorization: account.rw, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, json: <T>() => JSON.parse(text) as T };
  }
  async function authorized(body: Record<string, unknown>): Promise<Issued> {
    const response = await issue(body);
    expect(response.status, response.text).toBe(200);
    const issued = response.json<Issued>();
    expect(issued.resultado).toBe("A");
    expect(issued.cae).toMatch(/^\d{14}$/);
    return issued;
  }
  /** the authority's record of the voucher, through the gateway */
  async function lookup(issued: Pick<Issued, "cbteTipo" | "ptoVta" | "cbteNro">) {
    const response = await post("/api/wsfe/comprobante", {
      environment: env,
      representada: issuer.cuit,
      cbteTipo: issued.cbteTipo,
      ptoVta: issued.ptoVta,
      cbteNro: issued.cbteNro,
    });
    expect(response.status, response.text).toBe(200);
    return response.json<Record<string, unknown>>();
  }
  /** the voucher was stored by the authority with exactly the totals the gateway answered */
  async function expectStoredAsAnswered(issued: Issued) {
    expect(await lookup(issued)).toMatchObject({
      found: true,
      resultado: "A",
      codAutorizacion: issued.cae,
      cbteDesde: issued.cbteNro,
      cbteHasta: issued.cbteNro,
      cbteFch: issued.cbteFch,
      impTotal: issued.impTotal,
      impNeto: issued.impNeto,
      impIVA: issued.impIVA,
    });
  }
  const ultimo = async (cbteTipo: number, ptoVta = PTO_VTA) =>
    (
      await post("/api/wsfe/ultimo-comprobante", {
        environment: env,
        representada: issuer.cuit,
        cbteTipo,
        ptoVta,
      })
    ).json<{ cbteNro: number }>().cbteNro;
  const authorityRequests = async () => (await control.stats(env)).total;
  const storedStates = async (ptoVta: number, cbteTipo: number) =>
    (
      await sql<{ cbte_nro: string; state: string }[]>`
        select cbte_nro, state from wsfe.comprobantes
        where cuit = ${issuer.cuit} and pto_vta = ${ptoVta} and cbte_tipo = ${cbteTipo}
        order by created_at`
    ).map((r) => [Number(r.cbte_nro), r.state]);

  beforeAll(async () => {
    stack = await startE2EStack({
      env: {
        AUTHORITY_TIMEOUT_MS: String(AUTHORITY_TIMEOUT_MS),
        API_TIMEOUT_MS: String(API_TIMEOUT_MS),
        LOG_LEVEL: "info",
      },
    });
    dir = scratch();
    control = makeControlClient(stack.simulatorUrl!);
    sql = postgres(stack.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
    bus = await connectBus({
      url: stack.env.NATS_URL!,
      prefix: stack.env.NATS_PREFIX,
      name: "e2e-issuance",
      logger: createLogger({ service: "e2e-issuance", level: "silent" }),
      tracer: startTracing({ service: "e2e-issuance" }).tracer,
    });
    [account, stranger] = await Promise.all([
      newAccount(stack, "Emisora"),
      newAccount(stack, "Ajena"),
    ]);
    issuer = await register(stack, dir, {
      accountId: account.accountId,
      environment: env,
      ptoVta: PTO_VTA,
      delegate: ["wsfe"],
      pos: [
        { ptoVta: PTO_VTA, service: "wsfe" },
        { ptoVta: FAULT_PTO_VTA, service: "wsfe" },
      ],
    });
    await control.setCotizacion(env, { monId: "DOL", cotiz: DOLAR });
    seed = await seeder(stack);
    // a durable consumer of the outcome events, as an internal subscriber would create it
    const jsm = await jetstreamManager(bus.connection);
    await jsm.consumers.add(bus.eventStreamName(), {
      durable_name: "e2e-comprobantes",
      ack_policy: AckPolicy.Explicit,
      filter_subject: `${stack.env.NATS_PREFIX}.evt.wsfe.comprobante.>`,
    });
  });

  afterAll(async () => {
    await seed?.close();
    await bus?.close();
    await sql?.end({ timeout: 2 });
    await stack?.teardown();
    dir?.remove();
  });

  describe("authorized vouchers, looked up through /api/wsfe/comprobante", () => {
    let facturaA: Issued;

    it("Factura A to a CUIT with 21% and 10.5% items: totals per rate, the next number, e-mail kept", async () => {
      const before = await ultimo(1);
      facturaA = await authorized(
        base({
          cbteTipo: 1,
          ...toResponsableInscripto,
          items: [
            { descripcion: "Tornillos", cantidad: 10, precioUnitario: "1250.50", alicuotaIva: 21 },
            { descripcion: "Libros", cantidad: "2", precioUnitario: 8000, alicuotaIva: "10.5" },
          ],
          email: "compras@cliente.com.ar",
        }),
      );
      expect(facturaA).toMatchObject({
        cbteNro: before + 1,
        ptoVta: PTO_VTA,
        cbteTipo: 1,
        cbteFch: today(),
        impNeto: 28505,
        impIVA: 4306.05,
        impTrib: 0,
        impTotConc: 0,
        impOpEx: 0,
        impTotal: 32811.05,
        moneda: { id: "PES", cotizacion: 1, mismaMonedaExtranjera: false },
      });
      await expectStoredAsAnswered(facturaA);
      expect((await lookup(facturaA)).email).toEqual({
        to: "compras@cliente.com.ar",
        status: "pending",
        error: null,
      });
    });

    it("its QR decodes to the RG 4892 JSON of this voucher", () => {
      const url = new URL(facturaA.qr);
      expect(`${url.origin}${url.pathname}`).toBe("https://www.afip.gob.ar/fe/qr/");
      const payload = url.searchParams.get("p")!;
      expect(Buffer.from(payload, "base64").toString("base64")).toBe(payload);
      expect(JSON.parse(Buffer.from(payload, "base64").toString("utf8"))).toEqual({
        ver: 1,
        fecha: `${today().slice(0, 4)}-${today().slice(4, 6)}-${today().slice(6, 8)}`,
        cuit: Number(issuer.cuit),
        ptoVta: PTO_VTA,
        tipoCmp: 1,
        nroCmp: facturaA.cbteNro,
        importe: 32811.05,
        moneda: "PES",
        ctz: 1,
        tipoDocRec: 80,
        nroDocRec: Number(receptor),
        tipoCodAut: "E",
        codAut: Number(facturaA.cae),
      });
    });

    it("observations that come with an A are returned, never turned into errors", async () => {
      const monotributista = randomCuit("20");
      await control.setPerson(env, {
        cuit: monotributista,
        apellido: "Pérez",
        nombre: "Ana",
        condicionIva: "monotributo",
      });
      const issued = await authorized(
        base({
          cbteTipo: 1,
          docTipo: 80,
          docNro: monotributista,
          condicionIvaReceptorId: 6,
          items: [{ descripcion: "Insumos", cantidad: 1, precioUnitario: "100", alicuotaIva: 21 }],
        }),
      );
      expect(issued.observaciones).toEqual([
        {
          code: 10217,
          msg: "El credito fiscal discriminado en el presente comprobante solo podra ser computado a efectos del Procedimiento permanente de transicion al Regimen General.",
        },
      ]);
      await expectStoredAsAnswered(issued);
    });

    it("Factura B to a consumidor final", async () => {
      const issued = await authorized(
        base({
          cbteTipo: 6,
          ...toConsumidorFinal,
          items: [
            { descripcion: "Yerba", cantidad: 3, precioUnitario: "2479.34", alicuotaIva: 21 },
          ],
        }),
      );
      expect(issued).toMatchObject({ impNeto: 7438.02, impIVA: 1561.98, impTotal: 9000 });
      await expectStoredAsAnswered(issued);
    });

    it("Factura C: no itemized VAT, the subtotal is ImpNeto", async () => {
      const issued = await authorized(
        base({
          cbteTipo: 11,
          ...toConsumidorFinal,
          items: [
            { descripcion: "Clase", cantidad: 4, precioUnitario: "2500.125", alicuotaIva: 0 },
          ],
        }),
      );
      expect(issued).toMatchObject({ impNeto: 10000.5, impIVA: 0, impTotal: 10000.5 });
      await expectStoredAsAnswered(issued);
    });

    it("a credit note A associated to the first invoice", async () => {
      const issued = await authorized(
        base({
          cbteTipo: 3,
          ...toResponsableInscripto,
          comprobantesAsociados: [{ cbteTipo: 1, ptoVta: PTO_VTA, cbteNro: facturaA.cbteNro }],
          items: [
            { descripcion: "Devolución", cantidad: 2, precioUnitario: "1250.50", alicuotaIva: 21 },
          ],
        }),
      );
      expect(issued).toMatchObject({
        cbteTipo: 3,
        impNeto: 2501,
        impIVA: 525.21,
        impTotal: 3026.21,
      });
      await expectStoredAsAnswered(issued);
    });

    it("a service invoice (concepto 2) with its dates and a tribute", async () => {
      const issued = await authorized(
        base({
          cbteTipo: 6,
          concepto: 2,
          fchServDesde: today(-30),
          fchServHasta: today(),
          fchVtoPago: today(10),
          docTipo: 96,
          docNro: "30123456",
          condicionIvaReceptorId: 5,
          items: [
            { descripcion: "Soporte", cantidad: 1, precioUnitario: "45000", alicuotaIva: 21 },
          ],
          tributos: [
            { id: 7, descripcion: "IIBB", baseImponible: 45000, alicuota: 2, importe: "900" },
          ],
        }),
      );
      expect(issued).toMatchObject({ impNeto: 45000, impIVA: 9450, impTrib: 900, impTotal: 55350 });
      await expectStoredAsAnswered(issued);
    });

    it("an FCE A with the fce block", async () => {
      const issued = await authorized(
        base({
          cbteTipo: 201,
          fchVtoPago: today(30),
          ...toResponsableInscripto,
          fce: {
            cbu: "0170099220000067797370",
            alias: "empresa.cobros",
            opcionTransferencia: "SCA",
          },
          items: [
            { descripcion: "Acero", cantidad: "1.5", precioUnitario: "2000000", alicuotaIva: 21 },
          ],
        }),
      );
      expect(issued).toMatchObject({ cbteTipo: 201, impNeto: 3000000, impIVA: 630000 });
      await expectStoredAsAnswered(issued);
    });

    it("a USD invoice takes the authority's rate of the day", async () => {
      const issued = await authorized(
        base({
          cbteTipo: 1,
          ...toResponsableInscripto,
          moneda: { id: "DOL" },
          items: [
            { descripcion: "Licencia", cantidad: 1, precioUnitario: "1200", alicuotaIva: 21 },
          ],
        }),
      );
      expect(issued).toMatchObject({
        impTotal: 1452,
        moneda: { id: "DOL", cotizacion: DOLAR, mismaMonedaExtranjera: false },
      });
      await expectStoredAsAnswered(issued);
      const qr = qrPayload(issued.qr);
      expect(qr).toMatchObject({ moneda: "DOL", ctz: DOLAR, importe: 1452 });
    });

    it("by clienteId and productoId, and with explicit values overriding the stored ones", async () => {
      const cliente = (
        await post("/api/clientes", {
          docTipo: 80,
          docNro: receptor,
          razonSocial: "Compradora SA",
          condicionIvaReceptorId: 1,
        })
      ).json<{ id: string }>();
      const producto = (
        await post("/api/productos", {
          codigo: "P-1",
          descripcion: "Caja de herramientas",
          precioUnitario: "999.99",
          alicuotaIva: 21,
        })
      ).json<{ id: string }>();
      const byReference = await authorized(
        base({
          cbteTipo: 1,
          clienteId: cliente.id,
          items: [{ productoId: producto.id, cantidad: 2 }],
        }),
      );
      expect(byReference).toMatchObject({ impNeto: 1999.98, impIVA: 420, impTotal: 2419.98 });
      await expectStoredAsAnswered(byReference);
      // the explicit receiver (a consumidor final) and price and rate win over the stored ones
      const overridden = await authorized(
        base({
          cbteTipo: 6,
          clienteId: cliente.id,
          ...toConsumidorFinal,
          items: [
            { productoId: producto.id, cantidad: 1, precioUnitario: "100", alicuotaIva: 10.5 },
          ],
        }),
      );
      expect(overridden).toMatchObject({ impNeto: 100, impIVA: 10.5, impTotal: 110.5 });
      await expectStoredAsAnswered(overridden);
      const qr = qrPayload(overridden.qr);
      expect(qr).not.toHaveProperty("nroDocRec");
    });
  });
  describe("refused before the authority: no call, numbering unchanged, nothing stored", () => {
    let clienteSinCondicion: string;
    let clienteBorrado: string;
    let clienteAjeno: string;
    let productoSinAlicuota: string;
    const missingId = "2b0f6d1e-3c4a-4b5c-8d6e-7f8091a2b3c4";
    const item = { descripcion: "Algo", cantidad: 1, precioUnitario: "100", alicuotaIva: 21 };

    beforeAll(async () => {
      const cliente = async (authorization: string, extra: Record<string, unknown> = {}) =>
        (
          await post(
            "/api/clientes",
            { docTipo: 80, docNro: randomCuit("30"), razonSocial: "Cliente", ...extra },
            authorization,
          )
        ).json<{ id: string }>().id;
      clienteSinCondicion = await cliente(account.rw);
      clienteBorrado = await cliente(account.rw, { condicionIvaReceptorId: 1 });
      clienteAjeno = await cliente(stranger.rw, { condicionIvaReceptorId: 1 });
      const deleted = await http(stack, "DELETE", `/api/clientes/${clienteBorrado}`, account.rw);
      expect(deleted.status).toBe(204);
      productoSinAlicuota = (
        await post("/api/productos", { descripcion: "Sin alícuota", precioUnitario: "10" })
      ).json<{ id: string }>().id;
    });

    const cases: [
      string,
      () => Record<string, unknown>,
      number,
      string,
      (() => string) | string,
    ][] = [
      [
        "a customer that does not exist",
        () => base({ cbteTipo: 1, clienteId: missingId, items: [item] }),
        400,
        "CLIENTE_REFERENCE_NOT_FOUND",
        () => `No se encontró el cliente ${missingId} en tu cuenta`,
      ],
      [
        "another account's customer",
        () => base({ cbteTipo: 1, clienteId: clienteAjeno, items: [item] }),
        400,
        "CLIENTE_REFERENCE_NOT_FOUND",
        () => `No se encontró el cliente ${clienteAjeno} en tu cuenta`,
      ],
      [
        "a deleted customer",
        () => base({ cbteTipo: 1, clienteId: clienteBorrado, items: [item] }),
        400,
        "CLIENTE_REFERENCE_NOT_FOUND",
        () => `No se encontró el cliente ${clienteBorrado} en tu cuenta`,
      ],
      [
        "a customer without VAT condition",
        () => base({ cbteTipo: 1, clienteId: clienteSinCondicion, items: [item] }),
        400,
        "CLIENTE_WITHOUT_CONDICION_IVA",
        () => `El cliente ${clienteSinCondicion} no tiene condición frente al IVA cargada`,
      ],
      [
        "a product that does not exist",
        () =>
          base({
            cbteTipo: 6,
            ...toConsumidorFinal,
            items: [{ productoId: missingId, cantidad: 1 }],
          }),
        400,
        "PRODUCTO_REFERENCE_NOT_FOUND",
        () => `No se encontró el producto ${missingId} en tu cuenta`,
      ],
      [
        "a product without VAT rate",
        () =>
          base({
            cbteTipo: 6,
            ...toConsumidorFinal,
            items: [{ productoId: productoSinAlicuota, cantidad: 1 }],
          }),
        400,
        "PRODUCTO_WITHOUT_ALICUOTA",
        () => `El producto ${productoSinAlicuota} no tiene alícuota de IVA cargada`,
      ],
      [
        "a VAT rate outside the list",
        () => base({ cbteTipo: 6, ...toConsumidorFinal, items: [{ ...item, alicuotaIva: 22 }] }),
        422,
        "TOTALS_INVALID",
        "0, 2.5, 5, 10.5, 21, 27",
      ],
      [
        "a class C voucher with VAT",
        () => base({ cbteTipo: 11, ...toConsumidorFinal, items: [item] }),
        422,
        "TOTALS_INVALID",
        "alicuotaIva 0",
      ],
      [
        "no items",
        () => base({ cbteTipo: 6, ...toConsumidorFinal, items: [] }),
        422,
        "TOTALS_INVALID",
        "El campo items",
      ],
      [
        "services without their dates",
        () => base({ cbteTipo: 6, concepto: 2, ...toConsumidorFinal, items: [item] }),
        422,
        "TOTALS_INVALID",
        "fchServDesde",
      ],
      [
        "a credit note without associated vouchers",
        () => base({ cbteTipo: 3, ...toResponsableInscripto, items: [item] }),
        422,
        "TOTALS_INVALID",
        "El campo comprobantesAsociados",
      ],
      [
        "a tribute whose amount is not base × rate",
        () =>
          base({
            cbteTipo: 6,
            ...toConsumidorFinal,
            items: [item],
            tributos: [{ id: 7, descripcion: "IIBB", baseImponible: 100, alicuota: 3, importe: 4 }],
          }),
        422,
        "TOTALS_INVALID",
        "importe",
      ],
      [
        "an fce block on a regular invoice",
        () =>
          base({
            cbteTipo: 1,
            ...toResponsableInscripto,
            fce: { cbu: "0170099220000067797370", opcionTransferencia: "SCA" },
            items: [item],
          }),
        422,
        "TOTALS_INVALID",
        "El campo fce",
      ],
      [
        "a raw opcional that contradicts the fce block",
        () =>
          base({
            cbteTipo: 201,
            fchVtoPago: today(30),
            ...toResponsableInscripto,
            fce: { cbu: "0170099220000067797370", opcionTransferencia: "SCA" },
            opcionales: [{ id: "27", valor: "ADC" }],
            items: [item],
          }),
        422,
        "TOTALS_INVALID",
        "contradice fce",
      ],
      [
        "an FCE invoice without fchVtoPago",
        () =>
          base({
            cbteTipo: 201,
            ...toResponsableInscripto,
            fce: { cbu: "0170099220000067797370", opcionTransferencia: "SCA" },
            items: [item],
          }),
        422,
        "TOTALS_INVALID",
        "fchVtoPago",
      ],
      [
        "an unsupported voucher type",
        () => base({ cbteTipo: 19, ...toConsumidorFinal, items: [item] }),
        400,
        "UNSUPPORTED_CBTE_TIPO",
        "201",
      ],
    ];

    it.each(cases)("%s", async (_name, body, status, code, message) => {
      const payload = body();
      const cbteTipo = payload.cbteTipo as number;
      const lastBefore = cbteTipo === 19 ? 0 : await ultimo(cbteTipo);
      const stored = await storedStates(PTO_VTA, cbteTipo);
      const calls = await authorityRequests();
      const response = await issue(payload);
      expect(response.status, response.text).toBe(status);
      const error = response.json<ErrorBody>();
      expect(error.code).toBe(code);
      expect(error.error).toContain(typeof message === "string" ? message : message());
      expect(await authorityRequests()).toBe(calls);
      expect(await storedStates(PTO_VTA, cbteTipo)).toEqual(stored);
      if (cbteTipo !== 19) expect(await ultimo(cbteTipo)).toBe(lastBefore);
    });

    it("a read_only key gets the issuance group's 403 before anything is asked", async () => {
      const calls = await authorityRequests();
      const response = await post(
        "/api/wsfe/facturas",
        base({ cbteTipo: 6, ...toConsumidorFinal, items: [item] }),
        account.ro,
      );
      expect(response.status).toBe(403);
      expect(response.json()).toEqual({
        error: "Esta API key es de solo lectura y no puede emitir comprobantes.",
        code: "READ_ONLY_KEY",
      });
      expect(await authorityRequests()).toBe(calls);
    });

    it("an Idempotency-Key over 255 characters is a 400 naming it; a valid one is stored", async () => {
      const calls = await authorityRequests();
      const body = base({ cbteTipo: 6, ...toConsumidorFinal, items: [item] });
      const tooLong = await issue(body, { "idempotency-key": "x".repeat(256) });
      expect(tooLong.status).toBe(400);
      expect(tooLong.json<ErrorBody>().error).toContain("Idempotency-Key");
      expect(await authorityRequests()).toBe(calls);
      const key = `pedido-${Date.now()}`;
      const ok = await issue(body, { "idempotency-key": key });
      expect(ok.status, ok.text).toBe(200);
      const [row] = await sql<{ idempotency_key: string; state: string }[]>`
        select idempotency_key, state from wsfe.comprobantes
        where cuit = ${issuer.cuit} and cbte_tipo = 6 and cbte_nro = ${ok.json<Issued>().cbteNro}
          and state = 'authorized'`;
      expect(row).toEqual({ idempotency_key: key, state: "authorized" });
    });
  });

  describe("the authority's own answers", () => {
    it("a rejection answers 422 with resultado R, observaciones and errores, and the 10016 hint", async () => {
      // the series already has a voucher dated today: an earlier date is not the next one
      await authorized(
        base({
          cbteTipo: 6,
          ...toConsumidorFinal,
          items: [{ descripcion: "x", cantidad: 1, precioUnitario: 10, alicuotaIva: 21 }],
        }),
      );
      const last = await ultimo(6);
      const response = await issue(
        base({
          cbteTipo: 6,
          cbteFch: today(-2),
          ...toConsumidorFinal,
          items: [{ descripcion: "x", cantidad: 1, precioUnitario: 10, alicuotaIva: 21 }],
        }),
      );
      expect(response.status, response.text).toBe(422);
      const body = response.json<Rejected>();
      expect(body.code).toBe("AUTHORITY_REJECTED");
      expect(body.resultado).toBe("R");
      expect(Array.isArray(body.observaciones)).toBe(true);
      // "not the next": reported in Errors, for the series' order
      expect(body.errores.map((e) => e.code)).toContain(10016);
      expect(body.error).toContain("/api/wsfe/ultimo-comprobante");
      expect(body.details).toMatchObject({ ptoVta: PTO_VTA, cbteTipo: 6, cbteNro: last + 1 });
      expect(await ultimo(6)).toBe(last);
      const [row] = await sql<{ state: string; errores: { code: number }[] }[]>`
        select state, errores from wsfe.comprobantes
        where cuit = ${issuer.cuit} and cbte_tipo = 6 and cbte_nro = ${last + 1} and state = 'rejected'`;
      expect(row?.errores.map((e) => e.code)).toContain(10016);
      // the number was given back: the next voucher takes it
      const next = await authorized(
        base({
          cbteTipo: 6,
          ...toConsumidorFinal,
          items: [{ descripcion: "x", cantidad: 1, precioUnitario: 10, alicuotaIva: 21 }],
        }),
      );
      expect(next.cbteNro).toBe(last + 1);
    });

    const faultBody = () =>
      base({
        ptoVta: FAULT_PTO_VTA,
        cbteTipo: 11,
        ...toConsumidorFinal,
        items: [{ descripcion: "Clase", cantidad: 1, precioUnitario: "1000", alicuotaIva: 0 }],
      });

    it("a FECAESolicitar that times out answers 502 and is stored unknown; the next issuance finds it never issued", async () => {
      const last = await ultimo(11, FAULT_PTO_VTA);
      await control.setFault(env, {
        service: "wsfe",
        mode: "timeout",
        operation: "FECAESolicitar",
      });
      let response;
      try {
        response = await issue(faultBody());
      } finally {
        await control.setFault(env, { service: "wsfe", mode: "none" });
      }
      expect(response.status, response.text).toBe(502);
      const error = response.json<ErrorBody>();
      expect(error.code).toBe("AUTHORITY_UNAVAILABLE");
      expect(error.error).toContain("pudo haber sido autorizado");
      expect(error.details).toMatchObject({ outcome: "unknown", cbteNro: last + 1 });
      expect(await storedStates(FAULT_PTO_VTA, 11)).toEqual([[last + 1, "unknown"]]);
      expect(
        (
          await sql`select needs_reconciliation from wsfe.series
        where cuit = ${issuer.cuit} and pto_vta = ${FAULT_PTO_VTA} and cbte_tipo = 11`
        )[0],
      ).toEqual({
        needs_reconciliation: true,
      });

      const next = await authorized(faultBody());
      expect(next.cbteNro).toBe(last + 1);
      expect(await storedStates(FAULT_PTO_VTA, 11)).toEqual([
        [last + 1, "not_issued"],
        [last + 1, "authorized"],
      ]);
    });

    it("a voucher authorized but whose answer was lost is adopted with its CAE before the next one", async () => {
      const last = await ultimo(11, FAULT_PTO_VTA);
      const before = await storedStates(FAULT_PTO_VTA, 11);
      await control.setFault(env, {
        service: "wsfe",
        mode: "drop-after-commit",
        operation: "FECAESolicitar",
      });
      let response;
      try {
        response = await issue(faultBody());
      } finally {
        await control.setFault(env, { service: "wsfe", mode: "none" });
      }
      expect(response.status, response.text).toBe(502);
      expect(response.json<ErrorBody>().details).toMatchObject({ outcome: "unknown" });
      // the authority did authorize it
      expect(await ultimo(11, FAULT_PTO_VTA)).toBe(last + 1);
      expect(await storedStates(FAULT_PTO_VTA, 11)).toEqual([...before, [last + 1, "unknown"]]);

      const next = await authorized(faultBody());
      expect(next.cbteNro).toBe(last + 2);
      expect(await storedStates(FAULT_PTO_VTA, 11)).toEqual([
        ...before,
        [last + 1, "authorized"],
        [last + 2, "authorized"],
      ]);
      const adopted = await lookup({ cbteTipo: 11, ptoVta: FAULT_PTO_VTA, cbteNro: last + 1 });
      const [row] = await sql<{ cae: string }[]>`
        select cae from wsfe.comprobantes where cuit = ${issuer.cuit} and pto_vta = ${FAULT_PTO_VTA}
          and cbte_tipo = 11 and cbte_nro = ${last + 1} and state = 'authorized'`;
      expect(row?.cae).toBe(adopted.codAutorizacion);
    });
  });

  describe("the API call's deadline", () => {
    it("FECAESolicitar is not sent once a whole authority timeout no longer fits: 502, nothing issued", async () => {
      const body = base({
        ptoVta: FAULT_PTO_VTA,
        cbteTipo: 11,
        ...toConsumidorFinal,
        items: [{ descripcion: "Clase", cantidad: 1, precioUnitario: "1000", alicuotaIva: 0 }],
      });
      const last = await ultimo(11, FAULT_PTO_VTA);
      const stored = await storedStates(FAULT_PTO_VTA, 11);
      const sent = async () => (await control.stats(env)).requests.FECAESolicitar ?? 0;
      const before = await sent();
      // the numbering query answers within its own timeout, but leaves less than 5 s + 2 s
      await control.setFault(env, { service: "wsfe", mode: "none", latencyMs: 4_000 });
      let response;
      try {
        response = await issue(body);
      } finally {
        await control.setFault(env, { service: "wsfe", mode: "none", latencyMs: 0 });
      }
      expect(response.status, response.text).toBe(502);
      const error = response.json<ErrorBody>();
      expect(error.code).toBe("AUTHORITY_UNAVAILABLE");
      expect(error.error).toContain("no se envió");
      expect(await sent()).toBe(before);
      expect(await storedStates(FAULT_PTO_VTA, 11)).toEqual(stored);
      expect(await ultimo(11, FAULT_PTO_VTA)).toBe(last);
    });
  });

  describe("a number taken outside the gateway", () => {
    it("is a conflict: the stranger's CAE is never adopted and the series moves on", async () => {
      const body = base({
        ptoVta: FAULT_PTO_VTA,
        cbteTipo: 11,
        ...toConsumidorFinal,
        items: [{ descripcion: "Clase", cantidad: 1, precioUnitario: "1000", alicuotaIva: 0 }],
      });
      const last = await ultimo(11, FAULT_PTO_VTA);
      const before = await storedStates(FAULT_PTO_VTA, 11);
      const sent = async () => (await control.stats(env)).requests.FECAESolicitar ?? 0;
      const sentBefore = await sent();
      await control.setFault(env, {
        service: "wsfe",
        mode: "timeout",
        operation: "FECAESolicitar",
      });
      try {
        const call = issue(body);
        // once the gateway's send is held unanswered, nothing may reconcile the series until
        // the stranger has the number (the periodic sweep could otherwise find it unused first)
        await expect.poll(sent, { timeout: 10_000, interval: 50 }).toBeGreaterThan(sentBefore);
        await control.setFault(env, {
          service: "wsfe",
          mode: "unavailable",
          operation: "FECompUltimoAutorizado",
        });
        const lost = await call;
        expect(lost.status, lost.text).toBe(502);
        // another system issues that number at the authority, for another amount
        await seed.facturaC(
          { accountId: account.accountId, cuit: issuer.cuit, environment: env },
          FAULT_PTO_VTA,
          last + 1,
          777,
        );
      } finally {
        await control.setFault(env, { service: "wsfe", mode: "none" });
      }
      const next = await authorized(body);
      expect(next.cbteNro).toBe(last + 2);
      expect(await storedStates(FAULT_PTO_VTA, 11)).toEqual([
        ...before,
        [last + 1, "conflict"],
        [last + 2, "authorized"],
      ]);
      const [row] = await sql<{ cae: string | null }[]>`
        select cae from wsfe.comprobantes where cuit = ${issuer.cuit} and pto_vta = ${FAULT_PTO_VTA}
          and cbte_tipo = 11 and cbte_nro = ${last + 1} and state = 'conflict'`;
      expect(row).toEqual({ cae: null });
    });
  });

  describe("events", () => {
    it("every authorized and rejected voucher is published once, read by a durable consumer", async () => {
      const expected = await sql<
        { id: string; state: string; cae: string | null; cbte_nro: string }[]
      >`
        select id, state, cae, cbte_nro from wsfe.comprobantes
        where state in ('authorized', 'rejected')`;
      expect(expected.length).toBeGreaterThan(10);
      const consumer = await bus
        .jetstream()
        .consumers.get(bus.eventStreamName(), "e2e-comprobantes");
      const seen = new Map<string, Record<string, unknown>[]>();
      await eventually("every outcome event", async () => {
        const batch = await consumer.fetch({ max_messages: 100, expires: 1_000 });
        for await (const message of batch as AsyncIterable<JsMsg>) {
          const event = message.json<Record<string, unknown>>();
          const id = String(event.id);
          seen.set(id, [...(seen.get(id) ?? []), event]);
          message.ack();
        }
        return expected.every((v) =>
          seen.has(
            `wsfe.comprobante.${v.state === "authorized" ? "autorizado" : "rechazado"}.${v.id}`,
          ),
        )
          ? true
          : undefined;
      });
      for (const v of expected) {
        const outcome = v.state === "authorized" ? "autorizado" : "rechazado";
        const events = seen.get(`wsfe.comprobante.${outcome}.${v.id}`)!;
        expect(events).toHaveLength(1);
        expect(events[0]).toMatchObject({
          version: 1,
          comprobanteId: v.id,
          accountId: account.accountId,
          environment: env,
          representada: issuer.cuit,
          cbteNro: Number(v.cbte_nro),
          ...(v.cae ? { cae: v.cae } : {}),
        });
      }
      const unpublished = await sql`select id from wsfe.comprobantes
        where state in ('authorized', 'rejected') and event_published_at is null`;
      expect(unpublished).toEqual([]);
    });
  });
});
