import { z } from "zod";
import { defineContract } from "../contract.js";
import { idSchema, isoDateTimeSchema } from "../common/fields.js";

/** `abierto` waits for the operator, `respondido` for the customer; `cerrado` takes no replies. */
export const SOPORTE_ESTADOS = ["abierto", "respondido", "cerrado"] as const;
export const soporteEstadoSchema = z.enum(SOPORTE_ESTADOS);
export type SoporteEstado = z.infer<typeof soporteEstadoSchema>;

export const soporteAutorSchema = z.enum(["cliente", "operador"]);
export type SoporteAutor = z.infer<typeof soporteAutorSchema>;

export const soporteMensajeSchema = z
  .object({ autor: soporteAutorSchema, mensaje: z.string(), at: isoDateTimeSchema })
  .strict();

/** One support ticket with its messages, oldest first. */
export const soporteTicketSchema = z
  .object({
    id: idSchema,
    accountId: idSchema,
    /** the user who opened it: the operator's replies are e-mailed to them */
    userId: idSchema,
    asunto: z.string(),
    estado: soporteEstadoSchema,
    requestId: z.string().nullable(),
    createdAt: isoDateTimeSchema,
    updatedAt: isoDateTimeSchema,
    messages: z.array(soporteMensajeSchema),
  })
  .strict();
export type SoporteTicket = z.infer<typeof soporteTicketSchema>;

/** A ticket in a list: everything but the messages. */
export const soporteResumenSchema = soporteTicketSchema.omit({ messages: true }).strict();
export type SoporteResumen = z.infer<typeof soporteResumenSchema>;

const asuntoSchema = z.string().trim().min(1).max(200);
const mensajeSchema = z.string().trim().min(1).max(10_000);

/**
 * `billing.soporte.create`: a ticket of the calling account (the request's account id, as the
 * edge sends it for a session) opened by one of its users. `requestId` is an optional request
 * id from the usage history.
 */
export const soporteCreate = defineContract({
  subject: "billing.soporte.create",
  request: z
    .object({
      userId: idSchema,
      asunto: asuntoSchema,
      mensaje: mensajeSchema,
      requestId: z.string().trim().min(1).max(200).optional(),
    })
    .strict(),
  reply: soporteTicketSchema,
  errors: ["INVALID_FIELD", "UNAUTHORIZED", "USER_NOT_FOUND"],
  needsAccount: true,
});

/** `billing.soporte.list`: the calling account's tickets, newest activity first. */
export const soporteList = defineContract({
  subject: "billing.soporte.list",
  request: z.object({}).strict(),
  reply: z.object({ tickets: z.array(soporteResumenSchema) }),
  errors: ["UNAUTHORIZED"],
  needsAccount: true,
});

/** `billing.soporte.get`: one of the calling account's tickets; any other id is SOPORTE_NOT_FOUND. */
export const soporteGet = defineContract({
  subject: "billing.soporte.get",
  request: z.object({ id: idSchema }).strict(),
  reply: soporteTicketSchema,
  errors: ["UNAUTHORIZED", "SOPORTE_NOT_FOUND"],
  needsAccount: true,
});

/**
 * `billing.soporte.reply`: the customer answers one of the calling account's tickets (it goes
 * back to `abierto`). `autor`, when sent, must be "cliente": the operator answers through
 * `billing.soporte.operador.reply`.
 */
export const soporteReply = defineContract({
  subject: "billing.soporte.reply",
  request: z
    .object({ id: idSchema, mensaje: mensajeSchema, autor: z.literal("cliente").optional() })
    .strict(),
  reply: soporteTicketSchema,
  errors: ["INVALID_FIELD", "UNAUTHORIZED", "SOPORTE_NOT_FOUND", "SOPORTE_CERRADO"],
  needsAccount: true,
});

/**
 * `billing.soporte.operador.list` (operator): tickets of every account, open ones (`abierto`
 * and `respondido`) unless `todos`, oldest activity first.
 */
export const soporteOperadorList = defineContract({
  subject: "billing.soporte.operador.list",
  request: z.object({ todos: z.boolean().default(false) }).strict(),
  reply: z.object({ tickets: z.array(soporteResumenSchema) }),
  errors: [],
});

/** `billing.soporte.operador.get` (operator): any account's ticket. */
export const soporteOperadorGet = defineContract({
  subject: "billing.soporte.operador.get",
  request: z.object({ id: idSchema }).strict(),
  reply: soporteTicketSchema,
  errors: ["SOPORTE_NOT_FOUND"],
});

/**
 * `billing.soporte.operador.reply` (operator): the ticket becomes `respondido` and the reply is
 * e-mailed, in Spanish, to the user who opened it.
 */
export const soporteOperadorReply = defineContract({
  subject: "billing.soporte.operador.reply",
  request: z
    .object({ id: idSchema, mensaje: mensajeSchema, autor: z.literal("operador").optional() })
    .strict(),
  reply: soporteTicketSchema,
  errors: ["INVALID_FIELD", "SOPORTE_NOT_FOUND", "SOPORTE_CERRADO"],
});

/** `billing.soporte.close` (operator): closes any ticket; closing a closed one changes nothing. */
export const soporteClose = defineContract({
  subject: "billing.soporte.close",
  request: z.object({ id: idSchema }).strict(),
  reply: soporteTicketSchema,
  errors: ["SOPORTE_NOT_FOUND"],
});
