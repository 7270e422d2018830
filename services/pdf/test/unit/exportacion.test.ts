import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ticket, wsfe } from "@pasarela/contracts";
import { afterAll, describe, expect, it } from "vitest";
import { loadFonts } from "../../src/adapters/fonts.js";
import { renderComprobante } from "../../src/adapters/layout/index.js";

/**
 * Export vouchers (types 19, 20, 21) printed in their language: read back with poppler's
 * pdftotext, the QR decoded from a 150 dpi rendering with pdftoppm and zbarimg.
 */

const work = mkdtempSync(join(tmpdir(), "pdf-export-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const CUIT = "30712345671";
const CAE = "76471234567890";

const perfil: ticket.Emisor = {
  razonSocial: "Ñandú Exportaciones S.A.",
  domicilioComercial: "Av. Madero 900, CABA",
  condicionIva: "IVA Responsable Inscripto",
  ingresosBrutos: "901-123456-7",
  inicioActividades: "20190301",
  logo: null,
};

type Exportacion = NonNullable<wsfe.Emitido["exportacion"]>;

/** The RG 4892 URL as wsfe builds it, written here from the voucher's own fields. */
function qrUrl(v: {
  cbteTipo: number;
  cbteNro: number;
  impTotal: string;
  moneda: string;
  ctz: string;
  docTipo: number;
  docNro: string;
}): string {
  const payload = {
    ver: 1,
    fecha: "2026-11-20",
    cuit: Number(CUIT),
    ptoVta: 3,
    tipoCmp: v.cbteTipo,
    nroCmp: v.cbteNro,
    importe: Number(v.impTotal),
    moneda: v.moneda,
    ctz: Number(v.ctz),
    tipoDocRec: v.docTipo,
    nroDocRec: Number(v.docNro),
    tipoCodAut: "E",
    codAut: Number(CAE),
  };
  return `https://www.afip.gob.ar/fe/qr/?p=${Buffer.from(JSON.stringify(payload)).toString("base64")}`;
}

function exportVoucher(v: {
  cbteTipo: number;
  cbteNro?: number;
  items: wsfe.Emitido["items"];
  impTotal: string;
  moneda?: { id: string; cotizacion: string };
  exportacion: Exportacion;
  receptor?: { docTipo: number; docNro: string };
  comprobantesAsociados?: wsfe.Emitido["comprobantesAsociados"];
}): wsfe.Emitido {
  const moneda = v.moneda ?? { id: "DOL", cotizacion: "1050" };
  const documento = v.receptor ?? { docTipo: 80, docNro: v.exportacion.cliente.cuitPais ?? "0" };
  const cbteNro = v.cbteNro ?? 42;
  return {
    state: "authorized",
    tipoAutorizacion: "CAE",
    environment: "produccion",
    cuit: CUIT,
    ptoVta: 3,
    cbteTipo: v.cbteTipo,
    cbteNro,
    concepto: v.exportacion.tipoExpo === 2 ? 2 : 1,
    cbteFch: "20261120",
    receptor: {
      ...documento,
      condicionIvaReceptorId: 9,
      razonSocial: v.exportacion.cliente.razonSocial,
      domicilio: v.exportacion.cliente.domicilio,
    },
    items: v.items,
    iva: [],
    tributos: [],
    totales: {
      impTotal: v.impTotal,
      impNeto: "0.00",
      impIVA: "0.00",
      impTrib: "0.00",
      impTotConc: "0.00",
      impOpEx: "0.00",
    },
    moneda,
    comprobantesAsociados: v.comprobantesAsociados ?? [],
    opcionales: [],
    cae: CAE,
    caeVencimiento: "20261130",
    qr: qrUrl({
      cbteTipo: v.cbteTipo,
      cbteNro,
      impTotal: v.impTotal,
      moneda: moneda.id,
      ctz: moneda.cotizacion,
      ...documento,
    }),
    emisor: perfil,
    exportacion: v.exportacion,
  };
}

const item = (
  descripcion: string,
  cantidad: string,
  precio: string,
  unidad: string,
  importe: string,
  bonificacion = "0",
) => ({
  descripcion,
  cantidad,
  precioUnitario: precio,
  bonificacion,
  unidadMedida: unidad,
  importe,
});

/** English: services to the United States, paid by wire later, with the client's own tax id. */
const servicios = exportVoucher({
  cbteTipo: 19,
  impTotal: "4800.00",
  items: [item("Software development (October)", "40", "120", "7", "4800.00")],
  exportacion: {
    tipoExpo: 2,
    permisos: [],
    dstCmp: 212,
    cliente: {
      razonSocial: "Acme Widgets Inc.",
      domicilio: "500 Market St, San Francisco, CA",
      cuitPais: "55000002126",
      idImpositivo: "94-1234567",
    },
    idioma: 2,
    formaPago: "Wire transfer, 30 days",
    fechaPago: "20261220",
    obsComerciales: "Hours as agreed in the statement of work",
    actividades: [],
    id: 1,
  },
});

/** Spanish: goods to Brazil under CIF, with a shipping permit and a discount. */
const bienes = exportVoucher({
  cbteTipo: 19,
  cbteNro: 43,
  impTotal: "12345.60",
  moneda: { id: "DOL", cotizacion: "1050.25" },
  items: [
    item("Vino Malbec, caja x 6", "120", "85.5", "7", "10160.00", "100"),
    item("Yerba mate a granel", "910.4", "2.4", "1", "2185.60"),
  ],
  exportacion: {
    tipoExpo: 1,
    permisoExistente: "S",
    permisos: [{ idPermiso: "26001EC01000123A", dstMerc: 203 }],
    dstCmp: 203,
    cliente: {
      razonSocial: "Distribuidora Paulista Ltda.",
      domicilio: "Rua Augusta 1500, São Paulo",
      cuitPais: "55000000050",
    },
    idioma: 1,
    incoterms: "CIF",
    incotermsDs: "Cost, Insurance and Freight",
    formaPago: "Carta de crédito",
    obsComerciales: "Mercadería en tránsito por Paso de los Libres",
    actividades: [],
    id: 2,
  },
});

/** Portuguese: goods to Uruguay, the client with its tax id only (no document). */
const portugues = exportVoucher({
  cbteTipo: 19,
  cbteNro: 44,
  impTotal: "900.00",
  moneda: { id: "012", cotizacion: "210.5" },
  receptor: { docTipo: 99, docNro: "0" },
  items: [item("Couro bovino curtido", "30", "30", "2", "900.00")],
  exportacion: {
    tipoExpo: 1,
    permisoExistente: "N",
    permisos: [],
    dstCmp: 225,
    cliente: {
      razonSocial: "Curtiembre Oriental S.A.",
      domicilio: "Rambla 25 de Agosto 100, Montevideo",
      idImpositivo: "RUT 210000000012",
    },
    idioma: 3,
    incoterms: "FOB",
    incotermsDs: "FOB",
    formaPago: "Transferência antecipada",
    actividades: [],
    id: 3,
  },
});

/** Spanish: a credit note on the goods invoice. */
const notaCredito = exportVoucher({
  cbteTipo: 21,
  cbteNro: 7,
  impTotal: "855.00",
  items: [item("Devolución: vino Malbec, caja x 6", "10", "85.5", "7", "855.00")],
  comprobantesAsociados: [{ cbteTipo: 19, ptoVta: 3, cbteNro: 43, cbteFch: "20261120" }],
  exportacion: { ...bienes.exportacion!, permisos: [], permisoExistente: undefined, id: 4 },
});

let counter = 0;
async function printed(emitido: wsfe.Emitido): Promise<{ text: string; qr: string }> {
  const pdf = await renderComprobante({ emitido, perfil, copias: ["original"] }, loadFonts());
  const file = join(work, `e-${(counter += 1)}.pdf`);
  writeFileSync(file, pdf);
  // one space for any run of them: pdftotext -layout pads between label and value
  const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }).replace(
    /[ \t]+/g,
    " ",
  );
  execFileSync("pdftoppm", ["-png", "-r", "150", "-f", "1", "-l", "1", "-singlefile", file, file]);
  const qr = execFileSync("zbarimg", ["--raw", "-q", `${file}.png`], {
    encoding: "utf8",
    // zbarimg complains on stderr when there is no D-Bus; the decoded text is on stdout
    stdio: ["ignore", "pipe", "ignore"],
  }).trim();
  return { text, qr };
}

const payloadOf = (url: string): Record<string, unknown> => {
  const match = /^https:\/\/www\.afip\.gob\.ar\/fe\/qr\/\?p=(.+)$/.exec(url);
  expect(match).not.toBeNull();
  return JSON.parse(Buffer.from(match![1]!, "base64").toString("utf8")) as Record<string, unknown>;
};

describe("pdf: the export voucher (class E) in its language", () => {
  it("prints services in English: client, tax ids, payment, currency and rate, no VAT", async () => {
    const { text, qr } = await printed(servicios);
    for (const expected of [
      "ORIGINAL",
      "EXPORT INVOICE",
      "COD. 19",
      "Company name: Ñandú Exportaciones S.A.",
      "Point of sale: 00003",
      "Number: 00000042",
      "Issue date: 20/11/2026",
      "Customer: Acme Widgets Inc.",
      "Address: 500 Market St, San Francisco, CA",
      "Destination country: United States",
      "VAT status: Foreign customer",
      "Tax ID: 94-1234567",
      "Country CUIT: 55000002126",
      "Export type: Services",
      "Payment terms: Wire transfer, 30 days",
      "Payment date: 20/12/2026",
      "Currency: DOL – Exchange rate: 1.050,00",
      "Product / Service",
      "Unit price",
      "Discount",
      "Software development (October) 40,00 units 120,00 0,00 4.800,00",
      "Total amount: DOL 4.800,00",
      "Commercial remarks:",
      "Hours as agreed in the statement of work",
      "Authorized voucher",
      `CAE No.: ${CAE}`,
      "CAE due date: 30/11/2026",
      "Page 1/1",
    ]) {
      expect(text).toContain(expected);
    }
    for (const domestic of [
      "Importe",
      "Alíc. IVA",
      "Subtotal c/IVA",
      "Pesos",
      "Condición de venta",
    ]) {
      expect(text).not.toContain(domestic);
    }
    expect(qr).toBe(servicios.qr);
    expect(payloadOf(qr)).toMatchObject({ tipoCmp: 19, moneda: "DOL", ctz: 1050, importe: 4800 });
  });

  it("prints goods in Spanish: permit, Incoterms, units by name, discount", async () => {
    const { text, qr } = await printed(bienes);
    for (const expected of [
      "FACTURA DE EXPORTACIÓN",
      "COD. 19",
      "Apellido y Nombre / Razón Social: Distribuidora Paulista Ltda.",
      "Domicilio: Rua Augusta 1500, São Paulo",
      "País de destino: Brasil",
      "Condición frente al IVA: Cliente del Exterior",
      "CUIT País: 55000000050",
      "Tipo de exportación: Exportación definitiva de bienes",
      "Incoterms: CIF – Cost, Insurance and Freight",
      "Forma de pago: Carta de crédito",
      "Permiso de embarque: 26001EC01000123A (destino: Brasil)",
      "Moneda: DOL – Cotización: 1.050,25",
      "Vino Malbec, caja x 6 120,00 unidades 85,50 100,00 10.160,00",
      "Yerba mate a granel 910,40 kilogramos 2,40 0,00 2.185,60",
      "Importe Total: DOL 12.345,60",
      "Observaciones comerciales:",
      "Mercadería en tránsito por Paso de los Libres",
      `CAE N°: ${CAE}`,
      "Fecha de Vto. de CAE: 30/11/2026",
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain("ID Impositivo");
    expect(text).not.toContain("Importe Total en Pesos");
    expect(payloadOf(qr)).toMatchObject({ tipoCmp: 19, moneda: "DOL", ctz: 1050.25, nroCmp: 43 });
  });

  it("prints in Portuguese, the Incoterm once when its description is its code", async () => {
    const { text, qr } = await printed(portugues);
    for (const expected of [
      "FATURA DE EXPORTAÇÃO",
      "Razão social: Ñandú Exportaciones S.A.",
      "Nome / Razão social: Curtiembre Oriental S.A.",
      "Endereço: Rambla 25 de Agosto 100, Montevideo",
      "País de destino: Uruguai",
      "Condição perante o IVA: Cliente do exterior",
      "Identificação fiscal: RUT 210000000012",
      "Tipo de exportação: Exportação definitiva de bens",
      "Forma de pagamento: Transferência antecipada",
      "Moeda: 012 – Cotação: 210,50",
      "Quantidade",
      "Couro bovino curtido 30,00 metros 30,00 0,00 900,00",
      "Valor total: 012 900,00",
      "Comprovante autorizado",
      "Vencimento do CAE: 30/11/2026",
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toMatch(/Incoterms: FOB\s/);
    expect(text).not.toContain("FOB – FOB");
    // the client has no generic CUIT: the country's line is left out, not printed empty
    expect(text).not.toContain("CUIT do país");
    expect(payloadOf(qr)).toMatchObject({ tipoCmp: 19, moneda: "012", ctz: 210.5 });
  });

  // after vouchers whose issuer has an "Ñ": the shared fonts must not lose the "N" of "N°"
  it("prints a credit note (21) with the invoice it corrects", async () => {
    const { text, qr } = await printed(notaCredito);
    expect(text).toContain("NOTA DE CRÉDITO DE EXPORTACIÓN");
    expect(text).toContain("COD. 21");
    expect(text).toContain("Comprobante Asociado: Factura E N° 00003-00000043 del 20/11/2026");
    expect(text).toContain("Importe Total: DOL 855,00");
    expect(text).not.toContain("Permiso de embarque");
    expect(payloadOf(qr)).toMatchObject({ tipoCmp: 21, nroCmp: 7, moneda: "DOL", ctz: 1050 });
  });

  it("names an associated voucher in the note's language", async () => {
    const { text } = await printed({
      ...notaCredito,
      exportacion: { ...notaCredito.exportacion!, idioma: 2 },
    });
    expect(text).toContain("EXPORT CREDIT NOTE");
    expect(text).toContain("Related voucher: Export Invoice E No. 00003-00000043 dated 20/11/2026");
  });
});
