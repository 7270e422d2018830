import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type QueryResult,
} from "kysely";
import { describe, expect, it } from "vitest";
import { classifyDatabaseFailure } from "../../src/index.js";
import { instrumentedDialect } from "../../src/dialect.js";

interface Db {
  clientes: { id: string };
}

/** A pool whose one connection answers `rows` to every query, as the driver handed them. */
function answering(rows: unknown[]): Kysely<Db> {
  const connection: DatabaseConnection = {
    executeQuery: <R>() => Promise.resolve({ rows } as QueryResult<R>),
    streamQuery: () => {
      throw new Error("not streamed");
    },
  };
  return new Kysely<Db>({
    dialect: instrumentedDialect(
      {
        createAdapter: () => new PostgresAdapter(),
        createIntrospector: (db) => new PostgresIntrospector(db),
        createQueryCompiler: () => new PostgresQueryCompiler(),
        createDriver: () => ({
          init: () => Promise.resolve(),
          acquireConnection: () => Promise.resolve(connection),
          beginTransaction: () => Promise.resolve(),
          commitTransaction: () => Promise.resolve(),
          rollbackTransaction: () => Promise.resolve(),
          releaseConnection: () => Promise.resolve(),
          destroy: () => Promise.resolve(),
        }),
      },
      "catalog",
    ),
  });
}

describe("a result the driver handed back with rows missing", () => {
  it("fails as a lost connection (a retryable 503), never as rows to read", async () => {
    // what the driver answered after a terminated backend: the first entries empty
    const holey: unknown[] = [];
    holey[2] = { id: "c" };
    const failure = await answering(holey)
      .selectFrom("clientes")
      .selectAll()
      .execute()
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "INCOMPLETE_RESULT" });
    expect(classifyDatabaseFailure(failure)).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
  });

  it("answers a whole result as it came", async () => {
    const rows = await answering([{ id: "a" }, { id: "b" }])
      .selectFrom("clientes")
      .selectAll()
      .execute();
    expect(rows).toEqual([{ id: "a" }, { id: "b" }]);
  });
});
