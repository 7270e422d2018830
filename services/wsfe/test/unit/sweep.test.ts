import { viaWsfe } from "./via-wsfe.js";
import { ok } from "@pasarela/errors";
import { capturingLogger } from "@pasarela/testing";
import { describe, expect, it } from "vitest";
import type { SeriesKey } from "../../src/db/repositories/series.js";
import type { VoucherEvents } from "../../src/flows/events.js";
import type { SeriesWriter } from "../../src/flows/series-writer.js";
import { startReconciliationSweep } from "../../src/flows/sweep.js";

const series = (ptoVta: number): SeriesKey => ({
  environment: "homologacion",
  cuit: "20111111112",
  ptoVta,
  cbteTipo: 11,
});

/** A sweep over two unsettled series whose first reconciliation waits for `release`. */
function sweepWithHeldSeries(options: { failAfterStop?: boolean } = {}) {
  const { logger, lines } = capturingLogger("wsfe");
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const reconciled: number[] = [];
  let stopped = false;
  const writer: SeriesWriter = {
    run: async (key, _deadline, work) => {
      if (key.ptoVta === 1) await held;
      reconciled.push(key.ptoVta);
      return work({} as never);
    },
  };
  const sweep = startReconciliationSweep({
    authority: viaWsfe({ ultimoAutorizado: () => Promise.resolve(ok(0)) }),
    comprobantes: {
      unresolvedSeries: () =>
        Promise.resolve([
          { series: series(1), accountId: "a" },
          { series: series(2), accountId: "a" },
        ]),
      // the database is closed once the service has stopped
      unresolved: () =>
        stopped && options.failAfterStop
          ? Promise.reject(new Error("driver has already been destroyed"))
          : Promise.resolve([]),
      unpublished: () => Promise.resolve([]),
    },
    writer,
    reconcile: () => Promise.resolve(ok(0)),
    events: { publishOutcome: () => Promise.resolve() } as unknown as VoucherEvents,
    logger,
    intervalMs: 60_000,
    waitMs: 1_000,
  });
  return {
    sweep,
    lines,
    reconciled,
    release,
    markStopped: () => (stopped = true),
  };
}

describe("reconciliation sweep: stopping", () => {
  it("waits for the series in hand and starts no other", async () => {
    const { sweep, reconciled, release } = sweepWithHeldSeries();
    await new Promise((resolve) => setTimeout(resolve, 10));
    let ended = false;
    const stopping = sweep.stop().then(() => (ended = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ended).toBe(false);
    release();
    await stopping;
    expect(reconciled).toEqual([1]);
  });

  it("does not report a pass cut short by the stop as a failure", async () => {
    const { sweep, lines, release, markStopped } = sweepWithHeldSeries({ failAfterStop: true });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const stopping = sweep.stop();
    markStopped();
    release();
    await stopping;
    expect(lines.filter((line) => line.includes('"level":"warn"'))).toEqual([]);
    expect(lines.some((line) => line.includes("reconciliation sweep ended by the stop"))).toBe(
      true,
    );
  });
});
