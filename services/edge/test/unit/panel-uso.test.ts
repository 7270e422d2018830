import { catalogue } from "@pasarela/errors";
import { describe, expect, it } from "vitest";
import { callCells, codeCell } from "../../src/panel/pages/uso.js";

const text = (markup: { toString(): string } | string) =>
  String(markup)
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

describe("panel: Uso says what each call was, in words", () => {
  it("shows a catalogue code as its Spanish message, the code small after it", () => {
    const cell = String(codeCell("SERVICE_NOT_DELEGATED"));
    expect(text(cell)).toBe(`${catalogue.SERVICE_NOT_DELEGATED.message} SERVICE_NOT_DELEGATED`);
    expect(cell).toMatch(/<small class="mono muted">SERVICE_NOT_DELEGATED<\/small>/);
    expect(codeCell(null)).toBe("");
    expect(text(codeCell("NOT_IN_THE_CATALOGUE"))).toBe("NOT_IN_THE_CATALOGUE");
  });

  it("words an event received instead of its subject, and keeps a call's method and route", () => {
    const event = text(callCells({ method: "EVENT", route: "evt.cobros.link.pagado" }));
    expect(event).toBe("Aviso Pago recibido de un link de cobro");
    expect(event).not.toContain("evt.");
    expect(text(callCells({ method: "EVENT", route: "evt.otro" }))).toBe(
      "Aviso Aviso de otro servicio",
    );
    expect(text(callCells({ method: "GET", route: "/api/cuenta" }))).toBe("GET /api/cuenta");
  });
});
