import { appError, type AppError } from "@pasarela/errors";
import { Kysely, Migrator, sql, type Migration, type MigrationResultSet } from "kysely";
import { PostgresJSDialect } from "kysely-postgres-js";
import postgres from "postgres";
import { INCOMPLETE_RESULT } from "./incomplete-result.js";
import { instrumentedDialect } from "./dialect.js";

export interface DatabaseSettings {
  url: string;
  /** the owning service's schema: its tables live there and nowhere else */
  schema: string;
  poolSize?: number;
}

export interface Database<DB> {
  db: Kysely<DB>;
  /** true when the database answers a trivial query */
  ping(): Promise<boolean>;
  /**
   * Closes the pool once its queries end, and within `timeoutMs` (2 s by default) in any case:
   * the connections still open then are closed, their queries failing.
   */
  close(timeoutMs?: number): Promise<void>;
}

/**
 * A connection unused this long is closed: a pool that a burst grew gives its connections back,
 * so the services of one process (eight pools) hold few while idle.
 */
const IDLE_CONNECTION_SECONDS = 30;

/**
 * One pool per service, with `search_path` set to the service's schema so its repositories
 * name tables without a schema and cannot reach another service's tables by accident.
 */
export function openDatabase<DB>(settings: DatabaseSettings): Database<DB> {
  const sql = postgres(settings.url, {
    max: settings.poolSize ?? 10,
    idle_timeout: IDLE_CONNECTION_SECONDS,
    onnotice: () => {},
    connection: { search_path: settings.schema, application_name: `pasarela-${settings.schema}` },
    // Values that JavaScript cannot hold exactly stay strings: numeric (1700) and int8 (20).
    types: {
      numeric: {
        to: 1700,
        from: [1700],
        serialize: (v: unknown) => String(v),
        parse: (v: string) => v,
      },
    },
  });
  const db = new Kysely<DB>({
    dialect: instrumentedDialect(new PostgresJSDialect({ postgres: sql }), settings.schema),
  });
  return {
    db,
    async ping() {
      try {
        await sql`select 1`;
        return true;
      } catch {
        return false;
      }
    },
    async close(timeoutMs = 2_000) {
      // kysely reserves a connection for every query, and the driver's end() without a timeout
      // never ends once a connection was reserved around it: a query racing the close would
      // hold the pool open for good
      await sql.end({ timeout: timeoutMs / 1_000 });
      await db.destroy();
    },
  };
}

/**
 * Runs the service's frozen migrations (named `YYYY-MM-DD-NN-what`) inside its schema. The
 * kysely Migrator takes a lock, so several instances starting at once are safe.
 */
export async function migrateToLatest(
  url: string,
  schema: string,
  migrations: Record<string, Migration>,
): Promise<MigrationResultSet> {
  const database = openDatabase<unknown>({ url, schema, poolSize: 1 });
  const { db } = database;
  try {
    await db.schema.createSchema(schema).ifNotExists().execute();
    const migrator = new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve(migrations) },
      migrationTableSchema: schema,
    });
    const result = await migrator.migrateToLatest();
    if (result.error instanceof Error) throw result.error;
    if (result.error !== undefined)
      throw new Error(`migration failed: ${JSON.stringify(result.error)}`);
    return result;
  } finally {
    await database.close();
  }
}

/** The driver's own codes and the socket errors it passes on when a connection is lost. */
const lostConnectionCodes = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  INCOMPLETE_RESULT,
]);

/**
 * SQLSTATEs that blame the connection or the server, not the statement: class 08 (connection
 * exception), 57P01-57P03 (terminated by an administrator, crash, not accepting connections
 * yet) and 53300 (too many connections). Retrying the same request later can succeed.
 */
const unavailableSqlState = /^(08...|57P0[123]|53300)$/;

/**
 * True when `error` says the database could not be reached, not that the query was wrong. A
 * failure wrapped by another (its `cause`) or gathered with others (an AggregateError, as a
 * refused connection to several addresses is) counts by what it wraps.
 */
export function isConnectionFailure(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > 4) return false;
  const code = "code" in error ? error.code : undefined;
  if (typeof code === "string" && (lostConnectionCodes.has(code) || unavailableSqlState.test(code)))
    return true;
  if ("cause" in error && isConnectionFailure(error.cause, depth + 1)) return true;
  return (
    error instanceof AggregateError &&
    error.errors.length > 0 &&
    error.errors.every((inner) => isConnectionFailure(inner, depth + 1))
  );
}

/**
 * A lost or refused database connection is the gateway's own momentary outage: the retryable
 * SERVICE_UNAVAILABLE, never INTERNAL. Anything else is left to the caller (undefined).
 */
export function classifyDatabaseFailure(error: unknown): AppError | undefined {
  return isConnectionFailure(error)
    ? appError("SERVICE_UNAVAILABLE", { reason: "database unavailable" })
    : undefined;
}

/**
 * SQLSTATE 23505: the row breaks a unique index; with `constraint`, that index only (postgres.js
 * names it). Any other failure stays what it is.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, constraint_name: name } = error as { code?: unknown; constraint_name?: unknown };
  return code === "23505" && (constraint === undefined || name === constraint);
}

/**
 * A transaction-scoped advisory lock named by text: transactions taking the same name queue
 * up until the holder commits or rolls back.
 */
export const advisoryXactLock = (name: string) =>
  sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`;

export { sql, type Kysely, type Migration } from "kysely";
