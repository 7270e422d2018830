import { randomUUID } from "node:crypto";
import type { Handler } from "@pasarela/bus";
import type { billing } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type {
  SoporteRepository,
  TicketRow,
  TicketWithMessages,
} from "../db/repositories/soporte.js";
import type { UsersRepository } from "../db/repositories/users.js";
import { soporteReplyMessage, type SendMessage } from "../domain/messages.js";

export interface SoporteDeps {
  soporte: SoporteRepository;
  users: UsersRepository;
  now: () => Date;
  sendMessage: SendMessage;
}

const resumen = (row: TicketRow): billing.SoporteResumen => ({
  id: row.id,
  accountId: row.account_id,
  userId: row.user_id,
  asunto: row.asunto,
  estado: row.estado,
  requestId: row.request_id,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

const ticketOf = ({ ticket, messages }: TicketWithMessages): billing.SoporteTicket => ({
  ...resumen(ticket),
  messages: messages.map((m) => ({ autor: m.autor, mensaje: m.mensaje, at: m.at.toISOString() })),
});

// The customer's subjects: the account comes from the request (the edge sends the session's),
// and another account's ticket answers as one that does not exist.

export function makeSoporteCreate(deps: SoporteDeps): Handler<typeof billing.soporteCreate> {
  return async ({ userId, asunto, mensaje, requestId }, ctx) => {
    const accountId = ctx.accountId;
    const user = await deps.users.findById(userId);
    if (!user || user.account_id !== accountId) return fail(appError("USER_NOT_FOUND"));
    const created = await deps.soporte.create(
      {
        id: randomUUID(),
        account_id: accountId,
        user_id: userId,
        asunto,
        request_id: requestId ?? null,
        created_at: deps.now(),
      },
      mensaje,
    );
    ctx.logger.info({ ticketId: created.ticket.id }, "support ticket opened");
    return ok(ticketOf(created));
  };
}

export function makeSoporteList(deps: SoporteDeps): Handler<typeof billing.soporteList> {
  return async (_request, ctx) => {
    const rows = await deps.soporte.listByAccount(ctx.accountId);
    return ok({ tickets: rows.map(resumen) });
  };
}

export function makeSoporteGet(deps: SoporteDeps): Handler<typeof billing.soporteGet> {
  return async ({ id }, ctx) => {
    const found = await deps.soporte.get(id, { accountId: ctx.accountId });
    return found ? ok(ticketOf(found)) : fail(appError("SOPORTE_NOT_FOUND"));
  };
}

export function makeSoporteReply(deps: SoporteDeps): Handler<typeof billing.soporteReply> {
  return async ({ id, mensaje }, ctx) => {
    const replied = await deps.soporte.reply(
      id,
      { accountId: ctx.accountId },
      { autor: "cliente", mensaje, at: deps.now() },
    );
    if (replied === undefined) return fail(appError("SOPORTE_NOT_FOUND"));
    if (replied === "cerrado") return fail(appError("SOPORTE_CERRADO"));
    ctx.logger.info({ ticketId: id }, "support ticket answered by the customer");
    return ok(ticketOf(replied));
  };
}

// The operator's subjects (the CLI): every account's tickets.

export function makeSoporteOperadorList(
  deps: SoporteDeps,
): Handler<typeof billing.soporteOperadorList> {
  return async ({ todos }) => {
    const rows = await deps.soporte.listForOperator(todos);
    return ok({ tickets: rows.map(resumen) });
  };
}

export function makeSoporteOperadorGet(
  deps: SoporteDeps,
): Handler<typeof billing.soporteOperadorGet> {
  return async ({ id }) => {
    const found = await deps.soporte.get(id, "operador");
    return found ? ok(ticketOf(found)) : fail(appError("SOPORTE_NOT_FOUND"));
  };
}

/** The reply is e-mailed to the ticket's author; if it cannot be queued, nothing is stored. */
export function makeSoporteOperadorReply(
  deps: SoporteDeps,
): Handler<typeof billing.soporteOperadorReply> {
  return async ({ id, mensaje }, ctx) => {
    const replied = await deps.soporte.reply(
      id,
      "operador",
      { autor: "operador", mensaje, at: deps.now() },
      async (ticket) => {
        const author = await deps.users.findById(ticket.user_id);
        if (!author) return;
        await deps.sendMessage(
          soporteReplyMessage({
            to: author.email,
            name: author.name,
            asunto: ticket.asunto,
            mensaje,
          }),
        );
      },
    );
    if (replied === undefined) return fail(appError("SOPORTE_NOT_FOUND"));
    if (replied === "cerrado") return fail(appError("SOPORTE_CERRADO"));
    ctx.logger.info({ ticketId: id }, "support ticket answered by the operator");
    return ok(ticketOf(replied));
  };
}

export function makeSoporteClose(deps: SoporteDeps): Handler<typeof billing.soporteClose> {
  return async ({ id }, ctx) => {
    const closed = await deps.soporte.close(id, deps.now());
    if (!closed) return fail(appError("SOPORTE_NOT_FOUND"));
    ctx.logger.info({ ticketId: id }, "support ticket closed");
    return ok(ticketOf(closed));
  };
}
