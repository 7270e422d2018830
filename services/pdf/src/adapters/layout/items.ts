import type { wsfe } from "@pasarela/contracts";
import { decimal, importe, porcentaje, unidadExportacion } from "@pasarela/formato";
import type { Etiquetas } from "../../domain/etiquetas.js";
import { conIva } from "../../domain/format.js";
import { MARGIN, ROW_FONT, WIDTH, type Pen, type Sheet } from "./page.js";

type Item = wsfe.Emitido["items"][number];

/** One column of the items table. */
export interface Column {
  readonly title: string;
  readonly width: number;
  readonly align: "left" | "right";
  readonly value: (item: Item) => string;
  /** the description: wraps onto as many lines as it needs */
  readonly wraps?: boolean;
}

const alicuotaTexto = (rate: string): string =>
  rate === "exento" ? "Exento" : rate === "no_gravado" ? "No gravado" : porcentaje(rate);

/** How an export voucher's unit reads (by name) and the room its longer titles and units take. */
interface Medidas {
  readonly unidad: (item: Item) => string;
  readonly cantidadWidth: number;
  readonly unidadWidth: number;
}

const DOMESTICA: Medidas = {
  unidad: (i) => i.unidadMedida ?? "",
  cantidadWidth: 48,
  unidadWidth: 45,
};

const commonColumns = (
  descripcionWidth: number,
  { columnas }: Etiquetas,
  { unidad, cantidadWidth, unidadWidth }: Medidas = DOMESTICA,
): Column[] => [
  { title: columnas.codigo, width: 50, align: "left", value: (i) => i.codigo ?? "" },
  {
    title: columnas.descripcion,
    width: descripcionWidth,
    align: "left",
    value: (i) => i.descripcion,
    wraps: true,
  },
  {
    title: columnas.cantidad,
    width: cantidadWidth,
    align: "right",
    value: (i) => decimal(i.cantidad),
  },
  { title: columnas.unidad, width: unidadWidth, align: "left", value: unidad },
  {
    title: columnas.precio,
    width: 58,
    align: "right",
    value: (i) => decimal(i.precioUnitario),
  },
  {
    title: columnas.bonificacion,
    width: 45,
    align: "right",
    value: (i) => importe(i.bonificacion),
  },
  { title: columnas.subtotal, width: 58, align: "right", value: (i) => importe(i.importe) },
];

/**
 * Class A (and M) show each line's rate and its amount with VAT; B and C do not; an export
 * voucher (E) has no VAT, names its units (the authority's codes) in its language and titles
 * its columns so.
 */
export function columnsFor(sheet: Pick<Sheet, "letra" | "etiquetas" | "idioma">): Column[] {
  const { letra, etiquetas, idioma } = sheet;
  if (letra === "E") {
    const unidad = (i: Item) => unidadExportacion(i.unidadMedida, idioma);
    return commonColumns(WIDTH - 304 - 25, etiquetas, {
      unidad,
      cantidadWidth: 56,
      unidadWidth: 62,
    });
  }
  if (letra !== "A" && letra !== "M") return commonColumns(WIDTH - 304, etiquetas);
  return [
    ...commonColumns(WIDTH - 304 - 108, etiquetas),
    {
      title: "Alíc. IVA",
      width: 46,
      align: "right",
      value: (i) => (i.alicuotaIva === undefined ? "" : alicuotaTexto(i.alicuotaIva)),
    },
    {
      title: "Subtotal c/IVA",
      width: 62,
      align: "right",
      value: (i) =>
        importe(
          i.alicuotaIva !== undefined && /^\d/.test(i.alicuotaIva)
            ? conIva(i.importe, i.alicuotaIva)
            : i.importe,
        ),
    },
  ];
}

/** The grey title row of the items table at `y`; answers where the first row goes. */
export function drawTableHeader(pen: Pen, columns: readonly Column[], y: number): number {
  pen.doc.save().rect(MARGIN, y, WIDTH, 16).fillAndStroke("#d9d9d9", "black").restore();
  pen.font(true, ROW_FONT);
  let x = MARGIN;
  for (const column of columns) {
    pen.text(column.title, x + 2, y + 5, column.width - 4, column.align);
    x += column.width;
  }
  return y + 18;
}

/** The height an item's row takes: its description wraps, the other cells do not. */
export function rowHeight(pen: Pen, columns: readonly Column[], item: Item): number {
  pen.font(false, ROW_FONT);
  const description = columns.find((column) => column.wraps) ?? columns[1]!;
  const height = pen.doc.heightOfString(item.descripcion, { width: description.width - 4 });
  return Math.max(height, ROW_FONT + 2) + 4;
}

/** One item's row at `y`, a thin rule under it; answers where the next row goes. */
export function drawRow(
  pen: Pen,
  columns: readonly Column[],
  item: Item,
  y: number,
  height: number,
): number {
  pen.font(false, ROW_FONT);
  let x = MARGIN;
  for (const column of columns) {
    const value = column.value(item);
    if (column.wraps) {
      pen.doc.text(value, x + 2, y + 2, { width: column.width - 4 });
    } else {
      pen.text(value, x + 2, y + 2, column.width - 4, column.align);
    }
    x += column.width;
  }
  const next = y + height;
  pen.doc
    .save()
    .strokeColor("#bbbbbb")
    .lineWidth(0.3)
    .moveTo(MARGIN, next - 1)
    .lineTo(MARGIN + WIDTH, next - 1)
    .stroke()
    .restore();
  return next;
}
