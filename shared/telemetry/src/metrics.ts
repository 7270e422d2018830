import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import client from "prom-client";
import type { Logger } from "./logger.js";

/**
 * Prometheus metrics of one process: every instrument lives in prom-client's default registry,
 * labelled with the service's name, and is served by `startMetricsServer` on the service's own
 * port (never on the public API port).
 */
const registry = client.register;

/** Seconds: from a fast query answered by the database to a slow authority (AUTHORITY_TIMEOUT_MS). */
export const DURATION_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
];

/** A counter, created once per process (modules may be evaluated twice under tests). */
export function counter<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
): client.Counter<L> {
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as client.Counter<L>;
  return new client.Counter({ name, help, labelNames });
}

/** A histogram, of durations in seconds unless given other buckets, created once per process. */
export function histogram<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  buckets: number[] = DURATION_BUCKETS,
): client.Histogram<L> {
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as client.Histogram<L>;
  return new client.Histogram({ name, help, labelNames, buckets });
}

/** A gauge whose value is read when Prometheus scrapes, created once per process. */
export function gauge<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  collect?: (this: client.Gauge<L>) => void | Promise<void>,
): client.Gauge<L> {
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as client.Gauge<L>;
  return new client.Gauge({ name, help, labelNames, ...(collect ? { collect } : {}) });
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
 * Serves `GET /metrics` (Prometheus text format) on `host:port` (port 0 picks a free one), with
 * Node's own metrics (event-loop lag, heap, GC, handles) and every instrument of the process,
 * each labelled `service`.
 */
export async function startMetricsServer(options: {
  service: string;
  port: number;
  host?: string | undefined;
  logger: Logger;
}): Promise<MetricsServer> {
  registry.setDefaultLabels({ service: options.service });
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
