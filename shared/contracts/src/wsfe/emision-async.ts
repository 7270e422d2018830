import { z } from "zod";
import { defineContract, defineEvent } from "../contract.js";
import { environmentSchema, idSchema, isoDateTimeSchema } from "../common/fields.js";
import { cursorSchema, limitSchema, pageOf } from "../catalog/fields.js";
import { exportacionIssueCallSchema } from "./exportacion-issue.js";
import { facturaIssueCallSchema } from "./factura-issue.js";
import { answeredErrorSchema, facturaAnswerSchema } from "./issuance-events.js";

/** Where an asynchronous issuance stands: waiting, or one of its three ends. */
export const EMISION_ESTADOS = ["pendiente", "autorizado", "rechazado", "no_emitido"] as const;
export const emisionEstadoSchema = z.enum(EMISION_ESTADOS);
export type EmisionEstado = z.output<typeof emisionEstadoSchema>;

/** Which issuance it is: a domestic voucher (WSFEv1) or an export one (WSFEXv1). */
export const emisionTipoSchema = z.enum(["factura", "exportacion"]);
export type EmisionTipo = z.output<typeof emisionTipoSchema>;

/**
 * An asynchronous issuance as wsfe keeps it: its state, its attempts, and once it ended the
 * answer a synchronous call would have got (the authorized voucher, or the catalogue error it
 * ended with). Only the edge turns the answer into HTTP.
 */
export const emisionAsyncSchema = z
  .object({
    id: idSchema,
    tipo: emisionTipoSchema,
    environment: environmentSchema,
    estado: emisionEstadoSchema,
    idempotencyKey: z.string().nullable(),
    createdAt: isoDateTimeSchema,
    updatedAt: isoDateTimeSchema,
    /** attempts made so far */
    intentos: z.number().int().min(0),
    /** when the next attempt is due, while `pendiente` */
    proximoIntento: isoDateTimeSchema.nullable(),
    answer: facturaAnswerSchema.optional(),
  })
  .strict();
export type EmisionAsync = z.output<typeof emisionAsyncSchema>;

/**
 * What asking for an asynchronous issuance answers: the issuance queued (new, or the one its
 * Idempotency-Key already names), or the answer a synchronous issuance under the same key
 * already gave (the same issuance, never a second one).
 */
export const emisionEnqueueReplySchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("queued"), emision: emisionAsyncSchema }).strict(),
  z.object({ kind: z.literal("replay"), answer: facturaAnswerSchema }).strict(),
]);
export type EmisionEnqueueReply = z.output<typeof emisionEnqueueReplySchema>;

/** Everything an issuance can answer before the authority is called. */
const enqueueErrors = [
  "UNSUPPORTED_CBTE_TIPO",
  "CLIENTE_REFERENCE_NOT_FOUND",
  "CLIENTE_WITHOUT_CONDICION_IVA",
  "PRODUCTO_REFERENCE_NOT_FOUND",
  "PRODUCTO_WITHOUT_ALICUOTA",
  "TOTALS_INVALID",
  "REPRESENTADA_NOT_FOUND",
  "NO_ACTIVE_CERTIFICATE",
  "READ_ONLY_KEY",
  "IDEMPOTENCY_IN_PROGRESS",
  "IDEMPOTENCY_KEY_REUSED",
  "REJECTION_CAP",
  "QUOTA_FACTURAS_EXHAUSTED",
  "POINT_OF_SALE_NOT_ENABLED",
  "CONTINGENCY_NOT_ENABLED",
] as const;

/** Judging a voucher asks the catalog and ticket, and admission asks billing: no authority. */
const ENQUEUE_TIMEOUT_MS = 15_000;

/**
 * `wsfe.factura.enqueue`: a domestic voucher issued asynchronously (`Prefer: respond-async`).
 * Everything that can be judged without the authority is judged now (the body, the references,
 * the representada, the key, the rejection cap, the quota); the issuance is then queued
 * durably and carried out by wsfe, retried through authority outages.
 */
export const facturaEnqueue = defineContract({
  subject: "wsfe.factura.enqueue",
  request: facturaIssueCallSchema,
  reply: emisionEnqueueReplySchema,
  errors: [...enqueueErrors],
  timeoutMs: ENQUEUE_TIMEOUT_MS,
  needsAccount: true,
});

/** `wsfe.exportacion.enqueue`: the same for an export voucher (FEXAuthorize). */
export const exportacionEnqueue = defineContract({
  subject: "wsfe.exportacion.enqueue",
  request: exportacionIssueCallSchema,
  reply: emisionEnqueueReplySchema,
  errors: [...enqueueErrors],
  timeoutMs: ENQUEUE_TIMEOUT_MS,
  needsAccount: true,
});

/**
 * `wsfe.emision.get`: an asynchronous issuance of the account, by id and kind. Any text is
 * asked for: one that is no id answers the same 404 as an unknown one.
 */
export const emisionGet = defineContract({
  subject: "wsfe.emision.get",
  request: z.object({ id: z.string().min(1).max(200), tipo: emisionTipoSchema }).strict(),
  reply: emisionAsyncSchema,
  errors: ["ASYNC_ISSUANCE_NOT_FOUND"],
  needsAccount: true,
});

/**
 * `wsfe.emision.list`: the account's asynchronous issuances in one environment, newest first,
 * in pages (keyset: the `nextCursor` of the previous page); `estado` keeps those waiting or
 * those that ended one way.
 */
export const emisionList = defineContract({
  subject: "wsfe.emision.list",
  request: z
    .object({
      environment: environmentSchema,
      estado: emisionEstadoSchema.optional(),
      limit: limitSchema,
      cursor: cursorSchema.optional(),
    })
    .strict(),
  reply: pageOf(emisionAsyncSchema),
  errors: [],
  timeoutMs: 5_000,
  needsAccount: true,
});

/**
 * `evt.wsfe.emision.finalizada`: an asynchronous issuance ended. Its voucher's own event
 * (`autorizado`, `rechazado`) is published as for any issuance; this one says which queued
 * issuance ended and how, including `no_emitido`, which has no voucher of its own.
 */
export const emisionFinalizada = defineEvent({
  subject: "evt.wsfe.emision.finalizada",
  version: 1,
  schema: z.object({
    id: z.string(),
    version: z.literal(1),
    emisionId: idSchema,
    tipo: emisionTipoSchema,
    accountId: idSchema,
    environment: environmentSchema,
    estado: z.enum(["autorizado", "rechazado", "no_emitido"]),
    idempotencyKey: z.string().nullable(),
    /** the error it ended with, for `rechazado` and `no_emitido` */
    error: answeredErrorSchema.optional(),
    occurredAt: isoDateTimeSchema,
  }),
});

/** The event id of an asynchronous issuance's end: one per issuance. */
export const emisionFinalizadaEventId = (emisionId: string) =>
  `wsfe.emision.finalizada.${emisionId}`;
