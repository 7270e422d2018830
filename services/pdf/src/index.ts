import { serviceModule, startService, type RunningService } from "@pasarela/service";
import type { Logger } from "@pasarela/telemetry";
import { loadFonts } from "./adapters/fonts.js";
import { openFilesystemStore, type PdfStore } from "./adapters/storage.js";
import { loadConfig, type PdfConfig } from "./config.js";
import type { PdfDatabase } from "./db/database.js";
import { migrations, schema } from "./db/migrations/index.js";
import { makeEmisoresRepository } from "./db/repositories/emisores.js";
import { makeLinksRepository } from "./db/repositories/links.js";
import { makeDocuments } from "./flows/documents.js";
import { makeEmisores } from "./flows/emisores.js";
import { linkTtlMs } from "./handlers/links.js";
import { pdfBindings } from "./service.js";

export { loadConfig, pdfConfigSchema as configSchema, type PdfConfig } from "./config.js";
export { migrations, schema } from "./db/migrations/index.js";
export { filesystemStore, openFilesystemStore, type PdfStore } from "./adapters/storage.js";
export { loadFonts } from "./adapters/fonts.js";
export { renderComprobante, type Impresion } from "./adapters/layout/index.js";

export interface PdfOptions {
  logger?: Logger;
  /** the clock links expire by; tests move it */
  now?: () => Date;
  /** another store than the filesystem directory of PDF_STORAGE_DIR */
  store?: PdfStore;
  /** how long the registry's answer for an issuer is kept (found, not found) */
  registryCacheMs?: { hit?: number; miss?: number };
}

/** Starts the pdf service on the bus; used by its ServiceModule below and by tests in-process. */
export async function startPdf(
  config: PdfConfig,
  options: PdfOptions = {},
): Promise<RunningService<object>> {
  return startService<PdfDatabase, object>({
    name: "pdf",
    settings: config,
    database: { schema, migrations },
    ...(options.logger ? { logger: options.logger } : {}),
    start: async ({ bus, db }) => {
      const documents = makeDocuments({
        bus,
        // opened at start: its folder is created or tightened to the service's user alone
        store: options.store ?? (await openFilesystemStore(config.PDF_STORAGE_DIR)),
        // read at start: a missing font fails the start, not a voucher
        fonts: loadFonts(),
        emisores: makeEmisores({
          bus,
          emisores: makeEmisoresRepository(db!.db),
          ...(options.registryCacheMs ? { registryCacheMs: options.registryCacheMs } : {}),
        }),
      });
      return {
        bindings: pdfBindings({
          documents,
          links: makeLinksRepository(db!.db),
          link: {
            publicUrl: config.PDF_PUBLIC_URL,
            ttlMs: linkTtlMs(config.PDF_LINK_TTL_DAYS),
            now: options.now ?? (() => new Date()),
          },
        }),
      };
    },
  });
}

/** pdf as a process runs it, alone or beside the other services: see `@pasarela/server`. */
export const pdfService = serviceModule("pdf", {
  config: loadConfig,
  start: (config, logger) => startPdf(config, { logger }),
  announce(config, logger) {
    logger.info(
      { storage: config.PDF_STORAGE_DIR, publicUrl: config.PDF_PUBLIC_URL },
      "pdf storage and links",
    );
  },
});
