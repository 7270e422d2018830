import { describe, expect, it } from "vitest";
import { decimalText, type DecimalText } from "../src/domain/amount.js";
import { foundComprobante } from "../src/domain/comprobante.js";
import { argentinaDate, isEnabledPointOfSale, listTables } from "../src/domain/parametros.js";
import { resolvePtoVta } from "../src/domain/point-of-sale.js";

const decimal = (text: string): DecimalText => {
  const value = decimalText(text);
  if (value === undefined) throw new Error(`not a decimal: ${text}`);
  return value;
};

const ctx = { today: "20260315" };

describe("wsfe domain", () => {
  it("rounds impTotal to two decimals and adds email only when there is one", () => {
    const voucher = {
      codAutorizacion: "1",
      resultado: "A",
      cbteDesde: 1,
      cbteHasta: 1,
      cbteFch: "20260101",
      impTotal: decimal("10.999"),
      impNeto: decimal("9.09"),
      impIVA: decimal("1.909"),
    };
    expect(foundComprobante(voucher, undefined)).toEqual({
      found: true,
      codAutorizacion: "1",
      resultado: "A",
      cbteDesde: 1,
      cbteHasta: 1,
      cbteFch: "20260101",
      impTotal: 11,
      impNeto: 9.09,
      impIVA: 1.909,
    });
    expect(foundComprobante(voucher, undefined)).not.toHaveProperty("email");
    expect(foundComprobante(voucher, { to: "a@b.c", status: "sent", error: null })).toMatchObject({
      impTotal: 11,
      email: { to: "a@b.c", status: "sent", error: null },
    });
  });

  it("resolves the point of sale: requested, else configured, else a 400 naming ptoVta", () => {
    expect(resolvePtoVta(4, 2)).toEqual({ ok: true, value: 4 });
    expect(resolvePtoVta(undefined, 2)).toEqual({ ok: true, value: 2 });
    const missing = resolvePtoVta(undefined, null);
    expect(missing.ok || missing.error.code).toBe("INVALID_FIELD");
    expect(missing.ok || missing.error.message).toContain("ptoVta");
  });

  it("keeps the authority's ids as published and NULL dates as null", () => {
    expect(
      listTables["alicuotas-iva"].map(
        {
          Id: "5",
          Desc: "21%",
          FchDesde: "20090220",
          FchHasta: "NULL",
        },
        ctx,
      ),
    ).toEqual({ id: "5", descripcion: "21%", vigenciaDesde: "20090220", vigenciaHasta: null });
    expect(
      listTables["tipos-comprobante"].map(
        {
          Id: "11",
          Desc: "Factura C",
          FchDesde: "20110330",
          FchHasta: "NULL",
        },
        ctx,
      ),
    ).toMatchObject({ id: 11 });
    expect(
      listTables["puntos-de-venta"].map(
        {
          Nro: "3",
          EmisionTipo: "CAE - Ri Iva",
          Bloqueado: "N",
          FchBaja: "NULL",
        },
        ctx,
      ),
    ).toEqual({ id: 3, descripcion: "CAE - Ri Iva", bloqueado: false, fechaBaja: null });
    expect(listTables["tipos-documento"].map({ Desc: "sin id" }, ctx)).toBeUndefined();
  });

  it("lists a point of sale only while it is enabled: not blocked, not withdrawn yet", () => {
    const row = (Bloqueado: string, FchBaja: string) => ({
      Nro: "4",
      EmisionTipo: "CAE - Ri Iva",
      Bloqueado,
      FchBaja,
    });
    const today = "20260315";
    for (const [bloqueado, fchBaja, enabled] of [
      ["N", "NULL", true],
      ["n", "", true],
      ["N", "20260316", true],
      ["N", "2026-03-16", true],
      ["S", "NULL", false],
      ["s", "20990101", false],
      ["N", "20260315", false],
      ["N", "20240131", false],
      ["N", "pronto", false],
    ] as const) {
      expect(isEnabledPointOfSale(row(bloqueado, fchBaja), today), `${bloqueado} ${fchBaja}`).toBe(
        enabled,
      );
      const item = listTables["puntos-de-venta"].map(row(bloqueado, fchBaja), { today });
      expect(item === undefined, `${bloqueado} ${fchBaja}`).toBe(!enabled);
    }
    expect(listTables["puntos-de-venta"].map(row("N", "20260401"), { today })).toEqual({
      id: 4,
      descripcion: "CAE - Ri Iva",
      bloqueado: false,
      fechaBaja: "20260401",
    });
  });

  it("reads today on the authority's calendar (UTC−3)", () => {
    expect(argentinaDate(new Date("2026-03-16T02:59:59Z"))).toBe("20260315");
    expect(argentinaDate(new Date("2026-03-16T03:00:00Z"))).toBe("20260316");
  });
});
