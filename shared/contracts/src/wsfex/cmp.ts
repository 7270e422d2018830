import { z } from "zod";

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);

/**
 * `ClsFEXRequest`, the `Cmp` of FEXAuthorize, exactly as the gateway sends it: element names
 * as the authority spells them, amounts as exact decimal text. An optional element is absent
 * when it is not sent. Stored beside the voucher before the call and sent again unchanged (the
 * same `Id`) by reconciliation, so the authority answers the CAE it already granted.
 * Element order is the WSDL's, kept by the adapter (JSON objects are not ordered).
 */
export const fexCmpSchema = z
  .object({
    /** the request id: the authority's idempotency key for FEXAuthorize (N15) */
    Id: z.number().int().nonnegative(),
    Fecha_cbte: z.string().regex(/^\d{8}$/),
    Cbte_Tipo: z.number().int(),
    Punto_vta: z.number().int(),
    Cbte_nro: z.number().int(),
    Tipo_expo: z.number().int(),
    Permiso_existente: z.enum(["S", "N", ""]),
    Permisos: z.array(z.object({ Id_permiso: z.string(), Dst_merc: z.number().int() }).strict()),
    Dst_cmp: z.number().int(),
    Cliente: z.string(),
    Cuit_pais_cliente: z
      .string()
      .regex(/^\d{11}$/)
      .optional(),
    Domicilio_cliente: z.string(),
    Id_impositivo: z.string().optional(),
    Moneda_Id: z.string(),
    Moneda_ctz: decimal,
    CanMisMonExt: z.enum(["S", "N"]).optional(),
    Obs_comerciales: z.string().optional(),
    Imp_total: decimal,
    Obs: z.string().optional(),
    Cmps_asoc: z.array(
      z
        .object({
          Cbte_tipo: z.number().int(),
          Cbte_punto_vta: z.number().int(),
          Cbte_nro: z.number().int(),
          Cbte_cuit: z
            .string()
            .regex(/^\d{11}$/)
            .optional(),
        })
        .strict(),
    ),
    Forma_pago: z.string().optional(),
    Incoterms: z.string().optional(),
    Incoterms_Ds: z.string().optional(),
    Idioma_cbte: z.number().int(),
    Items: z.array(
      z
        .object({
          Pro_codigo: z.string().optional(),
          Pro_ds: z.string(),
          Pro_qty: decimal,
          Pro_umed: z.number().int(),
          Pro_precio_uni: decimal,
          Pro_bonificacion: decimal,
          Pro_total_item: decimal,
        })
        .strict(),
    ),
    Opcionales: z.array(z.object({ Id: z.string(), Valor: z.string() }).strict()),
    Fecha_pago: z
      .string()
      .regex(/^\d{8}$/)
      .optional(),
    Actividades: z.array(z.object({ Id: z.number().int() }).strict()),
  })
  .strict();
export type FexCmp = z.output<typeof fexCmpSchema>;
