import type { ColumnType } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;

export interface EndpointsTable {
  id: string;
  account_id: string;
  url: string;
  eventos: string[];
  descripcion: string | null;
  activo: ColumnType<boolean, boolean | undefined, boolean>;
  /** sealed under the endpoint's own context: see repositories/endpoints.ts */
  secreto: Buffer;
  secreto_anterior: Buffer | null;
  secreto_anterior_vence_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhooksDatabase {
  endpoints: EndpointsTable;
}
