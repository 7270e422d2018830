import { bind, type Binding, type Bus } from "@pasarela/bus";
import { wsfex } from "@pasarela/contracts";
import type { WsfexAdapter } from "@pasarela/authority";
import { makeComprobanteGet } from "./handlers/comprobante-get.js";
import { makeParametrosGet } from "./handlers/parametros-get.js";
import { makePermisoVerify } from "./handlers/permiso-verify.js";
import { makeUltimoComprobanteLast } from "./handlers/ultimo-comprobante-last.js";

/** Wiring only: the WSFEXv1 adapter, the bus (wsfe's e-mail records), handlers on their subjects. */
export function wsfexBindings(deps: { wsfex: WsfexAdapter; bus: Pick<Bus, "request"> }): Binding[] {
  return [
    bind(wsfex.ultimoComprobanteLast, makeUltimoComprobanteLast(deps)),
    bind(wsfex.comprobanteGet, makeComprobanteGet(deps)),
    bind(wsfex.permisoVerify, makePermisoVerify(deps)),
    bind(wsfex.parametrosGet, makeParametrosGet(deps)),
  ];
}
