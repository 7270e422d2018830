import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import {
  followCertificateChanges,
  makeAccessTicketCache,
  makeWsfexAdapter,
  trustAuthorityCa,
  type AccessTicketCache,
} from "@pasarela/authority";
import { ensureJobStream } from "@pasarela/bus";
import { mail, wsfe as wsfeContracts } from "@pasarela/contracts";
import { makePageCursors, makeSealer } from "@pasarela/sealing";
import { serviceModule, startService, type RunningService } from "@pasarela/service";
import type { Logger } from "@pasarela/telemetry";
import { makeVoucherAuthority } from "./adapters/voucher-authority.js";
import { makeWsfeAdapter } from "./adapters/wsfe.js";
import { loadConfig, type WsfeConfig } from "./config.js";
import type { WsfeDatabase } from "./db/database.js";
import { migrations, schema } from "./db/migrations/index.js";
import {
  makeComprobantesEmailRepository,
  type ComprobantesEmailRepository,
} from "./db/repositories/comprobantes-email.js";
import {
  makeComprobantesRepository,
  type ComprobantesRepository,
} from "./db/repositories/comprobantes.js";
import { makeExportacionIdsRepository } from "./db/repositories/exportacion-ids.js";
import { makeSeriesRepository } from "./db/repositories/series.js";
import { makeVoucherEvents } from "./flows/events.js";
import { makeBatchIssuer } from "./flows/batches.js";
import { makeReconciler } from "./flows/reconcile.js";
import { startReconciliationSweep } from "./flows/sweep.js";
import { makeSeriesWriter } from "./flows/series-writer.js";
import { makeComprobantesListadoRepository } from "./db/repositories/comprobantes-listado.js";
import { makeIssuanceKinds, wsfeBindings } from "./service.js";
import { makeEmisionesRepository } from "./db/repositories/emisiones.js";
import { startAsyncIssuance } from "./flows/async-issuance.js";
import { makeWsfeCaeaAdapter } from "./adapters/wsfe-caea.js";
import { makeCaeaFaltantesRepository, makeCaeasRepository } from "./db/repositories/caeas.js";
import { makeCaeaComprobantesRepository } from "./db/repositories/caea-comprobantes.js";
import { startCaeaObtainer } from "./flows/caea-obtener.js";
import { makeWsfeCaeaInformeAdapter } from "./adapters/wsfe-caea-informe.js";
import { makeCaeaInformesRepository } from "./db/repositories/caea-informes.js";
import { startCaeaInformer } from "./flows/caea-informar.js";

/**
 * How late a FECAESolicitar may reach the authority after the statement that preceded it,
 * beyond one lease period (by when it must have started) and AUTHORITY_TIMEOUT_MS (within
 * which it lands or never does): opening a connection, a slow upload, clocks that run a little
 * apart. Waiting longer costs nothing; a voucher is only sent again meanwhile.
 */
const LANDING_MARGIN_MS = 5_000;

export { loadConfig, wsfeConfigSchema as configSchema, type WsfeConfig } from "./config.js";

export interface WsfeDeps {
  /** the caller-side TA cache: tests and benchmarks read or clear it */
  tickets: AccessTicketCache;
  /** e-mail records of vouchers; issuance writes them, tests seed them */
  emails: ComprobantesEmailRepository;
  /** the vouchers issued through the gateway, for tests */
  comprobantes: ComprobantesRepository;
}

/** Starts the wsfe service on the bus; used by its ServiceModule below and by tests in-process. */
export async function startWsfe(
  config: WsfeConfig,
  logger?: Logger,
): Promise<RunningService<WsfeDeps>> {
  // the authority's HTTPS may come from a local stand-in with its own CA (the simulator's)
  if (config.AUTHORITY_CA_FILE) trustAuthorityCa(config.AUTHORITY_CA_FILE.pem);
  return startService<WsfeDatabase, WsfeDeps>({
    name: "wsfe",
    settings: config,
    database: { schema, migrations },
    ...(logger ? { logger } : {}),
    start: async ({ bus, db, logger: serviceLogger }) => {
      const tickets = makeAccessTicketCache(bus);
      // a replaced certificate must stop reaching the authority on the next query
      const certificates = followCertificateChanges(bus, tickets);
      const wsfe = makeWsfeAdapter({
        urls: {
          homologacion: config.WSFE_URL_HOMOLOGACION,
          produccion: config.WSFE_URL_PRODUCCION,
        },
        timeoutMs: config.AUTHORITY_TIMEOUT_MS,
        tickets,
      });
      const wsfex = makeWsfexAdapter({
        urls: {
          homologacion: config.WSFEX_URL_HOMOLOGACION,
          produccion: config.WSFEX_URL_PRODUCCION,
        },
        timeoutMs: config.AUTHORITY_TIMEOUT_MS,
        tickets,
      });
      // the series' authority: WSFEv1 for domestic types, WSFEXv1 for export ones
      const authority = makeVoucherAuthority({
        wsfe,
        wsfex,
        ids: makeExportacionIdsRepository(db!.db),
        logger: serviceLogger,
      });
      const emails = makeComprobantesEmailRepository(db!.db);
      const comprobantes = makeComprobantesRepository(db!.db);
      const series = makeSeriesRepository(db!.db);
      const leaseMs = config.SERIES_LEASE_MS;
      const inFlightMs = leaseMs + config.AUTHORITY_TIMEOUT_MS + LANDING_MARGIN_MS;
      // issuance publishes its outcomes there
      await bus.ensureEventStream();
      // e-mails of vouchers are queued there (the mail service consumes them)
      await ensureJobStream(bus, mail.comprobanteJob);
      // and the owners' alerts (a fortnight without its CAEA)
      await ensureJobStream(bus, mail.mensajeJob);
      const events = makeVoucherEvents({ bus, comprobantes, logger: serviceLogger });
      // host and pid name the holder for operators; the random part tells a restart from its past
      const owner = `wsfe@${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
      const writer = makeSeriesWriter({
        series,
        owner,
        leaseMs,
        heartbeatMs: config.SERIES_HEARTBEAT_MS,
        logger: serviceLogger,
      });
      const reconcile = makeReconciler({
        authority,
        comprobantes,
        series,
        events,
        logger: serviceLogger,
        authorityTimeoutMs: config.AUTHORITY_TIMEOUT_MS,
        inFlightMs,
      });
      const issuer = makeBatchIssuer({
        authority,
        comprobantes,
        series,
        writer,
        reconcile,
        events,
        authorityTimeoutMs: config.AUTHORITY_TIMEOUT_MS,
        inFlightMs,
        logger: serviceLogger,
      });
      // at start-up (a voucher left pending by a process that died) and periodically
      const sweep = startReconciliationSweep({
        authority,
        comprobantes,
        writer,
        reconcile,
        events,
        logger: serviceLogger,
        intervalMs: config.RECONCILE_INTERVAL_MS,
        waitMs: leaseMs + 3 * config.AUTHORITY_TIMEOUT_MS,
      });
      const emisiones = makeEmisionesRepository(db!.db);
      // each fortnight's CAEA, ahead of time, for the representadas with contingency on
      const caeas = makeCaeasRepository(db!.db, makeSealer(config.KEY_ENCRYPTION_KEY));
      const issuance = makeIssuanceKinds({
        comprobantes,
        caeaComprobantes: makeCaeaComprobantesRepository(db!.db),
        caeas,
        emisiones,
        bus,
        wsfe,
        wsfex,
        authority,
        issuer,
        events,
        writer,
        reconcile,
      });
      const caeaObtainer = startCaeaObtainer({
        bus,
        caea: makeWsfeCaeaAdapter({
          urls: {
            homologacion: config.WSFE_URL_HOMOLOGACION,
            produccion: config.WSFE_URL_PRODUCCION,
          },
          timeoutMs: config.AUTHORITY_TIMEOUT_MS,
          tickets,
        }),
        caeas,
        faltantes: makeCaeaFaltantesRepository(db!.db),
        logger: serviceLogger,
        intervalMs: config.CAEA_CHECK_INTERVAL_MS,
      });
      // the vouchers issued under a CAEA, informed as the series' writer; no-movement; alerts
      // Its calls get a budget of their own, shorter than an issuance's: the informing holds the
      // series lease that contingency issuance on that point of sale waits for, and an answer
      // lost to the timeout costs nothing (the next pass finds it with FECompConsultar).
      const informing = {
        urls: {
          homologacion: config.WSFE_URL_HOMOLOGACION,
          produccion: config.WSFE_URL_PRODUCCION,
        },
        timeoutMs: Math.min(config.CAEA_INFORM_TIMEOUT_MS, config.AUTHORITY_TIMEOUT_MS),
        tickets,
      };
      const informingWsfe = makeWsfeAdapter(informing);
      const caeaInformer = startCaeaInformer({
        bus,
        authority: {
          ultimoAutorizado: (caller, query) => informingWsfe.ultimoAutorizado(caller, query),
          perRequest: (caller, cbteTipo) => authority.perRequest(caller, cbteTipo),
        },
        wsfe: informingWsfe,
        informe: makeWsfeCaeaInformeAdapter(informing),
        informes: makeCaeaInformesRepository(db!.db),
        caeas,
        writer,
        logger: serviceLogger,
        intervalMs: config.CAEA_INFORM_INTERVAL_MS,
        retryBaseMs: config.CAEA_INFORM_INTERVAL_MS,
        retryMaxMs: config.CAEA_INFORM_RETRY_MAX,
        waitMs: leaseMs + 3 * informing.timeoutMs,
      });
      // the asynchronous issuances (Prefer: respond-async), queued in the database
      const queue = startAsyncIssuance({
        emisiones,
        kinds: issuance.kinds,
        bus,
        logger: serviceLogger,
        maxAgeMs: config.ASYNC_ISSUANCE_MAX_AGE,
        retryMaxMs: config.ASYNC_ISSUANCE_RETRY_MAX,
        pollMs: config.ASYNC_ISSUANCE_POLL_MS,
        concurrency: config.ASYNC_ISSUANCE_CONCURRENCY,
        // an attempt may take the issuance's whole budget; its lease outlasts it
        leaseMs: (wsfeContracts.facturaIssue.timeoutMs ?? 125_000) + 30_000,
      });
      return {
        tickets,
        emails,
        comprobantes,
        bindings: wsfeBindings({
          emails,
          comprobantes,
          emisiones,
          listado: makeComprobantesListadoRepository(db!.db),
          cursors: makePageCursors(config.CURSOR_KEY),
          bus,
          wsfe,
          issuance,
          caeas,
          queued: () => queue.kick(),
        }),
        stop: async () => {
          await caeaObtainer.stop();
          await caeaInformer.stop();
          await queue.stop();
          await sweep.stop();
          certificates.stop();
        },
      };
    },
  });
}

/** wsfe as a process runs it, alone or beside the other services: see `@pasarela/server`. */
export const wsfeService = serviceModule("wsfe", {
  config: loadConfig,
  start: startWsfe,
  announce(config, logger) {
    logger.info(
      { homologacion: config.WSFE_URL_HOMOLOGACION, produccion: config.WSFE_URL_PRODUCCION },
      "WSFEv1 endpoints",
    );
    logger.info(
      { homologacion: config.WSFEX_URL_HOMOLOGACION, produccion: config.WSFEX_URL_PRODUCCION },
      "WSFEXv1 endpoints (export issuance)",
    );
  },
});
