import { describe, expect, it } from "vitest";
import { fecha, fechaHora } from "../../src/index.js";

describe("formato: dates dd/mm/aaaa and times in 24 h, in Argentina", () => {
  it("reads the authority's, a form's and an ISO date-time's day", () => {
    expect(fecha("20250131")).toBe("31/01/2025");
    expect(fecha("2026-11-26")).toBe("26/11/2026");
    // 02:30 UTC is still the day before in Argentina (UTC−3, no daylight saving)
    expect(fecha("2026-11-27T02:30:00Z")).toBe("26/11/2026");
    expect(fecha("2026-11-27T03:00:00Z")).toBe("27/11/2026");
    expect(fecha("2026-11-26T23:59:00-03:00")).toBe("26/11/2026");
  });

  it("shows nothing given as a dash and any other text as it is", () => {
    expect(fecha(null)).toBe("—");
    expect(fecha(undefined)).toBe("—");
    expect(fecha("")).toBe("—");
    expect(fecha("mañana")).toBe("mañana");
    expect(fechaHora(null)).toBe("—");
    expect(fechaHora("no es fecha")).toBe("no es fecha");
  });

  it("writes times in 24 h with a four-digit year, never a.m./p.m.", () => {
    expect(fechaHora("2026-11-26T20:53:00Z")).toBe("26/11/2026 17:53");
    expect(fechaHora("2028-11-25T20:52:07.123Z")).toBe("25/11/2028 17:52");
    expect(fechaHora(new Date("2026-01-01T12:05:00Z"))).toBe("01/01/2026 09:05");
  });

  it("writes midnight as 00:00 of its Argentine day, all year round", () => {
    expect(fechaHora("2026-11-27T03:00:00Z")).toBe("27/11/2026 00:00");
    expect(fechaHora("2026-11-27T02:59:00Z")).toBe("26/11/2026 23:59");
    // July: no daylight saving in Argentina either
    expect(fechaHora("2026-07-01T03:00:00Z")).toBe("01/07/2026 00:00");
    expect(fechaHora("2026-11-26T17:53:00-03:00")).not.toMatch(/p\. ?m\.|a\. ?m\./);
  });
});
