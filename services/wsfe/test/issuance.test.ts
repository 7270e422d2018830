import { wsfe, type catalog } from "@pasarela/contracts";
import type { Result } from "@pasarela/errors";
import { describe, expect, it } from "vitest";
import {
  authorizedReply,
  buildQrUrl,
  feCaeDetRequest,
  prepareIssuance,
  referencedIds,
  voucherClass,
  type PreparedVoucher,
  type ResolvedReferences,
} from "../src/domain/issuance/index.js";

// 2026-03-16 09:00 in Argentina
const NOW = new Date("2026-03-16T12:00:00Z");
const TODAY = "20260316";
const REPRESENTADA = "20111111112";
const CUIT_RECEPTOR = "30000000007";

const facturaA = {
  environment: "homologacion",
  representada: REPRESENTADA,
  cbteTipo: 1,
  concepto: 1,
  docTipo: 80,
  docNro: CUIT_RECEPTOR,
  condicionIvaReceptorId: 1,
  items: [
    { descripcion: "Teclado", cantidad: 3, precioUnitario: "1000.005", alicuotaIva: 21 },
    { descripcion: "Libro", cantidad: "2", precioUnitario: 333.33, alicuotaIva: "10.5" },
  ],
};

const noRefs: ResolvedReferences = { productos: new Map() };

function prepare(
  body: Record<string, unknown>,
  refs: ResolvedReferences = noRefs,
  now: Date = NOW,
): Result<PreparedVoucher> {
  return prepareIssuance(wsfe.facturaIssueRequestSchema.parse(body), refs, now);
}

function prepared(body: Record<string, unknown>, refs?: ResolvedReferences): PreparedVoucher {
  const result = prepare(body, refs);
  if (!result.ok) throw new Error(`expected a voucher, got ${JSON.stringify(result.error)}`);
  return result.value;
}

function refused(body: Record<string, unknown>, refs?: ResolvedReferences) {
  const result = prepare(body, refs);
  if (result.ok) throw new Error("expected a refusal");
  return result.error;
}

const cliente = (changes: Partial<catalog.Cliente> = {}): catalog.Cliente => ({
  id: "5b0a3f0e-8f7c-4a59-9d3e-4b1de5a0c001",
  docTipo: 80,
  docNro: CUIT_RECEPTOR,
  razonSocial: "Cliente SA",
  condicionIvaReceptorId: 1,
  email: null,
  domicilio: "Calle 1",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...changes,
});

const producto = (changes: Partial<catalog.Producto> = {}): catalog.Producto => ({
  id: "6c1b4a1f-9a8d-4b6a-8e4f-5c2ef6b1d002",
  codigo: "SKU-1",
  descripcion: "Producto del catálogo",
  precioUnitario: "1210.50",
  alicuotaIva: 21,
  unidadMedida: "unidad",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...changes,
});

describe("totals: exact decimals, each line and each rate rounded once", () => {
  it("computes a Factura A with 21% and 10.5% items", () => {
    const voucher = prepared(facturaA);
    // 3 × 1000.005 = 3000.015 → 3000.02 (half up, once per line); 2 × 333.33 = 666.66
    expect(voucher.items.map((i) => i.importe)).toEqual(["3000.02", "666.66"]);
    expect(voucher.iva).toEqual([
      // 666.66 × 10.5% = 69.9993 → 70.00
      { id: 4, alicuota: "10.5", baseImp: "666.66", importe: "70.00" },
      // 3000.02 × 21% = 630.0042 → 630.00
      { id: 5, alicuota: "21", baseImp: "3000.02", importe: "630.00" },
    ]);
    expect(voucher.totals).toEqual({
      impNeto: "3666.68",
      impIVA: "700.00",
      impTrib: "0.00",
      impTotConc: "0.00",
      impOpEx: "0.00",
      impTotal: "4366.68",
    });
  });

  it("rounds the VAT of a rate once on its base, not line by line", () => {
    // three lines of 0.05 at 10.5%: line by line 0.00525 → 0.01 each, 0.03 in all; on the
    // base 0.15 → 0.01575 → 0.02, which is what BaseImp × rate gives the authority
    const line = { descripcion: "a", cantidad: 1, precioUnitario: "0.05", alicuotaIva: 10.5 };
    const voucher = prepared({ ...facturaA, items: [line, line, line] });
    expect(voucher.iva).toEqual([{ id: 4, alicuota: "10.5", baseImp: "0.15", importe: "0.02" }]);
  });

  it("subtracts the discount before rounding the line", () => {
    const voucher = prepared({
      ...facturaA,
      items: [
        {
          descripcion: "a",
          cantidad: "1.5",
          precioUnitario: "10.01",
          bonificacion: "0.005",
          alicuotaIva: 21,
        },
      ],
    });
    // 15.015 − 0.005 = 15.01
    expect(voucher.items[0]?.importe).toBe("15.01");
  });

  it("sends no_gravado to ImpTotConc and exento to ImpOpEx, outside the Iva entries", () => {
    const voucher = prepared({
      ...facturaA,
      items: [
        { descripcion: "a", cantidad: 1, precioUnitario: 100, alicuotaIva: 21 },
        { descripcion: "b", cantidad: 1, precioUnitario: 50, alicuotaIva: "no_gravado" },
        { descripcion: "c", cantidad: 1, precioUnitario: 25, alicuotaIva: "exento" },
        { descripcion: "d", cantidad: 1, precioUnitario: 10, alicuotaIva: 0 },
      ],
    });
    expect(voucher.totals).toMatchObject({
      impNeto: "110.00",
      impIVA: "21.00",
      impTotConc: "50.00",
      impOpEx: "25.00",
      impTotal: "206.00",
    });
    expect(voucher.iva.map((e) => e.id)).toEqual([3, 5]);
  });

  it("makes ImpNeto the subtotal of a Factura C and sends no Iva", () => {
    const voucher = prepared({
      ...facturaA,
      cbteTipo: 11,
      docTipo: 99,
      docNro: 0,
      condicionIvaReceptorId: 5,
      items: [{ descripcion: "a", cantidad: 2, precioUnitario: "60.50", alicuotaIva: 0 }],
    });
    expect(voucher.iva).toEqual([]);
    expect(voucher.totals).toMatchObject({ impNeto: "121.00", impIVA: "0.00", impTotal: "121.00" });
    expect(feCaeDetRequest(voucher, { cbteNro: 1, cotizacion: "1" }).Iva).toBeUndefined();
  });

  it("adds tributes whose amount is base × rate, rounded", () => {
    const voucher = prepared({
      ...facturaA,
      items: [{ descripcion: "a", cantidad: 1, precioUnitario: 100, alicuotaIva: 21 }],
      tributos: [
        { id: 99, descripcion: "Percepción", baseImponible: 100, alicuota: 1, importe: 1 },
      ],
    });
    expect(voucher.totals).toMatchObject({
      impNeto: "100.00",
      impIVA: "21.00",
      impTrib: "1.00",
      impTotal: "122.00",
    });
  });
});

describe("422 rules before the authority, naming the field and the rule", () => {
  it("lists the accepted rates for a rate outside them", () => {
    const error = refused({ ...facturaA, items: [{ ...facturaA.items[0], alicuotaIva: 19 }] });
    expect(error.code).toBe("TOTALS_INVALID");
    expect(error.message).toBe(
      'El campo items.0.alicuotaIva tiene una alícuota de IVA no aceptada (19). Alícuotas aceptadas: 0, 2.5, 5, 10.5, 21, 27; para ítems sin IVA, "no_gravado" o "exento"',
    );
  });

  it.each([11, 12, 13, 211])("asks class C type %i to send 0", (cbteTipo) => {
    const error = refused({
      ...facturaA,
      cbteTipo,
      condicionIvaReceptorId: 1,
      fce: undefined,
      items: [{ descripcion: "a", cantidad: 1, precioUnitario: 1, alicuotaIva: 21 }],
    });
    expect(error.code).toBe("TOTALS_INVALID");
    expect(error.message).toContain("items.0.alicuotaIva");
    expect(error.message).toContain("Enviá alicuotaIva 0");
  });

  it("refuses a voucher without items", () => {
    expect(refused({ ...facturaA, items: [] })).toMatchObject({
      code: "TOTALS_INVALID",
      message: "El campo items debe tener al menos un ítem",
    });
  });

  it.each(["fchServDesde", "fchServHasta", "fchVtoPago"])(
    "refuses concepto 2 without %s",
    (missing) => {
      const dates: Record<string, string> = {
        fchServDesde: "20260301",
        fchServHasta: "20260331",
        fchVtoPago: "20260410",
      };
      delete dates[missing];
      const error = refused({ ...facturaA, concepto: 2, ...dates });
      expect(error.code).toBe("TOTALS_INVALID");
      expect(error.message).toBe(
        `El campo ${missing} es obligatorio cuando concepto es 2 (servicios)`,
      );
    },
  );

  it("refuses service dates in the wrong order, a payment date before the voucher, and service dates with concepto 1", () => {
    const service = {
      ...facturaA,
      concepto: 3,
      fchServDesde: "20260301",
      fchServHasta: "20260331",
      fchVtoPago: "20260410",
    };
    expect(refused({ ...service, fchServHasta: "20260228" }).message).toContain(
      "fchServHasta debe ser igual o posterior a fchServDesde",
    );
    expect(refused({ ...service, fchVtoPago: "20260315" }).message).toContain(
      "fchVtoPago debe ser igual o posterior",
    );
    expect(refused({ ...facturaA, fchServDesde: "20260301" }).message).toContain(
      "solo se informa con concepto 2 o 3",
    );
    expect(refused({ ...facturaA, fchVtoPago: "20260401" }).message).toContain(
      "fchVtoPago solo se informa",
    );
  });

  it.each([3, 8, 13, 2])("refuses note type %i without comprobantesAsociados", (cbteTipo) => {
    const classC = cbteTipo === 13;
    const error = refused({
      ...facturaA,
      cbteTipo,
      ...(cbteTipo === 8 ? { docTipo: 99, docNro: 0, condicionIvaReceptorId: 5 } : {}),
      ...(classC
        ? { items: [{ descripcion: "a", cantidad: 1, precioUnitario: 1, alicuotaIva: 0 }] }
        : {}),
    });
    expect(error.code).toBe("TOTALS_INVALID");
    expect(error.message).toMatch(
      /^El campo comprobantesAsociados debe tener al menos un comprobante/,
    );
  });

  it("refuses associating a voucher of another class to a note", () => {
    const error = refused({
      ...facturaA,
      cbteTipo: 3,
      comprobantesAsociados: [{ cbteTipo: 6, ptoVta: 1, cbteNro: 5 }],
    });
    expect(error.message).toContain(
      "comprobantesAsociados.0.cbteTipo 6 no puede asociarse a una nota tipo 3",
    );
  });

  it("refuses a tribute whose amount is not base × rate", () => {
    const error = refused({
      ...facturaA,
      tributos: [{ id: 2, baseImponible: "1000", alicuota: "3.5", importe: "35.01" }],
    });
    expect(error).toMatchObject({ code: "TOTALS_INVALID", details: { expected: "35.00" } });
    expect(error.message).toBe(
      "El campo tributos.0.importe debe ser baseImponible × alicuota / 100 redondeado a 2 decimales: 1000 × 3.5% = 35.00, no 35.01",
    );
  });

  it("refuses a discount larger than the line", () => {
    const error = refused({
      ...facturaA,
      items: [
        {
          descripcion: "a",
          cantidad: 2,
          precioUnitario: 10,
          bonificacion: "20.01",
          alicuotaIva: 21,
        },
      ],
    });
    expect(error.message).toContain(
      "items.0.bonificacion no puede superar cantidad × precioUnitario",
    );
  });

  it("refuses VAT that rounds to 0 at a rate the authority only accepts with VAT", () => {
    const error = refused({
      ...facturaA,
      items: [{ descripcion: "a", cantidad: 1, precioUnitario: "0.10", alicuotaIva: 2.5 }],
    });
    expect(error.code).toBe("TOTALS_INVALID");
    expect(error.message).toContain("IVA total de 0");
  });

  it("refuses a total the JSON answer could not carry exactly", () => {
    const error = refused({
      ...facturaA,
      items: [
        { descripcion: "a", cantidad: 999_999_999, precioUnitario: 999_999, alicuotaIva: 21 },
      ],
    });
    expect(error.message).toContain("mayor que el máximo");
  });

  it("refuses receivers the class does not admit", () => {
    expect(refused({ ...facturaA, docTipo: 96, docNro: "30111222" }).message).toContain(
      "docTipo debe ser 80 (CUIT)",
    );
    expect(refused({ ...facturaA, condicionIvaReceptorId: 5 }).message).toContain(
      "condicionIvaReceptorId 5 no corresponde a comprobantes clase A",
    );
    expect(refused({ ...facturaA, docNro: REPRESENTADA }).message).toContain(
      "el receptor no puede ser el emisor",
    );
  });

  it("refuses a cbteFch outside the authority's window", () => {
    expect(refused({ ...facturaA, cbteFch: "20260310" }).message).toBe(
      "El campo cbteFch debe estar entre 20260311 y 20260321 (hoy ± 5 días con concepto 1, sin pasar del mes en curso; hoy es 20260316 en la Argentina)",
    );
    // products never go past the current month
    const endOfMonth = prepareIssuance(
      wsfe.facturaIssueRequestSchema.parse({ ...facturaA, cbteFch: "20260401" }),
      noRefs,
      new Date("2026-03-30T12:00:00Z"),
    );
    expect(!endOfMonth.ok && endOfMonth.error.message).toContain("entre 20260325 y 20260331");
  });

  it("refuses PES at a rate other than 1", () => {
    expect(refused({ ...facturaA, moneda: { id: "PES", cotizacion: 2 } }).message).toBe(
      "El campo moneda.cotizacion debe ser 1 para PES, no 2",
    );
  });
});

describe("receiver and items by reference: explicit values win, nothing is inferred", () => {
  const porReferencia = {
    environment: "homologacion",
    representada: REPRESENTADA,
    cbteTipo: 1,
    concepto: 1,
    clienteId: cliente().id,
    items: [{ productoId: producto().id, cantidad: 2 }],
  };
  const refs = (c?: catalog.Cliente, p?: catalog.Producto): ResolvedReferences => ({
    ...(c ? { cliente: c } : {}),
    productos: new Map(p ? [[p.id, p]] : []),
  });

  it("names what the catalog must resolve", () => {
    expect(
      referencedIds(
        wsfe.facturaIssueRequestSchema.parse({
          ...porReferencia,
          items: [
            ...porReferencia.items,
            { productoId: producto().id, cantidad: 1 },
            { ...facturaA.items[0] },
          ],
        }),
      ),
    ).toEqual({ clienteId: cliente().id, productoIds: [producto().id] });
  });

  it("takes the stored customer and product", () => {
    const voucher = prepared(porReferencia, refs(cliente(), producto()));
    expect(voucher.receptor).toEqual({
      docTipo: 80,
      docNro: CUIT_RECEPTOR,
      condicionIvaReceptorId: 1,
      clienteId: cliente().id,
      razonSocial: "Cliente SA",
      domicilio: "Calle 1",
    });
    expect(voucher.items[0]).toMatchObject({
      productoId: producto().id,
      codigo: "SKU-1",
      descripcion: "Producto del catálogo",
      precioUnitario: "1210.5",
      alicuotaIva: "21",
      unidadMedida: "unidad",
      importe: "2421.00",
    });
  });

  it("lets explicit values override the stored ones", () => {
    const voucher = prepared(
      {
        ...porReferencia,
        condicionIvaReceptorId: 6,
        items: [
          {
            productoId: producto().id,
            cantidad: 1,
            precioUnitario: "100",
            alicuotaIva: 10.5,
            descripcion: "Otro",
          },
        ],
      },
      refs(cliente(), producto()),
    );
    expect(voucher.receptor.condicionIvaReceptorId).toBe(6);
    expect(voucher.items[0]).toMatchObject({
      descripcion: "Otro",
      precioUnitario: "100",
      alicuotaIva: "10.5",
    });
    expect(voucher.totals.impIVA).toBe("10.50");
  });

  it("answers the catalogue's messages for references that do not resolve or lack a value", () => {
    expect(refused(porReferencia, refs(undefined, producto()))).toMatchObject({
      code: "CLIENTE_REFERENCE_NOT_FOUND",
      message: `No se encontró el cliente ${cliente().id} en tu cuenta`,
    });
    expect(refused(porReferencia, refs(cliente(), undefined))).toMatchObject({
      code: "PRODUCTO_REFERENCE_NOT_FOUND",
      message: `No se encontró el producto ${producto().id} en tu cuenta`,
    });
    expect(
      refused(porReferencia, refs(cliente({ condicionIvaReceptorId: null }), producto())),
    ).toMatchObject({
      code: "CLIENTE_WITHOUT_CONDICION_IVA",
      message: `El cliente ${cliente().id} no tiene condición frente al IVA cargada`,
    });
    expect(refused(porReferencia, refs(cliente(), producto({ alicuotaIva: null })))).toMatchObject({
      code: "PRODUCTO_WITHOUT_ALICUOTA",
      message: `El producto ${producto().id} no tiene alícuota de IVA cargada`,
    });
  });

  it("sends the value explicitly to cure a reference without it", () => {
    const voucher = prepared(
      {
        ...porReferencia,
        condicionIvaReceptorId: 1,
        items: [{ productoId: producto().id, cantidad: 1, alicuotaIva: 21 }],
      },
      refs(cliente({ condicionIvaReceptorId: null }), producto({ alicuotaIva: null })),
    );
    expect(voucher.receptor.condicionIvaReceptorId).toBe(1);
  });

  it("answers an unresolved reference before a missing value elsewhere", () => {
    const error = refused(
      { ...porReferencia, items: [{ cantidad: 1 }, { productoId: producto().id, cantidad: 1 }] },
      refs(cliente(), undefined),
    );
    expect(error.code).toBe("PRODUCTO_REFERENCE_NOT_FOUND");
  });

  it("requires the receiver and the item values when nothing is referenced (400 naming the field)", () => {
    const { docTipo: _t, docNro: _n, ...anonymous } = facturaA;
    expect(refused(anonymous)).toMatchObject({ code: "INVALID_FIELD" });
    expect(refused(anonymous).message).toMatch(/^El campo docTipo es obligatorio/);
    expect(refused({ ...facturaA, docNro: undefined }).message).toBe(
      "El campo docNro es obligatorio cuando se envía docTipo: van juntos",
    );
    expect(refused({ ...facturaA, condicionIvaReceptorId: undefined }).message).toMatch(
      /^El campo condicionIvaReceptorId es obligatorio al emitir/,
    );
    expect(
      refused({ ...facturaA, items: [{ cantidad: 1, precioUnitario: 1, alicuotaIva: 21 }] })
        .message,
    ).toBe("El campo items.0.descripcion es obligatorio en un ítem sin productoId");
    expect(
      refused({ ...facturaA, items: [{ descripcion: "a", cantidad: 1, precioUnitario: 1 }] })
        .message,
    ).toBe("El campo items.0.alicuotaIva es obligatorio en un ítem sin productoId");
    expect(refused({ ...facturaA, docNro: "30000000008" }).message).toContain(
      "no es una CUIT válida",
    );
  });

  it("takes the consumidor final as 99/0 on a Factura B", () => {
    const voucher = prepared({
      ...facturaA,
      cbteTipo: 6,
      docTipo: 99,
      docNro: 0,
      condicionIvaReceptorId: 5,
    });
    expect(voucher.receptor).toEqual({ docTipo: 99, docNro: "0", condicionIvaReceptorId: 5 });
    expect(voucher.clase).toBe("B");
  });

  it("leaves unsupported types to the contract, and knows the class of every accepted one", () => {
    const parsed = wsfe.facturaIssueRequestSchema.safeParse({ ...facturaA, cbteTipo: 19 });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toContain("cbteTipo 19 no soportado");
    for (const cbteTipo of wsfe.WSFE_CBTE_TIPOS) expect(voucherClass(cbteTipo)).toBeDefined();
  });
});

describe("fce block", () => {
  const fceA = {
    ...facturaA,
    cbteTipo: 201,
    fchVtoPago: "20260415",
    fce: { cbu: "0170001540000001234567", alias: "empresa.cobro", opcionTransferencia: "SCA" },
  };

  it("translates cbu, alias and transfer option into opcionales 2101, 2102 and 27", () => {
    const voucher = prepared({ ...fceA, opcionales: [{ id: "23", valor: "OC-1" }] });
    expect(voucher.opcionales).toEqual([
      { id: "23", valor: "OC-1" },
      { id: "2101", valor: "0170001540000001234567" },
      { id: "2102", valor: "empresa.cobro" },
      { id: "27", valor: "SCA" },
    ]);
  });

  it("translates the annulment flag of an FCE note into opcional 22", () => {
    const voucher = prepared({
      ...facturaA,
      cbteTipo: 203,
      fce: { anulacion: false },
      comprobantesAsociados: [
        { cbteTipo: 201, ptoVta: 3, cbteNro: 1, cuit: REPRESENTADA, cbteFch: TODAY },
      ],
    });
    expect(voucher.opcionales).toEqual([{ id: "22", valor: "N" }]);
  });

  it("refuses the block on a non-FCE type, and FCE opcionales there", () => {
    expect(refused({ ...facturaA, fce: { cbu: "0170001540000001234567" } }).message).toMatch(
      /^El campo fce solo se admite en comprobantes FCE MiPyME/,
    );
    expect(refused({ ...facturaA, opcionales: [{ id: 27, valor: "SCA" }] }).message).toContain(
      "opcionales.0.id 27 es un opcional de FCE MiPyME",
    );
  });

  it("refuses a raw opcional that contradicts the block, and keeps one that agrees once", () => {
    expect(refused({ ...fceA, opcionales: [{ id: "27", valor: "ADC" }] }).message).toContain(
      "opcionales.0.valor contradice fce.opcionTransferencia",
    );
    expect(
      prepared({ ...fceA, opcionales: [{ id: "27", valor: "SCA" }] }).opcionales.filter(
        (o) => o.id === "27",
      ),
    ).toHaveLength(1);
  });

  it("lets an FCE note of services go without a payment date unless it annuls", () => {
    const note = {
      ...facturaA,
      cbteTipo: 203,
      concepto: 2,
      fchServDesde: "20260301",
      fchServHasta: "20260315",
      fce: { anulacion: false },
      comprobantesAsociados: [
        { cbteTipo: 201, ptoVta: 3, cbteNro: 1, cuit: REPRESENTADA, cbteFch: TODAY },
      ],
    };
    expect(prepared(note).fchVtoPago).toBeUndefined();
    expect(refused({ ...note, fchVtoPago: "20260401" }).message).toContain(
      "en notas FCE solo se informa si la nota es una anulación",
    );
    expect(prepared({ ...note, fchVtoPago: "20260401", fce: { anulacion: true } }).fchVtoPago).toBe(
      "20260401",
    );
  });

  it("requires what FCE invoices and notes need", () => {
    expect(refused({ ...fceA, fchVtoPago: undefined }).message).toBe(
      "El campo fchVtoPago es obligatorio en facturas de crédito electrónicas MiPyME (tipos 201, 206 y 211)",
    );
    expect(refused({ ...fceA, fce: { ...fceA.fce, cbu: undefined } }).message).toMatch(
      /^El campo fce.cbu es obligatorio/,
    );
    expect(refused({ ...fceA, fce: { cbu: fceA.fce.cbu } }).message).toMatch(
      /^El campo fce.opcionTransferencia es obligatorio/,
    );
    expect(refused({ ...fceA, fce: { ...fceA.fce, anulacion: true } }).message).toContain(
      "fce.anulacion solo se informa en notas FCE",
    );
    expect(refused({ ...fceA, docTipo: 96, docNro: "30111222" }).message).toContain(
      "docTipo debe ser 80 (CUIT)",
    );
    const note = {
      ...facturaA,
      cbteTipo: 203,
      comprobantesAsociados: [
        { cbteTipo: 201, ptoVta: 3, cbteNro: 1, cuit: REPRESENTADA, cbteFch: TODAY },
      ],
    };
    expect(refused(note).message).toMatch(/^El campo fce.anulacion es obligatorio en notas FCE/);
    expect(refused({ ...note, fce: { anulacion: true, cbu: fceA.fce.cbu } }).message).toContain(
      "fce.cbu no se informa en notas FCE",
    );
    expect(
      refused({
        ...note,
        fce: { anulacion: false },
        comprobantesAsociados: [{ cbteTipo: 201, ptoVta: 3, cbteNro: 1 }],
      }).message,
    ).toContain("comprobantesAsociados.0.cuit es obligatorio en notas FCE");
  });
});

describe("dates and currency", () => {
  it("defaults cbteFch to today in Argentina (UTC−3) from the injected clock", () => {
    const at = (iso: string) => {
      const result = prepareIssuance(
        wsfe.facturaIssueRequestSchema.parse(facturaA),
        noRefs,
        new Date(iso),
      );
      return result.ok ? result.value.cbteFch : result.error.message;
    };
    expect(at("2026-03-16T02:59:59Z")).toBe("20260315");
    expect(at("2026-03-16T03:00:00Z")).toBe("20260316");
  });

  it("defaults the currency to PES at 1 and leaves a foreign rate to the authority when absent", () => {
    expect(prepared(facturaA).moneda).toEqual({
      id: "PES",
      cotizacion: "1",
      mismaMonedaExtranjera: false,
    });
    expect(prepared({ ...facturaA, moneda: { id: "DOL" } }).moneda).toEqual({
      id: "DOL",
      mismaMonedaExtranjera: false,
    });
    expect(
      prepared({ ...facturaA, moneda: { id: "DOL", cotizacion: "1050.5" } }).moneda.cotizacion,
    ).toBe("1050.5");
  });
});

describe("what goes to FECAESolicitar and what comes back", () => {
  it("lays out the detail in WSDL order with the number, amounts as two-decimal text", () => {
    const voucher = prepared({
      ...facturaA,
      concepto: 2,
      fchServDesde: "20260301",
      fchServHasta: "20260331",
      fchVtoPago: "20260410",
      moneda: { id: "DOL" },
      tributos: [{ id: 99, descripcion: "Otro", baseImponible: 100, alicuota: 1, importe: 1 }],
    });
    const detail = feCaeDetRequest(voucher, { cbteNro: 42, cotizacion: "1050.25" });
    expect(Object.keys(detail)).toEqual([
      "Concepto",
      "DocTipo",
      "DocNro",
      "CbteDesde",
      "CbteHasta",
      "CbteFch",
      "ImpTotal",
      "ImpTotConc",
      "ImpNeto",
      "ImpOpEx",
      "ImpTrib",
      "ImpIVA",
      "FchServDesde",
      "FchServHasta",
      "FchVtoPago",
      "MonId",
      "MonCotiz",
      "CanMisMonExt",
      "CondicionIVAReceptorId",
      "Tributos",
      "Iva",
    ]);
    expect(detail).toMatchObject({
      CbteDesde: 42,
      CbteHasta: 42,
      DocNro: CUIT_RECEPTOR,
      ImpTotal: "4367.68",
      MonId: "DOL",
      MonCotiz: "1050.25",
      CanMisMonExt: "N",
      Tributos: [{ Id: 99, Desc: "Otro", BaseImp: "100.00", Alic: "1", Importe: "1.00" }],
    });
    expect(() =>
      feCaeDetRequest(prepared({ ...facturaA, moneda: { id: "DOL", cotizacion: 2 } }), {
        cbteNro: 1,
        cotizacion: "3",
      }),
    ).toThrow();
  });

  it("answers the 200 body with the QR of this voucher", () => {
    const voucher = prepared(facturaA);
    const reply = authorizedReply(voucher, {
      cuit: REPRESENTADA,
      ptoVta: 3,
      cbteNro: 42,
      cotizacion: "1",
      cae: "71263951827464",
      caeVencimiento: "20260326",
      observaciones: [{ code: 10217, msg: "El credito fiscal discriminado..." }],
    });
    expect(wsfe.facturaIssueReplySchema.parse(reply)).toEqual(reply);
    expect(reply).toMatchObject({
      resultado: "A",
      cbteNro: 42,
      impTotal: "4366.68",
      cbteFch: TODAY,
    });
    const payload = JSON.parse(
      Buffer.from(reply.qr.replace("https://www.afip.gob.ar/fe/qr/?p=", ""), "base64").toString(
        "utf8",
      ),
    ) as unknown;
    expect(payload).toEqual({
      ver: 1,
      fecha: "2026-03-16",
      cuit: 20111111112,
      ptoVta: 3,
      tipoCmp: 1,
      nroCmp: 42,
      importe: 4366.68,
      moneda: "PES",
      ctz: 1,
      tipoDocRec: 80,
      nroDocRec: 30000000007,
      tipoCodAut: "E",
      codAut: 71263951827464,
    });
  });
});

describe("QR (RG 4892)", () => {
  it("matches the authority's published sample byte for byte", () => {
    // pyafipws' TEST_QR_DATA, the published example of the specification
    const reference =
      "eyJ2ZXIiOjEsImZlY2hhIjoiMjAyMC0xMC0xMyIsImN1aXQiOjMwMDAwMDAwMDA3LCJwdG9WdGEiOj" +
      "EwLCJ0aXBvQ21wIjoxLCJucm9DbXAiOjk0LCJpbXBvcnRlIjoxMjEwMCwibW9uZWRhIjoiRE9MIiwi" +
      "Y3R6Ijo2NSwidGlwb0RvY1JlYyI6ODAsIm5yb0RvY1JlYyI6MjAwMDAwMDAwMDEsInRpcG9Db2RBdX" +
      "QiOiJFIiwiY29kQXV0Ijo3MDQxNzA1NDM2NzQ3Nn0=";
    const url = buildQrUrl({
      cbteFch: "20201013",
      cuit: "30000000007",
      ptoVta: 10,
      cbteTipo: 1,
      cbteNro: 94,
      importe: "12100.00",
      moneda: "DOL",
      cotizacion: "65",
      docTipo: 80,
      docNro: "20000000001",
      codAut: "70417054367476",
    });
    expect(url).toBe(`https://www.afip.gob.ar/fe/qr/?p=${reference}`);
  });

  it("leaves out the receiver of an unidentified consumidor final and keeps the cents", () => {
    const url = buildQrUrl({
      cbteFch: "20261008",
      cuit: "30000000007",
      ptoVta: 5,
      cbteTipo: 6,
      cbteNro: 105,
      importe: "121.50",
      moneda: "PES",
      cotizacion: "1",
      docTipo: 99,
      docNro: "0",
      codAut: "76412345678901",
    });
    const json = Buffer.from(url.split("?p=")[1] ?? "", "base64").toString("utf8");
    expect(json).toBe(
      '{"ver":1,"fecha":"2026-10-08","cuit":30000000007,"ptoVta":5,"tipoCmp":6,"nroCmp":105,"importe":121.5,"moneda":"PES","ctz":1,"tipoCodAut":"E","codAut":76412345678901}',
    );
  });
});
