import type { Handler } from "@pasarela/bus";
import type { ticket } from "@pasarela/contracts";
import type { AccessTicketFlow } from "../flows/access-ticket.js";

/** `ticket.access.get`: the account's TA for one of its representadas, from the flow. */
export function makeAccessGet(flow: AccessTicketFlow): Handler<typeof ticket.accessGet> {
  return (request, ctx) =>
    flow.accessTicket(
      { ...request, accountId: ctx.accountId },
      { deadline: ctx.deadline, logger: ctx.logger },
    );
}
