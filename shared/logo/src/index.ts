import { inflateSync } from "node:zlib";
import { decode as decodeJpeg } from "jpeg-js";
import PDFDocument from "pdfkit";
import pngjs from "pngjs";
import { ticket } from "@pasarela/contracts";

/**
 * Whether an issuer logo can be printed on a voucher. The printer (pdfkit) embeds a JPEG as it
 * is (the PDF viewer decodes it) and a PNG's compressed data mostly as it is too, so a file
 * that only starts like an image would print as a broken voucher or not print at all. The
 * check therefore decodes the whole image (pngjs, jpeg-js: every chunk, CRC, scan line and
 * Huffman code) and then embeds it in a scratch document with pdfkit itself, the same call
 * the voucher makes. Sizes are bounded before anything is decoded, so a small file declaring
 * a huge picture never allocates it.
 */

/** The media types a logo may have: the two pdfkit embeds. */
export type LogoMediaType = ticket.Logo["mediaType"];

/**
 * The longest side a logo may have, in pixels. It prints within 130 × 36 pt, where 1000 px is
 * over 500 dpi; the bound also keeps decoding it (about a third of a second for the largest on
 * a busy two-core machine) short.
 */
export const LOGO_MAX_SIDE = 1000;
/** The largest file, as the contract bounds it. */
export const LOGO_MAX_BYTES = ticket.LOGO_MAX_BYTES;

export type LogoCheck =
  | { readonly ok: true; readonly width: number; readonly height: number }
  /** `problem` completes "el archivo …" in LOGO_INVALID's message */
  | { readonly ok: false; readonly problem: string };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_SOI = Buffer.from([0xff, 0xd8]);

const refuse = (problem: string): LogoCheck => ({ ok: false, problem });

function kindOf(bytes: Buffer): LogoMediaType | undefined {
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return "image/png";
  if (bytes.subarray(0, 2).equals(JPEG_SOI)) return "image/jpeg";
  return undefined;
}

interface Header {
  readonly width: number;
  readonly height: number;
  /** JPEG only: bits per sample and colour components of the frame */
  readonly precision?: number;
  readonly components?: number;
}

/** What a PNG's IHDR says of its scan lines. */
interface PngHeader extends Header {
  readonly bitDepth: number;
  readonly colourType: number;
  readonly interlaced: boolean;
}

/** A PNG's header from its first chunk, which must be IHDR; read once. */
function pngHeader(bytes: Buffer): PngHeader | undefined {
  if (bytes.length < 33 || bytes.toString("latin1", 12, 16) !== "IHDR") return undefined;
  if (bytes.readUInt32BE(8) !== 13) return undefined;
  return {
    width: bytes.readUInt32BE(16),
    height: bytes.readUInt32BE(20),
    bitDepth: bytes[24]!,
    colourType: bytes[25]!,
    interlaced: bytes[28] === 1,
  };
}

// start-of-frame markers: every one but DHT (C4), JPG (C8) and DAC (CC)
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** A JPEG's frame header, walking the marker segments up to the first frame. */
function jpegHeader(bytes: Buffer): Header | undefined {
  let pos = 2;
  while (pos + 4 <= bytes.length) {
    if (bytes[pos] !== 0xff) return undefined;
    const marker = bytes[pos + 1]!;
    if (marker === 0xff) {
      pos += 1; // fill byte
      continue;
    }
    // a scan or the end before any frame: there is no picture to size
    if (marker === 0xda || marker === 0xd9) return undefined;
    const length = bytes.readUInt16BE(pos + 2);
    if (length < 2 || pos + 2 + length > bytes.length) return undefined;
    if (SOF.has(marker)) {
      if (length < 8) return undefined;
      return {
        precision: bytes[pos + 4]!,
        height: bytes.readUInt16BE(pos + 5),
        width: bytes.readUInt16BE(pos + 7),
        components: bytes[pos + 9]!,
      };
    }
    pos += 2 + length;
  }
  return undefined;
}

const describe = (mediaType: LogoMediaType) => (mediaType === "image/png" ? "PNG" : "JPEG");

// samples per pixel by PNG colour type: grey, RGB, palette, grey + alpha, RGBA
const PNG_CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
// Adam7: the first column and row of each pass and the steps between them
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** Bytes the scan lines of a `width` × `height` picture take once inflated, filter bytes included. */
function pngScanBytes(width: number, height: number, bitsPerPixel: number): number {
  if (width === 0 || height === 0) return 0;
  return height * (1 + Math.ceil((width * bitsPerPixel) / 8));
}

/**
 * The image data of a PNG inflated as one complete zlib stream, measured against what its
 * header says. pngjs stops quietly at a stream that ends early and filters whatever memory
 * follows, so this is what tells a cut or shortened image from a whole one. pngjs then
 * inflates the data once more to decode it (it takes no inflated data through its public
 * interface): a logo is at most 200 KB and judged once per upload.
 */
function checkPngData(bytes: Buffer, header: PngHeader): void {
  const idat: Buffer[] = [];
  let pos = 8;
  while (pos + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(pos);
    const type = bytes.toString("latin1", pos + 4, pos + 8);
    if (type === "IDAT") idat.push(bytes.subarray(pos + 8, pos + 8 + length));
    if (type === "IEND") break;
    pos += 12 + length;
  }
  const { width, height } = header;
  const channels = PNG_CHANNELS[header.colourType];
  if (channels === undefined) throw new Error("unknown colour type");
  const bitsPerPixel = header.bitDepth * channels;
  const expected = header.interlaced
    ? ADAM7.reduce(
        (sum, [x0, y0, dx, dy]) =>
          sum +
          pngScanBytes(
            Math.ceil(Math.max(0, width - x0) / dx),
            Math.ceil(Math.max(0, height - y0) / dy),
            bitsPerPixel,
          ),
        0,
      )
    : pngScanBytes(width, height, bitsPerPixel);
  // throws "unexpected end of file" on a stream that does not finish
  const inflated = inflateSync(Buffer.concat(idat));
  if (inflated.length < expected) throw new Error("image data ends early");
}

/** Decodes every pixel; throws on anything damaged or unsupported. */
function decodeWhole(bytes: Buffer, png: PngHeader | undefined): void {
  if (png) {
    checkPngData(bytes, png);
    pngjs.PNG.sync.read(bytes, { checkCRC: true });
    return;
  }
  decodeJpeg(bytes, {
    useTArray: true,
    tolerantDecoding: false,
    maxResolutionInMP: (LOGO_MAX_SIDE * LOGO_MAX_SIDE) / 1_000_000,
    maxMemoryUsageInMB: 128,
  });
}

/**
 * Embeds the image in a throwaway document exactly as the voucher does, and waits for the
 * document to end: pdfkit parses the file, splits a PNG's alpha channel, and writes the image.
 */
function embedWithPdfkit(bytes: Buffer): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const doc = new PDFDocument({ size: [200, 60], margin: 0, autoFirstPage: true });
    doc.on("data", () => undefined);
    doc.on("end", () => resolve());
    doc.on("error", reject);
    try {
      doc.image(bytes, 0, 0, { fit: [130, 36] });
      doc.end();
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/**
 * Judges a logo: its type against what it says it is, its size in bytes and in pixels, every
 * pixel decoded, and pdfkit embedding it. Never throws: anything wrong is a `problem`.
 */
export async function checkLogo(mediaType: LogoMediaType, bytes: Buffer): Promise<LogoCheck> {
  if (bytes.length === 0) return refuse("está vacío");
  if (bytes.length > LOGO_MAX_BYTES) {
    return refuse(`pesa ${Math.ceil(bytes.length / 1024)} KB`);
  }
  const actual = kindOf(bytes);
  if (!actual) return refuse("no es una imagen PNG ni JPEG");
  if (actual !== mediaType) {
    return refuse(`es una imagen ${describe(actual)} pero se declaró ${mediaType}`);
  }
  const png = actual === "image/png" ? pngHeader(bytes) : undefined;
  const header = actual === "image/png" ? png : jpegHeader(bytes);
  if (!header) return refuse(`no tiene un encabezado ${describe(actual)} válido`);
  const { width, height } = header;
  if (width < 1 || height < 1) return refuse(`mide ${width} × ${height} píxeles`);
  if (width > LOGO_MAX_SIDE || height > LOGO_MAX_SIDE) {
    return refuse(`mide ${width} × ${height} píxeles`);
  }
  if (header.precision !== undefined && header.precision !== 8) {
    return refuse(`es un JPEG de ${header.precision} bits por muestra (se imprimen los de 8)`);
  }
  if (header.components !== undefined && ![1, 3, 4].includes(header.components)) {
    return refuse(`es un JPEG de ${header.components} componentes de color`);
  }
  try {
    decodeWhole(bytes, png);
  } catch {
    return refuse(`no se puede decodificar como ${describe(actual)}: está dañado o incompleto`);
  }
  try {
    await embedWithPdfkit(bytes);
  } catch {
    return refuse(`no se puede incluir en el PDF del comprobante`);
  }
  return { ok: true, width, height };
}
