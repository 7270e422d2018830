import type { Migration } from "@pasarela/db";
import * as linksDeCobro from "./2026-11-22-01-links-de-cobro.js";

export const schema = "cobros";

/** In order; names are dated so they sort as they were written. */
export const migrations: Record<string, Migration> = {
  "2026-11-22-01-links-de-cobro": linksDeCobro,
};
