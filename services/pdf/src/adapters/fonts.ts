import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { create } from "fontkit";
import type { Fonts } from "./layout/index.js";

const require = createRequire(import.meta.url);

let loaded: Fonts | undefined;

/**
 * The parsed font keeps each glyph as first met, with the characters it was met for, and pdfkit
 * writes those into a document's text layer. Shaping "Ñ" splits it into "N" and a tilde met for
 * no character, so an "N" printed after any "Ñ", in that document or any later one, copied or
 * searched as nothing. Meeting the Latin letters (the ones such splits give) through their own
 * characters first keeps the text layer right and the same whatever was printed before; the
 * ligatures ("fi") are left to be met through the letters they join, so they read as those.
 */
const LATIN: readonly [number, number] = [0x20, 0x24f];

function parse(file: string) {
  const font = create(readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`)));
  for (let codePoint = LATIN[0]; codePoint <= LATIN[1]; codePoint++) {
    font.glyphForCodePoint(codePoint);
  }
  return font;
}

/**
 * DejaVu Sans (regular and bold) from the `dejavu-fonts-ttf` package: full Latin coverage
 * (á, ñ, °, ¿, –) wherever the repository is installed, nothing taken from the OS. Parsed
 * once and shared by every document: pdfkit subsets each document's glyphs from the parsed
 * font, and keeping it spares parsing and shaping tables on every render (several times
 * faster).
 */
export function loadFonts(): Fonts {
  loaded ??= { regular: parse("DejaVuSans.ttf"), bold: parse("DejaVuSans-Bold.ttf") };
  return loaded;
}
