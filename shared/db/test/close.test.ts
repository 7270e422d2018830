import { describe, expect, inject, it } from "vitest";
import { openDatabase, sql } from "../src/index.js";

declare module "vitest" {
  export interface ProvidedContext {
    databaseServerUrl: string;
  }
}

/** How long `work` took to settle, or "hung" past `ms`. */
async function settledWithin(work: Promise<unknown>, ms: number): Promise<number | "hung"> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work.then(
        () => Date.now() - started,
        () => Date.now() - started,
      ),
      new Promise<"hung">((resolve) => (timer = setTimeout(() => resolve("hung"), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe("closing a database pool", () => {
  it("ends within its bound when a query waited for a connection as the close began", async () => {
    const database = openDatabase<Record<string, never>>({
      url: inject("databaseServerUrl"),
      schema: "public",
      poolSize: 1,
    });
    const { db } = database;
    // a transaction holds the only connection; a query waits for it; the close starts; the
    // transaction ends, the waiting query gets the connection and ends too
    let finish!: () => void;
    const transaction = db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      await new Promise<void>((resolve) => (finish = resolve));
    });
    await new Promise((r) => setTimeout(r, 100));
    const waiting = sql`select 2`.execute(db);
    await new Promise((r) => setTimeout(r, 100));
    const closing = database.close(1_000);
    finish();
    await transaction;
    await waiting.catch(() => undefined);
    const closedIn = await settledWithin(closing, 10_000);
    expect(closedIn, "the close").not.toBe("hung");
    expect(closedIn as number).toBeLessThan(5_000);
  });
});
