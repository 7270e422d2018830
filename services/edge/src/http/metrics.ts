import { counter, histogram } from "@pasarela/telemetry";
import type { FastifyInstance } from "fastify";

const requests = counter(
  "pasarela_http_requests_total",
  "API calls answered by the edge, by route, status and catalogue code (402 and 429 refusals included)",
  ["method", "route", "status", "code"],
);
const seconds = histogram(
  "pasarela_http_request_duration_seconds",
  "Time the edge took to answer one API call",
  ["method", "route"],
);

/** Rate, errors and duration of every API call, per route (the route's pattern, never its ids). */
export function registerMetrics(app: FastifyInstance): void {
  app.addHook("onResponse", (request, reply, done) => {
    const route = request.routeOptions.url ?? "unmatched";
    requests.inc({
      method: request.method,
      route,
      status: String(reply.statusCode),
      // the code noted for the usage history: an error answered now or replayed
      code: request.usage?.code ?? (reply.statusCode < 400 ? "" : "UNKNOWN"),
    });
    seconds.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    done();
  });
}
