import { describe, expect, it } from "vitest";
import { contingenciaView } from "../../src/panel/pages/contingencia-view.js";
import type { Detalle } from "../../src/panel/pages/representadas-views.js";

/** What the contingency card reads of a representada; the rest of it does not matter here. */
const representada = (contingencia: Detalle["contingencia"]) =>
  ({
    representadaId: "00000000-0000-4000-8000-00000000000a",
    cuit: "30712345671",
    environment: "homologacion",
    contingencia,
  }) as Detalle;

const text = (h: { text: string }) =>
  h.text
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

const caea = {
  caea: "37471234567890",
  periodo: 202612,
  orden: 1 as const,
  fchVigDesde: "20261201",
  fchVigHasta: "20261215",
  fchTopeInf: "20261223",
  obtenidoAt: "2026-11-26T13:00:00.000Z",
};

describe("panel: a representada's contingency", () => {
  it("shows it off, and how to turn it on", () => {
    const card = text(
      contingenciaView(representada({ caea: false, puntosDeVenta: [] }), undefined),
    );
    expect(card).toContain("Contingencia (CAEA) Apagada");
    expect(card).toContain("PATCH /api/representadas/00000000-0000-4000-8000-00000000000a");
    expect(card).not.toContain("Actual");
  });

  it("shows it on with its points of sale, the current fortnight's CAEA with its dates and the next one not yet obtained", () => {
    const view = contingenciaView(representada({ caea: true, puntosDeVenta: [90, 91] }), {
      actual: caea,
      proxima: null,
    });
    const card = text(view);
    expect(card).toContain("Encendida · puntos de venta CAEA: 90, 91");
    expect(card).toContain(
      "Actual 1.ª quincena de diciembre de 2026 37471234567890 01/12/2026 al 15/12/2026 23/12/2026 26/11/2026 10:00",
    );
    expect(card).toContain("Próxima Todavía no se obtuvo");
    // the vouchers still to be informed and those refused, of this representada
    expect(view.text).toContain(
      "/panel/comprobantes?entorno=homologacion&amp;representada=30712345671&amp;estado=caea_pendiente",
    );
    expect(view.text).toContain("estado=caea_rechazado");
  });

  it("says so when the CAEAs could not be read", () => {
    const card = text(
      contingenciaView(representada({ caea: true, puntosDeVenta: [90] }), {
        error: "El servicio no responde",
      }),
    );
    expect(card).toContain("No se pudieron leer los CAEA: El servicio no responde");
  });
});
