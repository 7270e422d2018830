import { z } from "zod";
import { defineEvent } from "../contract.js";
import { environmentSchema, idSchema, isoDateTimeSchema } from "../common/fields.js";

/** A catalogue error as an issuance answered it: code, the catalogue's message, details. */
export const answeredErrorSchema = z
  .object({
    code: z.string().min(1).max(64),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/**
 * The answer an issuance gave, as it is replayed under its Idempotency-Key: the authorized
 * voucher (the API's 200 body, PDF link included) or the catalogue error it ended with (a
 * rejection). Only the edge turns either into HTTP.
 */
export const facturaAnswerSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("authorized"), factura: z.record(z.string(), z.unknown()) }).strict(),
  z.object({ kind: z.literal("error"), error: answeredErrorSchema }).strict(),
]);
export type FacturaAnswer = z.output<typeof facturaAnswerSchema>;

/**
 * How an admitted issuance attempt ended: `final` (a rejection of the voucher before it was
 * numbered: replayed from now on), `unknown` (the authority may have issued it: the key stays
 * bound to the attempt until it is looked up) or `refused` (nothing reached the authority: the
 * key is free again). A numbered voucher's final state is its own event instead.
 */
export const facturaOutcomeSchema = z.enum(["final", "unknown", "refused"]);
export type FacturaOutcome = z.infer<typeof facturaOutcomeSchema>;

/**
 * `evt.wsfe.emision.terminada`: an admitted issuance attempt ended without a voucher of its own
 * reaching a final state: refused before the authority, rejected by the totals' rules, or of
 * unknown outcome (published by the edge too, when the issuance went unanswered). Together with
 * the vouchers' `autorizado` and `rechazado` events, these are what the Idempotency-Key record,
 * the quota and the rejection window are completed from. `id` is one per attempt and outcome.
 */
export const emisionTerminada = defineEvent({
  subject: "evt.wsfe.emision.terminada",
  version: 1,
  schema: z.object({
    id: z.string(),
    version: z.literal(1),
    accountId: idSchema,
    environment: environmentSchema,
    /** the request id of the attempt the Idempotency-Key was bound to */
    requestId: z.string().min(1).max(200),
    idempotencyKey: z.string().min(1).max(255).nullable(),
    outcome: facturaOutcomeSchema,
    /** the error answered, for a final outcome (a 422 issuance rejection) */
    error: answeredErrorSchema.optional(),
    occurredAt: isoDateTimeSchema,
  }),
});

/**
 * The event id of an attempt's end: one per attempt and outcome, and per call that tells it
 * when that is not the attempt itself (`by`). A later call that looked the attempt up and found
 * nothing issued gives it back under an id of its own: its admission may have been applied
 * after its own giving back (a late delivery), and a second giving back under the same id
 * would be skipped, leaving the key bound to an attempt that is over.
 */
export const emisionEventId = (requestId: string, outcome: FacturaOutcome, by?: string) =>
  `wsfe.emision.${outcome}.${requestId}${by === undefined || by === requestId ? "" : `.${by}`}`;
