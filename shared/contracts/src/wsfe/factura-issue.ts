import { z } from "zod";
import { keyScopeSchema } from "../billing/key-scope.js";
import { defineContract } from "../contract.js";
import { facturaFields, required } from "./factura-body.js";
import { facturaHttpReplySchema } from "./factura-reply.js";

/** The `Idempotency-Key` header's value, as the edge passes it. */
export const idempotencyKeySchema = z
  .string({ error: required("debe ser un texto de 1 a 255 caracteres") })
  .min(1, "no puede estar vacío")
  .max(255, "admite hasta 255 caracteres");

/** What every issuance call carries besides its voucher and key. */
export const issuanceCallFields = {
  /** sha256 of the canonical body, as the edge validated it; required with a key */
  fingerprint: z.string().min(1).max(128).optional(),
  keyScope: keyScopeSchema,
};

/** The voucher asked for: the HTTP body plus the `Idempotency-Key` header's value, if any. */
export const facturaIssueRequestSchema = z
  .object({ ...facturaFields, idempotencyKey: idempotencyKeySchema.optional() })
  .strict();
export type FacturaIssueRequest = z.output<typeof facturaIssueRequestSchema>;

/**
 * The NATS request: the voucher asked for, the fingerprint of the body the key binds, and the
 * scope of the API key the edge verified. The account, the request id and the deadline
 * travel in the headers.
 */
export const facturaIssueCallSchema = z
  .object({ ...facturaIssueRequestSchema.shape, ...issuanceCallFields })
  .strict();
export type FacturaIssueCall = z.output<typeof facturaIssueCallSchema>;

/**
 * The reply of `wsfe.factura.issue`: the 200 body of the API (the authorized voucher with its
 * PDF link), and whether it is the replay of an answer already given under the same key (a
 * replay consumes no quota).
 */
export const facturaIssueAnswerSchema = z
  .object({ factura: facturaHttpReplySchema, replayed: z.boolean() })
  .strict();
export type FacturaIssueAnswer = z.output<typeof facturaIssueAnswerSchema>;

/** Up to three authority calls (numbering, cotización, FECAESolicitar) and a first WSAA login. */
const FACTURA_ISSUE_TIMEOUT_MS = 125_000;

/**
 * `wsfe.factura.issue` (FECAESolicitar), the whole issuance in one request: billing admits it
 * (the Idempotency-Key, the rejection cap, the production quota), then one voucher is numbered
 * by the gateway (last authorized + 1 on its series) and sent, and the answer carries its PDF
 * link. Every 400/422 of the voucher's own is answered before the authority is called and
 * leaves numbering unchanged; a replay answers the first attempt's answer (a 422 as an error).
 */
export const facturaIssue = defineContract({
  subject: "wsfe.factura.issue",
  request: facturaIssueCallSchema,
  reply: facturaIssueAnswerSchema,
  errors: [
    "UNSUPPORTED_CBTE_TIPO",
    "CLIENTE_REFERENCE_NOT_FOUND",
    "CLIENTE_WITHOUT_CONDICION_IVA",
    "PRODUCTO_REFERENCE_NOT_FOUND",
    "PRODUCTO_WITHOUT_ALICUOTA",
    "TOTALS_INVALID",
    "AUTHORITY_REJECTED",
    "REPRESENTADA_NOT_FOUND",
    "NO_ACTIVE_CERTIFICATE",
    "SERVICE_NOT_DELEGATED",
    "CERTIFICATE_ENVIRONMENT_MISMATCH",
    "REPRESENTADA_NOT_DELEGATED",
    "AUTHORITY_QUERY_REFUSED",
    "ACCESS_TICKET_PENDING",
    "AUTHORITY_UNAVAILABLE",
    "READ_ONLY_KEY",
    "IDEMPOTENCY_IN_PROGRESS",
    "IDEMPOTENCY_KEY_REUSED",
    "REJECTION_CAP",
    "QUOTA_FACTURAS_EXHAUSTED",
    "CONTINGENCY_NOT_ENABLED",
    "CAEA_NOT_AVAILABLE",
  ],
  timeoutMs: FACTURA_ISSUE_TIMEOUT_MS,
  onSilence: "unknown",
  needsAccount: true,
});
