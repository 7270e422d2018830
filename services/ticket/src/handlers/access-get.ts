import type { Handler } from "@pasarela/bus";
import type { ticket } from "@pasarela/contracts";
import { appError, fail } from "@pasarela/errors";
import type { AccessTicketFlow } from "../flows/access-ticket.js";

/** `ticket.access.get`: the account's TA for one of its representadas, from the flow. */
export function makeAccessGet(flow: AccessTicketFlow): Handler<typeof ticket.accessGet> {
  return async (request, ctx) => {
    if (!ctx.accountId) return fail(appError("REPRESENTADA_NOT_FOUND"));
    return flow.accessTicket(
      { ...request, accountId: ctx.accountId },
      { deadline: ctx.deadline, logger: ctx.logger },
    );
  };
}
