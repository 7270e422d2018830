import { attachedError, wsfe } from "@pasarela/contracts";
import { describe, expect, it } from "vitest";
import { facturaE, notaCreditoE } from "./fixtures.js";

/** The first problem the body's schema finds: its path and its "El campo …" completion. */
function problem(body: Record<string, unknown>): { path: string; message: string } | undefined {
  const parsed = wsfe.exportacionBodySchema.safeParse(body);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  if (issue === undefined) throw new Error("a refusal without issues");
  return { path: issue.path.join("."), message: issue.message };
}

const parse = (body: Record<string, unknown>) => wsfe.exportacionBodySchema.parse(body);
const item = facturaE.items[0];

describe("the body of POST /api/wsfex/facturas", () => {
  it("accepts the examples and normalises their values", () => {
    const body = parse({
      ...facturaE,
      moneda: "dol",
      incoterms: " fob ",
      permisos: [{ idPermiso: "26001ec01000123a", dstMerc: 225 }],
      opcionales: [{ id: 2401, valor: "x" }],
      actividades: [1],
      email: "compras@example.com",
    });
    expect(body).toMatchObject({
      moneda: "DOL",
      incoterms: "FOB",
      cotizacion: "1050.25",
      permisos: [{ idPermiso: "26001EC01000123A", dstMerc: 225 }],
      opcionales: [{ id: "2401", valor: "x" }],
      items: [
        { cantidad: "3", precioUnitario: "33.33", bonificacion: "0.99", unidadMedida: 7 },
        {},
      ],
    });
    expect(problem(notaCreditoE)).toBeUndefined();
  });

  it("takes only types 19, 20 and 21, with the 400 that lists them", () => {
    const parsed = wsfe.exportacionBodySchema.safeParse({ ...facturaE, cbteTipo: 1 });
    expect(parsed.success).toBe(false);
    const issue = parsed.error?.issues[0];
    expect(issue && attachedError(issue)).toMatchObject({
      code: "UNSUPPORTED_CBTE_TIPO",
      details: { field: "cbteTipo", accepted: [19, 20, 21] },
    });
    for (const cbteTipo of [19, 20, 21]) {
      expect(wsfe.exportacionBodySchema.safeParse({ ...facturaE, cbteTipo }).success).toBe(true);
    }
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    [
      "tipoExpo 3",
      { tipoExpo: 3 },
      "tipoExpo",
      "debe ser 1 (exportación definitiva de bienes), 2 (servicios) o 4 (otros)",
    ],
    ["no tipoExpo", { tipoExpo: undefined }, "tipoExpo", "es obligatorio"],
    ["idioma 4", { idioma: 4 }, "idioma", "debe ser 1 (español), 2 (inglés) o 3 (portugués)"],
    ["no ptoVta", { ptoVta: undefined }, "ptoVta", "es obligatorio"],
    ["no dstCmp", { dstCmp: undefined }, "dstCmp", "es obligatorio"],
    ["no moneda", { moneda: undefined }, "moneda", "es obligatorio"],
    [
      "a currency of 4 characters",
      { moneda: "DOLA" },
      "moneda",
      'debe ser el código de moneda de 3 caracteres de la AFIP ("DOL", "PES", "060"…)',
    ],
    [
      "an unknown Incoterm",
      { incoterms: "XYZ" },
      "incoterms",
      "debe ser uno de los Incoterms de la AFIP: EXW, FCA, FAS, FOB, CFR, CIF, CPT, CIP, DDP, DAP, DPU",
    ],
    [
      "incotermsDs over 20",
      { incotermsDs: "x".repeat(21) },
      "incotermsDs",
      "admite hasta 20 caracteres",
    ],
    ["formaPago over 50", { formaPago: "x".repeat(51) }, "formaPago", "admite hasta 50 caracteres"],
    ["permisoExistente X", { permisoExistente: "X" }, "permisoExistente", 'debe ser "S" o "N"'],
    ["canMisMonExt X", { canMisMonExt: "X" }, "canMisMonExt", 'debe ser "S" o "N"'],
    [
      "a malformed fechaPago",
      { fechaPago: "2026-04-01" },
      "fechaPago",
      'debe ser una fecha AAAAMMDD válida, sin guiones (p. ej. "20250131")',
    ],
    [
      "a cbteFch that is no day",
      { cbteFch: "20260230" },
      "cbteFch",
      'debe ser una fecha AAAAMMDD válida, sin guiones (p. ej. "20250131")',
    ],
    [
      "a rate of 0",
      { cotizacion: 0 },
      "cotizacion",
      'debe ser un número decimal mayor que 0, como número JSON o texto (p. ej. 1050.25 o "1050.25"), con hasta 9 dígitos enteros y 6 decimales',
    ],
    ["an unknown field", { concepto: 1 }, "", ""],
    ["a malformed email", { email: "nadie" }, "email", "debe ser una dirección de e-mail válida"],
  ])("refuses %s", (_why, change, path, message) => {
    const refusal = problem({ ...facturaE, ...change });
    expect(refusal?.path).toBe(path);
    if (message !== "") expect(refusal?.message).toBe(message);
    else expect(refusal).toBeDefined();
  });

  it("permits: the customs format 99999AAXX999999A, with their destination", () => {
    const permiso = (idPermiso: string) => ({
      ...facturaE,
      permisos: [{ idPermiso, dstMerc: 225 }],
    });
    expect(problem(permiso("26001EC01000123A"))).toBeUndefined();
    expect(problem(permiso("26001EC0Z000123A"))).toBeUndefined();
    for (const bad of [
      "2600EC01000123A",
      "26001E101000123A",
      "26001EC01000123",
      "26001EC0100012345",
    ]) {
      expect(problem(permiso(bad))?.path).toBe("permisos.0.idPermiso");
    }
    expect(problem({ ...facturaE, permisos: [{ idPermiso: "26001EC01000123A" }] })).toEqual({
      path: "permisos.0.dstMerc",
      message: "es obligatorio",
    });
  });

  it("the customer: a name up to 200, an address up to 300, a CUIT of 11 digits", () => {
    const { cliente } = facturaE;
    expect(
      problem({ ...facturaE, cliente: { ...cliente, razonSocial: "x".repeat(200) } }),
    ).toBeUndefined();
    expect(problem({ ...facturaE, cliente: { ...cliente, razonSocial: "x".repeat(201) } })).toEqual(
      {
        path: "cliente.razonSocial",
        message: "admite hasta 200 caracteres",
      },
    );
    expect(
      problem({ ...facturaE, cliente: { ...cliente, domicilio: "x".repeat(301) } })?.path,
    ).toBe("cliente.domicilio");
    expect(problem({ ...facturaE, cliente: { ...cliente, cuitPais: "5000000001" } })).toEqual({
      path: "cliente.cuitPais",
      message: "debe ser una CUIT de 11 dígitos, sin guiones",
    });
    expect(problem({ ...facturaE, cliente: { ...cliente, pais: "UY" } })?.path).toBe("cliente");
  });

  it("items: up to 9999, quantities and prices not negative, units as codes", () => {
    expect(problem({ ...facturaE, items: [] })).toBeUndefined();
    expect(
      problem({ ...facturaE, items: Array.from({ length: 9_999 }, () => item) }),
    ).toBeUndefined();
    expect(problem({ ...facturaE, items: Array.from({ length: 10_000 }, () => item) })).toEqual({
      path: "items",
      message: "debe tener como máximo 9999 ítems",
    });
    expect(problem({ ...facturaE, items: [{ ...item, cantidad: -1 }] })?.path).toBe(
      "items.0.cantidad",
    );
    expect(problem({ ...facturaE, items: [{ ...item, precioUnitario: "-1" }] })?.path).toBe(
      "items.0.precioUnitario",
    );
    expect(problem({ ...facturaE, items: [{ ...item, unidadMedida: "kg" }] })?.path).toBe(
      "items.0.unidadMedida",
    );
    expect(problem({ ...facturaE, items: [{ ...item, alicuotaIva: 21 }] })?.path).toBe("items.0");
  });

  it("associated vouchers: a point of sale and a number the authority numbers", () => {
    const asociado = notaCreditoE.comprobantesAsociados[0];
    expect(
      problem({ ...notaCreditoE, comprobantesAsociados: [{ ...asociado, cbteNro: 0 }] })?.path,
    ).toBe("comprobantesAsociados.0.cbteNro");
    expect(
      problem({ ...notaCreditoE, comprobantesAsociados: [{ ...asociado, cuit: "123" }] })?.path,
    ).toBe("comprobantesAsociados.0.cuit");
  });
});
