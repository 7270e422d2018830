import type { wsfe } from "@pasarela/contracts";
import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { loadFonts } from "../../src/adapters/fonts.js";
import { renderComprobante, type Impresion } from "../../src/adapters/layout/index.js";

const emitido = (items: number, cbteNro = 42): wsfe.Emitido => ({
  state: "authorized",
  tipoAutorizacion: "CAE",
  environment: "homologacion",
  cuit: "20111111112",
  ptoVta: 3,
  cbteTipo: 6,
  cbteNro,
  concepto: 1,
  cbteFch: "20261120",
  receptor: { docTipo: 99, docNro: "0", condicionIvaReceptorId: 5 },
  items: Array.from({ length: items }, (_, i) => ({
    descripcion: `Artículo ñandú ¿${i + 1}?`,
    cantidad: "1",
    precioUnitario: "1.25",
    alicuotaIva: "21",
    bonificacion: "0",
    importe: "1.25",
  })),
  iva: [],
  tributos: [],
  totales: {
    impTotal: "1.51",
    impNeto: "1.25",
    impIVA: "0.26",
    impTrib: "0.00",
    impTotConc: "0.00",
    impOpEx: "0.00",
  },
  moneda: { id: "PES", cotizacion: "1" },
  comprobantesAsociados: [],
  opcionales: [],
  cae: "70417054367476",
  caeVencimiento: "20261130",
  qr: "https://www.afip.gob.ar/fe/qr/?p=eyJ2ZXIiOjF9",
  emisor: null,
});

const print = (impresion: Impresion) => renderComprobante(impresion, loadFonts());

describe("pdf: the layout", () => {
  it("renders the same bytes for the same voucher, whatever was rendered in between", async () => {
    const one: Impresion = { emitido: emitido(1), perfil: null, copias: ["original"] };
    const first = await print(one);
    await print({ emitido: emitido(120, 43), perfil: null, copias: ["duplicado"] });
    const again = await print(one);
    expect(again.equals(first)).toBe(true);
    expect(first.subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("lays out a page per copy and more pages for long item lists", async () => {
    const pages = (pdf: Buffer) => Number(/\/Count (\d+)/.exec(pdf.toString("latin1"))?.[1]);
    expect(pages(await print({ emitido: emitido(3), perfil: null, copias: ["original"] }))).toBe(1);
    const three = await print({
      emitido: emitido(3),
      perfil: null,
      copias: ["original", "duplicado", "triplicado"],
    });
    expect(pages(three)).toBe(3);
    expect(
      pages(await print({ emitido: emitido(200), perfil: null, copias: ["original"] })),
    ).toBeGreaterThan(3);
  });

  it("embeds the profile's logo", async () => {
    // any real PNG will do: the QR library writes one
    const png = await QRCode.toBuffer("logo", { type: "png" });
    const perfil = {
      razonSocial: "Kiosco",
      domicilioComercial: null,
      condicionIva: null,
      ingresosBrutos: null,
      inicioActividades: null,
      logo: { mediaType: "image/png" as const, sha256: "0".repeat(64) },
    };
    const withLogo = await print({ emitido: emitido(1), perfil, logo: png, copias: ["original"] });
    const without = await print({ emitido: emitido(1), perfil, logo: null, copias: ["original"] });
    expect(withLogo.toString("latin1")).toContain("/Subtype /Image");
    expect(without.toString("latin1")).not.toContain("/Subtype /Image");
  });
});
