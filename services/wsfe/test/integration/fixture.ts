import { randomUUID } from "node:crypto";
import { openDatabase, type Database } from "@pasarela/db";
import type { Kysely } from "kysely";
import { fileInfra } from "@pasarela/testing";
import type { WsfeDatabase } from "../../src/db/database.js";
import {
  makeComprobantesEmailRepository,
  type ComprobantesEmailRepository,
} from "../../src/db/repositories/comprobantes-email.js";
import {
  makeComprobantesRepository,
  type ComprobantesRepository,
  type NewComprobante,
} from "../../src/db/repositories/comprobantes.js";
import {
  makeSeriesRepository,
  type SeriesKey,
  type SeriesRepository,
} from "../../src/db/repositories/series.js";
import type { FECAEDetRequest } from "../../src/domain/issuance/index.js";
import { domesticSummary } from "../../src/domain/voucher-summary.js";

/** A test file's own database with the wsfe schema, and its repositories. */
export interface WsfeStore {
  readonly comprobantes: ComprobantesRepository;
  readonly series: SeriesRepository;
  readonly emails: ComprobantesEmailRepository;
  /** the schema itself, for rows no repository of the test writes */
  readonly db: Kysely<WsfeDatabase>;
  /** closes the connection and drops the file's database; call it in afterAll */
  close(): Promise<void>;
}

export async function openWsfeStore(): Promise<WsfeStore> {
  const infra = await fileInfra();
  let database: Database<WsfeDatabase>;
  try {
    database = openDatabase<WsfeDatabase>({ url: infra.databaseUrl, schema: "wsfe" });
  } catch (error) {
    await infra.cleanup();
    throw error;
  }
  return {
    comprobantes: makeComprobantesRepository(database.db),
    series: makeSeriesRepository(database.db),
    emails: makeComprobantesEmailRepository(database.db),
    db: database.db,
    async close() {
      try {
        await database.close();
      } finally {
        await infra.cleanup();
      }
    },
  };
}

/** Series of one issuer, each call another point of sale counting from `firstPtoVta`. */
export function seriesFrom(firstPtoVta: number): () => SeriesKey {
  let next = firstPtoVta;
  return () => ({
    environment: "homologacion",
    cuit: "20111111112",
    ptoVta: next++,
    cbteTipo: 11,
  });
}

/** What is sent for a voucher C of final consumer for `amount` pesos, numbered `cbteNro`. */
export const sent = (cbteNro: number, amount = "121.00"): FECAEDetRequest => ({
  Concepto: 1,
  DocTipo: 99,
  DocNro: "0",
  CbteDesde: cbteNro,
  CbteHasta: cbteNro,
  CbteFch: "20261201",
  ImpTotal: amount,
  ImpTotConc: "0.00",
  ImpNeto: amount,
  ImpOpEx: "0.00",
  ImpTrib: "0.00",
  ImpIVA: "0.00",
  MonId: "PES",
  MonCotiz: "1",
  CondicionIVAReceptorId: 5,
});

/** A voucher to store, of a new account unless `extra` says otherwise. */
export const voucher = (
  series: SeriesKey,
  cbteNro: number,
  extra: Partial<NewComprobante> = {},
): NewComprobante => {
  const detail = (extra.sent as FECAEDetRequest | undefined) ?? sent(cbteNro);
  return {
    id: randomUUID(),
    accountId: randomUUID(),
    series,
    cbteNro,
    sent: detail,
    summary: domesticSummary(detail),
    request: { items: [{ descripcion: "x" }] },
    emailTo: null,
    idempotencyKey: null,
    requestId: randomUUID(),
    ...extra,
  };
};
