import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryResult,
  TransactionSettings,
} from "kysely";
import { completeResult } from "./incomplete-result.js";

const tracer = trace.getTracer("pasarela.db");
const MAX_QUERY_TEXT = 2_000;

/** The table a query is about, read from kysely's operation tree (best effort). */
function tableOf(query: CompiledQuery): string | undefined {
  type Node = Record<string, unknown> | undefined;
  const node = query.query as unknown as Node;
  const name = (table: unknown): string | undefined => {
    const t = table as Node;
    const identifier = ((t?.table as Node) ?? t)?.identifier as Node;
    return typeof identifier?.name === "string" ? identifier.name : undefined;
  };
  const from = (node?.from as Node)?.froms as unknown[] | undefined;
  return name(node?.into) ?? name(node?.table) ?? (from ? name(from[0]) : undefined);
}

/** SELECT, INSERT, UPDATE, DELETE, … as the statement begins. */
function operationOf(sql: string): string {
  const match = /^\s*(?:with\b[\s\S]*?\)\s*)?([a-z]+)/i.exec(sql);
  return (match?.[1] ?? "query").toUpperCase();
}

/**
 * Wraps a kysely dialect so each query run inside a trace gets a CLIENT span with the
 * OpenTelemetry database attributes: system, schema, operation, table and the statement text
 * with its placeholders (values are never recorded). Queries outside any trace (sweepers,
 * migrations) make no spans of their own. Every result, traced or not, is checked whole
 * (incomplete-result.ts): one with rows missing fails as a lost connection.
 */
export function instrumentedDialect(dialect: Dialect, schema: string): Dialect {
  const traced = (connection: DatabaseConnection): DatabaseConnection => ({
    async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
      if (!trace.getActiveSpan()) return completeResult(await connection.executeQuery<R>(compiled));
      const operation = operationOf(compiled.sql);
      const table = tableOf(compiled);
      const span = tracer.startSpan(`${operation} ${schema}${table ? `.${table}` : ""}`, {
        kind: SpanKind.CLIENT,
        attributes: {
          "db.system.name": "postgresql",
          "db.namespace": schema,
          "db.operation.name": operation,
          ...(table ? { "db.collection.name": table } : {}),
          "db.query.text": compiled.sql.slice(0, MAX_QUERY_TEXT),
        },
      });
      try {
        const result = completeResult(await connection.executeQuery<R>(compiled));
        if (result.numAffectedRows !== undefined) {
          span.setAttribute("db.response.returned_rows", Number(result.numAffectedRows));
        } else {
          span.setAttribute("db.response.returned_rows", result.rows.length);
        }
        return result;
      } catch (error) {
        const code = (error as { code?: unknown } | null)?.code;
        if (typeof code === "string") span.setAttribute("db.response.status_code", code);
        span.setStatus({ code: SpanStatusCode.ERROR, message: "query failed" });
        throw error;
      } finally {
        span.end();
      }
    },
    streamQuery: (compiled, chunkSize) => connection.streamQuery(compiled, chunkSize),
  });
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: (): Driver => {
      const driver = dialect.createDriver();
      const wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
      const outer = (connection: DatabaseConnection) => {
        let found = wrapped.get(connection);
        if (!found) {
          found = traced(connection);
          wrapped.set(connection, found);
          inner.set(found, connection);
        }
        return found;
      };
      const inner = new WeakMap<DatabaseConnection, DatabaseConnection>();
      const unwrap = (connection: DatabaseConnection) => inner.get(connection) ?? connection;
      return {
        init: () => driver.init(),
        acquireConnection: async () => outer(await driver.acquireConnection()),
        beginTransaction: (c, settings: TransactionSettings) =>
          driver.beginTransaction(unwrap(c), settings),
        commitTransaction: (c) => driver.commitTransaction(unwrap(c)),
        rollbackTransaction: (c) => driver.rollbackTransaction(unwrap(c)),
        releaseConnection: (c) => driver.releaseConnection(unwrap(c)),
        destroy: () => driver.destroy(),
        ...(driver.savepoint
          ? { savepoint: (c, name, compile) => driver.savepoint!(unwrap(c), name, compile) }
          : {}),
        ...(driver.rollbackToSavepoint
          ? {
              rollbackToSavepoint: (c, name, compile) =>
                driver.rollbackToSavepoint!(unwrap(c), name, compile),
            }
          : {}),
        ...(driver.releaseSavepoint
          ? {
              releaseSavepoint: (c, name, compile) =>
                driver.releaseSavepoint!(unwrap(c), name, compile),
            }
          : {}),
      };
    },
  };
}
