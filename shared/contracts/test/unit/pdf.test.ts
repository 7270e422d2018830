import { describe, expect, it } from "vitest";
import { pdf, ticket } from "../../src/index.js";

const key = {
  environment: "homologacion",
  representada: "20111111112",
  ptoVta: 3,
  cbteTipo: 6,
  cbteNro: 42,
};

describe("pdf contracts", () => {
  it("needs all five fields of the voucher", () => {
    expect(pdf.comprobanteRender.request.safeParse(key).success).toBe(true);
    for (const field of Object.keys(key)) {
      const { [field as keyof typeof key]: _, ...rest } = key;
      expect(pdf.comprobanteRender.request.safeParse(rest).success).toBe(false);
      expect(pdf.linkCreate.request.safeParse(rest).success).toBe(false);
    }
  });

  it("takes the four copies and nothing else", () => {
    for (const copia of ["original", "duplicado", "triplicado", "todas"]) {
      expect(pdf.comprobanteRender.request.safeParse({ ...key, copia }).success).toBe(true);
    }
    expect(
      pdf.comprobanteRender.request.safeParse({ ...key, copia: "cuadruplicado" }).success,
    ).toBe(false);
    expect(pdf.linkCreate.request.safeParse({ ...key, copia: "original" }).success).toBe(false);
  });

  it("answers the PDF as base64", () => {
    expect(pdf.pdfDocumentSchema.safeParse({ filename: "a.pdf", pdf: "JVBERi0=" }).success).toBe(
      true,
    );
    expect(pdf.pdfDocumentSchema.safeParse({ filename: "a.pdf", pdf: "%PDF-" }).success).toBe(
      false,
    );
  });

  it("bounds the profile's logo", () => {
    const big = Buffer.alloc(2 * ticket.LOGO_MAX_BYTES).toString("base64");
    expect(ticket.logoSchema.safeParse({ mediaType: "image/png", data: big }).success).toBe(false);
    expect(ticket.logoSchema.safeParse({ mediaType: "image/gif", data: "R0lGOA==" }).success).toBe(
      false,
    );
  });
});
