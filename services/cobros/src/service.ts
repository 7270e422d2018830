import { bind, type Binding, type Bus } from "@pasarela/bus";
import { cobros } from "@pasarela/contracts";
import type { CuentasRepository, NotificacionesRepository } from "./db/repositories/cuentas.js";
import type { LinksRepository } from "./db/repositories/links.js";
import type { PaymentProvider } from "./domain/provider.js";
import { makeCuentaSet } from "./handlers/cuenta-set.js";
import { makeLinkCreate } from "./handlers/link-create.js";
import { makeLinkGet, makeLinkList } from "./handlers/link-read.js";
import { makeWebhookReceive } from "./handlers/webhook-receive.js";

/** Wiring only: repositories, the provider port and the handlers bound to their subjects. */
export function cobrosBindings(deps: {
  bus: Bus;
  links: LinksRepository;
  cuentas: CuentasRepository;
  notificaciones: NotificacionesRepository;
  provider: PaymentProvider;
  webhookUrl: (accountId: string) => string;
}): Binding[] {
  return [
    bind(cobros.linkCreate, makeLinkCreate(deps)),
    bind(cobros.linkGet, makeLinkGet(deps)),
    bind(cobros.linkList, makeLinkList(deps)),
    bind(cobros.webhookReceive, makeWebhookReceive(deps)),
    bind(cobros.cuentaSet, makeCuentaSet(deps)),
  ];
}
