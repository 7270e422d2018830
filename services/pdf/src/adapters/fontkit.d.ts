// fontkit ships no type declarations; the printer only creates fonts and hands them to pdfkit.
declare module "fontkit" {
  /** A parsed font: pdfkit lays text out and subsets with it. */
  export interface Font {
    readonly postscriptName: string;
    layout(text: string): unknown;
    /** the glyph of a code point, kept by the font with that character (fonts.ts) */
    glyphForCodePoint(codePoint: number): unknown;
  }
  export function create(buffer: Uint8Array, postscriptName?: string): Font;
}
