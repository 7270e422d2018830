import type { Migration } from "@pasarela/db";
import * as comprobantesEmail from "./2026-11-22-01-comprobantes-email.js";
import * as comprobantesYSeries from "./2026-12-01-01-comprobantes-y-series.js";
import * as comprobantesListado from "./2026-12-12-01-comprobantes-listado.js";
import * as enviosEnVuelo from "./2026-12-20-01-envios-en-vuelo.js";
import * as exportacionIds from "./2026-12-27-01-exportacion-ids.js";
import * as emisiones from "./2027-01-03-01-emisiones.js";
import * as caeas from "./2027-01-04-01-caeas.js";
import * as caeaComprobantes from "./2027-01-05-01-caea-comprobantes.js";
import * as caeaInforme from "./2027-01-07-01-caea-informe.js";

export const schema = "wsfe";

/** In order; names are dated so they sort as they were written. */
export const migrations: Record<string, Migration> = {
  "2026-11-22-01-comprobantes-email": comprobantesEmail,
  "2026-12-01-01-comprobantes-y-series": comprobantesYSeries,
  "2026-12-12-01-comprobantes-listado": comprobantesListado,
  "2026-12-20-01-envios-en-vuelo": enviosEnVuelo,
  "2026-12-27-01-exportacion-ids": exportacionIds,
  "2027-01-03-01-emisiones": emisiones,
  "2027-01-04-01-caeas": caeas,
  "2027-01-05-01-caea-comprobantes": caeaComprobantes,
  "2027-01-07-01-caea-informe": caeaInforme,
};
