import { sql, type Kysely, type Selectable } from "kysely";
import type { EmisionesTable, WsfeDatabase } from "../database.js";

export type EmisionRow = Selectable<EmisionesTable>;
export type EmisionFinal = Exclude<EmisionRow["estado"], "pendiente">;

/** An issuance taken for an attempt: the attempt holds it until `leasedUntil`. */
export interface ClaimedEmision extends EmisionRow {
  readonly leasedUntil: Date;
}

/** What a new asynchronous issuance is stored with. */
export interface NewEmision {
  readonly id: string;
  readonly accountId: string;
  readonly environment: EmisionRow["environment"];
  readonly tipo: EmisionRow["tipo"];
  readonly idempotencyKey: string | null;
  readonly llave: string;
  readonly fingerprint: string;
  readonly request: Record<string, unknown>;
  readonly admitted: boolean;
}

/** The asynchronous issuances: both the queue and what their lookups answer. */
export function makeEmisionesRepository(db: Kysely<WsfeDatabase>) {
  return {
    /** Stores a new issuance, due now; undefined when its key already names one. */
    async insert(emision: NewEmision): Promise<EmisionRow | undefined> {
      return db
        .insertInto("emisiones")
        .values({
          id: emision.id,
          account_id: emision.accountId,
          environment: emision.environment,
          tipo: emision.tipo,
          idempotency_key: emision.idempotencyKey,
          llave: emision.llave,
          fingerprint: emision.fingerprint,
          request: emision.request,
          admitted: emision.admitted,
          last_error: null,
          answer: null,
        })
        .onConflict((oc) => oc.columns(["account_id", "llave"]).doNothing())
        .returningAll()
        .executeTakeFirst();
    },

    async byLlave(accountId: string, llave: string): Promise<EmisionRow | undefined> {
      return db
        .selectFrom("emisiones")
        .selectAll()
        .where("account_id", "=", accountId)
        .where("llave", "=", llave)
        .executeTakeFirst();
    },

    async byId(accountId: string, id: string): Promise<EmisionRow | undefined> {
      return db
        .selectFrom("emisiones")
        .selectAll()
        .where("account_id", "=", accountId)
        .where("id", "=", id)
        .executeTakeFirst();
    },

    /**
     * The account's issuances of one environment, newest first, after the keyset position
     * `after` (the previous page's last row: `created_at` as exact text, and its id).
     */
    async list(filter: {
      readonly accountId: string;
      readonly environment: EmisionRow["environment"];
      readonly estado?: EmisionRow["estado"] | undefined;
      readonly after?: { readonly createdAt: string; readonly id: string } | undefined;
      readonly limit: number;
    }): Promise<(EmisionRow & { created_at_key: string })[]> {
      let query = db
        .selectFrom("emisiones")
        .selectAll()
        .select(
          sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as(
            "created_at_key",
          ),
        )
        .where("account_id", "=", filter.accountId)
        .where("environment", "=", filter.environment);
      if (filter.estado !== undefined) query = query.where("estado", "=", filter.estado);
      if (filter.after) {
        const { createdAt, id } = filter.after;
        query = query.where(
          sql<boolean>`(created_at, id) < (${createdAt}::timestamptz, ${id}::uuid)`,
        );
      }
      return query
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(filter.limit)
        .execute();
    },

    /**
     * Takes up to `max` due issuances, oldest first, each leased for `leaseMs`: another
     * instance does not take it meanwhile, and a crash mid-attempt leaves it due again once the
     * lease ends. The attempt is counted as it is taken.
     */
    async claim(max: number, leaseMs: number): Promise<ClaimedEmision[]> {
      if (max <= 0) return [];
      return db.transaction().execute(async (trx) => {
        const due = await trx
          .selectFrom("emisiones")
          .select("id")
          .where("estado", "=", "pendiente")
          .where("next_attempt_at", "<=", sql<Date>`now()`)
          .orderBy("next_attempt_at")
          .limit(max)
          .forUpdate()
          .skipLocked()
          .execute();
        if (due.length === 0) return [];
        // whole milliseconds, so the lease compares equal when the attempt is recorded
        const leasedUntil = new Date(Date.now() + leaseMs);
        const rows = await trx
          .updateTable("emisiones")
          .set({
            next_attempt_at: leasedUntil,
            intentos: sql<number>`intentos + 1`,
            updated_at: sql<Date>`now()`,
          })
          .where(
            "id",
            "in",
            due.map((row) => row.id),
          )
          .returningAll()
          .execute();
        return rows.map((row) => ({ ...row, leasedUntil }));
      });
    },

    /** Ends an issuance, while the attempt still holds it; false when it no longer did. */
    async finish(
      emision: Pick<ClaimedEmision, "id" | "leasedUntil">,
      estado: EmisionFinal,
      answer: Record<string, unknown>,
    ): Promise<boolean> {
      const done = await db
        .updateTable("emisiones")
        .set({ estado, answer, updated_at: sql<Date>`now()`, finished_at: sql<Date>`now()` })
        .where("id", "=", emision.id)
        .where("estado", "=", "pendiente")
        .where("next_attempt_at", "=", emision.leasedUntil)
        .executeTakeFirst();
      return done.numUpdatedRows > 0n;
    },

    /** Leaves an issuance pending, due again at `at`, with what its last attempt met. */
    async retryAt(
      emision: Pick<ClaimedEmision, "id" | "leasedUntil">,
      at: Date,
      lastError: Record<string, unknown>,
    ): Promise<void> {
      await db
        .updateTable("emisiones")
        .set({ next_attempt_at: at, last_error: lastError, updated_at: sql<Date>`now()` })
        .where("id", "=", emision.id)
        .where("estado", "=", "pendiente")
        .where("next_attempt_at", "=", emision.leasedUntil)
        .execute();
    },
  };
}

export type EmisionesRepository = ReturnType<typeof makeEmisionesRepository>;
