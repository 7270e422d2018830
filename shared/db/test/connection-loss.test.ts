import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import {
  classifyDatabaseFailure,
  isConnectionFailure,
  openDatabase,
  sql,
  type Database,
} from "../src/index.js";

declare module "vitest" {
  export interface ProvidedContext {
    databaseServerUrl: string;
  }
}

interface LossDatabase {
  conteos: { id: number; n: number };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Settles with "hung" when `work` does not settle in time: a lost query must never wait forever. */
async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T | "hung"> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<"hung">((resolve) => (timer = setTimeout(() => resolve("hung"), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe("a database whose backends are terminated under load", () => {
  const serverUrl = inject("databaseServerUrl");
  const name = `pasarela_t_loss_${randomBytes(5).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  let database: Database<LossDatabase>;
  // The driver's defect threw from a setImmediate: nothing but these listeners could see it.
  const escaped: unknown[] = [];
  const onEscaped = (error: unknown) => escaped.push(error);

  beforeAll(async () => {
    await admin.unsafe(`create database "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    database = openDatabase<LossDatabase>({ url: url.toString(), schema: "public", poolSize: 4 });
    await sql`create table conteos (id int primary key, n int not null)`.execute(database.db);
    await sql`insert into conteos values (1, 0)`.execute(database.db);
    process.on("uncaughtException", onEscaped);
    process.on("unhandledRejection", onEscaped);
  });

  afterAll(async () => {
    process.off("uncaughtException", onEscaped);
    process.off("unhandledRejection", onEscaped);
    if (database) await withDeadline(database.close(), 5_000);
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end({ timeout: 2 });
  });

  it("fails in-flight queries as a retryable outage, never crashes, and the pool answers again", async () => {
    const { db } = database;
    const outcomes = { ok: 0, unavailable: 0, hung: 0, unclassified: [] as unknown[] };
    let loading = true;
    const worker = async (index: number) => {
      while (loading) {
        // Transactions pin a reserved connection and roll back after a failure: the path
        // where the driver wrote to a closed socket.
        const work: Promise<unknown> =
          index % 2 === 0
            ? db.transaction().execute(async (tx) => {
                await sql`update conteos set n = n + 1 where id = 1`.execute(tx);
                await sql`select pg_sleep(0.002)`.execute(tx);
              })
            : sql`select n from conteos where id = 1`.execute(db);
        try {
          if ((await withDeadline(work, 15_000)) === "hung") outcomes.hung++;
          else outcomes.ok++;
        } catch (error) {
          if (classifyDatabaseFailure(error)?.code === "SERVICE_UNAVAILABLE")
            outcomes.unavailable++;
          else outcomes.unclassified.push(error);
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, i) => worker(i));

    let terminated = 0;
    const until = Date.now() + 3_000;
    while (Date.now() < until) {
      const [row] = await admin<{ n: number }[]>`
        select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
        where datname = ${name} and pid <> pg_backend_pid()`;
      terminated += row?.n ?? 0;
      await sleep(20 + Math.random() * 40);
    }
    loading = false;
    await withDeadline(Promise.all(workers), 30_000);

    expect(escaped).toEqual([]);
    expect(terminated).toBeGreaterThan(10);
    expect(outcomes.unclassified).toEqual([]);
    expect(outcomes.hung).toBe(0);
    expect(outcomes.unavailable).toBeGreaterThan(0);

    // Every connection of the pool works again: more parallel queries than connections,
    // then a transaction, each within a deadline.
    await expect.poll(() => database.ping(), { timeout: 15_000 }).toBe(true);
    const after = await withDeadline(
      Promise.all(
        Array.from({ length: 16 }, () => sql<{ one: number }>`select 1 as one`.execute(db)),
      ),
      15_000,
    );
    expect(after === "hung" ? "hung" : after.map((r) => r.rows[0]?.one)).toEqual(
      Array.from({ length: 16 }, () => 1),
    );
    const counted = await db.transaction().execute(async (tx) => {
      await sql`update conteos set n = n + 1 where id = 1`.execute(tx);
      return db.selectFrom("conteos").select("n").where("id", "=", 1).executeTakeFirstOrThrow();
    });
    expect(counted.n).toBeGreaterThan(0);
  });

  it("tells a lost connection from a wrong statement", async () => {
    const wrong = await sql`select * from no_existe`.execute(database.db).catch((e: unknown) => e);
    expect(isConnectionFailure(wrong)).toBe(false);
    expect(classifyDatabaseFailure(wrong)).toBeUndefined();
    const duplicate = await sql`insert into conteos values (1, 0)`
      .execute(database.db)
      .catch((e: unknown) => e);
    expect(classifyDatabaseFailure(duplicate)).toBeUndefined();
    expect(classifyDatabaseFailure(new Error("boom"))).toBeUndefined();
    expect(classifyDatabaseFailure(Object.assign(new Error("x"), { code: "57P01" }))).toMatchObject(
      { code: "SERVICE_UNAVAILABLE" },
    );
    expect(classifyDatabaseFailure(Object.assign(new Error("x"), { code: "08006" }))?.code).toBe(
      "SERVICE_UNAVAILABLE",
    );
  });
});
