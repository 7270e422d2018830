import type { wsfe } from "@pasarela/contracts";
import {
  CONSUMIDOR_FINAL,
  decimal,
  importe,
  nombreMoneda,
  PESOS,
  porcentaje,
} from "@pasarela/formato";
import { enPesos, isPositive, suma } from "../../domain/format.js";
import { TRIBUTOS_NACIONALES_INDIRECTOS } from "../../domain/tables.js";
import { LINE, MARGIN, WIDTH, type Sheet } from "./page.js";

export interface TotalLine {
  readonly label: string;
  readonly amount: string;
  readonly bold?: boolean;
}

/**
 * Net taxed, one line per VAT rate, other taxes, exempt and non-taxed where present, total. An
 * export voucher has no VAT nor taxes: its total alone, in its language.
 */
export function totalLines(sheet: Pick<Sheet, "emitido" | "letra" | "etiquetas">): TotalLine[] {
  const { emitido, letra, etiquetas } = sheet;
  const { totales } = emitido;
  if (letra === "E")
    return [{ label: etiquetas.importeTotal, amount: totales.impTotal, bold: true }];
  const lines: TotalLine[] = [];
  if (letra === "C") lines.push({ label: "Subtotal", amount: totales.impNeto });
  else {
    lines.push({ label: "Importe Neto Gravado", amount: totales.impNeto });
    for (const iva of emitido.iva) {
      lines.push({ label: `IVA ${porcentaje(iva.alicuota)}`, amount: iva.importe });
    }
  }
  for (const tributo of emitido.tributos) {
    const name = tributo.descripcion ?? `Tributo ${tributo.id}`;
    lines.push({ label: `${name} (${porcentaje(tributo.alicuota)})`, amount: tributo.importe });
  }
  lines.push({ label: "Importe Otros Tributos", amount: totales.impTrib });
  if (isPositive(totales.impOpEx)) lines.push({ label: "Importe Exento", amount: totales.impOpEx });
  if (isPositive(totales.impTotConc)) {
    lines.push({ label: "Importe No Gravado", amount: totales.impTotConc });
  }
  lines.push({ label: "Importe Total", amount: totales.impTotal, bold: true });
  return lines;
}

/** Ley 27.743: class B to a final consumer shows the VAT and national indirect taxes it contains. */
export function transparencia(emitido: wsfe.Emitido, letra: string): TotalLine[] {
  if (letra !== "B" || emitido.receptor.condicionIvaReceptorId !== CONSUMIDOR_FINAL) return [];
  const otros = suma(
    emitido.tributos.filter((t) => TRIBUTOS_NACIONALES_INDIRECTOS.has(t.id)).map((t) => t.importe),
  );
  return [
    { label: "IVA Contenido", amount: emitido.totales.impIVA },
    { label: "Otros Impuestos Nacionales Indirectos", amount: otros },
  ];
}

/**
 * The currency's two lines under the totals, when it is not pesos; an export voucher says its
 * currency and rate in the client's box and its total in its own currency only.
 */
const conMoneda = (sheet: Pick<Sheet, "emitido" | "letra">): boolean =>
  sheet.emitido.moneda.id !== PESOS && sheet.letra !== "E";

export function monedaHeight(sheet: Pick<Sheet, "emitido" | "letra">): number {
  return conMoneda(sheet) ? 2 * LINE : 0;
}

/** The totals at `y`, right-aligned, then the currency and transparency lines; answers the end. */
export function drawTotals(
  sheet: Sheet,
  lines: readonly TotalLine[],
  extra: readonly TotalLine[],
  top: number,
): number {
  const { pen, emitido } = sheet;
  const symbol = emitido.moneda.id === PESOS ? "$" : emitido.moneda.id;
  const x = MARGIN + WIDTH - 300;
  let y = top + 8;
  for (const line of lines) {
    pen.font(line.bold === true, line.bold ? 10 : 8);
    pen.text(`${line.label}:`, x, y, 196, "right");
    pen.text(`${symbol} ${importe(line.amount)}`, x + 196, y, 96, "right");
    y += line.bold ? LINE + 3 : LINE;
  }
  if (conMoneda(sheet)) {
    pen.font(false, 8);
    pen.text(
      `Moneda: ${nombreMoneda(emitido.moneda.id)} (${emitido.moneda.id}) — Tipo de cambio: ${decimal(emitido.moneda.cotizacion)}`,
      MARGIN + 8,
      y,
      WIDTH - 16,
      "right",
    );
    y += LINE;
    pen.text(
      `Importe Total en Pesos: $ ${importe(enPesos(emitido.totales.impTotal, emitido.moneda.cotizacion))}`,
      MARGIN + 8,
      y,
      WIDTH - 16,
      "right",
    );
    y += LINE;
  }
  if (extra.length) {
    y += LINE / 2;
    pen.font(true, 8);
    pen.text(
      "Régimen de Transparencia Fiscal al Consumidor (Ley 27.743)",
      MARGIN + 8,
      y,
      WIDTH - 16,
    );
    y += LINE;
    for (const line of extra) {
      pen.font(false, 8);
      pen.text(`${line.label}: $ ${importe(line.amount)}`, MARGIN + 8, y, WIDTH - 16);
      y += LINE;
    }
  }
  return y;
}
