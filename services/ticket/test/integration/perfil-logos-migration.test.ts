import { createHash, randomUUID } from "node:crypto";
import { migrateToLatest } from "@pasarela/db";
import { fileInfra, type FileInfra } from "@pasarela/testing";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrations, schema } from "../../src/db/migrations/index.js";

const LOGOS_MIGRATION = "2026-12-20-01-perfil-logos";

/** The migrations up to, and not including, `name`: the schema as a database held it before. */
const before = (name: string) =>
  Object.fromEntries(Object.entries(migrations).filter(([key]) => key < name));

describe("ticket: the migration that names logos by their SHA-256", () => {
  let infra: FileInfra;
  let sql: postgres.Sql;

  beforeAll(async () => {
    infra = await fileInfra();
    sql = postgres(infra.databaseUrl, { max: 1, onnotice: () => {} });
    // this file's own database: ticket's schema is laid again as it was before the migration
    await sql.unsafe(`drop schema ${schema} cascade`);
    await migrateToLatest(infra.databaseUrl, schema, before(LOGOS_MIGRATION));
  });

  afterAll(async () => {
    await sql?.end();
    await infra?.cleanup();
  });

  it("copies every logo already stored, undecodable ones included, and names it in the profile", async () => {
    const withLogo = randomUUID();
    const without = randomUUID();
    // a logo a profile took before logos were decoded: only the PNG signature
    const stored = Buffer.from("iVBORw0KGgo=", "base64");
    for (const id of [withLogo, without]) {
      await sql`
        insert into ticket.representadas (id, account_id, cuit, environment, alias)
        values (${id}, ${randomUUID()}, '20111111112', 'homologacion', ${`a-${id}`})
      `;
    }
    await sql`
      insert into ticket.representada_perfiles (representada_id, razon_social, logo, logo_media_type)
      values (${withLogo}, 'Con logo', ${stored}, 'image/png'),
             (${without}, 'Sin logo', null, null)
    `;

    await migrateToLatest(infra.databaseUrl, schema, migrations);

    const sha256 = createHash("sha256").update(stored).digest("hex");
    const perfiles = await sql<{ representada_id: string; logo_sha256: string | null }[]>`
      select representada_id, logo_sha256 from ticket.representada_perfiles
    `;
    expect(Object.fromEntries(perfiles.map((p) => [p.representada_id, p.logo_sha256]))).toEqual({
      [withLogo]: sha256,
      [without]: null,
    });
    const logos = await sql<{ representada_id: string; sha256: string; data: Buffer }[]>`
      select representada_id, sha256, data from ticket.representada_logos
    `;
    expect(logos).toHaveLength(1);
    expect(logos[0]).toMatchObject({ representada_id: withLogo, sha256 });
    expect(logos[0]!.data.equals(stored)).toBe(true);
  });
});
