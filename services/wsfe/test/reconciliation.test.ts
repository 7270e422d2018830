import { describe, expect, it } from "vitest";
import type { AuthorityComprobante } from "../src/domain/comprobante.js";
import type { DecimalText } from "../src/domain/amount.js";
import type { FECAEDetRequest } from "../src/domain/issuance/index.js";
import { isSameVoucher } from "../src/domain/reconciliation.js";

const sent: FECAEDetRequest = {
  Concepto: 1,
  DocTipo: 80,
  DocNro: "30000000007",
  CbteDesde: 8,
  CbteHasta: 8,
  CbteFch: "20261201",
  ImpTotal: "121.00",
  ImpTotConc: "0.00",
  ImpNeto: "100.00",
  ImpOpEx: "0.00",
  ImpTrib: "0.00",
  ImpIVA: "21.00",
  MonId: "PES",
  MonCotiz: "1",
  CondicionIVAReceptorId: 1,
};

// FECompConsultar prints amounts unformatted
const held: AuthorityComprobante = {
  codAutorizacion: "71263951827464",
  resultado: "A",
  docTipo: 80,
  docNro: "30000000007",
  fchVto: "20261211",
  cbteDesde: 8,
  cbteHasta: 8,
  cbteFch: "20261201",
  impTotal: "121" as DecimalText,
  impNeto: "100" as DecimalText,
  impIVA: "21" as DecimalText,
};

describe("reconciliation: is the authority's voucher the one the gateway sent?", () => {
  it("the same date, receiver and amounts, whatever the formatting, is the same voucher", () => {
    expect(isSameVoucher(sent, held)).toBe(true);
  });

  it.each<[string, Partial<AuthorityComprobante>]>([
    ["another total", { impTotal: "121.01" as DecimalText }],
    ["another net amount", { impNeto: "99" as DecimalText }],
    ["another VAT amount", { impIVA: "20.99" as DecimalText }],
    ["another date", { cbteFch: "20261130" }],
    ["another receiver", { docNro: "20111111112" }],
    ["another document type", { docTipo: 86 }],
    ["no receiver in the answer", { docTipo: undefined, docNro: undefined }],
    ["a rejected record", { resultado: "R" }],
    ["no CAE", { codAutorizacion: "" }],
    ["another number", { cbteDesde: 9 }],
  ])("%s is someone else's: its CAE is never adopted", (_name, change) => {
    expect(isSameVoucher(sent, { ...held, ...change })).toBe(false);
  });
});
