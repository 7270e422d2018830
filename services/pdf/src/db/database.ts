import type { ColumnType } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/**
 * A shareable link to a voucher's printed original. Only the SHA-256 of the token is kept:
 * whoever reads the table cannot open the links, and a token names exactly one voucher.
 */
export interface LinksTable {
  token_hash: Buffer;
  account_id: string;
  environment: "homologacion" | "produccion";
  cuit: string;
  pto_vta: number;
  cbte_tipo: number;
  cbte_nro: ColumnType<string, number, number>;
  expires_at: ColumnType<Date, Date, Date>;
  created_at: Timestamp;
}

/** The issuer a voucher prints, fixed at its first print (a `ticket.Emisor` as JSON). */
export interface ComprobanteEmisoresTable {
  account_id: string;
  environment: "homologacion" | "produccion";
  cuit: string;
  pto_vta: number;
  cbte_tipo: number;
  cbte_nro: ColumnType<string, number, number>;
  // postgres.js serializes a jsonb parameter itself: the object goes as it is
  emisor: ColumnType<unknown, object, object>;
  created_at: Timestamp;
}

export interface PdfDatabase {
  links: LinksTable;
  comprobante_emisores: ComprobanteEmisoresTable;
}
