import { randomUUID } from "node:crypto";
import { enqueueJob, type Bus, type Handler } from "@pasarela/bus";
import { catalog, mail, type wsfe } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { ComprobantesEmailRepository } from "../db/repositories/comprobantes-email.js";
import type { ComprobanteKey } from "../domain/comprobante.js";

type Emails = Pick<ComprobantesEmailRepository, "findVoucher" | "find" | "save" | "settle">;

/**
 * The recipient when the request names none (issue 15): the receiver customer's e-mail, else
 * the issuance's `email`. A customer deleted since issuance simply has no e-mail any more.
 */
async function defaultRecipient(
  bus: Pick<Bus, "request">,
  voucher: { clienteId: string | null; emailTo: string | null },
  options: { accountId: string; requestId: string; deadline: number | undefined },
): Promise<string | null> {
  if (voucher.clienteId !== null) {
    const cliente = await bus.request(catalog.clienteGet, { id: voucher.clienteId }, options);
    if (cliente.ok && cliente.value.email) return cliente.value.email;
    if (!cliente.ok && cliente.error.code !== "CLIENTE_NOT_FOUND") {
      throw new Error(`catalog.cliente.get failed: ${cliente.error.code}`);
    }
  }
  return voucher.emailTo;
}

/**
 * `wsfe.email.send`: the `pending` record is stored before the job is queued, so the lookup
 * shows the e-mail as soon as the caller has its 202; a job lost before queueing leaves it
 * pending and a new request sends it again.
 */
export function makeEmailSend(deps: { emails: Emails; bus: Bus }): Handler<typeof wsfe.emailSend> {
  return async (request, ctx) => {
    const accountId = ctx.accountId;
    if (!accountId) return fail(appError("COMPROBANTE_NOT_FOUND"));
    const key: ComprobanteKey = {
      accountId,
      environment: request.environment,
      cuit: request.representada,
      ptoVta: request.ptoVta,
      cbteTipo: request.cbteTipo,
      cbteNro: request.cbteNro,
    };
    const voucher = await deps.emails.findVoucher(key);
    if (!voucher) return fail(appError("COMPROBANTE_NOT_FOUND"));
    if (!voucher.authorized) return fail(appError("COMPROBANTE_NO_AUTORIZADO"));

    let to: string | null;
    let jobId: string;
    if (request.emision === true) {
      // the automatic send: the record issuance created, once (the voucher's id de-duplicates)
      const record = await deps.emails.find(key);
      if (!record || record.status !== "pending") return fail(appError("EMAIL_RECIPIENT_MISSING"));
      to = record.to;
      jobId = voucher.id;
    } else {
      to =
        request.to ??
        (await defaultRecipient(deps.bus, voucher, {
          accountId,
          requestId: ctx.requestId,
          deadline: ctx.deadline,
        }));
      if (to === null) return fail(appError("EMAIL_RECIPIENT_MISSING"));
      jobId = randomUUID();
      await deps.emails.save(key, { to, status: "pending", error: null });
    }
    await enqueueJob(deps.bus, mail.comprobanteJob, {
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
    if (!ctx.accountId) return ok({ updated: false });
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
