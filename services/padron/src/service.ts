import { bind, type Binding } from "@pasarela/bus";
import { padron } from "@pasarela/contracts";
import type { PadronAdapter } from "./adapters/padron.js";
import { makeA10Get } from "./handlers/a10-get.js";
import { makeA13Get } from "./handlers/a13-get.js";
import { makeConstanciaGet } from "./handlers/constancia-get.js";
import { makeDocumentoList } from "./handlers/documento-list.js";

/** Wiring only: the registry adapter and handlers bound to their subjects. */
export function padronBindings(deps: { padron: PadronAdapter }): Binding[] {
  return [
    bind(padron.a13Get, makeA13Get(deps)),
    bind(padron.documentoList, makeDocumentoList(deps)),
    bind(padron.a10Get, makeA10Get(deps)),
    bind(padron.constanciaGet, makeConstanciaGet(deps)),
  ];
}
