import { z } from "zod";
import { idSchema, isoDateTimeSchema } from "../common/fields.js";
import {
  alicuotaIvaSchema,
  codigoSchema,
  cursorSchema,
  descripcionSchema,
  limitSchema,
  precioUnitarioSchema,
  searchSchema,
  unidadMedidaSchema,
} from "./fields.js";

/** A live product as the API shows it: `precioUnitario` stays a decimal string end to end. */
export const productoSchema = z
  .object({
    id: idSchema,
    codigo: z.string().nullable(),
    descripcion: z.string(),
    precioUnitario: z.string().describe('Decimal exacto en texto canónico: "1210.5"'),
    alicuotaIva: z.number().nullable().describe("null si no está cargada; la emisión la exige"),
    unidadMedida: z.string().nullable(),
    createdAt: isoDateTimeSchema,
    updatedAt: isoDateTimeSchema,
  })
  .strict();
export type Producto = z.output<typeof productoSchema>;

export const productoInputSchema = z
  .object({
    codigo: codigoSchema.nullable().optional(),
    descripcion: descripcionSchema,
    precioUnitario: precioUnitarioSchema,
    alicuotaIva: alicuotaIvaSchema.nullable().optional(),
    unidadMedida: unidadMedidaSchema.nullable().optional(),
  })
  .strict();
export type ProductoInput = z.output<typeof productoInputSchema>;

/** A partial update: absent keeps, null clears an optional field; at least one field. */
export const productoChangesSchema = z
  .object({
    codigo: codigoSchema.nullable().optional(),
    descripcion: descripcionSchema.optional(),
    precioUnitario: precioUnitarioSchema.optional(),
    alicuotaIva: alicuotaIvaSchema.nullable().optional(),
    unidadMedida: unidadMedidaSchema.nullable().optional(),
  })
  .strict()
  .refine((changes) => Object.keys(changes).length > 0, {
    error: "debe incluir al menos un campo a modificar",
  })
  .meta({ minProperties: 1 });
export type ProductoChanges = z.output<typeof productoChangesSchema>;

/** List filters; `q` matches description or code ignoring case and accents. */
export const productoFilterSchema = z
  .object({
    limit: limitSchema,
    cursor: cursorSchema.optional(),
    codigo: codigoSchema.optional(),
    q: searchSchema.optional(),
  })
  .strict();
export type ProductoFilter = z.output<typeof productoFilterSchema>;
