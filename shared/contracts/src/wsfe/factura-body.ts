import { z } from "zod";
import { environmentSchema, representadaSchema } from "../common/fields.js";
import {
  catalogIdSchema,
  condicionIvaReceptorIdSchema,
  docTipoSchema,
  emailSchema,
} from "../catalog/fields.js";
import { canonicalDecimal, decimalSchema } from "../common/decimal.js";
import {
  digitsDocument,
  facturaBodyDocument,
  facturaItemDocument,
  facturaTributoDocument,
  itemAlicuotaIvaDocument,
} from "./factura-document.js";
import { cbteNroSchema, cbteTipoSchema, ptoVtaSchema } from "./fields.js";

// Messages complete "El campo <campo> …" (the edge and the bus prefix the field's path).
export const required =
  (otherwise: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? "es obligatorio" : otherwise;

const isCalendarDate = (text: string): boolean => {
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(4, 6));
  const day = Number(text.slice(6, 8));
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 2000 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
};
const fechaProblem = 'debe ser una fecha AAAAMMDD válida, sin guiones (p. ej. "20250131")';
/** The authority's date format (`yyyymmdd`), a real calendar day from 2000 on. */
const fechaSchema = z
  .string({ error: required(fechaProblem) })
  .regex(/^[2-9]\d{3}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])$/, fechaProblem)
  .refine(isCalendarDate, { error: fechaProblem })
  .meta({ description: "Fecha AAAAMMDD", examples: ["20250131"] });

const conceptoProblem =
  "debe ser 1 (productos), 2 (servicios) o 3 (productos y servicios)" as const;
/** `Concepto` of FECAESolicitar: 1 products, 2 services, 3 both. */
const conceptoSchema = z
  .number({ error: required(conceptoProblem) })
  .refine((value): value is 1 | 2 | 3 => value === 1 || value === 2 || value === 3, {
    error: conceptoProblem,
  })
  .meta({
    description: "1 productos, 2 servicios, 3 productos y servicios",
    enum: [1, 2, 3],
  });

const docNroProblem =
  "debe ser un número de documento: texto de hasta 11 dígitos o entero no negativo, sin puntos ni guiones (0 con docTipo 99 para consumidor final sin identificar)";
/**
 * `DocNro`: digits as text or a JSON integer (consumidor final is `docTipo` 99, `docNro` 0),
 * kept as digit text without leading zeros, as the catalog keeps customers' numbers.
 */
const receptorDocNroSchema = z
  .union([z.string(), z.number()], { error: required(docNroProblem) })
  .transform((value, ctx) => {
    const text =
      typeof value === "number"
        ? Number.isSafeInteger(value) && value >= 0
          ? String(value)
          : ""
        : value;
    if (!/^\d{1,11}$/.test(text)) {
      ctx.addIssue({ code: "custom", message: docNroProblem, input: value });
      return z.NEVER;
    }
    return text.replace(/^0+(?=\d)/, "");
  })
  .meta({
    description:
      "Número de documento del receptor: solo dígitos (texto o entero); 0 con docTipo 99 para consumidor final sin identificar",
    examples: ["20111111112", 0],
    ...digitsDocument(11),
  });

const text = (max: number, description: string) =>
  z
    .string({ error: required(`debe ser un texto de hasta ${max} caracteres`) })
    .trim()
    .min(1, "no puede estar vacío")
    .max(max, `admite hasta ${max} caracteres`)
    .describe(description);

const alicuotaProblem =
  'debe ser una alícuota de IVA en % (número o texto: 0, 2.5, 5, 10.5, 21 o 27) o "no_gravado" o "exento"';
/**
 * An item's VAT rate as canonical decimal text, or `no_gravado` (its amount goes to
 * `ImpTotConc`) or `exento` (to `ImpOpEx`). Only the shape is checked here: a rate outside the
 * accepted list is a 422 of the totals rules, whose message lists them.
 */
const itemAlicuotaIvaSchema = z
  .union([z.number(), z.string()], { error: required(alicuotaProblem) })
  .transform((value, ctx): string => {
    if (value === "no_gravado" || value === "exento") return value;
    const rate = canonicalDecimal(value);
    if (rate === undefined || rate.length > 12) {
      ctx.addIssue({ code: "custom", message: alicuotaProblem, input: value });
      return z.NEVER;
    }
    return rate;
  })
  .meta({
    description:
      'Alícuota de IVA en %: 0, 2.5, 5, 10.5, 21 o 27; "no_gravado" (va a ImpTotConc) o "exento" (va a ImpOpEx) para ítems sin IVA. En comprobantes clase C, 0.',
    examples: [21, "10.5", "exento"],
    ...itemAlicuotaIvaDocument,
  });

/**
 * One line of the voucher. With `productoId` the product's `descripcion`, `codigo`,
 * `precioUnitario`, `alicuotaIva` and `unidadMedida` are used unless sent here (an explicit
 * value wins); without it `descripcion`, `precioUnitario` and `alicuotaIva` are required
 * (400 naming the field). Line amount: `cantidad × precioUnitario − bonificacion`, rounded
 * half up to 2 decimals once per line.
 */
const facturaItemSchema = z
  .object({
    productoId: catalogIdSchema.optional().describe("Producto de tu cuenta (/api/productos)"),
    codigo: text(50, "Código propio del producto (SKU)").optional(),
    descripcion: text(500, "Descripción del ítem").optional(),
    cantidad: decimalSchema({
      integerDigits: 9,
      fractionDigits: 6,
      positive: true,
      description: "Cantidad, mayor que 0, hasta 6 decimales",
      example: "1.5",
    }),
    precioUnitario: decimalSchema({
      integerDigits: 12,
      fractionDigits: 6,
      description:
        "Precio unitario sin IVA (en clase C, el precio final), hasta 6 decimales, en la moneda del comprobante",
      example: "1210.50",
    }).optional(),
    alicuotaIva: itemAlicuotaIvaSchema.optional(),
    bonificacion: decimalSchema({
      integerDigits: 12,
      fractionDigits: 6,
      description: "Descuento en importe (no en %) sobre cantidad × precioUnitario; por defecto 0",
      example: "100",
    }).optional(),
    unidadMedida: text(30, 'Unidad de medida en texto libre, p. ej. "unidad", "kg"').optional(),
  })
  .strict()
  .meta(facturaItemDocument);
export type FacturaItem = z.output<typeof facturaItemSchema>;

/**
 * A tribute (`Tributos/Tributo`): `importe` must be `baseImponible × alicuota / 100` rounded
 * half up to 2 decimals (422 otherwise). `descripcion` is required for id 99 and on FCE types.
 */
const facturaTributoSchema = z
  .object({
    id: z
      .number({ error: required("debe ser un entero, el id de FEParamGetTiposTributos") })
      .int("debe ser un entero, el id de FEParamGetTiposTributos")
      .min(1, "debe ser mayor o igual a 1")
      .max(32_767, "debe ser menor o igual a 32767")
      .describe(
        "Tipo de tributo (FEParamGetTiposTributos): 1 nacionales, 2 provinciales, 99 otro…",
      ),
    descripcion: text(
      80,
      "Descripción; obligatoria para el id 99 y en comprobantes FCE",
    ).optional(),
    baseImponible: decimalSchema({
      integerDigits: 13,
      fractionDigits: 2,
      description: "Base imponible, hasta 2 decimales",
      example: "1000",
    }),
    alicuota: decimalSchema({
      integerDigits: 3,
      fractionDigits: 4,
      description: "Alícuota en %, hasta 4 decimales",
      example: "3.5",
    }),
    importe: decimalSchema({
      integerDigits: 13,
      fractionDigits: 2,
      description: "baseImponible × alicuota / 100, redondeado a 2 decimales",
      example: "35",
    }),
  })
  .strict()
  .meta(facturaTributoDocument);
export type FacturaTributo = z.output<typeof facturaTributoSchema>;

const cuitProblem = "debe ser una CUIT de 11 dígitos, sin guiones";
/** A voucher a note adjusts (`CbtesAsoc/CbteAsoc`); FCE notes need `cuit` and `cbteFch`. */
const comprobanteAsociadoSchema = z
  .object({
    cbteTipo: z
      .number({ error: required("debe ser un entero, el tipo de comprobante") })
      .int("debe ser un entero, el tipo de comprobante")
      .min(1, "debe ser mayor o igual a 1")
      .max(999, "debe ser menor o igual a 999"),
    ptoVta: ptoVtaSchema,
    cbteNro: cbteNroSchema,
    cuit: z
      .string({ error: required(cuitProblem) })
      .regex(/^\d{11}$/, cuitProblem)
      .optional()
      .describe("CUIT del emisor del comprobante asociado"),
    cbteFch: fechaSchema.optional(),
  })
  .strict();
export type ComprobanteAsociado = z.output<typeof comprobanteAsociadoSchema>;

/**
 * A raw `Opcionales/Opcional`: an id of the authority's table `table` (digits, as text or a
 * number) and its value.
 */
export function opcionalSchemaOf(table: string, description: string, example: string) {
  const problem = `debe ser el id de ${table} (p. ej. "${example}")`;
  return z
    .object({
      id: z
        .union([z.string(), z.number()], { error: required(problem) })
        .transform((value, ctx) => {
          const id = typeof value === "number" ? String(value) : value;
          if (!/^\d{1,6}$/.test(id)) {
            ctx.addIssue({ code: "custom", message: problem, input: value });
            return z.NEVER;
          }
          return id;
        })
        .meta({ description, examples: [example], ...digitsDocument(6) }),
      valor: z
        .string({ error: required("debe ser un texto de hasta 250 caracteres") })
        .min(1, "no puede estar vacío")
        .max(250, "admite hasta 250 caracteres"),
    })
    .strict();
}

/** A raw `Opcionales/Opcional`, ids as `tipos-opcional` publishes them. */
const opcionalSchema = opcionalSchemaOf(
  "FEParamGetTiposOpcional",
  "Id de /api/wsfe/parametros/tipos-opcional",
  "2101",
);
export type Opcional = z.output<typeof opcionalSchema>;

/**
 * The MiPyME credit-invoice block, translated into the opcionales the
 * authority expects: `cbu` → 2101, `alias` → 2102, `opcionTransferencia` → 27,
 * `anulacion` → 22 (S/N). Only on types 201–213.
 */
const fceSchema = z
  .object({
    cbu: z
      .string({ error: required("debe ser un CBU de 22 dígitos") })
      .regex(/^\d{22}$/, "debe ser un CBU de 22 dígitos")
      .optional()
      .describe("CBU del emisor (opcional 2101); obligatorio en facturas FCE"),
    alias: z
      .string({ error: required("debe ser un alias de CBU de 6 a 20 caracteres") })
      .regex(
        /^[A-Za-z0-9.-]{6,20}$/,
        "debe ser un alias de CBU de 6 a 20 caracteres (letras, dígitos, punto o guion)",
      )
      .optional()
      .describe("Alias del CBU del emisor (opcional 2102)"),
    opcionTransferencia: z
      .enum(["SCA", "ADC"], {
        error: required(
          'debe ser "SCA" (Sistema de Circulación Abierta) o "ADC" (Agente de Depósito Colectivo)',
        ),
      })
      .optional()
      .describe("Opción de transferencia (opcional 27); obligatoria en facturas FCE"),
    anulacion: z
      .boolean({ error: required("debe ser true o false") })
      .optional()
      .describe("Si la nota FCE es una anulación (opcional 22: S/N); obligatoria en notas FCE"),
  })
  .strict();
export type Fce = z.output<typeof fceSchema>;

const monedaIdProblem =
  'debe ser el código de moneda de 3 caracteres de la AFIP ("PES", "DOL", "060"…)';
/**
 * The voucher's currency. Default `PES` at 1. A foreign currency without `cotizacion` takes
 * the authority's rate of the day (FEParamGetCotizacion).
 */
const monedaSchema = z
  .object({
    id: z
      .string({ error: required(monedaIdProblem) })
      .transform((value) => value.toUpperCase())
      .pipe(z.string().regex(/^[A-Z0-9]{3}$/, monedaIdProblem))
      .meta({
        description: "Código de moneda (FEParamGetTiposMonedas): PES, DOL, 060 (euro)…",
        // read in capitals
        pattern: "^[A-Za-z0-9]{3}$",
      }),
    cotizacion: decimalSchema({
      integerDigits: 9,
      fractionDigits: 6,
      positive: true,
      description:
        "Pesos por unidad de la moneda; sin ella, la cotización del día de la AFIP. 1 para PES",
      example: "1050.25",
    }).optional(),
    mismaMonedaExtranjera: z
      .boolean({ error: required("debe ser true o false") })
      .optional()
      .describe("Se cancela en la misma moneda extranjera (CanMisMonExt S); no con PES"),
  })
  .strict();
export type Moneda = z.output<typeof monedaSchema>;

/**
 * The body of `POST /api/wsfe/facturas`, field by field. The receiver is `clienteId` (a
 * customer of the account) and/or explicit `docTipo` + `docNro` (sent together) and
 * `condicionIvaReceptorId`; explicit values win. What depends on other fields (references,
 * classes, totals, dates, FCE) is judged by wsfe: 400 for what is missing after resolving
 * references, 422 for the voucher rules.
 */
export const facturaFields = {
  environment: environmentSchema,
  representada: representadaSchema,
  cbteTipo: cbteTipoSchema.describe(
    "Tipo de comprobante WSFEv1: 1 Factura A, 3 NC A, 6 Factura B, 11 Factura C, 201 FCE A…",
  ),
  ptoVta: ptoVtaSchema
    .optional()
    .describe("Punto de venta; sin él, el configurado para la representada en ese entorno"),
  concepto: conceptoSchema,
  cbteFch: fechaSchema
    .optional()
    .describe("Fecha del comprobante AAAAMMDD; por defecto hoy en la Argentina (UTC−3)"),
  fchServDesde: fechaSchema
    .optional()
    .describe("Inicio del servicio; obligatoria con concepto 2 o 3"),
  fchServHasta: fechaSchema.optional().describe("Fin del servicio; obligatoria con concepto 2 o 3"),
  fchVtoPago: fechaSchema
    .optional()
    .describe("Vencimiento del pago; obligatoria con concepto 2 o 3 y en facturas FCE"),
  clienteId: catalogIdSchema.optional().describe("Cliente de tu cuenta (/api/clientes)"),
  docTipo: docTipoSchema.optional(),
  docNro: receptorDocNroSchema.optional(),
  condicionIvaReceptorId: condicionIvaReceptorIdSchema.optional(),
  items: z
    .array(facturaItemSchema, { error: required("debe ser una lista de ítems") })
    .max(1_000, "debe tener como máximo 1000 ítems")
    // an empty list is a voucher rule (422), judged with the totals
    .meta({ minItems: 1 }),
  tributos: z.array(facturaTributoSchema).max(50, "debe tener como máximo 50 elementos").optional(),
  comprobantesAsociados: z
    .array(comprobanteAsociadoSchema)
    .max(50, "debe tener como máximo 50 elementos")
    .optional(),
  opcionales: z.array(opcionalSchema).max(50, "debe tener como máximo 50 elementos").optional(),
  fce: fceSchema.optional(),
  moneda: monedaSchema.optional(),
  email: emailSchema.optional().describe("Destinatario del comprobante una vez autorizado"),
  contingencia: z
    .literal("caea", { error: required('solo admite "caea"') })
    .optional()
    .describe(
      "caea: emitir ya con el CAEA de la quincena, sin pedir CAE (una caja que sabe que no tiene conexión); requiere la contingencia encendida",
    ),
};

/** The HTTP body of `POST /api/wsfe/facturas`: camelCase, unknown fields refused. */
export const facturaBodySchema = z.object(facturaFields).strict().meta(facturaBodyDocument);
export type FacturaBody = z.output<typeof facturaBodySchema>;
