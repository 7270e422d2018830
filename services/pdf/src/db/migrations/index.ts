import type { Migration } from "@pasarela/db";
import * as links from "./2026-12-10-01-links.js";
import * as comprobanteEmisores from "./2026-12-20-01-comprobante-emisores.js";

export const schema = "pdf";

/** In order; names are dated so they sort as they were written. */
export const migrations: Record<string, Migration> = {
  "2026-12-10-01-links": links,
  "2026-12-20-01-comprobante-emisores": comprobanteEmisores,
};
