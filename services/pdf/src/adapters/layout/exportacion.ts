import { decimal, fecha, nombrePais, tipoExportacion } from "@pasarela/formato";
import { asociado } from "./asociado.js";
import { CENTER, LINE, MARGIN, WIDTH, type Pen, type Sheet } from "./page.js";

/** One "label: value" of the client's box; a wide one takes the whole row. */
interface Dato {
  readonly label: string;
  readonly value: string;
  readonly wide?: boolean;
}

/** The labelled parts of one row: a wide field, two halves, or a run read left to right. */
type Fila =
  | { readonly kind: "campos"; readonly datos: readonly Dato[] }
  | { readonly kind: "tira"; readonly datos: readonly Dato[] };

/** "FOB – Free On Board"; the authority's table gives the code as its own description. */
function incoterms(codigo: string | undefined, descripcion: string | undefined): string {
  if (!codigo) return "";
  return descripcion && descripcion !== codigo ? `${codigo} – ${descripcion}` : codigo;
}

/** What the client's box says, in the voucher's language; fields with no value are left out. */
function datosCliente(sheet: Sheet): Dato[] {
  const { emitido, etiquetas, idioma } = sheet;
  const { receptor } = emitido;
  const exportacion = emitido.exportacion;
  const cliente = exportacion?.cliente;
  const cuitPais = cliente?.cuitPais ?? (receptor.docTipo === 80 ? receptor.docNro : undefined);
  const datos: (Dato | false | undefined)[] = [
    {
      label: etiquetas.cliente,
      value: cliente?.razonSocial ?? receptor.razonSocial ?? "",
      wide: true,
    },
    {
      label: etiquetas.domicilio,
      value: cliente?.domicilio ?? receptor.domicilio ?? "",
      wide: true,
    },
    exportacion && { label: etiquetas.paisDestino, value: nombrePais(exportacion.dstCmp, idioma) },
    { label: etiquetas.condicionIva, value: etiquetas.clienteExterior },
    cliente?.idImpositivo !== undefined && {
      label: etiquetas.idImpositivo,
      value: cliente.idImpositivo,
    },
    cuitPais !== undefined && { label: etiquetas.cuitPais, value: cuitPais },
    exportacion && {
      label: etiquetas.tipoExportacion,
      value: tipoExportacion(exportacion.tipoExpo, idioma),
    },
    exportacion?.incoterms !== undefined && {
      label: etiquetas.incoterms,
      value: incoterms(exportacion.incoterms, exportacion.incotermsDs),
    },
    exportacion?.formaPago !== undefined && {
      label: etiquetas.formaPago,
      value: exportacion.formaPago,
    },
    exportacion?.fechaPago !== undefined && {
      label: etiquetas.fechaPago,
      value: fecha(exportacion.fechaPago),
    },
  ];
  for (const permiso of exportacion?.permisos ?? []) {
    datos.push({
      label: etiquetas.permisoEmbarque,
      value: `${permiso.idPermiso} (${etiquetas.destinoMercaderia}: ${nombrePais(permiso.dstMerc, idioma)})`,
      wide: true,
    });
  }
  return datos.filter((dato): dato is Dato => Boolean(dato));
}

/** Wide fields on their own row, the others two by two, in order. */
function filas(sheet: Sheet): Fila[] {
  const { emitido, etiquetas } = sheet;
  const rows: Fila[] = [];
  let half: Dato | undefined;
  for (const dato of datosCliente(sheet)) {
    if (dato.wide) {
      if (half) rows.push({ kind: "campos", datos: [half] });
      half = undefined;
      rows.push({ kind: "campos", datos: [dato] });
    } else if (half) {
      rows.push({ kind: "campos", datos: [half, dato] });
      half = undefined;
    } else half = dato;
  }
  if (half) rows.push({ kind: "campos", datos: [half] });
  rows.push({
    kind: "tira",
    datos: [
      { label: etiquetas.moneda, value: emitido.moneda.id },
      { label: etiquetas.cotizacion, value: decimal(emitido.moneda.cotizacion) },
    ],
  });
  for (const a of emitido.comprobantesAsociados) {
    rows.push({
      kind: "campos",
      datos: [{ label: etiquetas.comprobanteAsociado, value: asociado(a, etiquetas), wide: true }],
    });
  }
  return rows;
}

/** "Moneda: DOL – Cotización: 1.050,00": labels in bold, one line. */
function drawTira(pen: Pen, datos: readonly Dato[], x: number, y: number): void {
  let at = x;
  datos.forEach((dato, index) => {
    const text = index === 0 ? `${dato.label}: ` : ` – ${dato.label}: `;
    const labelWidth = pen.font(true, 8).widthOfString(text);
    pen.text(text, at, y, labelWidth + 2);
    at += labelWidth;
    const valueWidth = pen.font(false, 8).widthOfString(dato.value);
    pen.text(dato.value, at, y, valueWidth + 2);
    at += valueWidth;
  });
}

/**
 * The export voucher's client box, where a domestic one has its receiver: name, address,
 * destination country, tax ids, export type, Incoterms, payment, shipping permits, currency and
 * rate, associated vouchers. Answers where the items table begins.
 */
export function drawCliente(sheet: Sheet, y: number, leftX: number): number {
  const { pen } = sheet;
  const rows = filas(sheet);
  const height = 8 + rows.length * 14;
  pen.doc.rect(MARGIN, y, WIDTH, height).stroke();
  const full = WIDTH - 16;
  const rightX = CENTER - 20;
  const halves = [
    { x: leftX, width: rightX - leftX - 8 },
    { x: rightX, width: MARGIN + WIDTH - 8 - rightX },
  ];
  rows.forEach((row, index) => {
    const top = y + 6 + index * 14;
    if (row.kind === "tira") return drawTira(pen, row.datos, leftX, top);
    if (row.datos.length === 1 && row.datos[0]!.wide) {
      const [dato] = row.datos;
      pen.field(dato!.label, dato!.value, leftX, top, full);
      return;
    }
    row.datos.forEach((dato, column) => {
      const half = halves[column]!;
      pen.field(dato.label, dato.value, half.x, top, half.width);
    });
  });
  return y + height + 6;
}

/** The tallest a note prints: longer ones are cut with an ellipsis, the totals' page kept. */
const NOTA_MAXIMA = 12 * LINE;

/** The export voucher's commercial and other observations, each with its label. */
export function notas(sheet: Sheet): [label: string, text: string][] {
  const exportacion = sheet.emitido.exportacion;
  const { etiquetas } = sheet;
  const all: [string, string | undefined][] = [
    [etiquetas.obsComerciales, exportacion?.obsComerciales],
    [etiquetas.observaciones, exportacion?.obs],
  ];
  return all.filter((nota): nota is [string, string] => Boolean(nota[1]?.trim()));
}

const notaHeight = (pen: Pen, text: string): number =>
  Math.min(pen.font(false, 8).heightOfString(text, { width: WIDTH - 16 }), NOTA_MAXIMA);

/** The height the notes take under the totals. */
export function notasHeight(pen: Pen, list: readonly [string, string][]): number {
  return list.reduce((total, [, text]) => total + LINE + notaHeight(pen, text) + 4, 0);
}

/** The notes at `y`, full width: the label in bold, the text wrapped under it. */
export function drawNotas(pen: Pen, list: readonly [string, string][], top: number): number {
  let y = top;
  for (const [label, text] of list) {
    pen.font(true, 8);
    pen.text(`${label}:`, MARGIN + 8, y, WIDTH - 16);
    y += LINE;
    const height = notaHeight(pen, text);
    pen.doc.text(text, MARGIN + 8, y, { width: WIDTH - 16, height, ellipsis: true });
    y += height + 4;
  }
  return y;
}
