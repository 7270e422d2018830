// Webhook deliveries to a receiver on this machine. First WEBHOOK_SERIAL vouchers one at a
// time to one endpoint, each delivery awaited: the latency of a delivery with nothing queued.
// Then WEBHOOK_VOUCHERS vouchers issued at once, each delivered to WEBHOOK_ENDPOINTS endpoints:
// the delivery rate counts every delivery received from the first to the last. The latency
// runs from the voucher's authorization (the event's time, the payload's createdAt) to the
// moment the receiver has the request, so in the burst it includes the queue in PostgreSQL
// and each endpoint's wait for its turn (one delivery at a time per endpoint).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { percentile } from "./percentile.js";

export const WEBHOOK_VOUCHERS = Number(process.env.BENCH_WEBHOOK_VOUCHERS ?? 100);
export const WEBHOOK_ENDPOINTS = Number(process.env.BENCH_WEBHOOK_ENDPOINTS ?? 8);
export const WEBHOOK_SERIAL = 5;

export interface WebhookFigures {
  scenario: string;
  vouchers: number;
  endpoints: number;
  deliveries: number;
  /** from the first delivery received to the last */
  seconds: number;
  deliveriesPerSecond: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * Registers the endpoints with `writer` (a read_write key), issues the vouchers (`factura`,
 * on a series of its own) and waits for every delivery; removes the endpoints afterwards.
 */
export async function benchWebhooks(
  edgeUrl: string,
  writer: string,
  factura: string,
): Promise<WebhookFigures[]> {
  let latencies: number[] = [];
  let first = 0;
  let last = 0;
  let expected = 0;
  let done: () => void = () => undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const at = Date.now();
      const now = performance.now();
      res.writeHead(204).end();
      const { createdAt } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        createdAt: string;
      };
      latencies.push(at - Date.parse(createdAt));
      if (latencies.length === 1) first = now;
      last = now;
      if (latencies.length === expected) done();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${edgeUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${writer}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? (JSON.parse(text) as { id: string }) : undefined;
  };
  const issue = () => api("POST", "/api/wsfe/facturas", JSON.parse(factura));
  /** Starts counting `count` deliveries; resolves when they are in (a minute at most). */
  const collect = (count: number) => {
    latencies = [];
    expected = count;
    const all = new Promise<void>((resolve) => (done = resolve));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`webhook bench: ${latencies.length}/${count} delivered`)),
        60_000,
      );
    });
    return Promise.race([all, timeout]).finally(() => clearTimeout(timer));
  };
  const figures = (scenario: string, vouchers: number, endpoints: number): WebhookFigures => {
    const sorted = [...latencies].sort((a, b) => a - b);
    const seconds = (last - first) / 1000;
    return {
      scenario,
      vouchers,
      endpoints,
      deliveries: latencies.length,
      seconds: Math.round(seconds * 100) / 100,
      deliveriesPerSecond: Math.round((latencies.length / Math.max(seconds, 0.001)) * 10) / 10,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? 0,
    };
  };
  const ids: string[] = [];
  const register = async (count: number) => {
    for (let i = 0; i < count; i++) {
      const created = await api("POST", "/api/webhooks", {
        url: `${base}/bench/${ids.length}`,
        eventos: ["comprobante.autorizado"],
      });
      ids.push(created!.id);
    }
  };
  try {
    await register(1);
    const serialLatencies: number[] = [];
    const serialStarted = performance.now();
    for (let i = 0; i < WEBHOOK_SERIAL; i++) {
      const delivered = collect(1);
      await issue();
      await delivered;
      serialLatencies.push(...latencies);
    }
    latencies = serialLatencies;
    // one at a time: the rate is the whole loop's, issuance included
    first = serialStarted;
    const serial = figures("one voucher at a time, 1 endpoint", WEBHOOK_SERIAL, 1);

    await register(WEBHOOK_ENDPOINTS - 1);
    const delivered = collect(WEBHOOK_VOUCHERS * WEBHOOK_ENDPOINTS);
    const issued = await Promise.all(
      Array.from({ length: WEBHOOK_VOUCHERS }, () =>
        issue().then(
          () => true,
          () => false,
        ),
      ),
    );
    const authorized = issued.filter(Boolean).length;
    if (authorized !== WEBHOOK_VOUCHERS) {
      throw new Error(`webhook bench: ${WEBHOOK_VOUCHERS - authorized} vouchers not issued`);
    }
    await delivered;
    return [
      serial,
      figures(
        `${WEBHOOK_VOUCHERS} vouchers at once, ${WEBHOOK_ENDPOINTS} endpoints`,
        WEBHOOK_VOUCHERS,
        WEBHOOK_ENDPOINTS,
      ),
    ];
  } finally {
    for (const id of ids) await api("DELETE", `/api/webhooks/${id}`).catch(() => undefined);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** The section's lines of the bench's report. */
export const webhookLines = (figures: readonly WebhookFigures[]): string[] => [
  `| webhook deliveries, local receiver: authorization → received | deliveries | seconds | deliveries/s | p50 ms | p99 ms | max ms |`,
  `|---|---|---|---|---|---|---|`,
  ...figures.map(
    (f) =>
      `| ${f.scenario} | ${f.deliveries} | ${f.seconds} | ${f.deliveriesPerSecond} | ${f.p50} | ${f.p99} | ${f.max} |`,
  ),
];
