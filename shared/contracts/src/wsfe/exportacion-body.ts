import { z } from "zod";
import { environmentSchema, representadaSchema } from "../common/fields.js";
import { catalogIdSchema, emailSchema } from "../catalog/fields.js";
import { decimalSchema } from "../common/decimal.js";
import { cbteTipoSchema } from "../wsfex/fields.js";
import { facturaFields, opcionalSchemaOf, required } from "./factura-body.js";
import {
  exportacionBodyDocument,
  exportacionClienteDocument,
  exportacionItemDocument,
} from "./exportacion-document.js";
import { cbteNroSchema, ptoVtaSchema } from "./fields.js";

/** The authority's `yyyymmdd`, a real calendar day, as the domestic body reads it. */
const fechaSchema = facturaFields.fchVtoPago.unwrap();

const text = (max: number, description: string) =>
  z
    .string({ error: required(`debe ser un texto de hasta ${max} caracteres`) })
    .trim()
    .min(1, "no puede estar vacío")
    .max(max, `admite hasta ${max} caracteres`)
    .describe(description);

const integer = (min: number, max: number, what: string) =>
  z
    .number({ error: required(`debe ser un entero, ${what}`) })
    .int(`debe ser un entero, ${what}`)
    .min(min, `debe ser mayor o igual a ${min}`)
    .max(max, `debe ser menor o igual a ${max}`);

const cuitProblem = "debe ser una CUIT de 11 dígitos, sin guiones";
const cuitSchema = z.string({ error: required(cuitProblem) }).regex(/^\d{11}$/, cuitProblem);

const tipoExpoProblem =
  "debe ser 1 (exportación definitiva de bienes), 2 (servicios) o 4 (otros)" as const;
/** `Tipo_expo`: 1 goods, 2 services, 4 other (3 does not exist). */
const tipoExpoSchema = z
  .number({ error: required(tipoExpoProblem) })
  .refine((value): value is 1 | 2 | 4 => value === 1 || value === 2 || value === 4, {
    error: tipoExpoProblem,
  })
  .meta({
    description: "1 exportación definitiva de bienes, 2 servicios, 4 otros",
    enum: [1, 2, 4],
  });

const idiomaProblem = "debe ser 1 (español), 2 (inglés) o 3 (portugués)" as const;
/** `Idioma_cbte`: the language the voucher is printed in. */
const idiomaSchema = z
  .number({ error: required(idiomaProblem) })
  .refine((value): value is 1 | 2 | 3 => value === 1 || value === 2 || value === 3, {
    error: idiomaProblem,
  })
  .meta({
    description: "Idioma del comprobante: 1 español, 2 inglés, 3 portugués",
    enum: [1, 2, 3],
  });

/** The Incoterms the authority publishes (FEXGetPARAM_Incoterms). */
export const INCOTERMS = [
  "EXW",
  "FCA",
  "FAS",
  "FOB",
  "CFR",
  "CIF",
  "CPT",
  "CIP",
  "DDP",
  "DAP",
  "DPU",
] as const;
const incotermsProblem = `debe ser uno de los Incoterms de la AFIP: ${INCOTERMS.join(", ")}`;

const sNoProblem = 'debe ser "S" o "N"';
const sNoSchema = z.enum(["S", "N"], { error: required(sNoProblem) });

const permisoProblem =
  'debe ser un permiso de embarque con el formato 99999AAXX999999A (5 dígitos, 2 letras, 2 letras o dígitos, 6 dígitos y una letra), p. ej. "26001EC01000123A"';
/** A shipping permit (`Permisos/Permiso`) and the country its goods go to. */
const permisoSchema = z
  .object({
    idPermiso: z
      .string({ error: required(permisoProblem) })
      .transform((value) => value.trim().toUpperCase())
      .pipe(z.string().regex(/^\d{5}[A-Z]{2}[A-Z0-9]{2}\d{6}[A-Z]$/, permisoProblem))
      .meta({
        description: "Permiso de embarque (Id_permiso), como lo emite la Aduana",
        examples: ["26001EC01000123A"],
        pattern: "^\\d{5}[A-Za-z]{2}[A-Za-z0-9]{2}\\d{6}[A-Za-z]$",
      }),
    dstMerc: integer(1, 32_767, "el código de país de FEXGetPARAM_DST_pais").describe(
      "País de destino de la mercadería del permiso (FEXGetPARAM_DST_pais), p. ej. 203 Brasil",
    ),
  })
  .strict();
export type Permiso = z.output<typeof permisoSchema>;

/**
 * The foreign customer (`Cliente`, `Domicilio_cliente`, `Cuit_pais_cliente`, `Id_impositivo`).
 * With `clienteId` each value missing here comes from the customer of the account; the
 * customer's document is its `cuitPais` when it is a CUIT (docTipo 80), its `idImpositivo`
 * otherwise.
 */
const clienteSchema = z
  .object({
    razonSocial: text(200, "Nombre o razón social del cliente del exterior").optional(),
    domicilio: text(300, "Domicilio del cliente, en una línea").optional(),
    cuitPais: cuitSchema
      .optional()
      .describe(
        "CUIT genérica del país del cliente (FEXGetPARAM_DST_CUIT), p. ej. 50000000016; esta o idImpositivo",
      ),
    idImpositivo: text(50, "Identificación tributaria del cliente en su país").optional(),
  })
  .strict()
  .meta(exportacionClienteDocument);
export type ExportacionCliente = z.output<typeof clienteSchema>;

const monedaIdProblem =
  'debe ser el código de moneda de 3 caracteres de la AFIP ("DOL", "PES", "060"…)';
const monedaSchema = z
  .string({ error: required(monedaIdProblem) })
  .transform((value) => value.toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9]{3}$/, monedaIdProblem))
  .meta({
    description: "Moneda del comprobante (FEXGetPARAM_MON): DOL, 060 (euro), PES…",
    examples: ["DOL"],
    // read in capitals
    pattern: "^[A-Za-z0-9]{3}$",
  });

/**
 * One line. With `productoId` the product's `descripcion`, `codigo` and `precioUnitario` are
 * used unless sent here (an explicit value wins), and its `unidadMedida` when it holds a WSFEX
 * unit code. Units 0, 97 (seña/anticipo) and 99 (bonificación) carry no quantity nor price:
 * the line is `−bonificacion`. Line amount: `cantidad × precioUnitario − bonificacion`,
 * rounded half up to 2 decimals once per line.
 */
const exportacionItemSchema = z
  .object({
    productoId: catalogIdSchema.optional().describe("Producto de tu cuenta (/api/productos)"),
    codigo: text(50, "Código propio del producto (SKU)").optional(),
    descripcion: text(4_000, "Descripción del ítem").optional(),
    cantidad: decimalSchema({
      integerDigits: 12,
      fractionDigits: 6,
      description: "Cantidad, hasta 6 decimales; 0 con las unidades 0, 97 y 99",
      example: "1.5",
    }),
    unidadMedida: integer(0, 99, "el código de unidad de FEXGetPARAM_UMed")
      .optional()
      .describe(
        "Unidad de medida (FEXGetPARAM_UMed): 1 kilogramos, 7 unidades… 97 seña/anticipo, 99 bonificación",
      ),
    precioUnitario: decimalSchema({
      integerDigits: 12,
      fractionDigits: 6,
      description: "Precio unitario en la moneda del comprobante, hasta 6 decimales",
      example: "1210.50",
    }).optional(),
    bonificacion: decimalSchema({
      integerDigits: 12,
      fractionDigits: 6,
      description:
        "Descuento en importe (no en %) sobre cantidad × precioUnitario; por defecto 0. Con la unidad 99, el importe bonificado",
      example: "100",
    }).optional(),
  })
  .strict()
  .meta(exportacionItemDocument);
export type ExportacionItem = z.output<typeof exportacionItemSchema>;

/** A voucher a note adjusts (`Cmps_asoc/Cmp_asoc`). */
const exportacionAsociadoSchema = z
  .object({
    cbteTipo: integer(1, 999, "el tipo de comprobante (19, 20 o 21)"),
    ptoVta: ptoVtaSchema,
    cbteNro: cbteNroSchema,
    cuit: cuitSchema.optional().describe("CUIT del emisor del comprobante asociado"),
  })
  .strict();
export type ExportacionAsociado = z.output<typeof exportacionAsociadoSchema>;

/** A raw `Opcionales/Opcional`. */
const exportacionOpcionalSchema = opcionalSchemaOf(
  "FEXGetPARAM_Opcionales",
  "Id de FEXGetPARAM_Opcionales",
  "2401",
);

/**
 * The body of `POST /api/wsfex/facturas` (Factura E 19, Nota de Débito E 20, Nota de Crédito
 * E 21), field by field. What depends on other fields (references, the type and kind of
 * export, dates, currency, totals) is judged by wsfe: 400 for what is missing after resolving
 * references, 422 for the voucher rules.
 */
export const exportacionFields = {
  environment: environmentSchema,
  representada: representadaSchema,
  ptoVta: ptoVtaSchema.describe(
    "Punto de venta de exportación (Comprobantes de Exportación – Web Services)",
  ),
  cbteTipo: cbteTipoSchema.describe(
    "19 Factura E, 20 Nota de Débito E, 21 Nota de Crédito E (WSFEXv1)",
  ),
  cbteFch: fechaSchema
    .optional()
    .describe("Fecha del comprobante AAAAMMDD; por defecto hoy en la Argentina (UTC−3)"),
  tipoExpo: tipoExpoSchema,
  permisoExistente: sNoSchema
    .optional()
    .describe(
      'Si hay permiso de embarque: "S" o "N" solo en facturas (19) de bienes (tipoExpo 1); sin él en los demás',
    ),
  permisos: z
    .array(permisoSchema)
    .max(100, "debe tener como máximo 100 elementos")
    .optional()
    .describe('Permisos de embarque; obligatorios con permisoExistente "S", ninguno con "N"'),
  dstCmp: integer(1, 32_767, "el código de país de FEXGetPARAM_DST_pais").describe(
    "País de destino del comprobante (FEXGetPARAM_DST_pais), p. ej. 203 Brasil, 225 Uruguay",
  ),
  clienteId: catalogIdSchema.optional().describe("Cliente de tu cuenta (/api/clientes)"),
  cliente: clienteSchema.optional(),
  moneda: monedaSchema,
  cotizacion: decimalSchema({
    integerDigits: 9,
    fractionDigits: 6,
    positive: true,
    description:
      "Pesos por unidad de la moneda; sin ella, la cotización del día de la AFIP. 1 para PES",
    example: "1050.25",
  }).optional(),
  canMisMonExt: sNoSchema
    .optional()
    .describe('"S" si se cancela en la misma moneda extranjera (CanMisMonExt); no con PES'),
  idioma: idiomaSchema,
  incoterms: z
    .string({ error: required(incotermsProblem) })
    .transform((value) => value.trim().toUpperCase())
    .pipe(z.enum(INCOTERMS, { error: incotermsProblem }))
    .optional()
    .meta({
      description: "Incoterms; obligatorio en facturas (19) de bienes (tipoExpo 1)",
      enum: [...INCOTERMS],
    }),
  incotermsDs: text(20, "Detalle de los Incoterms").optional(),
  formaPago: text(50, "Forma de pago; obligatoria en facturas (19)").optional(),
  fechaPago: fechaSchema
    .optional()
    .describe(
      "Fecha de pago AAAAMMDD: obligatoria en facturas (19) de servicios u otros (tipoExpo 2 o 4), sin ella en las demás; no anterior a cbteFch",
    ),
  obsComerciales: text(4_000, "Observaciones comerciales").optional(),
  obs: text(4_000, "Otras observaciones").optional(),
  items: z
    .array(exportacionItemSchema, { error: required("debe ser una lista de ítems") })
    .max(9_999, "debe tener como máximo 9999 ítems")
    // an empty list is a voucher rule (422), judged with the totals
    .meta({ minItems: 1 }),
  comprobantesAsociados: z
    .array(exportacionAsociadoSchema)
    .max(50, "debe tener como máximo 50 elementos")
    .optional()
    .describe("Comprobantes que ajusta una nota (20 o 21): al menos uno de tipo 19, 20 o 21"),
  opcionales: z
    .array(exportacionOpcionalSchema)
    .max(50, "debe tener como máximo 50 elementos")
    .optional(),
  actividades: z
    .array(integer(1, 999_999_999, "el código de actividad (FEXGetPARAM_Actividades)"))
    .max(50, "debe tener como máximo 50 elementos")
    .optional()
    .describe("Actividades del emisor (FEXGetPARAM_Actividades)"),
  email: emailSchema.optional().describe("Destinatario del comprobante una vez autorizado"),
};

/** The HTTP body of `POST /api/wsfex/facturas`: camelCase, unknown fields refused. */
export const exportacionBodySchema = z
  .object(exportacionFields)
  .strict()
  .meta(exportacionBodyDocument);
export type ExportacionBody = z.output<typeof exportacionBodySchema>;
