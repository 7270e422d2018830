import { describe, expect, it } from "vitest";
import { referencedExportIds } from "../../../src/domain/exportacion/index.js";
import {
  cliente,
  CUIT_URUGUAY,
  facturaE,
  notaCreditoE,
  prepare,
  prepared,
  producto,
  refused,
  TODAY,
} from "./fixtures.js";

const totalsInvalid = (field: string) => ({
  code: "TOTALS_INVALID",
  details: expect.objectContaining({ field }) as unknown,
});
const invalidField = (field: string) => ({
  code: "INVALID_FIELD",
  details: expect.objectContaining({ field }) as unknown,
});
const without = (body: Record<string, unknown>, ...keys: string[]) =>
  Object.fromEntries(Object.entries(body).filter(([key]) => !keys.includes(key)));
const servicios = {
  ...without(facturaE, "permisoExistente", "permisos", "incoterms"),
  tipoExpo: 2,
  fechaPago: "20260415",
};

describe("prepareExportacion: the voucher as resolved", () => {
  it("prices each line once, half up to cents, and totals the rounded lines exactly", () => {
    const voucher = prepared(facturaE);
    // 3 × 33.33 − 0.99 = 99.00; 2.5 × 10.005 = 25.0125 → 25.01
    expect(voucher.items.map((item) => item.importe)).toEqual(["99.00", "25.01"]);
    expect(voucher.impTotal).toBe("124.01");
    expect(voucher.items[1]).toMatchObject({
      cantidad: "2.5",
      precioUnitario: "10.005",
      bonificacion: "0",
    });
  });

  it("rounds a half cent up, never through a double", () => {
    // 1.005 as a double is 1.00499999…: exact arithmetic gives 1.01
    const voucher = prepared({
      ...facturaE,
      items: [{ descripcion: "x", cantidad: 1, unidadMedida: 7, precioUnitario: "1.005" }],
    });
    expect(voucher.impTotal).toBe("1.01");
  });

  it("defaults cbteFch to today in Argentina and keeps what was sent", () => {
    const voucher = prepared(facturaE);
    expect(voucher).toMatchObject({
      cbteTipo: 19,
      cbteFch: TODAY,
      tipoExpo: 1,
      permisoExistente: "S",
      permisos: [{ idPermiso: "26001EC01000123A", dstMerc: 225 }],
      dstCmp: 225,
      cliente: { razonSocial: "Importadora del Plata SA", cuitPais: CUIT_URUGUAY },
      moneda: { id: "DOL", cotizacion: "1050.25" },
      idioma: 1,
      incoterms: "FOB",
      formaPago: "Transferencia a 30 días",
      comprobantesAsociados: [],
      opcionales: [],
      actividades: [],
    });
    expect(voucher).not.toHaveProperty("fechaPago");
    expect(voucher).not.toHaveProperty("email");
    // stored as JSON: reads back the same
    expect(JSON.parse(JSON.stringify(voucher))).toEqual(voucher);
  });

  it("leaves the rate of a foreign currency to the authority when none is sent", () => {
    expect(prepared(without(facturaE, "cotizacion")).moneda).toEqual({ id: "DOL" });
  });
});

describe("references: the catalog's customer and products, explicit values winning", () => {
  it("names what the catalog must resolve, each product once", () => {
    expect(
      referencedExportIds({
        clienteId: "c1",
        items: [
          { productoId: "p1", cantidad: "1" },
          { productoId: "p1", cantidad: "2" },
          { productoId: "p2", cantidad: "1" },
          { descripcion: "x", cantidad: "1" },
        ],
      }),
    ).toEqual({ clienteId: "c1", productoIds: ["p1", "p2"] });
    expect(referencedExportIds({ items: [] })).toEqual({ productoIds: [] });
  });

  it("takes the customer's name, address and CUIT, unless sent", () => {
    const stored = cliente();
    const body = { ...without(facturaE, "cliente"), clienteId: stored.id };
    expect(prepared(body, { cliente: stored, productos: new Map() }).cliente).toEqual({
      razonSocial: "Cliente del catálogo SA",
      domicilio: "Rambla 1, Punta del Este",
      cuitPais: CUIT_URUGUAY,
      clienteId: stored.id,
    });
    const mixed = prepared(
      { ...body, cliente: { domicilio: "Otra 2", idImpositivo: "RUT 2100" } },
      { cliente: stored, productos: new Map() },
    );
    expect(mixed.cliente).toEqual({
      razonSocial: "Cliente del catálogo SA",
      domicilio: "Otra 2",
      cuitPais: CUIT_URUGUAY,
      idImpositivo: "RUT 2100",
      clienteId: stored.id,
    });
  });

  it("reads a customer's non-CUIT document as its tax id", () => {
    const stored = cliente({ docTipo: 94, docNro: "123456" });
    const body = { ...without(facturaE, "cliente"), clienteId: stored.id };
    expect(prepared(body, { cliente: stored, productos: new Map() }).cliente).toMatchObject({
      idImpositivo: "123456",
    });
  });

  it("answers an unknown customer before a missing value", () => {
    const error = refused({
      ...without(facturaE, "cliente"),
      clienteId: "nope",
      items: [{ cantidad: 1 }],
    });
    expect(error).toMatchObject({
      code: "CLIENTE_REFERENCE_NOT_FOUND",
      details: { clienteId: "nope" },
    });
  });

  it("answers an unknown product before a missing customer value", () => {
    const error = refused({
      ...facturaE,
      cliente: { razonSocial: "Sin domicilio" },
      items: [{ productoId: "nope", cantidad: 1 }],
    });
    expect(error).toMatchObject({
      code: "PRODUCTO_REFERENCE_NOT_FOUND",
      details: { productoId: "nope" },
    });
  });

  it("takes the product's description, code, price and unit code, unless sent", () => {
    const stored = producto();
    const refs = { productos: new Map([[stored.id, stored]]) };
    const voucher = prepared(
      { ...facturaE, items: [{ productoId: stored.id, cantidad: 2 }] },
      refs,
    );
    expect(voucher.items[0]).toEqual({
      productoId: stored.id,
      codigo: "SKU-1",
      descripcion: "Producto del catálogo",
      cantidad: "2",
      unidadMedida: 7,
      precioUnitario: "1210.5",
      bonificacion: "0",
      importe: "2421.00",
    });
    const explicit = prepared(
      {
        ...facturaE,
        items: [
          {
            productoId: stored.id,
            cantidad: 1,
            descripcion: "Otra",
            precioUnitario: 2,
            unidadMedida: 1,
          },
        ],
      },
      refs,
    );
    expect(explicit.items[0]).toMatchObject({
      descripcion: "Otra",
      precioUnitario: "2",
      unidadMedida: 1,
    });
  });

  it("asks for the unit when the product's is free text, not a unit code", () => {
    const stored = producto({ unidadMedida: "kg" });
    const refs = { productos: new Map([[stored.id, stored]]) };
    expect(
      refused({ ...facturaE, items: [{ productoId: stored.id, cantidad: 1 }] }, refs),
    ).toMatchObject(invalidField("items.0.unidadMedida"));
    expect(
      prepared(
        { ...facturaE, items: [{ productoId: stored.id, cantidad: 1, unidadMedida: 1 }] },
        refs,
      ).items[0]?.unidadMedida,
    ).toBe(1);
  });
});

describe("values missing once references are resolved: 400 naming the field", () => {
  it.each([
    ["descripcion", { cantidad: 1, unidadMedida: 7, precioUnitario: 1 }],
    ["unidadMedida", { descripcion: "x", cantidad: 1, precioUnitario: 1 }],
    ["precioUnitario", { descripcion: "x", cantidad: 1, unidadMedida: 7 }],
  ])("an item without %s", (field, item) => {
    expect(refused({ ...facturaE, items: [item] })).toMatchObject(invalidField(`items.0.${field}`));
  });

  it("a customer without a name or an address", () => {
    const { razonSocial: _name, ...sinNombre } = facturaE.cliente;
    expect(refused({ ...facturaE, cliente: sinNombre })).toMatchObject(
      invalidField("cliente.razonSocial"),
    );
    const { domicilio: _address, ...sinDomicilio } = facturaE.cliente;
    expect(refused({ ...facturaE, cliente: sinDomicilio })).toMatchObject(
      invalidField("cliente.domicilio"),
    );
    expect(refused(without(facturaE, "cliente"))).toMatchObject(
      invalidField("cliente.razonSocial"),
    );
    const stored = cliente({ domicilio: null });
    expect(
      refused(
        { ...without(facturaE, "cliente"), clienteId: stored.id },
        { cliente: stored, productos: new Map() },
      ),
    ).toMatchObject(invalidField("cliente.domicilio"));
  });

  it("a customer with neither cuitPais nor idImpositivo; either one is enough", () => {
    const { cuitPais: _cuit, ...sinDocumento } = facturaE.cliente;
    expect(refused({ ...facturaE, cliente: sinDocumento })).toMatchObject(
      invalidField("cliente.cuitPais"),
    );
    expect(
      prepared({ ...facturaE, cliente: { ...sinDocumento, idImpositivo: "RUT 1" } }).cliente,
    ).toEqual({
      ...sinDocumento,
      idImpositivo: "RUT 1",
    });
  });

  it("a cuitPais whose check digit is wrong", () => {
    expect(
      refused({ ...facturaE, cliente: { ...facturaE.cliente, cuitPais: "50000000017" } }),
    ).toMatchObject(invalidField("cliente.cuitPais"));
  });
});

describe("what the type and the kind of export require: 422 naming the field", () => {
  it("formaPago in invoices (19), not in notes", () => {
    expect(refused(without(facturaE, "formaPago"))).toMatchObject(totalsInvalid("formaPago"));
    expect(prepared(without(notaCreditoE, "formaPago")).cbteTipo).toBe(21);
  });

  it("incoterms in invoices of goods (19, tipoExpo 1), optional elsewhere", () => {
    expect(refused(without(facturaE, "incoterms"))).toMatchObject(totalsInvalid("incoterms"));
    expect(prepared({ ...servicios, incoterms: "CIF" }).incoterms).toBe("CIF");
    expect(prepared(servicios)).not.toHaveProperty("incoterms");
  });

  it("permisoExistente S or N in invoices of goods, and only there", () => {
    expect(refused(without(facturaE, "permisoExistente", "permisos"))).toMatchObject(
      totalsInvalid("permisoExistente"),
    );
    expect(refused({ ...servicios, permisoExistente: "N" })).toMatchObject(
      totalsInvalid("permisoExistente"),
    );
    expect(refused({ ...notaCreditoE, permisoExistente: "N" })).toMatchObject(
      totalsInvalid("permisoExistente"),
    );
    expect(prepared({ ...facturaE, permisoExistente: "N", permisos: [] }).permisoExistente).toBe(
      "N",
    );
  });

  it('"S" lists at least one permit, "N" and no answer list none', () => {
    expect(refused({ ...facturaE, permisos: [] })).toMatchObject(totalsInvalid("permisos"));
    expect(refused(without(facturaE, "permisos"))).toMatchObject(totalsInvalid("permisos"));
    expect(refused({ ...facturaE, permisoExistente: "N" })).toMatchObject(
      totalsInvalid("permisos"),
    );
    expect(refused({ ...servicios, permisos: facturaE.permisos })).toMatchObject(
      totalsInvalid("permisos"),
    );
  });

  it("each permit once, with its destination", () => {
    const permiso = facturaE.permisos[0];
    expect(refused({ ...facturaE, permisos: [permiso, permiso] })).toMatchObject(
      totalsInvalid("permisos.1"),
    );
    const voucher = prepared({ ...facturaE, permisos: [permiso, { ...permiso, dstMerc: 203 }] });
    expect(voucher.permisos.map((p) => p.dstMerc)).toEqual([225, 203]);
  });

  it("fechaPago in invoices of services or other exports (tipoExpo 2 or 4), absent otherwise", () => {
    expect(refused(without(servicios, "fechaPago"))).toMatchObject(totalsInvalid("fechaPago"));
    expect(refused({ ...servicios, tipoExpo: 4, fechaPago: undefined })).toMatchObject(
      totalsInvalid("fechaPago"),
    );
    expect(prepared({ ...servicios, tipoExpo: 4 }).fechaPago).toBe("20260415");
    expect(refused({ ...facturaE, fechaPago: "20260415" })).toMatchObject(
      totalsInvalid("fechaPago"),
    );
    expect(refused({ ...notaCreditoE, fechaPago: "20260415" })).toMatchObject(
      totalsInvalid("fechaPago"),
    );
  });

  it("fechaPago not before the voucher", () => {
    expect(refused({ ...servicios, cbteFch: "20260318", fechaPago: "20260317" })).toMatchObject(
      totalsInvalid("fechaPago"),
    );
    expect(prepared({ ...servicios, cbteFch: "20260318", fechaPago: "20260318" }).fechaPago).toBe(
      "20260318",
    );
  });
});

describe("associated vouchers", () => {
  it("a note names at least one export voucher it adjusts", () => {
    expect(refused(without(notaCreditoE, "comprobantesAsociados"))).toMatchObject(
      totalsInvalid("comprobantesAsociados"),
    );
    expect(refused({ ...notaCreditoE, cbteTipo: 20, comprobantesAsociados: [] })).toMatchObject(
      totalsInvalid("comprobantesAsociados"),
    );
    expect(prepared(notaCreditoE).comprobantesAsociados).toEqual([
      { cbteTipo: 19, ptoVta: 7, cbteNro: 42 },
    ]);
  });

  it("of type 19, 20 or 21 only, each once", () => {
    const asociado = notaCreditoE.comprobantesAsociados[0];
    expect(
      refused({ ...notaCreditoE, comprobantesAsociados: [{ ...asociado, cbteTipo: 1 }] }),
    ).toMatchObject(totalsInvalid("comprobantesAsociados.0.cbteTipo"));
    expect(refused({ ...notaCreditoE, comprobantesAsociados: [asociado, asociado] })).toMatchObject(
      totalsInvalid("comprobantesAsociados.1"),
    );
    const voucher = prepared({
      ...notaCreditoE,
      cbteTipo: 20,
      comprobantesAsociados: [
        asociado,
        { cbteTipo: 21, ptoVta: 7, cbteNro: 3, cuit: REPRESENTADA_CUIT },
      ],
    });
    expect(voucher.comprobantesAsociados).toHaveLength(2);
  });

  it("an invoice names none", () => {
    expect(
      refused({ ...facturaE, comprobantesAsociados: notaCreditoE.comprobantesAsociados }),
    ).toMatchObject(totalsInvalid("comprobantesAsociados"));
  });
});

const REPRESENTADA_CUIT = "20111111112";

describe("the voucher's date: today ± 5 days in Argentina", () => {
  it.each(["20260311", "20260321"])("accepts %s", (cbteFch) => {
    expect(prepared({ ...facturaE, cbteFch }).cbteFch).toBe(cbteFch);
  });
  it.each(["20260310", "20260322"])("refuses %s", (cbteFch) => {
    const error = refused({ ...facturaE, cbteFch });
    expect(error).toMatchObject(totalsInvalid("cbteFch"));
    expect(error.message).toContain("20260311 y 20260321");
  });
  it("counts today in Argentina, not in UTC", () => {
    // 02:00 UTC on the 17th is still the 16th in Argentina
    const result = prepare(
      { ...facturaE, cbteFch: "20260311" },
      undefined,
      new Date("2026-03-17T02:00:00Z"),
    );
    expect(result.ok).toBe(true);
  });
});

describe("currency", () => {
  it("PES goes at 1, and a rate other than 1 is refused", () => {
    expect(prepared({ ...facturaE, moneda: "PES", cotizacion: undefined }).moneda).toEqual({
      id: "PES",
      cotizacion: "1",
    });
    expect(prepared({ ...facturaE, moneda: "pes", cotizacion: "1.000" }).moneda.id).toBe("PES");
    expect(refused({ ...facturaE, moneda: "PES", cotizacion: "1050" })).toMatchObject(
      totalsInvalid("cotizacion"),
    );
  });

  it("canMisMonExt only with a foreign currency", () => {
    expect(refused({ ...facturaE, moneda: "PES", cotizacion: 1, canMisMonExt: "N" })).toMatchObject(
      totalsInvalid("canMisMonExt"),
    );
    expect(prepared({ ...facturaE, canMisMonExt: "S" }).moneda).toEqual({
      id: "DOL",
      cotizacion: "1050.25",
      canMisMonExt: "S",
    });
  });
});

describe("items and totals", () => {
  const item = { descripcion: "x", cantidad: 1, unidadMedida: 7, precioUnitario: 1 };

  it("at least one item", () => {
    expect(refused({ ...facturaE, items: [] })).toMatchObject(totalsInvalid("items"));
    expect(prepared({ ...facturaE, items: [item] }).items).toHaveLength(1);
  });

  it("quantity and price may be 0", () => {
    const voucher = prepared({
      ...facturaE,
      items: [item, { ...item, cantidad: 0 }, { ...item, precioUnitario: 0 }],
    });
    expect(voucher.items.map((i) => i.importe)).toEqual(["1.00", "0.00", "0.00"]);
  });

  it("a discount no larger than quantity × price", () => {
    expect(refused({ ...facturaE, items: [{ ...item, bonificacion: "1.01" }] })).toMatchObject(
      totalsInvalid("items.0.bonificacion"),
    );
    expect(prepared({ ...facturaE, items: [{ ...item, bonificacion: 1 }] }).impTotal).toBe("0.00");
  });

  it.each([0, 97, 99])(
    "unit %i carries no quantity nor price: the line is minus its discount",
    (unidadMedida) => {
      const special = {
        descripcion: "Bonificación comercial",
        cantidad: 0,
        unidadMedida,
        bonificacion: "10.005",
      };
      const voucher = prepared({ ...facturaE, items: [{ ...item, precioUnitario: 100 }, special] });
      expect(voucher.items[1]).toMatchObject({
        precioUnitario: "0",
        bonificacion: "10.005",
        importe: "-10.01",
      });
      expect(voucher.impTotal).toBe("89.99");
      expect(refused({ ...facturaE, items: [item, { ...special, cantidad: 1 }] })).toMatchObject(
        totalsInvalid("items.1.cantidad"),
      );
      expect(
        refused({ ...facturaE, items: [item, { ...special, precioUnitario: 5 }] }),
      ).toMatchObject(totalsInvalid("items.1.precioUnitario"));
    },
  );

  it("a total that is not negative", () => {
    const discount = {
      descripcion: "Bonificación",
      cantidad: 0,
      unidadMedida: 99,
      bonificacion: 2,
    };
    expect(refused({ ...facturaE, items: [item, discount] })).toMatchObject(totalsInvalid("items"));
  });

  it("at most 13 integer digits, per line and in total", () => {
    const big = { ...item, cantidad: 1, precioUnitario: "999999999999" };
    expect(prepared({ ...facturaE, items: Array.from({ length: 10 }, () => big) }).impTotal).toBe(
      "9999999999990.00",
    );
    expect(refused({ ...facturaE, items: Array.from({ length: 11 }, () => big) })).toMatchObject(
      totalsInvalid("items"),
    );
    expect(refused({ ...facturaE, items: [{ ...big, cantidad: 100 }] })).toMatchObject(
      totalsInvalid("items.0"),
    );
  });
});

describe("the order of the rules", () => {
  it("missing values (400) before voucher rules (422)", () => {
    const error = refused({
      ...without(facturaE, "formaPago"),
      items: [{ cantidad: 1, unidadMedida: 7, precioUnitario: 1 }],
    });
    expect(error.code).toBe("INVALID_FIELD");
  });
  it("the customer's 400 names the field with the edge's sentence", () => {
    expect(refused(without(facturaE, "cliente")).message).toBe(
      "El campo cliente.razonSocial es obligatorio: enviálo en cliente, o usá clienteId",
    );
  });
});
