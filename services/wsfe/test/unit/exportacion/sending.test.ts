import { wsfe, wsfex } from "@pasarela/contracts";
import { describe, expect, it } from "vitest";
import { emitidoOf, type StoredVoucher } from "../../../src/domain/emitido.js";
import {
  exportacionReply,
  fexCmp,
  isSameExportacion,
  summaryOf,
  type HeldExportacion,
} from "../../../src/domain/exportacion/index.js";
import { CUIT_URUGUAY, facturaE, notaCreditoE, prepared, REPRESENTADA, TODAY } from "./fixtures.js";

const CAE = "76123456789012";
const numbering = { id: 1234, cbteNro: 43, ptoVta: 7, cotizacion: "1050.25" };

const decodeQr = (url: string): unknown => {
  expect(url.startsWith("https://www.afip.gob.ar/fe/qr/?p=")).toBe(true);
  return JSON.parse(Buffer.from(url.split("?p=")[1] ?? "", "base64").toString("utf8"));
};

describe("fexCmp: the ClsFEXRequest as sent", () => {
  it("builds every element of an invoice of goods, in WSDL order", () => {
    const voucher = prepared({
      ...facturaE,
      incotermsDs: "Puerto de Bs. As.",
      obsComerciales: "Pago anticipado",
      obs: "Sin observaciones",
      canMisMonExt: "N",
      opcionales: [{ id: 2401, valor: "ABC" }],
      actividades: [11111],
    });
    const cmp = fexCmp(voucher, numbering);
    expect(cmp).toStrictEqual({
      Id: 1234,
      Fecha_cbte: TODAY,
      Cbte_Tipo: 19,
      Punto_vta: 7,
      Cbte_nro: 43,
      Tipo_expo: 1,
      Permiso_existente: "S",
      Permisos: [{ Id_permiso: "26001EC01000123A", Dst_merc: 225 }],
      Dst_cmp: 225,
      Cliente: "Importadora del Plata SA",
      Cuit_pais_cliente: CUIT_URUGUAY,
      Domicilio_cliente: "Av. 18 de Julio 1234, Montevideo",
      Moneda_Id: "DOL",
      Moneda_ctz: "1050.25",
      CanMisMonExt: "N",
      Obs_comerciales: "Pago anticipado",
      Imp_total: "124.01",
      Obs: "Sin observaciones",
      Cmps_asoc: [],
      Forma_pago: "Transferencia a 30 días",
      Incoterms: "FOB",
      Incoterms_Ds: "Puerto de Bs. As.",
      Idioma_cbte: 1,
      Items: [
        {
          Pro_codigo: "VINO-1",
          Pro_ds: "Vino tinto",
          Pro_qty: "3",
          Pro_umed: 7,
          Pro_precio_uni: "33.33",
          Pro_bonificacion: "0.99",
          Pro_total_item: "99.00",
        },
        {
          Pro_ds: "Aceite de oliva",
          Pro_qty: "2.5",
          Pro_umed: 5,
          Pro_precio_uni: "10.005",
          Pro_bonificacion: "0",
          Pro_total_item: "25.01",
        },
      ],
      Opcionales: [{ Id: "2401", Valor: "ABC" }],
      Actividades: [{ Id: 11111 }],
    });
    // the keys' order is the WSDL's
    expect(Object.keys(cmp)).toEqual([
      "Id",
      "Fecha_cbte",
      "Cbte_Tipo",
      "Punto_vta",
      "Cbte_nro",
      "Tipo_expo",
      "Permiso_existente",
      "Permisos",
      "Dst_cmp",
      "Cliente",
      "Cuit_pais_cliente",
      "Domicilio_cliente",
      "Moneda_Id",
      "Moneda_ctz",
      "CanMisMonExt",
      "Obs_comerciales",
      "Imp_total",
      "Obs",
      "Cmps_asoc",
      "Forma_pago",
      "Incoterms",
      "Incoterms_Ds",
      "Idioma_cbte",
      "Items",
      "Opcionales",
      "Actividades",
    ]);
    expect(wsfex.fexCmpSchema.parse(cmp)).toEqual(cmp);
  });

  it("a note of services: empty permit answer, its associations, the tax id, the payment date absent", () => {
    const cmp = fexCmp(prepared({ ...notaCreditoE, cbteFch: "20260315" }), {
      ...numbering,
      cotizacion: "1049.5000",
    });
    expect(cmp).toMatchObject({
      Cbte_Tipo: 21,
      Fecha_cbte: "20260315",
      Tipo_expo: 2,
      Permiso_existente: "",
      Permisos: [],
      Id_impositivo: "12.345.678/0001-90",
      Moneda_ctz: "1049.5",
      Cmps_asoc: [{ Cbte_tipo: 19, Cbte_punto_vta: 7, Cbte_nro: 42 }],
      Idioma_cbte: 3,
      Imp_total: "500.00",
    });
    for (const absent of [
      "Cuit_pais_cliente",
      "Forma_pago",
      "Incoterms",
      "Fecha_pago",
      "CanMisMonExt",
    ]) {
      expect(cmp).not.toHaveProperty(absent);
    }
    expect(wsfex.fexCmpSchema.safeParse(cmp).success).toBe(true);
  });

  it("sends an invoice of services' payment date and an association's CUIT", () => {
    const voucher = prepared({
      ...notaCreditoE,
      cbteTipo: 20,
      comprobantesAsociados: [{ cbteTipo: 19, ptoVta: 7, cbteNro: 42, cuit: REPRESENTADA }],
    });
    expect(fexCmp(voucher, numbering).Cmps_asoc).toEqual([
      { Cbte_tipo: 19, Cbte_punto_vta: 7, Cbte_nro: 42, Cbte_cuit: REPRESENTADA },
    ]);
    const servicios = prepared({
      ...facturaE,
      tipoExpo: 4,
      permisoExistente: undefined,
      permisos: undefined,
      fechaPago: "20260320",
    });
    expect(fexCmp(servicios, numbering)).toMatchObject({ Tipo_expo: 4, Fecha_pago: "20260320" });
  });

  it("refuses a rate other than the voucher's own, and a malformed id", () => {
    const voucher = prepared(facturaE);
    expect(() => fexCmp(voucher, { ...numbering, cotizacion: "1000" })).toThrow(/differs/);
    expect(() => fexCmp(voucher, { ...numbering, cotizacion: "0" })).toThrow(/positive/);
    expect(() => fexCmp(voucher, { ...numbering, id: -1 })).toThrow(/15 digits/);
    expect(() => fexCmp(voucher, { ...numbering, id: 10 ** 15 })).toThrow(/15 digits/);
    // the authority's rate of the day when the voucher has none
    const sinCotizacion = prepared({ ...facturaE, cotizacion: undefined });
    expect(fexCmp(sinCotizacion, { ...numbering, cotizacion: "1061.5" }).Moneda_ctz).toBe("1061.5");
  });
});

describe("summaryOf: the voucher table's columns", () => {
  it("an export voucher to a country CUIT, of goods", () => {
    expect(summaryOf(fexCmp(prepared(facturaE), numbering))).toEqual({
      concepto: 1,
      cbteFch: TODAY,
      docTipo: 80,
      docNro: CUIT_URUGUAY,
      monedaId: "DOL",
      monedaCotizacion: "1050.25",
      impTotal: "124.01",
      impNeto: "0.00",
      impIVA: "0.00",
      impTrib: "0.00",
      impTotConc: "0.00",
      impOpEx: "0.00",
    });
  });

  it("a customer known by its tax id only, of services", () => {
    const summary = summaryOf(fexCmp(prepared(notaCreditoE), { ...numbering, cotizacion: "1000" }));
    expect(summary).toMatchObject({ concepto: 2, docTipo: 99, docNro: "0", impTotal: "500.00" });
  });
});

describe("exportacionReply and its RG 4892 QR", () => {
  const granted = {
    cuit: REPRESENTADA,
    ptoVta: 7,
    cbteNro: 43,
    cotizacion: "1050.25",
    cae: CAE,
    caeVencimiento: "20260326",
    observaciones: [{ code: 17, msg: "Observación" }],
  };

  it("answers the authorized voucher with the QR naming the country CUIT", () => {
    const reply = exportacionReply(prepared(facturaE), granted);
    expect(wsfe.exportacionIssueReplySchema.parse(reply)).toEqual(reply);
    expect(reply).toMatchObject({
      resultado: "A",
      cae: CAE,
      caeVencimiento: "20260326",
      cbteNro: 43,
      ptoVta: 7,
      cbteTipo: 19,
      cbteFch: TODAY,
      impTotal: "124.01",
      moneda: "DOL",
      cotizacion: "1050.25",
      observaciones: [{ code: 17, msg: "Observación" }],
    });
    expect(decodeQr(reply.qr)).toStrictEqual({
      ver: 1,
      fecha: "2026-03-16",
      cuit: Number(REPRESENTADA),
      ptoVta: 7,
      tipoCmp: 19,
      nroCmp: 43,
      importe: 124.01,
      moneda: "DOL",
      ctz: 1050.25,
      tipoDocRec: 80,
      nroDocRec: Number(CUIT_URUGUAY),
      tipoCodAut: "E",
      codAut: Number(CAE),
    });
  });

  it("leaves the receiver out of the QR when the customer has only a foreign tax id", () => {
    const reply = exportacionReply(prepared(notaCreditoE), { ...granted, cotizacion: "1000" });
    const qr = decodeQr(reply.qr) as Record<string, unknown>;
    expect(qr).toMatchObject({
      tipoCmp: 21,
      importe: 500,
      ctz: 1000,
      moneda: "DOL",
      tipoCodAut: "E",
    });
    expect(qr).not.toHaveProperty("tipoDocRec");
    expect(qr).not.toHaveProperty("nroDocRec");
  });
});

describe("emitidoOf an export voucher", () => {
  const storedFrom = (body: Record<string, unknown>, state = "authorized"): StoredVoucher => {
    const voucher = { ...prepared(body), emisor: undefined };
    const sent = fexCmp(voucher, numbering);
    const summary = summaryOf(sent);
    return {
      series: {
        environment: "homologacion",
        cuit: REPRESENTADA,
        ptoVta: 7,
        cbteTipo: voucher.cbteTipo,
      },
      cbteNro: 43,
      state,
      cbteFch: summary.cbteFch,
      docTipo: summary.docTipo,
      docNro: summary.docNro,
      moneda: { id: summary.monedaId, cotizacion: summary.monedaCotizacion },
      totales: {
        impTotal: summary.impTotal,
        impNeto: summary.impNeto,
        impIVA: summary.impIVA,
        impTrib: summary.impTrib,
        impTotConc: summary.impTotConc,
        impOpEx: summary.impOpEx,
      },
      // the repository keeps both as JSON
      request: JSON.parse(JSON.stringify(voucher)) as unknown,
      sent: JSON.parse(JSON.stringify(sent)) as unknown,
      cae: state === "authorized" ? CAE : null,
      caeVencimiento: state === "authorized" ? "20260326" : null,
    };
  };

  it("reads the export block, a foreign receiver and lines without VAT", () => {
    const emitido = emitidoOf(
      storedFrom({ ...facturaE, incotermsDs: "Puerto", canMisMonExt: "S" }),
    );
    expect(wsfe.emitidoSchema.parse(emitido)).toEqual(emitido);
    expect(emitido).toMatchObject({
      state: "authorized",
      cbteTipo: 19,
      cbteNro: 43,
      concepto: 1,
      cbteFch: TODAY,
      receptor: {
        docTipo: 80,
        docNro: CUIT_URUGUAY,
        condicionIvaReceptorId: 9,
        razonSocial: "Importadora del Plata SA",
        domicilio: "Av. 18 de Julio 1234, Montevideo",
      },
      iva: [],
      tributos: [],
      totales: {
        impTotal: "124.01",
        impNeto: "0.00",
        impIVA: "0.00",
        impTrib: "0.00",
        impTotConc: "0.00",
        impOpEx: "0.00",
      },
      moneda: { id: "DOL", cotizacion: "1050.25" },
      cae: CAE,
      emisor: null,
      exportacion: {
        tipoExpo: 1,
        permisoExistente: "S",
        permisos: [{ idPermiso: "26001EC01000123A", dstMerc: 225 }],
        dstCmp: 225,
        cliente: {
          razonSocial: "Importadora del Plata SA",
          domicilio: "Av. 18 de Julio 1234, Montevideo",
          cuitPais: CUIT_URUGUAY,
        },
        idioma: 1,
        incoterms: "FOB",
        incotermsDs: "Puerto",
        formaPago: "Transferencia a 30 días",
        canMisMonExt: "S",
        actividades: [],
        id: 1234,
      },
    });
    expect(emitido.items[0]).toStrictEqual({
      codigo: "VINO-1",
      descripcion: "Vino tinto",
      cantidad: "3",
      precioUnitario: "33.33",
      bonificacion: "0.99",
      unidadMedida: "7",
      importe: "99.00",
    });
    expect(emitido.items[1]).not.toHaveProperty("alicuotaIva");
    // the same QR the reply gave
    const reply = exportacionReply(prepared(facturaE), {
      cuit: REPRESENTADA,
      ptoVta: 7,
      cbteNro: 43,
      cotizacion: "1050.25",
      cae: CAE,
      caeVencimiento: "20260326",
      observaciones: [],
    });
    expect(emitido.qr).toBe(reply.qr);
  });

  it("a rejected note of services: concepto 2, no QR, receiver 99/0, its associations", () => {
    const emitido = emitidoOf(storedFrom({ ...notaCreditoE, cotizacion: "1050.25" }, "rejected"));
    expect(emitido).toMatchObject({
      state: "rejected",
      concepto: 2,
      qr: null,
      cae: null,
      receptor: { docTipo: 99, docNro: "0", condicionIvaReceptorId: 9 },
      comprobantesAsociados: [{ cbteTipo: 19, ptoVta: 7, cbteNro: 42 }],
      exportacion: { tipoExpo: 2, cliente: { idImpositivo: "12.345.678/0001-90" }, idioma: 3 },
    });
    expect(emitido.exportacion).not.toHaveProperty("permisoExistente");
  });

  it("an export voucher stored without what it was sent as is a broken record", () => {
    const stored = storedFrom(facturaE);
    expect(() => emitidoOf({ ...stored, sent: undefined })).toThrow(/Cmp/);
  });
});

describe("isSameExportacion: the voucher the authority holds is the one sent", () => {
  const sent = fexCmp(prepared(facturaE), numbering);
  const held: HeldExportacion = {
    cae: CAE,
    cbteNro: 43,
    fechaCbte: TODAY,
    impTotal: "124.010",
    monedaId: "DOL",
    cuitPaisCliente: CUIT_URUGUAY,
    resultado: "A",
  };

  it("recognises it, amounts compared as decimals", () => {
    expect(isSameExportacion(sent, held)).toBe(true);
    expect(isSameExportacion(sent, { ...held, idImpositivo: "" })).toBe(true);
  });

  it.each<[string, Partial<HeldExportacion>]>([
    ["not authorized", { resultado: "R" }],
    ["without a CAE", { cae: "" }],
    ["another number", { cbteNro: 44 }],
    ["another date", { fechaCbte: "20260315" }],
    ["another amount", { impTotal: "124.02" }],
    ["an amount that is not one", { impTotal: "" }],
    ["another currency", { monedaId: "PES" }],
    ["another country CUIT", { cuitPaisCliente: "55000000018" }],
    ["no country CUIT", { cuitPaisCliente: undefined }],
    ["a tax id never sent", { idImpositivo: "RUT 1" }],
  ])("refuses one %s", (_why, change) => {
    expect(isSameExportacion(sent, { ...held, ...change })).toBe(false);
  });

  it("a customer known by tax id: the authority's 0 for no CUIT matches, another tax id does not", () => {
    const nota = fexCmp(prepared(notaCreditoE), { ...numbering, cotizacion: "1000" });
    const heldNota: HeldExportacion = {
      cae: CAE,
      cbteNro: 43,
      fechaCbte: TODAY,
      impTotal: "500",
      monedaId: "DOL",
      cuitPaisCliente: "0",
      idImpositivo: "12.345.678/0001-90",
      resultado: "A",
    };
    expect(isSameExportacion(nota, heldNota)).toBe(true);
    expect(isSameExportacion(nota, { ...heldNota, idImpositivo: undefined })).toBe(false);
    expect(isSameExportacion(nota, { ...heldNota, cuitPaisCliente: CUIT_URUGUAY })).toBe(false);
  });
});
