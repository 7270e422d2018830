import type { Migration } from "@pasarela/db";
import * as sesiones from "./2026-11-22-01-sesiones.js";
import * as flashesAntesDeIngresar from "./2026-11-27-01-flashes-antes-de-ingresar.js";

/** The edge's own schema: dashboard sessions only. */
export const schema = "edge";

/** In order; names are dated so they sort as they were written. */
export const migrations: Record<string, Migration> = {
  "2026-11-22-01-sesiones": sesiones,
  "2026-11-27-01-flashes-antes-de-ingresar": flashesAntesDeIngresar,
};
