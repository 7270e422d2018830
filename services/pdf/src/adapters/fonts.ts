import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { create } from "fontkit";
import type { Fonts } from "./layout/index.js";

const require = createRequire(import.meta.url);

let loaded: Fonts | undefined;

const parse = (file: string) =>
  create(readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`)));

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
