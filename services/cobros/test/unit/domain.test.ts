import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { montoDelLink, sameMonto, venceDelLink } from "../../src/domain/monto.js";
import { signNotification, verifySignature } from "../../src/domain/signature.js";

const secret = "a-webhook-secret";
const requestId = "bb56a2f1-6aae-46ac-982e-9dcd3581d08e";
const ts = 1_704_908_010;
const at = ts * 1000;

/** The manifest exactly as Mercado Pago documents it, signed independently of the code. */
const documented = (manifest: string) =>
  `ts=${ts},v1=${createHmac("sha256", secret).update(manifest).digest("hex")}`;

describe("Mercado Pago's x-signature", () => {
  it("accepts the documented manifest id:<data.id>;request-id:<x-request-id>;ts:<ts>;", () => {
    const xSignature = documented(`id:123456;request-id:${requestId};ts:${ts};`);
    expect(
      verifySignature({ dataId: "123456", xRequestId: requestId, xSignature }, secret, at),
    ).toEqual({
      valid: true,
      ts: at,
    });
    expect(signNotification(secret, "123456", requestId, ts)).toBe(xSignature);
  });

  it("lower-cases an alphanumeric data.id, as documented", () => {
    const xSignature = documented(`id:abc123;request-id:${requestId};ts:${ts};`);
    expect(
      verifySignature({ dataId: "ABC123", xRequestId: requestId, xSignature }, secret, at).valid,
    ).toBe(true);
  });

  it("refuses another secret, another payment, another request id, a missing or malformed header", () => {
    const xSignature = signNotification(secret, "123456", requestId, ts);
    const check = (n: Parameters<typeof verifySignature>[0], key = secret) =>
      verifySignature(n, key, at);
    expect(check({ dataId: "123456", xRequestId: requestId, xSignature }, "other")).toMatchObject({
      valid: false,
    });
    expect(check({ dataId: "123457", xRequestId: requestId, xSignature })).toMatchObject({
      valid: false,
    });
    expect(check({ dataId: "123456", xRequestId: "other", xSignature })).toMatchObject({
      valid: false,
    });
    expect(check({ dataId: "123456", xRequestId: requestId })).toEqual({
      valid: false,
      reason: "no x-signature header",
    });
    expect(check({ dataId: "123456", xRequestId: requestId, xSignature: "ts=1,v1=zz" })).toEqual({
      valid: false,
      reason: "malformed x-signature header",
    });
  });

  it("refuses a genuine signature whose timestamp is too old (a replay)", () => {
    const xSignature = signNotification(secret, "123456", requestId, ts);
    expect(
      verifySignature(
        { dataId: "123456", xRequestId: requestId, xSignature },
        secret,
        at + 11 * 60_000,
      ),
    ).toMatchObject({ valid: false, reason: expect.stringContaining("replay") as unknown });
  });
});

describe("the amount of a link", () => {
  it("defaults to the voucher's total, in pesos at the voucher's rate when foreign", () => {
    expect(
      montoDelLink({ impTotal: "1210.50" }, { id: "PES", cotizacion: "1" }, undefined),
    ).toEqual({
      ok: true,
      monto: "1210.50",
    });
    // 100.01 × 1050.255 = 105036.00255 → 105036.00
    expect(
      montoDelLink({ impTotal: "100.01" }, { id: "DOL", cotizacion: "1050.255" }, undefined),
    ).toEqual({
      ok: true,
      monto: "105036.00",
    });
  });

  it("takes a partial amount but never more than the total", () => {
    expect(montoDelLink({ impTotal: "100.00" }, { id: "PES", cotizacion: "1" }, "99.9")).toEqual({
      ok: true,
      monto: "99.90",
    });
    expect(montoDelLink({ impTotal: "100.00" }, { id: "PES", cotizacion: "1" }, "100.01")).toEqual({
      ok: false,
      total: "100.00",
    });
  });

  it("compares amounts as decimals", () => {
    expect(sameMonto("1210.5", "1210.50")).toBe(true);
    expect(sameMonto("0.1", "0.10000001")).toBe(false);
  });
});

describe("when a link stops taking payments", () => {
  const now = new Date("2026-11-22T12:00:00Z");
  it("is the end of the given day in Argentina, or 30 days from now", () => {
    expect(venceDelLink("2026-11-30", now)?.toISOString()).toBe("2026-12-01T02:59:59.999Z");
    expect(venceDelLink(undefined, now)?.toISOString()).toBe("2026-12-22T12:00:00.000Z");
  });
  it("refuses a day that has ended or does not exist", () => {
    expect(venceDelLink("2026-11-21", now)).toBeUndefined();
    expect(venceDelLink("2026-02-30", now)).toBeUndefined();
  });
});
