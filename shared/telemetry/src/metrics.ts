import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import client from "prom-client";
import type { Logger } from "./logger.js";
import { currentService } from "./scope.js";

/**
 * Prometheus metrics of one process: every instrument lives in prom-client's default registry
 * and is served by `startMetricsServer` on the process's own port (never on the public API
 * port). Every series carries a `service` label naming the gateway service that recorded it,
 * taken from the running code's scope (scope.ts), so one process running every service still
 * tells them apart. An instrument that has a `service` label of its own (the authority's web
 * service, for the authority's calls) keeps it.
 */
const registry = client.register;

/** Seconds: from a fast query answered by the database to a slow authority (AUTHORITY_TIMEOUT_MS). */
export const DURATION_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
];

/** The label values of one series; `service` may be given, else it is the running service. */
export type Labels<L extends string> = Partial<Record<L | "service", string | number>>;

export interface Counter<L extends string> {
  inc(labels: Labels<L>, value?: number): void;
}

export interface Histogram<L extends string> {
  observe(labels: Labels<L>, value: number): void;
}

export interface Gauge<L extends string> {
  set(labels: Labels<L>, value: number): void;
  /** drops every series of the gauge (a collect function then sets the current ones) */
  reset(): void;
}

export interface GaugeOptions<L extends string> {
  /** reads the gauge's values when Prometheus scrapes (its `this` is the gauge) */
  collect?: (this: Gauge<L>) => void | Promise<void>;
  /**
   * the service the values belong to: a collect function runs at scrape time, outside every
   * service's scope, so a gauge read that way names its service here (or in each `set`)
   */
  service?: string;
}

const withService = (names: readonly string[]): string[] =>
  names.includes("service") ? [...names] : [...names, "service"];

/** The labels of a series, with the service named when the instrument has no `service` of its own. */
function labelled<L extends string>(
  own: boolean,
  labels: Labels<L>,
  service: string | undefined,
): Labels<L> {
  if (own || labels.service !== undefined) return labels;
  return { ...labels, service: service ?? currentService() ?? "unknown" };
}

/** A counter, created once per process (modules may be evaluated twice under tests). */
export function counter<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
): Counter<L> {
  const metric =
    (registry.getSingleMetric(name) as client.Counter | undefined) ??
    new client.Counter({ name, help, labelNames: withService(labelNames) });
  const own = labelNames.includes("service" as L);
  return { inc: (labels, value) => metric.inc(labelled(own, labels, undefined), value) };
}

/** A histogram, of durations in seconds unless given other buckets, created once per process. */
export function histogram<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  buckets: number[] = DURATION_BUCKETS,
): Histogram<L> {
  const metric =
    (registry.getSingleMetric(name) as client.Histogram | undefined) ??
    new client.Histogram({ name, help, labelNames: withService(labelNames), buckets });
  const own = labelNames.includes("service" as L);
  return {
    observe: (labels, value) => metric.observe(labelled(own, labels, undefined), value),
  };
}

/**
 * Collect functions that failed at a scrape, by gauge: a failing one (its database down, say)
 * drops its own gauge's series for that scrape and is counted here, instead of failing the
 * whole scrape and with it every other service's series in the process.
 */
let collectFailures: client.Counter | undefined;

/**
 * A gauge, set as things happen or read when Prometheus scrapes, created once per process. A
 * collect function given again (a service started again in the same process) replaces the one
 * before, so the gauge reads what is running now.
 */
export function gauge<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  options: GaugeOptions<L> = {},
): Gauge<L> {
  const own = labelNames.includes("service" as L);
  const facade = (metric: client.Gauge): Gauge<L> => ({
    set: (labels, value) => metric.set(labelled(own, labels, options.service), value),
    reset: () => metric.reset(),
  });
  const metric =
    (registry.getSingleMetric(name) as client.Gauge | undefined) ??
    new client.Gauge({ name, help, labelNames: withService(labelNames) });
  const { collect } = options;
  if (collect) {
    collectFailures ??=
      (registry.getSingleMetric("pasarela_metrics_collect_failures_total") as
        client.Counter | undefined) ??
      new client.Counter({
        name: "pasarela_metrics_collect_failures_total",
        help: "Scrapes at which a gauge's collect function failed (its series were left out)",
        labelNames: ["metric", "service"],
      });
    const failures = collectFailures;
    // prom-client calls a metric's `collect` property before each scrape
    (metric as unknown as { collect: () => Promise<void> }).collect = async () => {
      try {
        await collect.call(facade(metric));
      } catch {
        metric.reset();
        failures.inc({ metric: name, service: options.service ?? currentService() ?? "unknown" });
      }
    };
  }
  return facade(metric);
}

/** Seconds elapsed since `startedAt` (a `performance.now()` reading). */
export const secondsSince = (startedAt: number): number => (performance.now() - startedAt) / 1000;

let defaultsCollected = false;

export interface MetricsServer {
  /** the base URL serving `/metrics` */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` (Prometheus text format) on `host:port` (port 0 picks a free one): every
 * instrument of the process, each series labelled with its service, and Node's own metrics
 * (event-loop lag, heap, GC, handles), which describe the process and are labelled with its
 * name (`process`: the service it runs, or `all`).
 */
export async function startMetricsServer(options: {
  process: string;
  port: number;
  host?: string | undefined;
  logger: Logger;
}): Promise<MetricsServer> {
  // a series that names no service (Node's own) is the process's; every instrument of ours names
  // one, which wins over this default
  registry.setDefaultLabels({ service: options.process });
  if (!defaultsCollected) {
    client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
    defaultsCollected = true;
  }
  const server: Server = createServer((request, response) => {
    if (request.method !== "GET" || request.url?.split("?")[0] !== "/metrics") {
      response.writeHead(404).end();
      return;
    }
    registry
      .metrics()
      .then((text) => response.writeHead(200, { "content-type": registry.contentType }).end(text))
      .catch((error: unknown) => {
        options.logger.error({ err: error }, "metrics could not be collected");
        response.writeHead(500).end();
      });
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  options.logger.info({ url: `${url}/metrics` }, "metrics listening");
  return {
    url,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
