import type { ColumnType } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;
/** int8 identity: the driver answers it as a string and the database assigns it. */
type Sequence = ColumnType<string, never, never>;
/** numeric: a decimal string both ways, never a JS number. */
type Decimal = ColumnType<string, string, string>;
type NullableDecimal = ColumnType<string | null, string | null | undefined, string | null>;

export interface ClientesTable {
  id: string;
  account_id: string;
  seq: Sequence;
  doc_tipo: number;
  doc_nro: string;
  razon_social: string;
  condicion_iva_receptor_id: number | null;
  email: string | null;
  domicilio: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface ProductosTable {
  id: string;
  account_id: string;
  seq: Sequence;
  codigo: string | null;
  descripcion: string;
  precio_unitario: Decimal;
  alicuota_iva: NullableDecimal;
  unidad_medida: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface CatalogDatabase {
  clientes: ClientesTable;
  productos: ProductosTable;
}
