import type { ticket, wsfe } from "@pasarela/contracts";
import type { Idioma } from "@pasarela/formato";
import type { Etiquetas } from "../../domain/etiquetas.js";

/** The page every copy is printed on, and where its parts go. */
export const A4: [number, number] = [595.28, 841.89];
export const MARGIN = 20;
export const WIDTH = A4[0] - 2 * MARGIN;
export const CENTER = A4[0] / 2;
/** where the footer (QR, CAE, page number) begins on every page */
export const FOOTER_TOP = A4[1] - MARGIN - 96;
export const ROW_FONT = 7;
export const LINE = 11;

export type Doc = PDFKit.PDFDocument;

/**
 * What every part of a page reads: the voucher, its issuer, its class letter and the language
 * it is printed in with its labels (Spanish but for an export voucher in another language).
 */
export interface Sheet {
  readonly pen: Pen;
  readonly emitido: wsfe.Emitido;
  readonly perfil: ticket.Emisor | null;
  readonly logo: Uint8Array | null;
  readonly letra: string;
  readonly idioma: Idioma;
  readonly etiquetas: Etiquetas;
}

export const pad = (value: number, width: number) => String(value).padStart(width, "0");

/** Text on the page: the two embedded fonts, one-line cells and "label: value" fields. */
export class Pen {
  readonly doc: Doc;

  constructor(doc: Doc) {
    this.doc = doc;
  }

  font(bold: boolean, size: number): Doc {
    return this.doc.font(bold ? "bold" : "regular").fontSize(size);
  }

  text(
    value: string,
    x: number,
    y: number,
    width: number,
    align: "left" | "center" | "right" = "left",
  ): void {
    this.doc.text(value, x, y, {
      width,
      align,
      lineBreak: false,
      ellipsis: true,
      height: LINE,
    });
  }

  /**
   * "Etiqueta: valor", the label in bold, on one line; with `lines` > 1 the value may wrap to
   * that many lines (the rest is cut with an ellipsis). Answers the height it took.
   */
  field(label: string, value: string, x: number, y: number, width: number, lines = 1): number {
    this.font(true, 8);
    const labelWidth = this.doc.widthOfString(`${label}: `);
    this.text(`${label}:`, x, y, labelWidth + 2);
    this.font(false, 8);
    const valueWidth = Math.max(width - labelWidth, 10);
    if (lines === 1 || this.doc.widthOfString(value) <= valueWidth) {
      this.text(value, x + labelWidth, y, valueWidth);
      return 14;
    }
    const height = Math.min(
      this.doc.heightOfString(value, { width: valueWidth }),
      this.doc.currentLineHeight(true) * lines,
    );
    this.doc.text(value, x + labelWidth, y, { width: valueWidth, height, ellipsis: true });
    return height + 5;
  }
}
