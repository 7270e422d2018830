import { sql, type Insertable, type Kysely, type Selectable } from "kysely";
import type { BillingDatabase, UsageRecordsTable } from "../database.js";
import type { UsageCursor } from "../../domain/cursor.js";

export type UsageRow = Selectable<UsageRecordsTable>;

export interface UsageFilter {
  from?: Date | undefined;
  to?: Date | undefined;
  route?: string | undefined;
  status?: number | undefined;
  environment?: string | undefined;
}

/** Every column of the history, in the order a row is written. */
const USAGE_COLUMNS = [
  "id",
  "account_id",
  "key_id",
  "at",
  "method",
  "route",
  "environment",
  "representada",
  "status",
  "code",
  "latency_ms",
  "quota_consumed",
] as const satisfies readonly (keyof UsageRecordsTable)[];

/** The per-call usage history. */
export function makeUsageRepository(db: Kysely<BillingDatabase>) {
  return {
    /**
     * One statement per batch; a record delivered again is ignored by its id. The rows travel
     * as one JSON parameter that PostgreSQL unpacks (`json_populate_recordset`), not as twelve
     * bound parameters per row: a third of the client's CPU per row, and no parameter limit.
     */
    async insertMany(rows: readonly Insertable<UsageRecordsTable>[]): Promise<void> {
      if (rows.length === 0) return;
      const columns = sql.join(USAGE_COLUMNS.map((column) => sql.ref(column)));
      await sql`insert into usage_records (${columns})
        select ${columns} from json_populate_recordset(null::usage_records, ${JSON.stringify(rows)}::text::json)
        on conflict (id) do nothing`.execute(db);
    },
    /** Newest first, after `cursor`; one more row than `limit` tells whether a page follows. */
    async list(
      accountId: string,
      filter: UsageFilter,
      limit: number,
      cursor: UsageCursor | undefined,
    ): Promise<UsageRow[]> {
      let query = db.selectFrom("usage_records").selectAll().where("account_id", "=", accountId);
      if (filter.from) query = query.where("at", ">=", filter.from);
      if (filter.to) query = query.where("at", "<", filter.to);
      if (filter.route) query = query.where("route", "=", filter.route);
      if (filter.status !== undefined) query = query.where("status", "=", filter.status);
      if (filter.environment) query = query.where("environment", "=", filter.environment);
      if (cursor) {
        query = query.where((eb) =>
          eb(eb.refTuple("at", "id"), "<", eb.tuple(new Date(cursor.at), cursor.id)),
        );
      }
      return query
        .orderBy("at", "desc")
        .orderBy("id", "desc")
        .limit(limit + 1)
        .execute();
    },
    /** Calls per day (in Argentina) and status between `from` and `to`. */
    async perDay(
      accountId: string,
      from: Date,
      to: Date,
    ): Promise<{ fecha: string; status: number; n: number }[]> {
      const fecha = sql<string>`to_char(at at time zone 'America/Argentina/Buenos_Aires', 'YYYY-MM-DD')`;
      const rows = await db
        .selectFrom("usage_records")
        .select([fecha.as("fecha"), "status", (eb) => eb.fn.countAll<string>().as("n")])
        .where("account_id", "=", accountId)
        .where("at", ">=", from)
        .where("at", "<", to)
        .groupBy([fecha, "status"])
        .orderBy("fecha")
        .orderBy("status")
        .execute();
      return rows.map((r) => ({ fecha: r.fecha, status: r.status, n: Number(r.n) }));
    },
    /** Retention: history older than `before` is deleted. */
    async deleteBefore(before: Date): Promise<number> {
      const deleted = await db
        .deleteFrom("usage_records")
        .where("at", "<", before)
        .executeTakeFirst();
      return Number(deleted.numDeletedRows);
    },
  };
}

export type UsageRepository = ReturnType<typeof makeUsageRepository>;
