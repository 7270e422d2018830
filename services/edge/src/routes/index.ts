import { clientesRoutes } from "./clientes.js";
import { comprobantesRoutes } from "./comprobantes.js";
import { cuentaRoutes } from "./cuenta.js";
import { emailRoutes } from "./email.js";
import { emisionesRoutes } from "./emisiones.js";
import { facturasRoutes } from "./facturas.js";
import { linksDeCobroRoutes } from "./links-de-cobro.js";
import { padronRoutes } from "./padron.js";
import { pdfRoutes } from "./pdf.js";
import { productosRoutes } from "./productos.js";
import { representadasRoutes } from "./representadas.js";
import type { RouteModule } from "./route-module.js";
import { usoRoutes } from "./uso.js";
import { webhooksRoutes } from "./webhooks.js";
import { wsfeRoutes } from "./wsfe.js";
import { wsfexRoutes } from "./wsfex.js";

/** Every /api route group, in registration order. */
export const routeModules: readonly RouteModule[] = [
  cuentaRoutes,
  clientesRoutes,
  productosRoutes,
  wsfeRoutes,
  facturasRoutes,
  emisionesRoutes,
  emailRoutes,
  linksDeCobroRoutes,
  webhooksRoutes,
  wsfexRoutes,
  padronRoutes,
  pdfRoutes,
  usoRoutes,
  representadasRoutes,
  comprobantesRoutes,
];

export type { Asker, Caller, Publisher, RouteDeps, RouteModule } from "./route-module.js";
