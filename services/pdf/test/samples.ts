/**
 * Renders one voucher of each class with fixed data into PNG previews (docs/samples), the
 * pictures docs/api.md shows: `node services/pdf/dist/test/samples.js docs/samples` after
 * `npx tsc -b`; needs pdftoppm (poppler-utils).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { ticket, wsfe } from "@pasarela/contracts";
import { loadFonts, renderComprobante } from "../src/index.js";

const CUIT = "30712345671";
const perfil: ticket.Emisor = {
  razonSocial: "Ñandú Diseño S.R.L.",
  domicilioComercial: "Corrientes 1234 5° «B», CABA",
  condicionIva: "IVA Responsable Inscripto",
  ingresosBrutos: "901-123456-7",
  inicioActividades: "20190301",
  logo: null,
};

/** The RG 4892 QR URL of the voucher. */
function qr(v: Omit<wsfe.Emitido, "qr">): string {
  const receptor =
    v.receptor.docTipo === 99
      ? {}
      : { tipoDocRec: v.receptor.docTipo, nroDocRec: Number(v.receptor.docNro) };
  const payload = {
    ver: 1,
    fecha: `${v.cbteFch.slice(0, 4)}-${v.cbteFch.slice(4, 6)}-${v.cbteFch.slice(6, 8)}`,
    cuit: Number(v.cuit),
    ptoVta: v.ptoVta,
    tipoCmp: v.cbteTipo,
    nroCmp: v.cbteNro,
    importe: Number(v.totales.impTotal),
    moneda: v.moneda.id,
    ctz: Number(v.moneda.cotizacion),
    ...receptor,
    tipoCodAut: "E",
    codAut: Number(v.cae),
  };
  return `https://www.afip.gob.ar/fe/qr/?p=${Buffer.from(JSON.stringify(payload)).toString("base64")}`;
}

const item = (
  descripcion: string,
  cantidad: string,
  precio: string,
  alicuota: string,
  importe: string,
) => ({
  descripcion,
  cantidad,
  precioUnitario: precio,
  alicuotaIva: alicuota,
  bonificacion: "0",
  importe,
});

const ri = {
  docTipo: 80,
  docNro: "30000000007",
  condicionIvaReceptorId: 1,
  razonSocial: "Cliente Ejemplo S.A.",
  domicilio: "Av. Colón 500, Córdoba",
};
const cf = { docTipo: 99, docNro: "0", condicionIvaReceptorId: 5 };
const zero = { impTrib: "0.00", impTotConc: "0.00", impOpEx: "0.00" };

function voucher(
  v: Partial<wsfe.Emitido> &
    Pick<wsfe.Emitido, "cbteTipo" | "items" | "iva" | "totales" | "receptor">,
): wsfe.Emitido {
  const base: Omit<wsfe.Emitido, "qr"> = {
    state: "authorized",
    tipoAutorizacion: "CAE",
    environment: "produccion",
    cuit: CUIT,
    ptoVta: 3,
    cbteNro: 42,
    concepto: 1,
    cbteFch: "20261120",
    tributos: [],
    moneda: { id: "PES", cotizacion: "1" },
    comprobantesAsociados: [],
    opcionales: [],
    cae: "76471234567890",
    caeVencimiento: "20261130",
    emisor: perfil,
    ...v,
  };
  return { ...base, qr: qr(base) };
}

const samples: Record<string, wsfe.Emitido> = {
  "factura-a": voucher({
    cbteTipo: 1,
    concepto: 3,
    fchServDesde: "20261101",
    fchServHasta: "20261130",
    fchVtoPago: "20261210",
    receptor: ri,
    items: [
      {
        ...item("Tornillos x 100", "10", "1250.50", "21", "12505.00"),
        codigo: "TOR-001",
        unidadMedida: "caja",
      },
      item("Libros técnicos", "2", "8000", "10.5", "16000.00"),
    ],
    iva: [
      { id: 5, alicuota: "21", baseImp: "12505.00", importe: "2626.05" },
      { id: 4, alicuota: "10.5", baseImp: "16000.00", importe: "1680.00" },
    ],
    totales: { impNeto: "28505.00", impIVA: "4306.05", impTotal: "32811.05", ...zero },
  }),
  "factura-b": voucher({
    cbteTipo: 6,
    receptor: cf,
    items: [
      { ...item("Yerba mate 1 kg", "3", "2479.34", "21", "7438.02"), unidadMedida: "unidad" },
    ],
    iva: [{ id: 5, alicuota: "21", baseImp: "7438.02", importe: "1561.98" }],
    totales: { impNeto: "7438.02", impIVA: "1561.98", impTotal: "9000.00", ...zero },
  }),
  "factura-c": voucher({
    cbteTipo: 11,
    receptor: { ...cf, docTipo: 96, docNro: "30123456", razonSocial: "María Pérez" },
    items: [{ ...item("Clase de guitarra", "4", "5500", "0", "21000.00"), bonificacion: "1000" }],
    iva: [],
    totales: { impNeto: "21000.00", impIVA: "0.00", impTotal: "21000.00", ...zero },
  }),
  "nota-de-credito-a": voucher({
    cbteTipo: 3,
    cbteNro: 7,
    receptor: ri,
    comprobantesAsociados: [{ cbteTipo: 1, ptoVta: 3, cbteNro: 42, cbteFch: "20261120" }],
    items: [item("Devolución: tornillos x 100", "2", "1250.50", "21", "2501.00")],
    iva: [{ id: 5, alicuota: "21", baseImp: "2501.00", importe: "525.21" }],
    totales: { impNeto: "2501.00", impIVA: "525.21", impTotal: "3026.21", ...zero },
  }),
  "fce-a": voucher({
    cbteTipo: 201,
    fchVtoPago: "20261220",
    receptor: ri,
    opcionales: [
      { id: "2101", valor: "0170099220000067797370" },
      { id: "2102", valor: "empresa.cobros" },
      { id: "27", valor: "SCA" },
    ],
    items: [item("Partida de acero laminado", "1.5", "2000000", "21", "3000000.00")],
    iva: [{ id: 5, alicuota: "21", baseImp: "3000000.00", importe: "630000.00" }],
    totales: { impNeto: "3000000.00", impIVA: "630000.00", impTotal: "3630000.00", ...zero },
  }),
  "factura-dolares": voucher({
    cbteTipo: 1,
    receptor: ri,
    moneda: { id: "DOL", cotizacion: "1050.25" },
    items: [item("Licencia anual", "1", "1200", "21", "1200.00")],
    iva: [{ id: 5, alicuota: "21", baseImp: "1200.00", importe: "252.00" }],
    totales: { impNeto: "1200.00", impIVA: "252.00", impTotal: "1452.00", ...zero },
  }),
  "factura-e": voucher({
    cbteTipo: 19,
    cbteNro: 12,
    receptor: {
      docTipo: 80,
      docNro: "55000000050",
      condicionIvaReceptorId: 9,
      razonSocial: "Distribuidora Paulista Ltda.",
      domicilio: "Rua Augusta 1500, São Paulo",
    },
    moneda: { id: "DOL", cotizacion: "1050" },
    items: [
      {
        codigo: "MAL-6",
        descripcion: "Vino Malbec, caja x 6",
        cantidad: "120",
        precioUnitario: "85.5",
        bonificacion: "100",
        unidadMedida: "7",
        importe: "10160.00",
      },
      {
        codigo: "YER-G",
        descripcion: "Yerba mate a granel",
        cantidad: "910.4",
        precioUnitario: "2.4",
        bonificacion: "0",
        unidadMedida: "1",
        importe: "2185.60",
      },
    ],
    iva: [],
    totales: { impNeto: "0.00", impIVA: "0.00", impTotal: "12345.60", ...zero },
    exportacion: {
      tipoExpo: 1,
      permisoExistente: "S",
      permisos: [{ idPermiso: "26001EC01000123A", dstMerc: 203 }],
      dstCmp: 203,
      cliente: {
        razonSocial: "Distribuidora Paulista Ltda.",
        domicilio: "Rua Augusta 1500, São Paulo",
        cuitPais: "55000000050",
        idImpositivo: "CNPJ 12.345.678/0001-90",
      },
      idioma: 1,
      incoterms: "CIF",
      incotermsDs: "Cost, Insurance and Freight",
      formaPago: "Carta de crédito a 60 días",
      obsComerciales: "Mercadería en tránsito por Paso de los Libres",
      actividades: [],
      id: 12,
    },
  }),
  "factura-200-items": voucher({
    cbteTipo: 6,
    receptor: cf,
    items: Array.from({ length: 200 }, (_, i) => ({
      ...item(`Artículo número ${i + 1}`, "1", `${i + 1}.25`, "21", `${i + 1}.25`),
      codigo: `ART-${String(i + 1).padStart(3, "0")}`,
    })),
    iva: [{ id: 5, alicuota: "21", baseImp: "20150.00", importe: "4231.50" }],
    totales: { impNeto: "20150.00", impIVA: "4231.50", impTotal: "24381.50", ...zero },
  }),
};

const out = resolve(process.argv[2] ?? "docs/samples");
mkdirSync(out, { recursive: true });
const work = mkdtempSync(join(tmpdir(), "pdf-samples-"));
try {
  for (const [name, emitido] of Object.entries(samples)) {
    const pdf = await renderComprobante({ emitido, perfil, copias: ["original"] }, loadFonts());
    const file = join(work, `${name}.pdf`);
    writeFileSync(file, pdf);
    const pages = name === "factura-200-items" ? ["1", "last"] : ["1"];
    for (const page of pages) {
      const last = page === "last";
      const count = Number(/\/Count (\d+)/.exec(pdf.toString("latin1"))?.[1] ?? "1");
      const number = last ? String(count) : page;
      execFileSync("pdftoppm", [
        "-png",
        "-r",
        "60",
        "-f",
        number,
        "-l",
        number,
        "-singlefile",
        file,
        join(out, last ? `${name}-ultima` : name),
      ]);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
