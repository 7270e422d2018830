import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface AccountsTable {
  id: string;
  name: string;
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  prefix: string;
  secret_hash: Buffer;
  scope: "read_only" | "read_write";
  created_at: Timestamp;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface BillingDatabase {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
}

export type { Generated };
