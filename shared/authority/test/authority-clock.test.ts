import { describe, expect, it } from "vitest";
import { authorityNow, authorityOffsetMs, observeAuthorityDate } from "../src/authority-clock.js";

describe("the authority's clock, from the Date of its answers", () => {
  it("is this host's until an answer says otherwise, and ignores what Date cannot resolve", () => {
    expect(authorityOffsetMs("pruebas-1")).toBe(0);
    const at = Date.parse("2026-12-03T15:00:00Z");
    // one second's resolution and the round trip: within 2 s it is noise
    observeAuthorityDate("pruebas-1", new Date(at + 1_000).toUTCString(), at, at + 200);
    expect(authorityOffsetMs("pruebas-1")).toBe(0);
    observeAuthorityDate("pruebas-1", "not a date", at, at + 200);
    observeAuthorityDate("pruebas-1", undefined, at, at + 200);
    expect(authorityOffsetMs("pruebas-1")).toBe(0);
  });

  it("follows an authority ahead or behind, per environment, as the latest answer shows it", () => {
    const sentAt = Date.parse("2026-12-03T15:00:00Z");
    const ahead = sentAt + 6 * 86_400_000;
    observeAuthorityDate("pruebas-2", new Date(ahead).toUTCString(), sentAt - 5_000, sentAt + 500);
    // the answer's Date against when it arrived, however long it was waited for
    expect(authorityOffsetMs("pruebas-2")).toBe(6 * 86_400_000);
    expect(Math.abs(authorityNow("pruebas-2") - (Date.now() + 6 * 86_400_000))).toBeLessThan(50);
    expect(authorityOffsetMs("pruebas-3")).toBe(0);
    observeAuthorityDate("pruebas-2", new Date(sentAt - 3_600_000).toUTCString(), sentAt, sentAt);
    expect(authorityOffsetMs("pruebas-2")).toBe(-3_600_000 + 500);
  });
});
