import { z } from "zod";
import { defineContract } from "../contract.js";
import {
  environmentSchema,
  idSchema,
  isoDateTimeSchema,
  representadaSchema,
} from "../common/fields.js";
import { certificateStatusSchema } from "./fields.js";

/** `ticket.representada.list` (operator): an account's representadas; never a key or a CSR. */
export const representadaList = defineContract({
  subject: "ticket.representada.list",
  request: z.object({ accountId: idSchema }).strict(),
  reply: z.object({
    representadas: z.array(
      z
        .object({
          representadaId: idSchema,
          cuit: representadaSchema,
          environment: environmentSchema,
          alias: z.string(),
          ptoVta: z.number().int().nullable(),
          /** the newest key/certificate: pending while only the CSR exists */
          certificate: z
            .object({
              status: certificateStatusSchema,
              notAfter: isoDateTimeSchema.nullable(),
            })
            .nullable(),
          createdAt: isoDateTimeSchema,
        })
        .strict(),
    ),
  }),
  errors: [],
});
