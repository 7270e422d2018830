import { z } from "zod";
import { defineContract } from "../contract.js";
import { AUTHORITY_QUERY_TIMEOUT_MS, authorityQueryErrors } from "../common/authority-query.js";
import { environmentSchema, representadaSchema } from "../common/fields.js";

/** `A` is a valid permit (the authority answers `OK`); any other state passes through. */
export const permisoReplySchema = z.object({ status: z.string() }).strict();

/** `wsfex.permiso.verify` (FEXCheck_Permiso). */
export const permisoVerify = defineContract({
  subject: "wsfex.permiso.verify",
  request: z
    .object({
      environment: environmentSchema,
      representada: representadaSchema,
      /** the permit id: digits, letters and a slash as the customs office prints it */
      idPermiso: z.string().trim().min(1).max(64),
      /** destination country code (FEXGetPARAM_DST_pais) */
      dstMerc: z.number().int().min(0).max(99_999),
    })
    .strict(),
  reply: permisoReplySchema,
  errors: authorityQueryErrors,
  timeoutMs: AUTHORITY_QUERY_TIMEOUT_MS,
  onSilence: "repeat",
  needsAccount: true,
});
