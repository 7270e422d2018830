import type { ServiceModule } from "@pasarela/service";

/**
 * Every gateway service, by the name that picks it, and how its code is loaded: a process
 * loads only the services it runs, so one that runs wsfe alone never reads the edge's code.
 */
const loaders = {
  billing: async () => (await import("@pasarela/billing")).billingService,
  ticket: async () => (await import("@pasarela/ticket")).ticketService,
  catalog: async () => (await import("@pasarela/catalog")).catalogService,
  wsfe: async () => (await import("@pasarela/wsfe")).wsfeService,
  wsfex: async () => (await import("@pasarela/wsfex")).wsfexService,
  padron: async () => (await import("@pasarela/padron")).padronService,
  pdf: async () => (await import("@pasarela/pdf")).pdfService,
  mail: async () => (await import("@pasarela/mail")).mailService,
  cobros: async () => (await import("@pasarela/cobros")).cobrosService,
  webhooks: async () => (await import("@pasarela/webhooks")).webhooksService,
  edge: async () => (await import("@pasarela/edge")).edgeService,
} satisfies Record<string, () => Promise<ServiceModule>>;

export type ServiceName = keyof typeof loaders;

/** The gateway's services in start order: the edge last, so /readyz turns green as soon as it listens. */
export const gatewayServices = Object.keys(loaders) as ServiceName[];

/** The target that runs every service in one process. */
export const ALL = "all";

export const isServiceName = (name: string): name is ServiceName => Object.hasOwn(loaders, name);

/**
 * The services a process of these targets runs, stage by stage: every service but the edge
 * together (none needs another to start: each waits for the others over NATS), then the edge,
 * which answers /readyz green only once they do. They stop in the reverse order: the edge first,
 * so the requests it still holds are answered by services that are still there.
 */
export async function stagesOf(
  names: readonly ServiceName[],
): Promise<readonly (readonly ServiceModule[])[]> {
  const ordered = gatewayServices.filter((name) => names.includes(name));
  const load = (list: readonly ServiceName[]) => Promise.all(list.map((name) => loaders[name]()));
  const stages = [
    await load(ordered.filter((name) => name !== "edge")),
    await load(ordered.filter((name) => name === "edge")),
  ];
  return stages.filter((stage) => stage.length > 0);
}

/**
 * What a process was asked to run: `all` (or nothing), or service names (each once). An unknown
 * name is an error naming it and the services there are.
 */
export function parseTargets(
  args: readonly string[],
): { ok: true; name: string; services: ServiceName[] } | { ok: false; error: string } {
  if (args.length === 0 || (args.length === 1 && args[0] === ALL)) {
    return { ok: true, name: ALL, services: [...gatewayServices] };
  }
  const unknown = args.filter((arg) => !isServiceName(arg));
  if (unknown.length > 0) {
    return {
      ok: false,
      error: `unknown service ${unknown.join(", ")}: the services are ${gatewayServices.join(", ")}, or ${ALL} for every one`,
    };
  }
  const services = gatewayServices.filter((name) => args.includes(name));
  return { ok: true, name: services.join("+"), services };
}
