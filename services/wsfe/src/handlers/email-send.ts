import { randomUUID } from "node:crypto";
import type { Bus, Handler } from "@pasarela/bus";
import { catalog, mail, type wsfe } from "@pasarela/contracts";
import { appError, fail, kindOf, ok, type Result } from "@pasarela/errors";
import type { ComprobantesEmailRepository } from "../db/repositories/comprobantes-email.js";
import type { ComprobantesRepository, StoredComprobante } from "../db/repositories/comprobantes.js";
import type { ComprobanteKey } from "../domain/comprobante.js";

type Emails = Pick<ComprobantesEmailRepository, "find" | "save" | "settle">;

/** The receiver as a stored customer, when the voucher was issued with `clienteId`. */
function clienteIdOf(stored: StoredComprobante): string | null {
  const receptor = (stored.request as { receptor?: { clienteId?: unknown } } | null)?.receptor;
  return typeof receptor?.clienteId === "string" ? receptor.clienteId : null;
}

/**
 * The recipient when the request names none: the receiver customer's e-mail, else
 * the issuance's `email`. A customer deleted since issuance simply has no e-mail any more; a
 * catalog that does not answer is the gateway's momentary outage, answered as such.
 */
async function defaultRecipient(
  bus: Pick<Bus, "request">,
  voucher: StoredComprobante,
  options: { accountId: string; requestId: string; deadline: number | undefined },
): Promise<Result<string | null>> {
  const clienteId = clienteIdOf(voucher);
  if (clienteId !== null) {
    const cliente = await bus.request(catalog.clienteGet, { id: clienteId }, options);
    if (cliente.ok && cliente.value.email) return ok(cliente.value.email);
    if (!cliente.ok && cliente.error.code !== "CLIENTE_NOT_FOUND") {
      return fail(
        kindOf(cliente.error.code) === "unavailable" ? cliente.error : appError("INTERNAL"),
      );
    }
  }
  return ok(voucher.emailTo);
}

/**
 * `wsfe.email.send`: the `pending` record is stored before the job is queued, so the lookup
 * shows the e-mail as soon as the caller has its 202; a job lost before queueing leaves it
 * pending and a new request sends it again.
 */
export function makeEmailSend(deps: {
  emails: Emails;
  comprobantes: Pick<ComprobantesRepository, "findIssued">;
  bus: Bus;
}): Handler<typeof wsfe.emailSend> {
  return async (request, ctx) => {
    const accountId = ctx.accountId;
    const key: ComprobanteKey = {
      accountId,
      environment: request.environment,
      cuit: request.representada,
      ptoVta: request.ptoVta,
      cbteTipo: request.cbteTipo,
      cbteNro: request.cbteNro,
    };
    // an authorized voucher wins over a rejected attempt on the same number
    const voucher = await deps.comprobantes.findIssued(accountId, key);
    if (!voucher) return fail(appError("COMPROBANTE_NOT_FOUND"));
    if (voucher.state !== "authorized") return fail(appError("COMPROBANTE_NO_AUTORIZADO"));

    let to: string | null;
    let jobId: string;
    if (request.emision === true) {
      // the automatic send: the record issuance created, once (the voucher's id de-duplicates)
      const record = await deps.emails.find(key);
      if (!record || record.status !== "pending") return fail(appError("EMAIL_RECIPIENT_MISSING"));
      to = record.to;
      jobId = voucher.id;
    } else {
      if (request.to !== undefined) {
        to = request.to;
      } else {
        const recipient = await defaultRecipient(deps.bus, voucher, {
          accountId,
          requestId: ctx.requestId,
          deadline: ctx.deadline,
        });
        if (!recipient.ok) return recipient;
        to = recipient.value;
      }
      if (to === null) return fail(appError("EMAIL_RECIPIENT_MISSING"));
      jobId = randomUUID();
      await deps.emails.save(key, { to, status: "pending", error: null });
    }
    await deps.bus.publish(mail.comprobanteJob, {
      id: jobId,
      accountId,
      environment: request.environment,
      representada: request.representada,
      ptoVta: request.ptoVta,
      cbteTipo: request.cbteTipo,
      cbteNro: request.cbteNro,
      to,
      cc: request.cc ?? [],
      ...(request.asunto !== undefined ? { asunto: request.asunto } : {}),
      ...(request.mensaje !== undefined ? { mensaje: request.mensaje } : {}),
      queuedAt: new Date().toISOString(),
    });
    return ok({ to, status: "pending" as const });
  };
}

/** `wsfe.email.update`: the mail service's report of how delivery ended. */
export function makeEmailUpdate(deps: { emails: Emails }): Handler<typeof wsfe.emailUpdate> {
  return async (request, ctx) => {
    const updated = await deps.emails.settle(
      {
        accountId: ctx.accountId,
        environment: request.environment,
        cuit: request.representada,
        ptoVta: request.ptoVta,
        cbteTipo: request.cbteTipo,
        cbteNro: request.cbteNro,
      },
      request.to,
      { status: request.status, error: request.error },
    );
    return ok({ updated });
  };
}
