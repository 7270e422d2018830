import type { EndpointsRepository } from "../db/repositories/endpoints.js";

export interface HandlerDeps {
  readonly endpoints: EndpointsRepository;
  /**
   * Why an endpoint address may not receive deliveries, completing "El campo url …";
   * undefined when it may (always, with WEBHOOKS_ALLOW_PRIVATE)
   */
  readonly urlProblem: (url: string) => Promise<string | undefined>;
  readonly now: () => Date;
}
