import type { ColumnType } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/**
 * The e-mail sent (or being sent) for a voucher issued through the gateway, keyed by the
 * full voucher tuple of spec §7.2 plus the account: another account's voucher never shows.
 */
export interface ComprobantesEmailTable {
  account_id: string;
  environment: "homologacion" | "produccion";
  cuit: string;
  pto_vta: number;
  cbte_tipo: number;
  // int8 comes back as a string from the driver; voucher numbers fit in a number
  cbte_nro: ColumnType<string, number, number>;
  email_to: string;
  status: string;
  error: string | null;
  updated_at: Timestamp;
}

export interface WsfeDatabase {
  comprobantes_email: ComprobantesEmailTable;
}
