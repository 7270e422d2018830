import { randomUUID } from "node:crypto";
import { sql, type Kysely, type Selectable } from "kysely";
import { subscribes } from "../../domain/eventos.js";
import type { WebhookPayload } from "../../domain/payload.js";
import type { EntregasTable, EntregaStatus, WebhooksDatabase } from "../database.js";

export type EntregaRow = Selectable<EntregasTable>;

/** A delivery taken for an attempt, with the address it goes to. */
export interface ClaimedEntrega {
  readonly id: string;
  readonly accountId: string;
  readonly endpointId: string;
  readonly url: string;
  readonly payload: WebhookPayload;
  /** attempts made before this one */
  readonly attempts: number;
  readonly createdAt: Date;
  /** the lease this attempt holds: a re-queue meanwhile replaces it */
  readonly leasedUntil: Date;
}

/** How one attempt ended, and what follows it. */
export interface AttemptResult {
  readonly status: EntregaStatus;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly latencyMs: number | null;
  /** when the next attempt is due: a pending delivery only */
  readonly nextAttemptAt: Date | null;
}

/** A keyset position in an endpoint's deliveries: newest first, ties broken by id. */
export interface EntregaPosition {
  readonly createdAt: string;
  readonly id: string;
}

/** The deliveries of every endpoint: both the work to do and its log. */
export function makeEntregasRepository(db: Kysely<WebhooksDatabase>) {
  return {
    /**
     * One pending delivery of `payload` to each active endpoint of the account subscribed to
     * its kind, due now. A pair already stored (a redelivered event) is left alone. Answers
     * how many were created.
     */
    async enqueue(accountId: string, eventId: string, payload: WebhookPayload): Promise<number> {
      const endpoints = await db
        .selectFrom("endpoints")
        .select(["id", "eventos"])
        .where("account_id", "=", accountId)
        .where("activo", "=", true)
        .execute();
      const targets = endpoints.filter((e) => subscribes(e.eventos, payload.tipo));
      if (targets.length === 0) return 0;
      const body = JSON.stringify(payload);
      const created = await db
        .insertInto("entregas")
        .values(
          targets.map((endpoint) => ({
            id: randomUUID(),
            account_id: accountId,
            endpoint_id: endpoint.id,
            event_id: eventId,
            tipo: payload.tipo,
            // as text, so the driver cannot take the JSON for a string value and encode it again
            payload: sql`${body}::text::jsonb`,
            next_attempt_at: sql<Date>`now()`,
          })),
        )
        .onConflict((oc) => oc.columns(["endpoint_id", "event_id"]).doNothing())
        .returning("id")
        .execute();
      return created.length;
    },

    /**
     * Takes up to `max` due deliveries of active endpoints, at most one per endpoint and none
     * of `busy` (endpoints this process is already calling), so one slow endpoint holds one
     * slot only. Each is leased until `leaseMs` from now: another instance does not take it
     * meanwhile, and a crash mid-attempt leaves it due again once the lease ends.
     */
    async claim(max: number, busy: readonly string[], leaseMs: number): Promise<ClaimedEntrega[]> {
      if (max <= 0) return [];
      return db.transaction().execute(async (trx) => {
        let query = trx
          .selectFrom("entregas")
          .innerJoin("endpoints", "endpoints.id", "entregas.endpoint_id")
          .select([
            "entregas.id",
            "entregas.account_id",
            "entregas.endpoint_id",
            "endpoints.url",
            "entregas.payload",
            "entregas.attempts",
            "entregas.created_at",
          ])
          .where("entregas.status", "=", "pending")
          .where("entregas.next_attempt_at", "<=", sql<Date>`now()`)
          .where("endpoints.activo", "=", true)
          .orderBy("entregas.next_attempt_at")
          .limit(max * 8)
          .forUpdate("entregas")
          .skipLocked();
        if (busy.length > 0) query = query.where("entregas.endpoint_id", "not in", [...busy]);
        const due = await query.execute();
        const seen = new Set<string>();
        const chosen = due.filter((row) => {
          if (seen.has(row.endpoint_id) || seen.size >= max) return false;
          seen.add(row.endpoint_id);
          return true;
        });
        if (chosen.length === 0) return [];
        // whole milliseconds, so the lease compares equal when the attempt is recorded
        const leasedUntil = new Date(Date.now() + leaseMs);
        await trx
          .updateTable("entregas")
          .set({
            next_attempt_at: leasedUntil,
            updated_at: sql<Date>`now()`,
          })
          .where(
            "id",
            "in",
            chosen.map((row) => row.id),
          )
          .execute();
        return chosen.map((row) => ({
          id: row.id,
          accountId: row.account_id,
          endpointId: row.endpoint_id,
          url: row.url,
          payload: row.payload as WebhookPayload,
          attempts: row.attempts,
          createdAt: row.created_at,
          leasedUntil,
        }));
      });
    },

    /**
     * Records an attempt: one more counted, its outcome, and when the next one is due. When
     * the delivery was re-queued while the attempt ran, it stays due as re-queued: only the
     * attempt is counted.
     */
    async finish(
      entrega: Pick<ClaimedEntrega, "id" | "leasedUntil">,
      result: AttemptResult,
    ): Promise<void> {
      const last = {
        last_status_code: result.statusCode,
        last_error: result.error,
        latency_ms: result.latencyMs,
        updated_at: sql<Date>`now()`,
      };
      const held = await db
        .updateTable("entregas")
        .set((eb) => ({
          ...last,
          attempts: eb("attempts", "+", 1),
          status: result.status,
          next_attempt_at: result.nextAttemptAt,
        }))
        .where("id", "=", entrega.id)
        .where("next_attempt_at", "=", entrega.leasedUntil)
        .executeTakeFirst();
      if (held.numUpdatedRows > 0n) return;
      await db
        .updateTable("entregas")
        .set((eb) => ({ ...last, attempts: eb("attempts", "+", 1) }))
        .where("id", "=", entrega.id)
        .execute();
    },

    /** An endpoint's deliveries, newest first, `limit + 1` to tell whether more follow. */
    async list(
      accountId: string,
      endpointId: string,
      limit: number,
      after: EntregaPosition | undefined,
    ): Promise<EntregaRow[]> {
      let query = db
        .selectFrom("entregas")
        .selectAll()
        .where("account_id", "=", accountId)
        .where("endpoint_id", "=", endpointId)
        // compared at the cursor's precision (ms), so rows in the same millisecond are not lost
        .orderBy(sql`date_trunc('milliseconds', created_at)`, "desc")
        .orderBy("id", "desc")
        .limit(limit + 1);
      if (after) {
        query = query.where((eb) =>
          eb(
            eb.tuple(sql<Date>`date_trunc('milliseconds', created_at)`, eb.ref("id")),
            "<",
            eb.tuple(new Date(after.createdAt), after.id),
          ),
        );
      }
      return query.execute();
    },

    /**
     * Makes a delivery of the account's endpoint due now, whatever its state: it is sent
     * again with the same payload and id. Undefined when there is no such delivery.
     */
    async requeue(
      accountId: string,
      endpointId: string,
      id: string,
    ): Promise<EntregaRow | undefined> {
      return db
        .updateTable("entregas")
        .set({
          status: "pending",
          next_attempt_at: sql<Date>`now()`,
          updated_at: sql<Date>`now()`,
        })
        .where("account_id", "=", accountId)
        .where("endpoint_id", "=", endpointId)
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst();
    },
  };
}

export type EntregasRepository = ReturnType<typeof makeEntregasRepository>;
