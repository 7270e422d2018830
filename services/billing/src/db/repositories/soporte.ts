import type { Kysely, Selectable, Transaction } from "kysely";
import type { BillingDatabase, SoporteMensajesTable, SoporteTicketsTable } from "../database.js";

export type TicketRow = Selectable<SoporteTicketsTable>;
export type MensajeRow = Selectable<SoporteMensajesTable>;
export type Estado = TicketRow["estado"];
export type Autor = MensajeRow["autor"];

export interface TicketWithMessages {
  ticket: TicketRow;
  messages: MensajeRow[];
}

/** Whose tickets a lookup may see: one account's, or every account's (the operator). */
export type Scope = { readonly accountId: string } | "operador";

async function load(
  db: Kysely<BillingDatabase> | Transaction<BillingDatabase>,
  id: string,
  scope: Scope,
  lock = false,
): Promise<TicketWithMessages | undefined> {
  let query = db.selectFrom("soporte_tickets").selectAll().where("id", "=", id);
  if (scope !== "operador") query = query.where("account_id", "=", scope.accountId);
  const ticket = await (lock ? query.forUpdate() : query).executeTakeFirst();
  if (!ticket) return undefined;
  const messages = await db
    .selectFrom("soporte_mensajes")
    .selectAll()
    .where("ticket_id", "=", id)
    .orderBy("id")
    .execute();
  return { ticket, messages };
}

export function makeSoporteRepository(db: Kysely<BillingDatabase>) {
  return {
    async create(
      ticket: Omit<TicketRow, "estado" | "updated_at">,
      mensaje: string,
    ): Promise<TicketWithMessages> {
      return db.transaction().execute(async (trx) => {
        await trx
          .insertInto("soporte_tickets")
          .values({ ...ticket, estado: "abierto", updated_at: ticket.created_at })
          .execute();
        await trx
          .insertInto("soporte_mensajes")
          .values({ ticket_id: ticket.id, autor: "cliente", mensaje, at: ticket.created_at })
          .execute();
        return (await load(trx, ticket.id, "operador"))!;
      });
    },
    get: (id: string, scope: Scope) => load(db, id, scope),
    async listByAccount(accountId: string): Promise<TicketRow[]> {
      return db
        .selectFrom("soporte_tickets")
        .selectAll()
        .where("account_id", "=", accountId)
        .orderBy("updated_at", "desc")
        .orderBy("id")
        .execute();
    },
    /** The operator's queue: open tickets (or all), the longest waiting first. */
    async listForOperator(todos: boolean): Promise<TicketRow[]> {
      let query = db.selectFrom("soporte_tickets").selectAll();
      if (!todos) query = query.where("estado", "!=", "cerrado");
      return query.orderBy("updated_at").orderBy("id").execute();
    },
    /**
     * Adds a message and moves the ticket to `estado`, under a row lock; "cerrado" when the
     * ticket takes no replies, undefined when the scope does not see it. `then` runs inside
     * the transaction (queueing the e-mail): if it fails, nothing is stored.
     */
    async reply(
      id: string,
      scope: Scope,
      message: { autor: Autor; mensaje: string; at: Date },
      then?: (ticket: TicketRow) => Promise<void>,
    ): Promise<TicketWithMessages | "cerrado" | undefined> {
      return db.transaction().execute(async (trx) => {
        const current = await load(trx, id, scope, true);
        if (!current) return undefined;
        if (current.ticket.estado === "cerrado") return "cerrado";
        // the thread as read (under the lock) plus what this writes: no second read
        const added = await trx
          .insertInto("soporte_mensajes")
          .values({ ticket_id: id, ...message })
          .returningAll()
          .executeTakeFirstOrThrow();
        const estado: Estado = message.autor === "operador" ? "respondido" : "abierto";
        const ticket = await trx
          .updateTable("soporte_tickets")
          .set({ estado, updated_at: message.at })
          .where("id", "=", id)
          .returningAll()
          .executeTakeFirstOrThrow();
        const updated = { ticket, messages: [...current.messages, added] };
        if (then) await then(updated.ticket);
        return updated;
      });
    },
    /** Closes a ticket; one already closed keeps its time. */
    async close(id: string, at: Date): Promise<TicketWithMessages | undefined> {
      await db
        .updateTable("soporte_tickets")
        .set({ estado: "cerrado", updated_at: at })
        .where("id", "=", id)
        .where("estado", "!=", "cerrado")
        .execute();
      return load(db, id, "operador");
    },
  };
}

export type SoporteRepository = ReturnType<typeof makeSoporteRepository>;
