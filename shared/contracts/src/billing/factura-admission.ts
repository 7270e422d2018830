import { z } from "zod";
import { defineContract } from "../contract.js";
import { environmentSchema } from "../common/fields.js";

const idempotencyKeySchema = z.string().min(1).max(255);

/**
 * The answer an issuance gave, as it is replayed under its Idempotency-Key: the authorized
 * voucher (the API's 200 body, PDF link included) or the catalogue error it ended with (a
 * rejection). Only the edge turns either into HTTP.
 */
export const facturaAnswerSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("authorized"), factura: z.record(z.string(), z.unknown()) }).strict(),
  z
    .object({
      kind: z.literal("error"),
      error: z
        .object({
          code: z.string().min(1).max(64),
          message: z.string(),
          details: z.record(z.string(), z.unknown()).optional(),
        })
        .strict(),
    })
    .strict(),
]);
export type FacturaAnswer = z.output<typeof facturaAnswerSchema>;

/**
 * `billing.factura.admit`, the first step of an issuance: before anything reaches the authority,
 * billing binds the `Idempotency-Key` (scoped to the account of the request's headers), checks
 * the rejection cap of the environment and reserves one voucher of quota in production. A
 * refusal (409, 422, 429, 402) binds nothing. `replay` answers the first attempt's stored
 * answer; `resolve` means the first attempt ended without a known outcome and
 * must be looked up before anything is issued again.
 */
export const facturaAdmit = defineContract({
  subject: "billing.factura.admit",
  request: z
    .object({
      environment: environmentSchema,
      idempotencyKey: idempotencyKeySchema.optional(),
      /** sha256 of the canonical body; required with a key */
      fingerprint: z.string().min(1).max(128).optional(),
    })
    .strict(),
  reply: z.discriminatedUnion("decision", [
    z.object({ decision: z.literal("proceed") }).strict(),
    z.object({ decision: z.literal("replay"), answer: facturaAnswerSchema }).strict(),
    z.object({ decision: z.literal("resolve"), requestId: z.string() }).strict(),
  ]),
  errors: [
    "UNAUTHORIZED",
    "IDEMPOTENCY_IN_PROGRESS",
    "IDEMPOTENCY_KEY_REUSED",
    "REJECTION_CAP",
    "QUOTA_FACTURAS_EXHAUSTED",
  ],
  timeoutMs: 5_000,
  needsAccount: true,
});

/**
 * How an admitted issuance ended, as the caller was answered: `final` (authorized, or a
 * rejection of the voucher: replayed from now on), `unknown` (the authority may have issued it: the key stays
 * bound to this attempt) or `refused` (nothing reached the authority: the key is free again).
 */
export const facturaOutcomeSchema = z.enum(["final", "unknown", "refused"]);
export type FacturaOutcome = z.infer<typeof facturaOutcomeSchema>;

/**
 * `billing.factura.complete`: the issuance flow reports the answer it gave. Commits the quota
 * for a production CAE, counts an issuance rejection, stores the answer for replays. The
 * voucher events do the same (idempotently), so a crash before this call loses nothing.
 */
export const facturaComplete = defineContract({
  subject: "billing.factura.complete",
  request: z
    .object({
      environment: environmentSchema,
      idempotencyKey: idempotencyKeySchema.optional(),
      outcome: facturaOutcomeSchema,
      /** the answer given; required for a final outcome */
      answer: facturaAnswerSchema.optional(),
      /** the request id of the attempt the key is bound to, when it is not this request */
      attempt: z.string().max(200).optional(),
    })
    .strict(),
  reply: z.object({ recorded: z.boolean() }).strict(),
  errors: ["UNAUTHORIZED"],
  timeoutMs: 5_000,
  needsAccount: true,
});
