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
  /** the first failed attempt since the last delivered one; null while it answers */
  fallando_desde: NullableTimestamp;
  /** when and why the service disabled it (failing for the whole window); null otherwise */
  desactivado_at: NullableTimestamp;
  desactivado_motivo: string | null;
  /** the owner's e-mail about the disabling is still to be queued */
  aviso_pendiente: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type EntregaStatus = "pending" | "delivered" | "failed";

export interface EntregasTable {
  id: string;
  account_id: string;
  endpoint_id: string;
  /** the bus event's id: one delivery per endpoint and event */
  event_id: string;
  tipo: string;
  payload: ColumnType<unknown, unknown, unknown>;
  status: ColumnType<EntregaStatus, EntregaStatus | undefined, EntregaStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  last_status_code: number | null;
  last_error: string | null;
  latency_ms: number | null;
  /** when a pending delivery is due; while an attempt runs, when it may be taken again */
  next_attempt_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhooksDatabase {
  endpoints: EndpointsTable;
  entregas: EntregasTable;
}
