import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Which gateway service the code running now belongs to. One process may run every service
 * (`all`), so a span or a metric cannot take its service from the process: it takes it from
 * here. A service's start runs inside `asService(name, …)`, and everything that start sets
 * going (its NATS connection and the handlers its messages reach, its HTTP server and the
 * requests it takes, its timers) runs in the same scope, because Node carries an
 * AsyncLocalStorage value into every callback and promise created under it.
 */
const scope = new AsyncLocalStorage<string>();

/** What a process running one target or several calls itself outside any service's scope. */
let processName: string | undefined;

/** Runs `work` (and everything it sets going) as part of `service`. */
export function asService<T>(service: string, work: () => T): T {
  return scope.run(service, work);
}

/** The service the running code belongs to; outside every scope, the process's own name. */
export function currentService(): string | undefined {
  return scope.getStore() ?? processName;
}

/**
 * Names the process itself (its target: a service's name, or `all`): the `service` of what
 * belongs to no service, such as Node's own metrics of the process.
 */
export function nameProcess(name: string): void {
  processName = name;
}

/** The process's name as `nameProcess` set it. */
export function processServiceName(): string | undefined {
  return processName;
}
