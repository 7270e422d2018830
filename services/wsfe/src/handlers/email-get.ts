import type { Handler } from "@pasarela/bus";
import type { wsfe } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import type { ComprobantesEmailRepository } from "../db/repositories/comprobantes-email.js";

/**
 * `wsfe.email.get`: the voucher's e-mail record for the export lookup, which has no store of
 * its own. The account is part of the key, so another account's record is simply not found.
 */
export function makeEmailGet(deps: {
  emails: Pick<ComprobantesEmailRepository, "find">;
}): Handler<typeof wsfe.emailGet> {
  return async (request, ctx) => {
    const record = await deps.emails.find({
      accountId: ctx.accountId,
      environment: request.environment,
      cuit: request.representada,
      ptoVta: request.ptoVta,
      cbteTipo: request.cbteTipo,
      cbteNro: request.cbteNro,
    });
    return ok({
      email: record ? { to: record.to, status: record.status, error: record.error } : null,
    });
  };
}
