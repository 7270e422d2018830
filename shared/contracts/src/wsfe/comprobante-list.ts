import { z } from "zod";
import { defineContract } from "../contract.js";
import { environmentSchema, isoDateTimeSchema, representadaSchema } from "../common/fields.js";
import { cursorSchema, limitSchema, pageOf } from "../catalog/fields.js";
import { emailStatusSchema } from "./email-send.js";
import { ptoVtaSchema } from "./fields.js";
import { issuedCbteTipoSchema } from "./issued-cbte-tipo.js";

const fechaSchema = z.string().regex(/^\d{8}$/, 'debe ser una fecha AAAAMMDD (p. ej. "20261122")');

/**
 * Where a voucher stands: `authorized` (with its CAE), `rejected` by the authority, `pending`
 * while its outcome is not known yet (sent, or being reconciled).
 */
export const comprobanteEstadoSchema = z.enum(["authorized", "rejected", "pending"]);

/**
 * One voucher issued through the gateway, as the dashboard lists it: the five fields that name
 * it (the PDF, e-mail and payment-link endpoints take them), receiver, total, CAE and the
 * e-mail's delivery.
 */
export const comprobanteListItemSchema = z
  .object({
    id: z.uuid(),
    state: comprobanteEstadoSchema,
    environment: environmentSchema,
    representada: representadaSchema,
    ptoVta: z.number().int(),
    cbteTipo: z.number().int(),
    cbteNro: z.number().int(),
    cbteFch: z.string(),
    receptor: z
      .object({
        docTipo: z.number().int(),
        docNro: z.string(),
        razonSocial: z.string().nullable(),
      })
      .strict(),
    impTotal: z.string().describe("Importe total, texto decimal exacto"),
    moneda: z.string(),
    cae: z.string().nullable(),
    caeVencimiento: z.string().nullable(),
    email: z
      .object({ to: z.string(), status: emailStatusSchema, error: z.string().nullable() })
      .strict()
      .nullable(),
    createdAt: isoDateTimeSchema,
    rechazo: z
      .array(z.object({ code: z.number().int(), msg: z.string() }).strict())
      .optional()
      .describe(
        "Solo en un intento rechazado: los motivos de la AFIP (errores y observaciones); el número puede quedar para un comprobante autorizado después",
      ),
  })
  .strict();
export type ComprobanteListItem = z.output<typeof comprobanteListItemSchema>;

export const comprobanteListFilters = {
  environment: environmentSchema,
  representada: representadaSchema.optional(),
  ptoVta: ptoVtaSchema.optional(),
  cbteTipo: issuedCbteTipoSchema.optional(),
  /** cbteFch from this date on, AAAAMMDD */
  desde: fechaSchema.optional(),
  /** cbteFch up to this date, AAAAMMDD */
  hasta: fechaSchema.optional(),
  state: comprobanteEstadoSchema.optional(),
};

/**
 * `wsfe.comprobante.list`: the vouchers the account (bus header) issued through the gateway in
 * one environment, newest first, in pages (keyset: the `nextCursor` of the previous page).
 * Attempts that never reached a number (not issued) are not vouchers and are not listed.
 */
export const comprobanteList = defineContract({
  subject: "wsfe.comprobante.list",
  request: z
    .object({ ...comprobanteListFilters, limit: limitSchema, cursor: cursorSchema.optional() })
    .strict(),
  reply: pageOf(comprobanteListItemSchema),
  errors: [],
  timeoutMs: 5_000,
  needsAccount: true,
});
