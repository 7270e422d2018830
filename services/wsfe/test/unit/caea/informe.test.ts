import { describe, expect, it } from "vitest";
import { decimalText, type DecimalText } from "../../../src/domain/amount.js";
import type { AuthorityComprobante } from "../../../src/domain/comprobante.js";
import {
  anterior,
  esperaTrasIntentos,
  finDelPlazo,
  isSameCaeaVoucher,
  juzgarInforme,
  porVencer,
  puntosSinMovimiento,
  quincenasTerminadas,
} from "../../../src/domain/caea/informe.js";
import type { FECAEDetRequest } from "../../../src/domain/issuance/index.js";

const A = (cbteDesde: number, observaciones: { code: number; msg: string }[] = []) => ({
  cbteDesde,
  resultado: "A",
  observaciones,
});
const R = (cbteDesde: number, observaciones: { code: number; msg: string }[] = []) => ({
  cbteDesde,
  resultado: "R",
  observaciones,
});
const dec = (text: string): DecimalText => decimalText(text)!;
const e = (code: number) => ({ code, msg: `m${code}` });

describe("juzgarInforme", () => {
  it("informs every voucher of a batch accepted whole, with its observations", () => {
    expect(juzgarInforme([4, 5], { detalles: [A(4), A(5, [e(10217)])], errores: [] })).toEqual({
      informados: [
        { cbteNro: 4, observaciones: [] },
        { cbteNro: 5, observaciones: [e(10217)] },
      ],
    });
  });

  it("rejects the first voucher refused with observations of its own, and leaves the rest pending", () => {
    const v = juzgarInforme([4, 5, 6], {
      detalles: [A(4), R(5, [e(702)]), R(6)],
      errores: [e(703)],
    });
    expect(v.informados.map((i) => i.cbteNro)).toEqual([4]);
    expect(v.rechazado).toEqual({ cbteNro: 5, observaciones: [e(702)], errores: [e(703)] });
    expect(v.detenido).toBeUndefined();
  });

  it("rejects the first voucher refused when the answer's code names it (704, its date)", () => {
    const v = juzgarInforme([4, 5], { detalles: [R(4), R(5)], errores: [e(704)] });
    expect(v.rechazado?.cbteNro).toBe(4);
  });

  it("holds the series back, judging no voucher, on an error of the request (701, 780, 703)", () => {
    for (const code of [701, 780, 705, 703]) {
      const v = juzgarInforme([4, 5], { detalles: [R(4), R(5)], errores: [e(code)] });
      expect(v).toEqual({ informados: [], detenido: { cbteNro: 4, errores: [e(code)] } });
    }
  });

  it("holds back at a detail the answer left out", () => {
    const v = juzgarInforme([4, 5], { detalles: [A(4)], errores: [] });
    expect(v.informados.map((i) => i.cbteNro)).toEqual([4]);
    expect(v.detenido?.cbteNro).toBe(5);
  });
});

describe("isSameCaeaVoucher", () => {
  const sent: FECAEDetRequest = {
    Concepto: 1,
    DocTipo: 99,
    DocNro: "0",
    CbteDesde: 7,
    CbteHasta: 7,
    CbteFch: "20261120",
    ImpTotal: "121.00",
    ImpTotConc: "0.00",
    ImpNeto: "121.00",
    ImpOpEx: "0.00",
    ImpTrib: "0.00",
    ImpIVA: "0.00",
    MonId: "PES",
    MonCotiz: "1",
    CondicionIVAReceptorId: 5,
  };
  const held: AuthorityComprobante = {
    codAutorizacion: "31234567890123",
    resultado: "A",
    emisionTipo: "CAEA",
    docTipo: 99,
    docNro: "0",
    cbteDesde: 7,
    cbteHasta: 7,
    cbteFch: "20261120",
    impTotal: dec("121"),
    impNeto: dec("121"),
    impIVA: dec("0"),
  };

  it("adopts the voucher informed under this CAEA with the data handed out", () => {
    expect(isSameCaeaVoucher(sent, "31234567890123", held)).toBe(true);
  });

  it("never adopts one issued with a CAE, under another CAEA, or with other data", () => {
    expect(isSameCaeaVoucher(sent, "31234567890123", { ...held, emisionTipo: "CAE" })).toBe(false);
    expect(isSameCaeaVoucher(sent, "31234567890123", { ...held, emisionTipo: undefined })).toBe(
      false,
    );
    expect(isSameCaeaVoucher(sent, "39999999999999", held)).toBe(false);
    expect(isSameCaeaVoucher(sent, "31234567890123", { ...held, impTotal: dec("122") })).toBe(
      false,
    );
  });
});

describe("the informing's calendar", () => {
  it("waits longer after each failed attempt, up to the maximum", () => {
    expect([0, 1, 2, 3, 10].map((n) => esperaTrasIntentos(n, 30_000, 900_000))).toEqual([
      0, 30_000, 60_000, 120_000, 900_000,
    ]);
  });

  it("ends FchTopeInf at midnight in Argentina and alerts from 48 h before", () => {
    expect(finDelPlazo("20261208").toISOString()).toBe("2026-12-09T03:00:00.000Z");
    expect(porVencer("20261208", new Date("2026-12-07T03:00:00Z"))).toBe(true);
    expect(porVencer("20261208", new Date("2026-12-07T02:59:59Z"))).toBe(false);
    expect(porVencer("20261208", new Date("2026-12-10T00:00:00Z"))).toBe(true);
  });

  it("names the two fortnights that ended last, across a year", () => {
    expect(anterior({ periodo: 202701, orden: 1 })).toMatchObject({ periodo: 202612, orden: 2 });
    expect(
      quincenasTerminadas(new Date("2027-01-02T12:00:00Z")).map((q) => [q.periodo, q.orden]),
    ).toEqual([
      [202612, 2],
      [202612, 1],
    ]);
  });

  it("declares only the points of sale without vouchers and not declared yet, once each", () => {
    expect(puntosSinMovimiento([90, 91, 92, 92, 93], new Set([90]), new Set([93]))).toEqual([
      91, 92,
    ]);
  });
});
