import { randomBytes } from "node:crypto";
import { migrateToLatest, type Migration } from "@pasarela/db";
import postgres from "postgres";

export interface ServiceMigrations {
  schema: string;
  migrations: Record<string, Migration>;
}

function withDatabase(url: string, database: string): string {
  const target = new URL(url);
  target.pathname = `/${database}`;
  return target.toString();
}

async function admin<T>(url: string, work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await work(sql);
  } finally {
    await sql.end({ timeout: 2 });
  }
}

/** Creates a database and runs every service's migrations into it, once per test run. */
export async function createTemplateDatabase(
  serverUrl: string,
  name: string,
  services: readonly ServiceMigrations[],
): Promise<string> {
  await admin(serverUrl, async (sql) => {
    await sql.unsafe(`drop database if exists "${name}" with (force)`);
    await sql.unsafe(`create database "${name}"`);
  });
  const url = withDatabase(serverUrl, name);
  for (const service of services) await migrateToLatest(url, service.schema, service.migrations);
  return url;
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A private copy of the migrated template for one test file. */
export async function cloneDatabase(serverUrl: string, template: string): Promise<TestDatabase> {
  const name = `pasarela_t_${randomBytes(6).toString("hex")}`;
  await admin(serverUrl, async (sql) => {
    // CREATE DATABASE ... TEMPLATE fails while another session touches the template.
    for (let attempt = 0; ; attempt++) {
      try {
        await sql.unsafe(`create database "${name}" template "${template}"`);
        return;
      } catch (error) {
        if (attempt >= 50) throw error;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  });
  return {
    url: withDatabase(serverUrl, name),
    name,
    drop: () =>
      admin(serverUrl, async (sql) => {
        await sql.unsafe(`drop database if exists "${name}" with (force)`);
      }),
  };
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await admin(serverUrl, async (sql) => {
    await sql.unsafe(`drop database if exists "${name}" with (force)`);
  });
}
