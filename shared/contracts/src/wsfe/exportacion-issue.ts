import { z } from "zod";
import { defineContract } from "../contract.js";
import { exportacionFields } from "./exportacion-body.js";
import { exportacionHttpReplySchema } from "./exportacion-reply.js";
import { idempotencyKeySchema, issuanceCallFields } from "./factura-issue.js";

/** The export voucher asked for: the HTTP body plus the `Idempotency-Key` header's value. */
export const exportacionIssueRequestSchema = z
  .object({ ...exportacionFields, idempotencyKey: idempotencyKeySchema.optional() })
  .strict();
export type ExportacionIssueRequest = z.output<typeof exportacionIssueRequestSchema>;

/** The NATS request: the voucher, the fingerprint of the body the key binds, the key's scope. */
export const exportacionIssueCallSchema = z
  .object({ ...exportacionIssueRequestSchema.shape, ...issuanceCallFields })
  .strict();
export type ExportacionIssueCall = z.output<typeof exportacionIssueCallSchema>;

/** The 200 body and whether it replays an answer already given under the same key. */
export const exportacionIssueAnswerSchema = z
  .object({ factura: exportacionHttpReplySchema, replayed: z.boolean() })
  .strict();

/** A first WSAA login, the last number, the rate of the day or a lookup, and FEXAuthorize. */
const EXPORTACION_ISSUE_TIMEOUT_MS = 125_000;

/**
 * `wsfe.exportacion.issue` (FEXAuthorize): the export voucher's whole issuance in one request,
 * with the lifecycle of `wsfe.factura.issue`: billing admits it (the key, the rejection cap,
 * the production quota); wsfe numbers it as the series' only writer, gives it FEXAuthorize's
 * request `Id` and stores both before sending; the answer carries its PDF link. Every 400/422
 * of the voucher's own answers before the authority is called, numbering unchanged.
 */
export const exportacionIssue = defineContract({
  subject: "wsfe.exportacion.issue",
  request: exportacionIssueCallSchema,
  reply: exportacionIssueAnswerSchema,
  errors: [
    "UNSUPPORTED_CBTE_TIPO",
    "CLIENTE_REFERENCE_NOT_FOUND",
    "PRODUCTO_REFERENCE_NOT_FOUND",
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
  ],
  timeoutMs: EXPORTACION_ISSUE_TIMEOUT_MS,
  onSilence: "unknown",
  needsAccount: true,
});
