import { sql, type Kysely } from "kysely";

/** Each key's latest call, for the key list's "last used": one index lookup per key. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("usage_records_key_idx")
    .on("usage_records")
    .columns(["key_id", "at desc"])
    .where(sql.ref("key_id"), "is not", null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("usage_records_key_idx").execute();
}
