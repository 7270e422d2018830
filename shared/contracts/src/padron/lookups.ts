import { z } from "zod";
import { defineContract } from "../contract.js";
import { AUTHORITY_QUERY_TIMEOUT_MS } from "../common/authority-query.js";
import { byDocumentoRequestSchema, byIdRequestSchema, padronLookupErrors } from "./fields.js";
import { constanciaSchema, personaA10Schema, personaA13Schema } from "./persona.js";

/** `padron.a13.get`: getPersona of ws_sr_padron_a13 (/api/padron/a13). */
export const a13Get = defineContract({
  subject: "padron.a13.get",
  request: byIdRequestSchema,
  reply: personaA13Schema,
  errors: padronLookupErrors,
  timeoutMs: AUTHORITY_QUERY_TIMEOUT_MS,
  onSilence: "repeat",
  needsAccount: true,
});

/** Every key registered for an identity document; none is an empty list, not an error. */
export const documentoReplySchema = z
  .object({ idPersonas: z.array(z.string()).describe("CUIT/CUIL de 11 dígitos") })
  .strict();

/** `padron.documento.list`: getIdPersonaListByDocumento of ws_sr_padron_a13 (/api/padron/documento). */
export const documentoList = defineContract({
  subject: "padron.documento.list",
  request: byDocumentoRequestSchema,
  reply: documentoReplySchema,
  errors: padronLookupErrors,
  timeoutMs: AUTHORITY_QUERY_TIMEOUT_MS,
  onSilence: "repeat",
  needsAccount: true,
});

/** `padron.a10.get`: getPersona of ws_sr_padron_a10 (/api/padron/a10). */
export const a10Get = defineContract({
  subject: "padron.a10.get",
  request: byIdRequestSchema,
  reply: personaA10Schema,
  errors: padronLookupErrors,
  timeoutMs: AUTHORITY_QUERY_TIMEOUT_MS,
  onSilence: "repeat",
  needsAccount: true,
});

/**
 * `padron.constancia.get`: getPersona_v2 of ws_sr_constancia_inscripcion
 * (/api/padron/constancia), with the derived `condicionIvaReceptorId`.
 */
export const constanciaGet = defineContract({
  subject: "padron.constancia.get",
  request: byIdRequestSchema,
  reply: constanciaSchema,
  errors: padronLookupErrors,
  timeoutMs: AUTHORITY_QUERY_TIMEOUT_MS,
  onSilence: "repeat",
  needsAccount: true,
});
