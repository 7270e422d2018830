import { bind, type Binding } from "@pasarela/bus";
import { webhooks } from "@pasarela/contracts";
import type { HandlerDeps } from "./handlers/deps.js";
import { makeEndpointGet, makeEndpointList } from "./handlers/endpoint-read.js";
import { makeEntregaList, makeEntregaReenviar } from "./handlers/entregas.js";
import {
  makeEndpointCreate,
  makeEndpointDelete,
  makeEndpointUpdate,
} from "./handlers/endpoint-write.js";
import { makePruebaEnviar } from "./handlers/prueba.js";
import { makeSecretoRotate } from "./handlers/secreto-rotate.js";

/** Wiring only: the repository and the address check bound to their subjects. */
export function webhooksBindings(deps: HandlerDeps): Binding[] {
  return [
    bind(webhooks.endpointCreate, makeEndpointCreate(deps)),
    bind(webhooks.endpointList, makeEndpointList(deps)),
    bind(webhooks.endpointGet, makeEndpointGet(deps)),
    bind(webhooks.endpointUpdate, makeEndpointUpdate(deps)),
    bind(webhooks.endpointDelete, makeEndpointDelete(deps)),
    bind(webhooks.secretoRotate, makeSecretoRotate(deps)),
    bind(webhooks.entregaList, makeEntregaList(deps)),
    bind(webhooks.entregaReenviar, makeEntregaReenviar(deps)),
    bind(webhooks.pruebaEnviar, makePruebaEnviar(deps)),
  ];
}
