import { cuentaRoutes } from "./cuenta.js";
import type { RouteModule } from "./route-module.js";

/** Every /api route group, in registration order. */
export const routeModules: readonly RouteModule[] = [cuentaRoutes];

export type { Caller, RouteDeps, RouteModule } from "./route-module.js";
