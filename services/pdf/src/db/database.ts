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

export interface PdfDatabase {
  links: LinksTable;
}
