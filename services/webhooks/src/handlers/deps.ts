import type { PageCursors } from "@pasarela/sealing";
import type { EndpointsRepository } from "../db/repositories/endpoints.js";
import type { EntregasRepository } from "../db/repositories/entregas.js";
import type { PruebasRepository } from "../db/repositories/pruebas.js";

export interface HandlerDeps {
  readonly endpoints: EndpointsRepository;
  readonly entregas: EntregasRepository;
  readonly pruebas: PruebasRepository;
  readonly cursors: PageCursors;
  /**
   * Why an endpoint address may not receive deliveries, completing "El campo url …";
   * undefined when it may (always, with WEBHOOKS_ALLOW_PRIVATE)
   */
  readonly urlProblem: (url: string) => Promise<string | undefined>;
  readonly now: () => Date;
  /** has the delivery worker look for due deliveries now */
  readonly wake: () => void;
}
