import type { ColumnType } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;

export interface CuentasProveedorTable {
  account_id: string;
  provider: "mercadopago";
  access_token: Buffer;
  webhook_secret: Buffer;
  updated_at: Timestamp;
}

export interface LinksTable {
  id: string;
  account_id: string;
  environment: "homologacion" | "produccion";
  cuit: string;
  pto_vta: number;
  cbte_tipo: number;
  cbte_nro: ColumnType<string, number, number>;
  /** numeric: a decimal string both ways, never a JS number */
  monto: ColumnType<string, string, string>;
  moneda: "ARS";
  vence: Timestamp;
  estado: "pendiente" | "pagado";
  provider: "mercadopago";
  preference_id: string;
  url: string;
  payment_id: string | null;
  pagado_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface NotificacionesTable {
  request_id: string;
  account_id: string;
  data_id: string;
  received_at: Timestamp;
}

export interface CobrosDatabase {
  cuentas_proveedor: CuentasProveedorTable;
  links: LinksTable;
  notificaciones: NotificacionesTable;
}
