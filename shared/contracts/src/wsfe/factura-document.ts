import { ALICUOTAS_IVA } from "@pasarela/errors";
import { documentoDocument } from "../common/cuit.js";
import { FCE_CBTE_TIPOS, FCE_FACTURA_TIPOS, FCE_OPCIONALES, NOTA_TIPOS } from "./fields.js";

/**
 * What the body of `POST /api/wsfe/facturas` requires beyond each field's own shape, as JSON
 * Schema for the OpenAPI document (merged through zod's metadata). wsfe judges these rules
 * itself, in its order: the representada first, then references (`clienteId`, `productoId`)
 * before any value they could supply, then the voucher rules (422). Refining the body at the
 * edge would answer them before those, so the document states them instead, and a test sends
 * the bodies it describes.
 */

type JsonSchema = Record<string, unknown>;

const has = (field: string): JsonSchema => ({ required: [field] });
const cbteTipoIn = (tipos: readonly number[]): JsonSchema => ({
  properties: { cbteTipo: { enum: [...tipos] } },
  required: ["cbteTipo"],
});
const FCE_NOTA_TIPOS = FCE_CBTE_TIPOS.filter(
  (tipo) => !(FCE_FACTURA_TIPOS as readonly number[]).includes(tipo),
);

/** An FCE datum: in the `fce` block, or as the raw opcional it becomes (id as text or number). */
const fceDatum = (field: keyof typeof FCE_OPCIONALES): JsonSchema => {
  const id = FCE_OPCIONALES[field];
  return {
    anyOf: [
      { required: ["fce"], properties: { fce: has(field) } },
      {
        required: ["opcionales"],
        properties: {
          opcionales: {
            contains: { properties: { id: { enum: [id, Number(id)] } }, required: ["id"] },
          },
        },
      },
    ],
  };
};

/** The receiver, the service dates and what each kind of voucher adds. */
export const facturaBodyDocument: JsonSchema = {
  anyOf: [
    {
      title: "Receptor explícito",
      description: "docTipo, docNro y condicionIvaReceptorId del receptor",
      required: ["docTipo", "docNro", "condicionIvaReceptorId"],
    },
    {
      title: "Receptor por clienteId",
      description:
        "Un cliente de la cuenta: sus docTipo, docNro y condicionIvaReceptorId salvo los enviados. Sin condición cargada en el cliente ni enviada: 400 CLIENTE_WITHOUT_CONDICION_IVA",
      required: ["clienteId"],
    },
  ],
  // a document is a pair: never half of one sent with half of a stored one
  dependentRequired: { docTipo: ["docNro"], docNro: ["docTipo"] },
  allOf: [
    {
      description: "docTipo 80 o 86: docNro es una CUIT o CUIL válida (400)",
      ...documentoDocument,
    },
    {
      description: "Concepto 1 (productos): sin fechas de servicio",
      if: { properties: { concepto: { const: 1 } }, required: ["concepto"] },
      then: { not: { anyOf: [has("fchServDesde"), has("fchServHasta")] } },
    },
    {
      description: "Concepto 1 fuera de FCE: sin fchVtoPago",
      if: {
        properties: { concepto: { const: 1 }, cbteTipo: { not: { enum: [...FCE_CBTE_TIPOS] } } },
        required: ["concepto", "cbteTipo"],
      },
      then: { not: has("fchVtoPago") },
    },
    {
      description: "Concepto 2 o 3 (servicios): fchServDesde y fchServHasta (422 si faltan)",
      if: { properties: { concepto: { enum: [2, 3] } }, required: ["concepto"] },
      then: { required: ["fchServDesde", "fchServHasta"] },
    },
    {
      description: "Concepto 2 o 3, salvo en notas FCE: fchVtoPago (422 si falta)",
      if: {
        properties: { concepto: { enum: [2, 3] }, cbteTipo: { not: { enum: FCE_NOTA_TIPOS } } },
        required: ["concepto", "cbteTipo"],
      },
      then: has("fchVtoPago"),
    },
    {
      description: "Notas de crédito y débito: al menos un comprobante asociado (422 si falta)",
      if: cbteTipoIn(NOTA_TIPOS),
      then: {
        required: ["comprobantesAsociados"],
        properties: { comprobantesAsociados: { minItems: 1 } },
      },
    },
    {
      description: "Solo los comprobantes FCE llevan el bloque fce (422)",
      if: {
        properties: { cbteTipo: { not: { enum: [...FCE_CBTE_TIPOS] } } },
        required: ["cbteTipo"],
      },
      then: { not: has("fce") },
    },
    {
      description:
        "Facturas FCE (201, 206, 211): fchVtoPago, el CBU (fce.cbu u opcional 2101) y la opción de transferencia (fce.opcionTransferencia u opcional 27), sin fce.anulacion (422)",
      if: cbteTipoIn(FCE_FACTURA_TIPOS),
      then: {
        required: ["fchVtoPago"],
        allOf: [fceDatum("cbu"), fceDatum("opcionTransferencia")],
        properties: { fce: { not: has("anulacion") } },
      },
    },
    {
      description:
        "Notas FCE: fce.anulacion (u opcional 22), y en cada comprobante asociado su cuit y cbteFch (422)",
      if: cbteTipoIn(FCE_NOTA_TIPOS),
      then: {
        allOf: [fceDatum("anulacion")],
        properties: { comprobantesAsociados: { items: { required: ["cuit", "cbteFch"] } } },
      },
    },
    {
      description: "En comprobantes FCE cada tributo lleva descripcion (400 si falta)",
      if: cbteTipoIn(FCE_CBTE_TIPOS),
      then: { properties: { tributos: { items: has("descripcion") } } },
    },
  ],
};

/** An item names its product or carries every value a product would give. */
export const facturaItemDocument: JsonSchema = {
  anyOf: [
    {
      title: "Ítem explícito",
      description: "Sin productoId: descripcion, precioUnitario y alicuotaIva (400 si falta uno)",
      required: ["descripcion", "precioUnitario", "alicuotaIva"],
    },
    {
      title: "Ítem de un producto",
      description:
        "Con productoId: descripcion, precioUnitario, alicuotaIva, codigo y unidadMedida del producto salvo los enviados. Producto sin alícuota cargada ni enviada: 400 PRODUCTO_WITHOUT_ALICUOTA",
      required: ["productoId"],
    },
  ],
};

/** Tribute 99 (otro) says what it is. */
export const facturaTributoDocument: JsonSchema = {
  if: { properties: { id: { const: 99 } }, required: ["id"] },
  then: has("descripcion"),
};

const alicuotas = ALICUOTAS_IVA.map(Number);
/** An item's VAT rate: one of the accepted rates, as number or text, or how it stays out of VAT. */
export const itemAlicuotaIvaDocument: JsonSchema = {
  anyOf: [
    { type: "number", enum: alicuotas },
    {
      type: "string",
      pattern: "^(?:no_gravado|exento|0*(?:(?:0|5|21|27)(?:\\.0+)?|(?:2|10)\\.50*))$",
    },
  ],
};

/** Digits as text, or a whole JSON number. */
export const digitsDocument = (maxDigits: number): JsonSchema => ({
  anyOf: [
    { type: "string", pattern: `^\\d{1,${maxDigits}}$` },
    { type: "integer", minimum: 0, maximum: 10 ** maxDigits - 1 },
  ],
});
