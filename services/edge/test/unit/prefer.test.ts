import { describe, expect, it } from "vitest";
import { prefersAsync } from "../../src/routes/factura-issue.js";

describe("Prefer: respond-async (RFC 7240)", () => {
  it("is found among the preferences, in any case, with or without others", () => {
    expect(prefersAsync("respond-async")).toBe(true);
    expect(prefersAsync("Respond-Async")).toBe(true);
    expect(prefersAsync("return=minimal, respond-async, wait=10")).toBe(true);
    expect(prefersAsync(["wait=5", "respond-async"])).toBe(true);
    expect(prefersAsync(" respond-async ; foo=bar")).toBe(true);
  });

  it("is absent otherwise", () => {
    expect(prefersAsync(undefined)).toBe(false);
    expect(prefersAsync("")).toBe(false);
    expect(prefersAsync("return=representation")).toBe(false);
    expect(prefersAsync("respond-asynchronously")).toBe(false);
    expect(prefersAsync("x=respond-async")).toBe(false);
  });
});
