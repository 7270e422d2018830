import { clientesRoutes } from "./clientes.js";
import { cuentaRoutes } from "./cuenta.js";
import { facturasRoutes } from "./facturas.js";
import { padronRoutes } from "./padron.js";
import { productosRoutes } from "./productos.js";
import type { RouteModule } from "./route-module.js";
import { wsfeRoutes } from "./wsfe.js";
import { wsfexRoutes } from "./wsfex.js";

/** Every /api route group, in registration order. */
export const routeModules: readonly RouteModule[] = [
  cuentaRoutes,
  clientesRoutes,
  productosRoutes,
  wsfeRoutes,
  facturasRoutes,
  wsfexRoutes,
  padronRoutes,
];

export type { Caller, RouteDeps, RouteModule } from "./route-module.js";
