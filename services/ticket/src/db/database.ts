import type { ColumnType } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;

export type EnvironmentColumn = "homologacion" | "produccion";
export type CertificateStatusColumn = "pending" | "active" | "replaced" | "cancelled";

export interface RepresentadasTable {
  id: string;
  account_id: string;
  cuit: string;
  environment: EnvironmentColumn;
  alias: string;
  pto_vta: number | null;
  contingencia_caea: ColumnType<boolean, boolean | undefined, boolean>;
  contingencia_ptos_venta: ColumnType<number[], number[] | undefined, number[]>;
  created_at: Timestamp;
}

/** One key of a representada and, once uploaded, its certificate. */
export interface CertificatesTable {
  id: string;
  representada_id: string;
  status: CertificateStatusColumn;
  /** AES-256-GCM sealed PKCS#8 PEM; never in clear */
  private_key_sealed: Buffer;
  csr_pem: string | null;
  certificate_pem: string | null;
  fingerprint: string | null;
  not_before: NullableTimestamp;
  not_after: NullableTimestamp;
  created_at: Timestamp;
  activated_at: NullableTimestamp;
}

/**
 * The TA of one X.509 certificate (by fingerprint) for one web service in one environment, and
 * the login throttle for it: shared by every representada registered with that certificate.
 */
export interface AccessTicketsTable {
  environment: EnvironmentColumn;
  /** `certificates.fingerprint`: SHA-256 of the DER, lower-case hex */
  fingerprint: string;
  service: string;
  token_sealed: Buffer | null;
  sign_sealed: Buffer | null;
  generated_at: NullableTimestamp;
  expires_at: NullableTimestamp;
  retry_at: NullableTimestamp;
  pending_until: NullableTimestamp;
  updated_at: Timestamp;
  /** who is logging in for this row right now (one id per attempt), while the lease lasts */
  login_owner: string | null;
  /** the login lease runs out here (database clock): a holder that died blocks no one after */
  login_lease_until: NullableTimestamp;
}

/** The issuer profile a printed voucher shows; every field optional. */
/** Every logo a representada's profile had: vouchers name the one they were issued with. */
export interface RepresentadaLogosTable {
  representada_id: string;
  sha256: string;
  media_type: "image/png" | "image/jpeg";
  data: Buffer;
  created_at: Timestamp;
}

export interface RepresentadaPerfilesTable {
  representada_id: string;
  razon_social: string | null;
  domicilio_comercial: string | null;
  condicion_iva: string | null;
  ingresos_brutos: string | null;
  /** yyyymmdd */
  inicio_actividades: string | null;
  logo_media_type: "image/png" | "image/jpeg" | null;
  logo: Buffer | null;
  /** the logo's SHA-256 (lowercase hex), its name in `representada_logos`; set with `logo` */
  logo_sha256: string | null;
  /** reply-to of the vouchers' e-mails */
  email: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: Timestamp;
}

/** An expiry notice of one certificate: decided once, announced until it got out. */
export interface CertificadoAvisosTable {
  certificate_id: string;
  /** days before notAfter ("30", "7", "1") or "vencido" */
  aviso: string;
  /** the event body it is announced with */
  event: ColumnType<unknown, string, string>;
  created_at: Timestamp;
  published_at: NullableTimestamp;
}

export interface TicketDatabase {
  representadas: RepresentadasTable;
  representada_perfiles: RepresentadaPerfilesTable;
  representada_logos: RepresentadaLogosTable;
  certificates: CertificatesTable;
  access_tickets: AccessTicketsTable;
  certificado_avisos: CertificadoAvisosTable;
}
