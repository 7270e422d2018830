import { z } from "zod";
import { defineEvent } from "../contract.js";
import { issuedHttpReplySchema, issuedReplySchema } from "./issued-reply.js";
import { answeredErrorSchema } from "./issuance-events.js";
import {
  environmentSchema,
  idSchema,
  isoDateTimeSchema,
  representadaSchema,
} from "../common/fields.js";

/** An observation, error or event of the authority, as it answered it. */
export const authorityNoteSchema = z.object({ code: z.number().int(), msg: z.string() });

/** Exact decimal text with two decimals, as the voucher was sent: never a binary float. */
const amountSchema = z.string().regex(/^-?\d+\.\d{2}$/);

/**
 * What every outcome event of a voucher says: whose it is, which series and number, the
 * totals exactly as sent, and the request that issued it. `id` is stable per voucher and
 * outcome and is also the JetStream msgID, so a republished event is dropped by the server
 * and consumers de-duplicate by it.
 */
const outcomeFields = {
  id: z.string(),
  version: z.literal(1),
  comprobanteId: idSchema,
  accountId: idSchema,
  environment: environmentSchema,
  representada: representadaSchema,
  ptoVta: z.number().int(),
  cbteTipo: z.number().int(),
  cbteNro: z.number().int(),
  cbteFch: z.string(),
  totales: z.object({
    impTotal: amountSchema,
    impNeto: amountSchema,
    impIVA: amountSchema,
    impTrib: amountSchema,
    impTotConc: amountSchema,
    impOpEx: amountSchema,
  }),
  moneda: z.object({ id: z.string(), cotizacion: z.string() }),
  requestId: z.string(),
  idempotencyKey: z.string().nullable(),
  occurredAt: isoDateTimeSchema,
};

/** `evt.wsfe.comprobante.autorizado`: the authority granted a CAE; published once stored. */
export const comprobanteAutorizado = defineEvent({
  subject: "evt.wsfe.comprobante.autorizado",
  version: 1,
  schema: z.object({
    ...outcomeFields,
    cae: z.string(),
    caeVencimiento: z.string(),
    /** CAEA: issued in contingency under the fortnight's CAEA (in `cae`), informed later */
    tipoAutorizacion: z.enum(["CAE", "CAEA"]).optional(),
    observaciones: z.array(authorityNoteSchema),
    /**
     * what `wsfe.factura.issue` answers for this voucher, so an Idempotency-Key whose caller
     * never got the answer (a crash, a 502 later reconciled) replays it; absent when the
     * stored request cannot rebuild it
     */
    reply: issuedReplySchema.optional(),
    /**
     * the 200 body the issuance answers for it, PDF link included: what its Idempotency-Key
     * replays, byte for byte; absent when the stored request cannot rebuild it
     */
    answer: issuedHttpReplySchema.optional(),
  }),
});

/** `evt.wsfe.comprobante.rechazado`: the authority answered Resultado R; published once stored. */
export const comprobanteRechazado = defineEvent({
  subject: "evt.wsfe.comprobante.rechazado",
  version: 1,
  schema: z.object({
    ...outcomeFields,
    observaciones: z.array(authorityNoteSchema),
    errores: z.array(authorityNoteSchema),
    /** the error the issuance answered (the 422), as the Idempotency-Key replays it */
    answer: answeredErrorSchema.optional(),
  }),
});

/**
 * `evt.wsfe.comprobante.no_emitido`: a voucher whose caller got no final answer (502, outcome
 * unknown) was settled by reconciliation without a CAE of its own: `no_emitido` when the
 * authority never used its number (the key may issue again), `conflicto` when another voucher,
 * issued outside the gateway, holds the number (its CAE is never adopted).
 */
export const comprobanteNoEmitido = defineEvent({
  subject: "evt.wsfe.comprobante.no_emitido",
  version: 1,
  schema: z.object({
    ...outcomeFields,
    motivo: z.enum(["no_emitido", "conflicto"]),
  }),
});

/**
 * `evt.wsfe.comprobante.caea_informado`: a voucher issued in contingency under a CAEA was
 * informed (FECAEARegInformativo) and accepted; published once stored.
 */
export const comprobanteCaeaInformado = defineEvent({
  subject: "evt.wsfe.comprobante.caea_informado",
  version: 1,
  schema: z.object({
    ...outcomeFields,
    caea: z.string(),
    observaciones: z.array(authorityNoteSchema),
    informadoAt: isoDateTimeSchema,
  }),
});

/**
 * `evt.wsfe.comprobante.caea_rechazado`: the authority refused a contingency voucher at
 * informing. The customer already holds it: the account must act (a credit note, a
 * replacement); the authority's codes say why.
 */
export const comprobanteCaeaRechazado = defineEvent({
  subject: "evt.wsfe.comprobante.caea_rechazado",
  version: 1,
  schema: z.object({
    ...outcomeFields,
    caea: z.string(),
    observaciones: z.array(authorityNoteSchema),
    errores: z.array(authorityNoteSchema),
  }),
});

/** The event id of a voucher's outcome: one per voucher and outcome. */
export const comprobanteEventId = (
  comprobanteId: string,
  outcome: "autorizado" | "rechazado" | "no_emitido" | "caea_informado" | "caea_rechazado",
) => `wsfe.comprobante.${outcome}.${comprobanteId}`;
