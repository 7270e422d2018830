import { crc32 } from "node:zlib";
import { encode as encodeJpeg } from "jpeg-js";
import pngjs from "pngjs";
import { describe, expect, it } from "vitest";
import { checkLogo, LOGO_MAX_BYTES, LOGO_MAX_SIDE } from "../../src/index.js";

/** A real PNG of the given size; colour type 6 (RGBA) unless `alpha` is false. */
export function png(width: number, height: number, alpha = true): Buffer {
  const image = new pngjs.PNG({ width, height, colorType: alpha ? 6 : 2 });
  for (let i = 0; i < image.data.length; i += 4) {
    image.data[i] = (i * 7) % 256;
    image.data[i + 1] = (i * 13) % 256;
    image.data[i + 2] = 200;
    image.data[i + 3] = alpha ? (i % 3) * 100 : 255;
  }
  return pngjs.PNG.sync.write(image, { colorType: alpha ? 6 : 2 });
}

/** A real baseline JPEG of the given size. */
export function jpeg(width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < data.length; i++) data[i] = (i * 31) % 256;
  return encodeJpeg({ data, width, height }, 80).data;
}

/** The chunks of a PNG, to damage one and keep its CRC right. */
function withIdat(bytes: Buffer, change: (data: Buffer) => Buffer): Buffer {
  const parts: Buffer[] = [bytes.subarray(0, 8)];
  let pos = 8;
  while (pos < bytes.length) {
    const length = bytes.readUInt32BE(pos);
    const type = bytes.subarray(pos + 4, pos + 8);
    let data = bytes.subarray(pos + 8, pos + 8 + length);
    if (type.toString("latin1") === "IDAT") data = change(Buffer.from(data));
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([type, data])));
    parts.push(head, type, data, crc);
    pos += 12 + length;
  }
  return Buffer.concat(parts);
}

const PNG_SIGNATURE = Buffer.from("iVBORw0KGgo=", "base64");
const JPEG_HEADER = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
  0x00, 0x01, 0x00, 0x00,
]);

describe("logo check", () => {
  it("accepts real PNGs (with and without alpha) and JPEGs, answering their size", async () => {
    expect(await checkLogo("image/png", png(120, 40))).toEqual({
      ok: true,
      width: 120,
      height: 40,
    });
    expect(await checkLogo("image/png", png(30, 30, false))).toMatchObject({ ok: true });
    expect(await checkLogo("image/jpeg", jpeg(64, 16))).toEqual({
      ok: true,
      width: 64,
      height: 16,
    });
  });

  it("refuses a PNG signature or a JPEG header with nothing after it", async () => {
    expect(await checkLogo("image/png", PNG_SIGNATURE)).toEqual({
      ok: false,
      problem: "no tiene un encabezado PNG válido",
    });
    expect(await checkLogo("image/jpeg", JPEG_HEADER)).toEqual({
      ok: false,
      problem: "no tiene un encabezado JPEG válido",
    });
    expect(await checkLogo("image/jpeg", Buffer.from([0xff, 0xd8, 0xff]))).toMatchObject({
      ok: false,
    });
  });

  it("refuses images whose header is right but whose pixels do not decode", async () => {
    const good = png(50, 20);
    const cut = good.subarray(0, good.length - 30);
    const garbled = withIdat(good, (data) => data.fill(0x55, 10, 40));
    const shortened = withIdat(png(50, 20, false), (data) => data.subarray(0, data.length / 2));
    const halfJpeg = jpeg(64, 64).subarray(0, 400);
    for (const [type, bytes] of [
      ["image/png", cut],
      ["image/png", garbled],
      ["image/png", shortened],
      ["image/jpeg", halfJpeg],
    ] as const) {
      const verdict = await checkLogo(type, bytes);
      expect(verdict.ok, `${type} of ${bytes.length} bytes`).toBe(false);
      expect(!verdict.ok && verdict.problem).toMatch(/^no se puede decodificar/);
    }
  });

  it("refuses a PNG whose image data stops anywhere before its end, with every CRC right", async () => {
    for (const alpha of [true, false]) {
      const whole = png(50, 20, alpha);
      for (let tenth = 1; tenth < 10; tenth++) {
        const bytes = withIdat(whole, (data) =>
          data.subarray(0, Math.floor((data.length * tenth) / 10)),
        );
        const verdict = await checkLogo("image/png", bytes);
        expect(verdict.ok, `alpha ${alpha}, ${tenth}/10 of the data`).toBe(false);
      }
    }
  });

  it("refuses a file of another type than declared, an empty one and one of neither", async () => {
    expect(await checkLogo("image/png", jpeg(8, 8))).toEqual({
      ok: false,
      problem: "es una imagen JPEG pero se declaró image/png",
    });
    expect(await checkLogo("image/png", Buffer.alloc(0))).toEqual({
      ok: false,
      problem: "está vacío",
    });
    expect(await checkLogo("image/jpeg", Buffer.from("GIF89a........"))).toEqual({
      ok: false,
      problem: "no es una imagen PNG ni JPEG",
    });
  });

  it("bounds bytes and pixels before decoding", async () => {
    const heavy = Buffer.concat([png(4, 4), Buffer.alloc(LOGO_MAX_BYTES)]);
    expect(await checkLogo("image/png", heavy)).toMatchObject({ ok: false, problem: /^pesa/ });
    expect(await checkLogo("image/png", png(LOGO_MAX_SIDE + 1, 1, false))).toEqual({
      ok: false,
      problem: `mide ${LOGO_MAX_SIDE + 1} × 1 píxeles`,
    });
    // a small file declaring a huge picture: refused from its header, nothing allocated
    const bomb = Buffer.from(png(1, 1));
    bomb.writeUInt32BE(60_000, 16);
    bomb.writeUInt32BE(60_000, 20);
    expect(await checkLogo("image/png", bomb)).toMatchObject({ ok: false, problem: /^mide/ });
  });
});
