import { numeroComprobante } from "@pasarela/contracts";
import type { Font } from "fontkit";
import PDFDocument from "pdfkit";
import { idiomaDe, letraComprobante, nombreComprobante } from "@pasarela/formato";
import { ETIQUETAS } from "../../domain/etiquetas.js";
import type { Impresion } from "../../domain/impresion.js";
import type { CopiaImpresa } from "../../domain/tables.js";
import { drawNotas, notas, notasHeight } from "./exportacion.js";
import { drawFooters, type PageRange } from "./footer.js";
import { drawHeader } from "./header.js";
import { columnsFor, drawRow, drawTableHeader, rowHeight, type Column } from "./items.js";
import { A4, FOOTER_TOP, LINE, Pen, type Doc, type Sheet } from "./page.js";
import { drawTotals, monedaHeight, totalLines, transparencia } from "./totals.js";

export type { Impresion } from "../../domain/impresion.js";

/** The TrueType fonts embedded in every document (subset to the glyphs used), parsed. */
export interface Fonts {
  readonly regular: Font;
  readonly bold: Font;
}

/** Lays out the copies of one voucher, page after page, keeping where the next line goes. */
class Printer {
  private readonly sheet: Sheet;
  private readonly columns: Column[];
  private y = 0;
  private pages = 0;

  constructor(doc: Doc, impresion: Impresion) {
    const letra = letraComprobante(impresion.emitido.cbteTipo);
    const idioma = letra === "E" ? idiomaDe(impresion.emitido.exportacion?.idioma) : "es";
    this.sheet = {
      pen: new Pen(doc),
      emitido: impresion.emitido,
      perfil: impresion.perfil,
      logo: impresion.logo ?? null,
      letra,
      idioma,
      etiquetas: ETIQUETAS[idioma],
    };
    this.columns = columnsFor(this.sheet);
  }

  /** One copy: as many pages as its items need, header on each, totals on the last. */
  printCopy(copia: CopiaImpresa, first: boolean): PageRange {
    const { pen, emitido, letra } = this.sheet;
    const from = this.pages;
    this.startPage(copia, first);
    for (const item of emitido.items) {
      const height = rowHeight(pen, this.columns, item);
      if (this.y + height > FOOTER_TOP - 6) this.startPage(copia, false);
      this.y = drawRow(pen, this.columns, item, this.y, height);
    }
    const lines = totalLines(this.sheet);
    const extra = transparencia(emitido, letra);
    const observaciones = notas(this.sheet);
    const totalsHeight =
      (lines.length + (extra.length ? extra.length + 1.5 : 0)) * LINE +
      monedaHeight(this.sheet) +
      notasHeight(pen, observaciones) +
      16;
    if (this.y + totalsHeight > FOOTER_TOP - 6) this.startPage(copia, false);
    this.y = drawTotals(this.sheet, lines, extra, this.y);
    this.y = drawNotas(pen, observaciones, this.y + 4);
    return { from, to: this.pages };
  }

  /** The footers go on last, when each copy knows how many pages it took. */
  finish(range: PageRange): void {
    drawFooters(this.sheet, range);
  }

  private startPage(copia: CopiaImpresa, first: boolean): void {
    if (!first) this.sheet.pen.doc.addPage({ size: A4, margin: 0 });
    this.pages += 1;
    this.y = drawHeader(this.sheet, copia);
    this.y = drawTableHeader(this.sheet.pen, this.columns, this.y);
  }
}

/** The document's fixed creation date: the voucher's own date, so a re-render is identical. */
function creationDate(cbteFch: string): Date {
  return new Date(`${cbteFch.slice(0, 4)}-${cbteFch.slice(4, 6)}-${cbteFch.slice(6, 8)}T12:00:00Z`);
}

/**
 * The printed voucher as the authority's "Comprobantes en línea" lays it out, one A4 page per
 * copy (more when the items need them). Deterministic: the same voucher and profile give the
 * same bytes.
 */
export function renderComprobante(impresion: Impresion, fonts: Fonts): Promise<Buffer> {
  const { emitido } = impresion;
  const letra = letraComprobante(emitido.cbteTipo);
  const nombre =
    (letra === "E"
      ? ETIQUETAS[idiomaDe(emitido.exportacion?.idioma)].tipos[emitido.cbteTipo]
      : undefined) ?? `${nombreComprobante(emitido.cbteTipo)} ${letra}`;
  const titulo = `${nombre} ${numeroComprobante(emitido.ptoVta, emitido.cbteNro)}`;
  const doc = new PDFDocument({
    size: A4,
    margin: 0,
    bufferPages: true,
    autoFirstPage: true,
    info: {
      Title: titulo,
      Author: impresion.perfil?.razonSocial ?? emitido.cuit,
      Creator: "pasarela",
      Producer: "pasarela",
      CreationDate: creationDate(emitido.cbteFch),
    },
  });
  // pdfkit takes a parsed fontkit font as a source as well (its declarations only list files
  // and buffers)
  doc.registerFont("regular", fonts.regular as unknown as Buffer);
  doc.registerFont("bold", fonts.bold as unknown as Buffer);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const printer = new Printer(doc, impresion);
  const ranges = impresion.copias.map((copia, index) => printer.printCopy(copia, index === 0));
  for (const range of ranges) printer.finish(range);
  doc.end();
  return done;
}
