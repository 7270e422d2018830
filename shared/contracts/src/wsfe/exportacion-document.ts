/**
 * What the body of `POST /api/wsfex/facturas` requires beyond each field's own shape, as JSON
 * Schema for the OpenAPI document (merged through zod's metadata). wsfe judges these rules
 * itself, references first, so the document states them instead of refining the body at the
 * edge (as the domestic body does).
 */

type JsonSchema = Record<string, unknown>;

const has = (field: string): JsonSchema => ({ required: [field] });
const absent = (field: string): JsonSchema => ({ not: has(field) });
const cbteTipoIn = (tipos: readonly number[]): JsonSchema => ({
  properties: { cbteTipo: { enum: [...tipos] } },
  required: ["cbteTipo"],
});
const facturaWith = (tiposExpo: readonly number[]): JsonSchema => ({
  properties: { cbteTipo: { const: 19 }, tipoExpo: { enum: [...tiposExpo] } },
  required: ["cbteTipo", "tipoExpo"],
});

/** The customer, and what each type and kind of export adds. */
export const exportacionBodyDocument: JsonSchema = {
  anyOf: [
    {
      title: "Cliente explícito",
      description: "cliente con razonSocial, domicilio y cuitPais o idImpositivo",
      required: ["cliente"],
      properties: {
        cliente: {
          required: ["razonSocial", "domicilio"],
          anyOf: [{ required: ["cuitPais"] }, { required: ["idImpositivo"] }],
        },
      },
    },
    {
      title: "Cliente por clienteId",
      description:
        "Un cliente de la cuenta: su razón social, domicilio y documento (CUIT → cuitPais, otro → idImpositivo) salvo los enviados en cliente",
      required: ["clienteId"],
    },
  ],
  allOf: [
    {
      description: "Facturas (19): formaPago (422 si falta)",
      if: cbteTipoIn([19]),
      then: has("formaPago"),
    },
    {
      description:
        'Facturas (19) de bienes (tipoExpo 1): incoterms y permisoExistente "S" o "N" (422)',
      if: facturaWith([1]),
      then: { required: ["incoterms", "permisoExistente"] },
      else: absent("permisoExistente"),
    },
    {
      description: 'permisoExistente "S": al menos un permiso; "N" o sin él: ningún permiso (422)',
      if: { properties: { permisoExistente: { const: "S" } }, required: ["permisoExistente"] },
      then: { required: ["permisos"], properties: { permisos: { minItems: 1 } } },
      else: { properties: { permisos: { maxItems: 0 } } },
    },
    {
      description:
        "Facturas (19) de servicios u otros (tipoExpo 2 o 4): fechaPago; sin ella en los demás (422)",
      if: facturaWith([2, 4]),
      then: has("fechaPago"),
      else: absent("fechaPago"),
    },
    {
      description: "Notas (20, 21): al menos un comprobante asociado de tipo 19, 20 o 21 (422)",
      if: cbteTipoIn([20, 21]),
      then: {
        required: ["comprobantesAsociados"],
        properties: {
          comprobantesAsociados: {
            minItems: 1,
            items: { properties: { cbteTipo: { enum: [19, 20, 21] } } },
          },
        },
      },
      else: absent("comprobantesAsociados"),
    },
    {
      description: "PES: cotizacion 1 y sin canMisMonExt (422)",
      // the currency is read in capitals
      if: { properties: { moneda: { pattern: "^[Pp][Ee][Ss]$" } }, required: ["moneda"] },
      then: { properties: { cotizacion: { enum: [1, "1"] } }, not: has("canMisMonExt") },
    },
  ],
};

/** The customer names itself and gives one of its two identifiers (with clienteId, maybe none). */
export const exportacionClienteDocument: JsonSchema = {
  description: "Sin clienteId: razonSocial, domicilio y cuitPais o idImpositivo (400 si falta uno)",
};

/** An item names its product or carries every value a product would give. */
export const exportacionItemDocument: JsonSchema = {
  anyOf: [
    {
      title: "Ítem explícito",
      description: "Sin productoId: descripcion, unidadMedida y precioUnitario (400 si falta uno)",
      required: ["descripcion", "unidadMedida", "precioUnitario"],
    },
    {
      title: "Ítem de un producto",
      description:
        "Con productoId: descripcion, codigo y precioUnitario del producto salvo los enviados; unidadMedida la del producto si es un código de unidad de la AFIP",
      required: ["productoId"],
    },
  ],
};
