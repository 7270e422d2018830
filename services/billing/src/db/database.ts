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

type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;
type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;

export interface PlansTable {
  name: string;
  facturas_quota: number;
  padrones_quota: number;
  period_months: ColumnType<number, number | undefined, number>;
  rejection_cap_per_hour: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
}

export interface AccountPlansTable {
  account_id: string;
  plan_name: string;
  assigned_at: Timestamp;
}

export type QuotaResource = "facturas" | "padrones";

export interface QuotaHoldsTable {
  ref: string;
  account_id: string;
  resource: QuotaResource;
  /** voided: a committed unit given back (a CAEA voucher the authority refused at informing) */
  state: "reserved" | "committed" | "voided";
  created_at: Timestamp;
  expires_at: NullableTimestamp;
}

/** A quota threshold an account crossed in a period (one row each), and whether it was announced. */
export interface CuotaAlertasTable {
  /** the event's id: account, resource, period start and threshold */
  id: string;
  account_id: string;
  resource: QuotaResource;
  period_start: Timestamp;
  period_end: Timestamp;
  umbral: 80 | 100;
  used: number;
  quota: number;
  created_at: Timestamp;
  published_at: NullableTimestamp;
}

export interface RejectionsTable {
  ref: string;
  account_id: string;
  environment: string;
  occurred_at: Timestamp;
}

export type IdempotencyState = "in_flight" | "unknown" | "complete";

export interface IdempotencyRecordsTable {
  account_id: string;
  key: string;
  fingerprint: string;
  environment: string;
  state: IdempotencyState;
  request_id: string;
  status: Nullable<number>;
  /** the answer's JSON text, byte for byte */
  body: Nullable<string>;
  locked_until: NullableTimestamp;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface HandledEventsTable {
  id: string;
  handled_at: Timestamp;
}

export interface UsageRecordsTable {
  id: string;
  account_id: string;
  key_id: Nullable<string>;
  at: Timestamp;
  method: string;
  route: string;
  environment: Nullable<string>;
  representada: Nullable<string>;
  status: number;
  code: Nullable<string>;
  latency_ms: number;
  quota_consumed: boolean;
}

export interface UsersTable {
  id: string;
  account_id: string;
  name: string;
  email: string;
  password_hash: string;
  role: "owner" | "member";
  created_at: Timestamp;
  password_changed_at: Timestamp;
}

export interface LoginAttemptsTable {
  id: Generated<string>;
  scope: "email" | "ip";
  key: string;
  at: Timestamp;
}

export interface PasswordResetsTable {
  token_hash: Buffer;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface SoporteTicketsTable {
  id: string;
  account_id: string;
  user_id: string;
  asunto: string;
  estado: "abierto" | "respondido" | "cerrado";
  request_id: Nullable<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SoporteMensajesTable {
  id: Generated<string>;
  ticket_id: string;
  autor: "cliente" | "operador";
  mensaje: string;
  at: Timestamp;
}

export interface BillingDatabase {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  plans: PlansTable;
  account_plans: AccountPlansTable;
  quota_holds: QuotaHoldsTable;
  cuota_alertas: CuotaAlertasTable;
  rejections: RejectionsTable;
  idempotency_records: IdempotencyRecordsTable;
  handled_events: HandledEventsTable;
  usage_records: UsageRecordsTable;
  users: UsersTable;
  login_attempts: LoginAttemptsTable;
  password_resets: PasswordResetsTable;
  soporte_tickets: SoporteTicketsTable;
  soporte_mensajes: SoporteMensajesTable;
}

export type { Generated };
