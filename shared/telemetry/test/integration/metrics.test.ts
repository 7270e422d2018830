import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asService,
  counter,
  createLogger,
  gauge,
  startMetricsServer,
  type MetricsServer,
} from "../../src/index.js";

/** The lines of one metric in the exposition text. */
async function lines(server: MetricsServer, name: string): Promise<string[]> {
  const response = await fetch(`${server.url}/metrics`);
  expect(response.status).toBe(200);
  return (await response.text()).split("\n").filter((l) => l.startsWith(`${name}{`));
}

/** One process's metrics endpoint (a local HTTP server), as Prometheus scrapes it. */
describe("metrics of a process that runs several services", () => {
  let server: MetricsServer;

  beforeAll(async () => {
    server = await startMetricsServer({
      process: "all",
      port: 0,
      logger: createLogger({ service: "test", level: "silent" }),
    });
  });

  afterAll(() => server?.close());

  it("labels each series with the service whose code recorded it", async () => {
    const calls = counter("test_scope_calls_total", "calls", ["kind"]);
    asService("billing", () => calls.inc({ kind: "a" }));
    await asService("wsfe", async () => {
      await Promise.resolve();
      calls.inc({ kind: "a" }, 2);
    });
    expect((await lines(server, "test_scope_calls_total")).sort()).toEqual([
      'test_scope_calls_total{kind="a",service="billing"} 1',
      'test_scope_calls_total{kind="a",service="wsfe"} 2',
    ]);
  });

  it("keeps an instrument's own service label (the authority's web service)", async () => {
    const own = counter("test_own_service_total", "calls", ["service"]);
    asService("wsfe", () => own.inc({ service: "wsaa" }));
    expect(await lines(server, "test_own_service_total")).toEqual([
      'test_own_service_total{service="wsaa"} 1',
    ]);
  });

  it("leaves out a gauge whose collect fails, counts it, and serves the rest", async () => {
    gauge("test_failing_gauge", "fails", ["x"], {
      service: "ticket",
      collect() {
        throw new Error("database down");
      },
    });
    gauge("test_working_gauge", "works", ["x"], {
      service: "wsfe",
      collect() {
        this.set({ x: "1" }, 7);
      },
    });
    expect(await lines(server, "test_working_gauge")).toEqual([
      'test_working_gauge{x="1",service="wsfe"} 7',
    ]);
    expect(await lines(server, "test_failing_gauge")).toEqual([]);
    // each of the three scrapes (this one too) ran the failing collect once
    const failures = await lines(server, "pasarela_metrics_collect_failures_total");
    expect(failures.filter((line) => line.includes('metric="test_failing_gauge"'))).toEqual([
      'pasarela_metrics_collect_failures_total{metric="test_failing_gauge",service="ticket"} 3',
    ]);
  });

  it("reads a gauge with the collect function given last", async () => {
    const read = (value: number) =>
      gauge("test_replaced_gauge", "replaced", [], {
        service: "ticket",
        collect() {
          this.set({}, value);
        },
      });
    read(1);
    read(2);
    expect(await lines(server, "test_replaced_gauge")).toEqual([
      'test_replaced_gauge{service="ticket"} 2',
    ]);
  });
});
