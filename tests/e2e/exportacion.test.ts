import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { makeControlClient, type ControlClient } from "@pasarela/authority-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  http,
  newAccount,
  register,
  scratch,
  simStats,
  type Account,
  type ErrorBody,
  type HttpAnswer,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { newUser, PanelClient } from "../support/panel.js";
import { seeder, type Seeder } from "../support/seed.js";
import { pdfQr, pdfText, qrPayload } from "../support/pdf.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { argentinaToday, facturaEServicios, type IssuedExport } from "../support/exportacion.js";

const env = "homologacion" as const;
const PTO_VTA = 7;
/** a point of sale another system also issues on */
const SHARED_PTO_VTA = 8;
/** the simulator's rate of the day for DOL, set by the test */
const DOLAR = "1052.75";

type Issued = IssuedExport;

/**
 * Export vouchers through the running stack: POST /api/wsfex/facturas numbers, sends
 * (FEXAuthorize against the simulator, over HTTP) and answers the CAE; every rule the gateway
 * judges answers before the simulator hears of it; a key replays; a dropped answer is settled
 * with the same request Id; the voucher is printed in its language, looked up and listed.
 */
describe("export vouchers end to end", { timeout: 180_000 }, () => {
  let stack: E2EStack;
  let dir: Scratch;
  let control: ControlClient;
  let account: Account;
  let rep: Registered;
  let seed: Seeder;

  beforeAll(async () => {
    stack = await startE2EStack({ env: { LOG_LEVEL: "warn", AUTHORITY_TIMEOUT_MS: "5000" } });
    dir = scratch();
    control = makeControlClient(stack.simulatorUrl!);
    account = await newAccount(stack, "Exportadora");
    rep = await register(stack, dir, {
      accountId: account.accountId,
      environment: env,
      delegate: ["wsfex"],
      pos: [
        { ptoVta: PTO_VTA, service: "wsfex" },
        { ptoVta: SHARED_PTO_VTA, service: "wsfex" },
      ],
    });
    seed = await seeder(stack);
    await control.setCotizacion(env, { monId: "DOL", cotiz: Number(DOLAR) });
  });

  afterAll(async () => {
    await seed?.close();
    await stack?.teardown();
    dir?.remove();
  });

  const servicios = (extra: Record<string, unknown> = {}) =>
    facturaEServicios({ environment: env, representada: rep.cuit, ptoVta: PTO_VTA }, extra);

  const bienes = (extra: Record<string, unknown> = {}) => ({
    environment: env,
    representada: rep.cuit,
    ptoVta: PTO_VTA,
    cbteTipo: 19,
    tipoExpo: 1,
    permisoExistente: "S",
    permisos: [{ idPermiso: "26001EC01000123A", dstMerc: 203 }],
    dstCmp: 203,
    cliente: {
      razonSocial: "Importadora Paulista Ltda.",
      domicilio: "Av. Paulista 1000, São Paulo",
      cuitPais: "55000000050",
    },
    moneda: "DOL",
    cotizacion: "1050.25",
    idioma: 3,
    incoterms: "FOB",
    incotermsDs: "Buenos Aires",
    formaPago: "Carta de crédito",
    items: [
      {
        descripcion: "Vino Malbec 750 ml",
        cantidad: 1200,
        unidadMedida: 7,
        precioUnitario: "6.80",
        bonificacion: "120",
      },
    ],
    ...extra,
  });

  async function issue(body: unknown, key?: string, who: Account = account): Promise<HttpAnswer> {
    const response = await fetch(`${stack.edgeUrl}/api/wsfex/facturas`, {
      method: "POST",
      headers: {
        authorization: who.rw,
        "content-type": "application/json",
        ...(key === undefined ? {} : { "idempotency-key": key }),
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, json: <T>() => JSON.parse(text) as T };
  }

  const authorizeCalls = async () => (await simStats(stack, env)).requests["FEXAuthorize"] ?? 0;
  const heldBySimulator = async () =>
    (await control.exportVouchers(env)).series[`${rep.cuit}|${PTO_VTA}|19`]?.vouchers ?? [];

  let servicesInvoice: Issued;
  let goodsInvoice: Issued;

  it("a Factura E for services in USD in English: the rate of the day, exact totals, the QR", async () => {
    const issued = await issue(servicios());
    expect(issued.status, issued.text).toBe(200);
    servicesInvoice = issued.json<Issued>();
    expect(servicesInvoice).toMatchObject({
      resultado: "A",
      cbteTipo: 19,
      ptoVta: PTO_VTA,
      cbteNro: 1,
      // 3 × 33.33 − 0.99, exactly
      impTotal: 99,
      moneda: "DOL",
      cotizacion: Number(DOLAR),
    });
    expect(servicesInvoice.cae).toMatch(/^\d{14}$/);
    expect(servicesInvoice.pdfUrl).toMatch(/^https?:\/\//);
    const held = await heldBySimulator();
    expect(held.map((v) => [v.cbteNro, v.cae])).toEqual([[1, servicesInvoice.cae]]);
    const payload = qrPayload(servicesInvoice.qr);
    expect(payload).toMatchObject({
      tipoCmp: 19,
      nroCmp: 1,
      importe: 99,
      moneda: "DOL",
      ctz: Number(DOLAR),
      tipoCodAut: "E",
      codAut: Number(servicesInvoice.cae),
    });
  });

  it("a Factura E for goods with a shipping permit and incoterms, and a credit note E on it", async () => {
    const goods = await issue(bienes());
    expect(goods.status, goods.text).toBe(200);
    goodsInvoice = goods.json<Issued>();
    expect(goodsInvoice).toMatchObject({ cbteNro: 2, impTotal: 8040, cotizacion: 1050.25 });

    const note = await issue(
      bienes({
        cbteTipo: 21,
        permisoExistente: undefined,
        permisos: undefined,
        incoterms: undefined,
        incotermsDs: undefined,
        comprobantesAsociados: [{ cbteTipo: 19, ptoVta: PTO_VTA, cbteNro: 2, cuit: rep.cuit }],
        items: [
          { descripcion: "Botellas rotas", cantidad: 10, unidadMedida: 7, precioUnitario: "6.80" },
        ],
      }),
    );
    expect(note.status, note.text).toBe(200);
    // its own series: the first credit note E of the point of sale
    expect(note.json<Issued>()).toMatchObject({ cbteTipo: 21, cbteNro: 1, impTotal: 68 });
  });

  it.each([
    ["servicios sin fechaPago", () => servicios({ fechaPago: undefined }), 422, "fechaPago"],
    ["bienes sin Incoterms", () => bienes({ incoterms: undefined }), 422, "incoterms"],
    ["factura sin formaPago", () => servicios({ formaPago: undefined }), 422, "formaPago"],
    [
      "permiso con formato inválido",
      () => bienes({ permisos: [{ idPermiso: "123", dstMerc: 203 }] }),
      400,
      "idPermiso",
    ],
    ["permisoExistente S sin permisos", () => bienes({ permisos: [] }), 422, "permisos"],
    [
      "permisoExistente en servicios",
      () => servicios({ permisoExistente: "N" }),
      422,
      "permisoExistente",
    ],
    [
      "nota de crédito sin comprobante asociado",
      () => servicios({ cbteTipo: 21 }),
      422,
      "comprobantesAsociados",
    ],
    [
      "cliente sin cuitPais ni idImpositivo",
      () => servicios({ cliente: { razonSocial: "X", domicilio: "Y" } }),
      400,
      "cuitPais",
    ],
    [
      "PES con cotización distinta de 1",
      () => servicios({ moneda: "PES", cotizacion: "2" }),
      422,
      "cotizacion",
    ],
    ["sin ítems", () => servicios({ items: [] }), 422, "items"],
    [
      "bonificación mayor que el ítem",
      () =>
        servicios({
          items: [
            {
              descripcion: "x",
              cantidad: 1,
              unidadMedida: 7,
              precioUnitario: "10",
              bonificacion: "11",
            },
          ],
        }),
      422,
      "bonificacion",
    ],
    [
      "fecha fuera de la ventana",
      () => servicios({ cbteFch: "20200101", fechaPago: "20200101" }),
      422,
      "cbteFch",
    ],
    ["tipo que no es de exportación", () => servicios({ cbteTipo: 11 }), 400, "cbteTipo"],
    ["tipoExpo inválido", () => servicios({ tipoExpo: 3 }), 400, "tipoExpo"],
    ["idioma inválido", () => servicios({ idioma: 4 }), 400, "idioma"],
  ])(
    "%s: answered naming the field, and the simulator is not called",
    async (_name, body, status, field) => {
      const before = await authorizeCalls();
      const answer = await issue(body(), `rule-${randomUUID()}`);
      expect(answer.status, answer.text).toBe(status);
      expect(answer.text).toContain(field);
      expect(await authorizeCalls()).toBe(before);
    },
  );

  it("a rejection by the authority is a 422 with resultado R and its code; numbering moves on", async () => {
    const before = await heldBySimulator();
    // a destination the authority's country table does not have: FEXAuthorize answers 1560
    const rejected = await issue(servicios({ dstCmp: 999 }), `rechazo-${randomUUID()}`);
    expect(rejected.status, rejected.text).toBe(422);
    const body = rejected.json<{ resultado: string; errores: { code: number; msg: string }[] }>();
    expect(body.resultado).toBe("R");
    expect(body.errores.map((e) => e.code)).toEqual([1560]);
    expect(await heldBySimulator()).toEqual(before);
    const next = await issue(servicios());
    expect(next.status, next.text).toBe(200);
    expect(next.json<Issued>().cbteNro).toBe(before.length + 1);
  });

  it("a read-only key cannot issue", async () => {
    const response = await fetch(`${stack.edgeUrl}/api/wsfex/facturas`, {
      method: "POST",
      headers: { authorization: account.ro, "content-type": "application/json" },
      body: JSON.stringify(servicios()),
    });
    expect(response.status).toBe(403);
    expect((await response.json()) as ErrorBody).toMatchObject({
      error: "Esta API key es de solo lectura y no puede emitir comprobantes.",
    });
  });

  it("an Idempotency-Key replays the answer; another body under it is a 422", async () => {
    const key = `pedido-${randomUUID()}`;
    const first = await issue(servicios(), key);
    expect(first.status, first.text).toBe(200);
    const before = await authorizeCalls();
    const again = await issue(servicios(), key);
    expect(again.status).toBe(200);
    expect(again.json<Issued>()).toEqual(first.json<Issued>());
    expect(await authorizeCalls()).toBe(before);
    const other = await issue(servicios({ obs: "otro cuerpo" }), key);
    expect(other.status, other.text).toBe(422);
    expect(other.json<ErrorBody>().code).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it("drop-after-commit → 502; the same key settles it with the same request Id: same CAE, one voucher", async () => {
    const key = `dropped-${randomUUID()}`;
    const heldBefore = (await heldBySimulator()).length;
    await control.setFault(env, {
      service: "wsfex",
      mode: "drop-after-commit",
      operation: "FEXAuthorize",
    });
    let lost: HttpAnswer;
    try {
      lost = await issue(servicios({ obs: "caída" }), key);
    } finally {
      await control.setFault(env, { service: "wsfex", mode: "none" });
    }
    expect(lost.status, lost.text).toBe(502);
    expect(lost.json<ErrorBody>().details).toMatchObject({ outcome: "unknown" });
    const held = await heldBySimulator();
    expect(held).toHaveLength(heldBefore + 1);
    const granted = held.at(-1)!;

    const retried = await issue(servicios({ obs: "caída" }), key);
    expect(retried.status, retried.text).toBe(200);
    expect(retried.json<Issued>()).toMatchObject({ cbteNro: granted.cbteNro, cae: granted.cae });
    expect(await heldBySimulator()).toHaveLength(heldBefore + 1);
    const again = await issue(servicios({ obs: "caída" }), key);
    expect(again.json<Issued>().cae).toBe(granted.cae);
  });

  it("a stranger's voucher on the number is a conflict: never adopted, the voucher issued anew", async () => {
    const key = `stranger-${randomUUID()}`;
    const body = servicios({ ptoVta: SHARED_PTO_VTA });
    await control.setFault(env, { service: "wsfex", mode: "timeout", operation: "FEXAuthorize" });
    let lost: HttpAnswer;
    try {
      lost = await issue(body, key);
    } finally {
      await control.setFault(env, { service: "wsfex", mode: "none" });
    }
    expect(lost.status, lost.text).toBe(502);
    expect(lost.json<ErrorBody>().details).toMatchObject({ outcome: "unknown", cbteNro: 1 });
    // another system takes that number at the authority, for another client and amount
    await seed.facturaE(
      { accountId: account.accountId, cuit: rep.cuit, environment: env },
      SHARED_PTO_VTA,
      1,
    );
    const series = `${rep.cuit}|${SHARED_PTO_VTA}|19`;
    const stranger = (await control.exportVouchers(env)).series[series]!.vouchers[0]!;
    const retried = await issue(body, key);
    expect(retried.status, retried.text).toBe(200);
    const issued = retried.json<Issued>();
    expect(issued.cbteNro).toBe(2);
    expect(issued.cae).not.toBe(stranger.cae);
    const held = (await control.exportVouchers(env)).series[series]!.vouchers;
    expect(held.map((v) => [v.cbteNro, v.cae])).toEqual([
      [1, stranger.cae],
      [2, issued.cae],
    ]);
  });

  it("the PDF says FACTURA E in English, with the customer's country, tax id, currency, rate and QR", async () => {
    const printed = await fetch(`${stack.edgeUrl}/api/wsfe/comprobantes/pdf`, {
      method: "POST",
      headers: { authorization: account.ro, "content-type": "application/json" },
      body: JSON.stringify({
        environment: env,
        representada: rep.cuit,
        ptoVta: PTO_VTA,
        cbteTipo: 19,
        cbteNro: servicesInvoice.cbteNro,
      }),
    });
    expect(printed.status, await printed.clone().text()).toBe(200);
    const file = dir.file(`e-${randomUUID()}.pdf`, "");
    writeFileSync(file, Buffer.from(await printed.arrayBuffer()));
    const text = pdfText(file);
    expect(text).toContain("E");
    expect(text).toContain("EXPORT INVOICE");
    expect(text).toContain("Acme Software Inc.");
    expect(text).toContain("94-1234567");
    expect(text).toMatch(/ESTADOS UNIDOS|UNITED STATES/i);
    expect(text).toContain("DOL");
    expect(text).toContain(servicesInvoice.cae);
    const qr = pdfQr(file);
    expect(qr).toBe(servicesInvoice.qr);
  });

  it("every request example of the API document for POST /api/wsfex/facturas is issued", async () => {
    const document = (await (await fetch(`${stack.edgeUrl}/docs/json`)).json()) as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content?: Record<string, { examples?: object }> } }>
      >;
    };
    const examples = Object.entries(
      document.paths["/api/wsfex/facturas"]?.post?.requestBody?.content?.["application/json"]
        ?.examples ?? {},
    ) as [string, { value: Record<string, unknown> }][];
    expect(examples.map(([name]) => name)).toEqual(["servicios", "bienes", "notaDeCredito"]);
    for (const [name, { value }] of examples) {
      // this run's representada and point of sale; a payment date and a note's invoice that
      // exist today
      const body = {
        ...value,
        representada: rep.cuit,
        ptoVta: PTO_VTA,
        ...(value.fechaPago === undefined ? {} : { fechaPago: argentinaToday() }),
        ...(value.comprobantesAsociados === undefined
          ? {}
          : {
              comprobantesAsociados: [
                { cbteTipo: 19, ptoVta: PTO_VTA, cbteNro: servicesInvoice.cbteNro, cuit: rep.cuit },
              ],
            }),
      };
      const issued = await issue(body);
      expect(issued.status, `${name}: ${issued.text}`).toBe(200);
      expect(issued.json<Issued>().cae).toMatch(/^\d{14}$/);
    }
  });

  it("the lookup answers the authority's copy, and the list shows export vouchers with the others", async () => {
    const lookup = await http(stack, "POST", "/api/wsfex/comprobante", account.ro, {
      environment: env,
      representada: rep.cuit,
      ptoVta: PTO_VTA,
      cbteTipo: 19,
      cbteNro: goodsInvoice.cbteNro,
    });
    expect(lookup.status, lookup.text).toBe(200);
    expect(lookup.text).toContain(goodsInvoice.cae);

    const listed = await http(
      stack,
      "GET",
      `/api/wsfe/comprobantes?environment=${env}&representada=${rep.cuit}&cbteTipo=19`,
      account.ro,
    );
    expect(listed.status, listed.text).toBe(200);
    const items = listed.json<{ items: { cbteNro: number; cae: string | null }[] }>().items;
    expect(items.map((i) => i.cbteNro)).toContain(goodsInvoice.cbteNro);
    expect(listed.text).toContain("Importadora Paulista Ltda.");
  });

  it("the panel's Comprobantes page shows them by name, with their currency", async () => {
    const user = newUser("Exportadora");
    await stack.admin(
      "user",
      "add",
      "--account",
      account.accountId,
      "--email",
      user.email,
      "--name",
      user.name,
      "--password",
      user.password,
    );
    const panel = new PanelClient(stack.edgeUrl);
    const login = await panel.login(user.email, user.password);
    expect(login.status, login.text).toBe(303);
    const page = await panel.get(`/panel/comprobantes?entorno=${env}&tipo=19`);
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain("Factura E");
    expect(page.text).toContain("Importadora Paulista Ltda.");
    expect(page.text).toMatch(/US\$|DOL/);
  });
});
