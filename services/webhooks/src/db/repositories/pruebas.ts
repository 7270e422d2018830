import { sql, type Kysely } from "kysely";
import type { PruebaPayload } from "../../domain/prueba.js";
import type { WebhooksDatabase } from "../database.js";

/** Test events: one delivery to one endpoint, queued beside the events' own. */
export function makePruebasRepository(db: Kysely<WebhooksDatabase>) {
  return {
    /**
     * One pending delivery of `payload` (event `eventId`) to the account's endpoint, due now,
     * in the same table and queue as every other delivery. Stored only while the endpoint is
     * active, in the statement that checks it: "inactive" when it is paused, undefined when
     * the account has no such endpoint.
     */
    async enqueue(
      accountId: string,
      endpointId: string,
      entregaId: string,
      eventId: string,
      payload: PruebaPayload,
    ): Promise<"queued" | "inactive" | undefined> {
      const body = JSON.stringify(payload);
      const inserted = await db
        .insertInto("entregas")
        .columns([
          "id",
          "account_id",
          "endpoint_id",
          "event_id",
          "tipo",
          "payload",
          "next_attempt_at",
        ])
        .expression((eb) =>
          eb
            .selectFrom("endpoints")
            .select([
              sql<string>`${entregaId}::uuid`.as("id"),
              "account_id",
              "id as endpoint_id",
              sql<string>`${eventId}`.as("event_id"),
              sql<string>`${payload.tipo}`.as("tipo"),
              // as text, so the driver cannot take the JSON for a string value and encode it again
              sql<unknown>`${body}::text::jsonb`.as("payload"),
              sql<Date>`now()`.as("next_attempt_at"),
            ])
            .where("account_id", "=", accountId)
            .where("id", "=", endpointId)
            .where("activo", "=", true),
        )
        .returning("id")
        .executeTakeFirst();
      if (inserted) return "queued";
      const endpoint = await db
        .selectFrom("endpoints")
        .select("activo")
        .where("account_id", "=", accountId)
        .where("id", "=", endpointId)
        .executeTakeFirst();
      return endpoint ? "inactive" : undefined;
    },
  };
}

export type PruebasRepository = ReturnType<typeof makePruebasRepository>;
