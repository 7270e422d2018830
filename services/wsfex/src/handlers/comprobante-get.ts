import type { AccountContext, Bus, Handler } from "@pasarela/bus";
import { wsfe, type wsfex } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import type { WsfexAdapter } from "@pasarela/authority";

type EmailRecord = NonNullable<wsfe.EmailGetReply["email"]>;

/**
 * The e-mail record wsfe keeps for the voucher. It decorates the authority's answer and never
 * decides it: a wsfe that does not answer (or answers an error) leaves the lookup without
 * `email` and a warning in the log, rather than failing a voucher the authority just found.
 */
async function emailRecordOf(
  bus: Pick<Bus, "request">,
  key: wsfe.EmailGetRequest,
  ctx: AccountContext,
): Promise<EmailRecord | null> {
  try {
    const found = await bus.request(wsfe.emailGet, key, {
      accountId: ctx.accountId,
      requestId: ctx.requestId,
      deadline: ctx.deadline,
    });
    if (found.ok) return found.value.email;
    ctx.logger.warn({ code: found.error.code }, "e-mail record unavailable: answering without it");
  } catch (error) {
    ctx.logger.warn({ err: error }, "e-mail record unavailable: answering without it");
  }
  return null;
}

/**
 * `wsfex.comprobante.get`: FEXGetCMP and the voucher's e-mail record asked at once, so the
 * record costs no time beyond the authority's; `email` only when the authority found the
 * voucher and a record exists, as on the domestic lookup.
 */
export function makeComprobanteGet(deps: {
  wsfex: WsfexAdapter;
  bus: Pick<Bus, "request">;
}): Handler<typeof wsfex.comprobanteGet> {
  return async ({ environment, representada, ptoVta, cbteTipo, cbteNro }, ctx) => {
    const [found, email] = await Promise.all([
      deps.wsfex.comprobante(
        { accountId: ctx.accountId, cuit: representada, environment, deadline: ctx.deadline },
        { ptoVta, cbteTipo, cbteNro },
      ),
      emailRecordOf(deps.bus, { environment, representada, ptoVta, cbteTipo, cbteNro }, ctx),
    ]);
    if (!found.ok) return found;
    if (!found.value) return ok({ found: false as const, comprobante: null });
    return ok({
      found: true as const,
      comprobante: { FEXGetCMPResult: found.value },
      ...(email ? { email } : {}),
    });
  };
}
