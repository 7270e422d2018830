import { z } from "zod";
import { defineContract } from "../contract.js";
import { environmentSchema } from "../common/fields.js";
import { comprobanteAutorizado, comprobanteRechazado } from "../wsfe/comprobante-events.js";
import {
  emisionTerminada,
  facturaAnswerSchema,
  facturaOutcomeSchema,
  type FacturaAnswer,
  type FacturaOutcome,
} from "../wsfe/issuance-events.js";

const idempotencyKeySchema = z.string().min(1).max(255);

export { facturaAnswerSchema, facturaOutcomeSchema, type FacturaAnswer, type FacturaOutcome };

/**
 * `billing.factura.admit`, the first step of an issuance: before anything reaches the authority,
 * billing binds the `Idempotency-Key` (scoped to the account of the request's headers), checks
 * the rejection cap of the environment and reserves one voucher of quota in production. A
 * refusal (409, 422, 429, 402) binds nothing. `replay` answers the first attempt's stored
 * answer; `resolve` means the first attempt ended without a known outcome (or its process
 * stopped holding the key) and must be looked up before anything is issued again.
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
    z
      .object({
        decision: z.literal("proceed"),
        /**
         * how long the key stays bound to this attempt from the admission (ms): the attempt
         * keeps it with `billing.factura.hold` while it runs, and sends nothing once it may
         * have lapsed
         */
        leaseMs: z.number().int().positive().optional(),
      })
      .strict(),
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
  // the same request asked again (its request id) is admitted once: nothing bound or reserved twice
  onSilence: "repeat",
});

/**
 * An issuance's outcome event, as billing applies it: a voucher authorized or rejected, or an
 * attempt that ended without a voucher of its own reaching a final state.
 */
export const facturaOutcomeEventSchema = z.discriminatedUnion("tipo", [
  z.object({ tipo: z.literal("autorizado"), event: comprobanteAutorizado.schema }).strict(),
  z.object({ tipo: z.literal("rechazado"), event: comprobanteRechazado.schema }).strict(),
  z.object({ tipo: z.literal("terminada"), event: emisionTerminada.schema }).strict(),
]);
export type FacturaOutcomeEvent = z.output<typeof facturaOutcomeEventSchema>;

/**
 * `billing.factura.settle`: the issuance flow hands billing the outcome event it has just
 * published, so a repeat right after the answer is already replayed. It is applied exactly as
 * the durable consumer applies the same event from JetStream, once by its id, whichever comes
 * first: the quota committed or released, a rejection counted, the answer stored for replays.
 * Answers the answer the Idempotency-Key now replays (the first one stored), if any.
 */
export const facturaSettle = defineContract({
  subject: "billing.factura.settle",
  request: facturaOutcomeEventSchema,
  reply: z.object({ answer: facturaAnswerSchema.optional() }).strict(),
  errors: ["UNAUTHORIZED"],
  timeoutMs: 5_000,
  needsAccount: true,
  // applied once by the event's id, however often it is handed over
  onSilence: "repeat",
});

/**
 * `billing.factura.hold`: an admitted attempt still running keeps its Idempotency-Key bound
 * for another lease (`leaseMs` of the admission), so a key whose attempt died with its process
 * is looked up after one lease rather than answering 409 for as long as the longest call.
 * Only a lease that has not lapsed is extended: a lapsed one may already be being looked up
 * by a retry, and `held: false` tells the attempt to send nothing more.
 */
export const facturaHold = defineContract({
  subject: "billing.factura.hold",
  request: z.object({ idempotencyKey: idempotencyKeySchema }).strict(),
  reply: z.object({ held: z.boolean() }).strict(),
  errors: [],
  timeoutMs: 2_000,
  needsAccount: true,
  // extending a lease twice is extending it
  onSilence: "repeat",
});
