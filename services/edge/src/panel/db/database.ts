import type { ColumnType } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;

export interface SessionsTable {
  id_hash: Buffer;
  user_id: string;
  account_id: string;
  user_name: string;
  email: string;
  csrf_secret: Buffer;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export interface FlashesTable {
  id: string;
  session_hash: Buffer;
  sealed: Buffer;
  created_at: Timestamp;
}

export interface EdgeDatabase {
  sessions: SessionsTable;
  flashes: FlashesTable;
}
