import type { Migration } from "@pasarela/db";
import * as endpoints from "./2026-11-27-01-endpoints.js";
import * as entregas from "./2026-11-27-02-entregas.js";
import * as desactivacion from "./2026-11-27-03-desactivacion.js";

export const schema = "webhooks";

/** In order; names are dated so they sort as they were written. */
export const migrations: Record<string, Migration> = {
  "2026-11-27-01-endpoints": endpoints,
  "2026-11-27-02-entregas": entregas,
  "2026-11-27-03-desactivacion": desactivacion,
};
