import { ok } from "@pasarela/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ComprobantesRepository } from "../../src/db/repositories/comprobantes.js";
import type { SeriesKey, SeriesRepository } from "../../src/db/repositories/series.js";
import { makeSeriesWriter } from "../../src/flows/series-writer.js";
import {
  openWsfeStore,
  seriesFrom,
  sent,
  voucher as storedVoucher,
  type WsfeStore,
} from "./fixture.js";

const newSeries = seriesFrom(500);

// every voucher of one account, so that its Idempotency-Keys meet
const voucher = (series: SeriesKey, cbteNro: number, key: string | null = null) =>
  storedVoucher(series, cbteNro, {
    accountId: "7b0c2e1a-0000-4000-8000-000000000001",
    sent: sent(cbteNro, "10.00"),
    request: { items: [] },
    idempotencyKey: key,
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the series lease: a heartbeat, fencing, and sends that may still land", () => {
  let store: WsfeStore;
  let series: SeriesRepository;
  let comprobantes: ComprobantesRepository;

  beforeAll(async () => {
    store = await openWsfeStore();
    ({ series, comprobantes } = store);
  });

  afterAll(async () => {
    await store?.close();
  });

  it("a job longer than the lease keeps the series: the heartbeat renews it meanwhile", async () => {
    const key = newSeries();
    const options = { series, leaseMs: 1_000, heartbeatMs: 200, pollMs: 20 };
    const first = makeSeriesWriter({ ...options, owner: "first" });
    const second = makeSeriesWriter({ ...options, owner: "second" });
    let release!: () => void;
    const long = first.run(key, Date.now() + 10_000, async () => {
      await new Promise<void>((r) => (release = r));
      return ok("first");
    });
    await sleep(100);
    // three leases long: the second instance never gets the series while the job runs
    const waited = await second.run(key, Date.now() + 3_000, () => Promise.resolve(ok("second")));
    expect(waited.ok || waited.error.code).toBe("SERVICE_UNAVAILABLE");
    release();
    expect(await long).toEqual({ ok: true, value: "first" });
    expect(await second.run(key, Date.now() + 3_000, () => Promise.resolve(ok("second")))).toEqual({
      ok: true,
      value: "second",
    });
  });

  it("a holder whose renewals stop getting through stops sending before its lease runs out", async () => {
    const key = newSeries();
    let reachable = true;
    const flaky: typeof series = {
      ...series,
      renewLease: (...args) =>
        reachable ? series.renewLease(...args) : Promise.reject(new Error("database unreachable")),
    };
    const writer = makeSeriesWriter({
      series: flaky,
      owner: "cut-off",
      leaseMs: 1_000,
      heartbeatMs: 200,
    });
    const samples: { at: number; mayStart: boolean; renewed: boolean }[] = [];
    const started = Date.now();
    let cutAt = 0;
    await writer.run(key, Date.now() + 5_000, async (held) => {
      await sleep(500);
      reachable = false;
      cutAt = Date.now() - started;
      for (let i = 0; i < 12; i++) {
        samples.push({
          at: Date.now() - started,
          mayStart: held.fence!.mayStart(),
          renewed: await held.renew(),
        });
        await sleep(100);
      }
      return ok(undefined);
    });
    // right after the cut, the last renewal still covers a send
    expect(samples[0]).toMatchObject({ mayStart: true });
    // no send starts once the lease may have run out (it ends at most 1 s after a renewal)
    for (const s of samples.filter((x) => x.at >= cutAt + 1_000)) {
      expect(s).toMatchObject({ mayStart: false, renewed: false });
    }
    // and by then another instance may take the series
    expect(await series.takeLease(key, "next", 1_000)).toBe(true);
  });

  it("only an authorization is written once the lease went to another instance", async () => {
    const key = newSeries();
    const [a, b] = [voucher(key, 1), voucher(key, 2)];
    expect(await comprobantes.insertPending([a, b])).toBe("stored");
    expect(await series.takeLease(key, "first", 200)).toBe(true);
    await sleep(300);
    expect(await series.takeLease(key, "second", 10_000)).toBe(true);
    const stale = { series: key, owner: "first" };
    const rejection = { observaciones: [], errores: [], eventos: [] };
    expect(await comprobantes.markRejected(a.id, rejection, stale)).toBeUndefined();
    expect(await comprobantes.markNotIssued(a.id, {}, stale)).toBeUndefined();
    expect(await comprobantes.markManyUnresolved([a.id, b.id], "not_issued", {}, stale)).toEqual(
      [],
    );
    expect((await comprobantes.find(a.id))?.state).toBe("pending");
    // the holder writes; a CAE is stored whoever brings it
    const holder = { series: key, owner: "second" };
    expect((await comprobantes.markRejected(a.id, rejection, holder))?.state).toBe("rejected");
    const authorization = { cae: "71000000000002", caeVencimiento: "20261211" };
    expect(
      (
        await comprobantes.markAuthorized(b.id, {
          ...authorization,
          observaciones: [],
          eventos: [],
        })
      )?.state,
    ).toBe("authorized");
  });

  it("records until when a send may still land, and puts back what a copy extended", async () => {
    const key = newSeries();
    expect(await series.takeLease(key, "holder", 10_000)).toBe(true);
    const fence = { series: key, owner: "holder" };
    const [sent, old] = [voucher(key, 1), voucher(key, 2)];
    expect(await comprobantes.insertPending([sent], 60_000)).toBe("stored");
    expect(await comprobantes.insertPending([old])).toBe("stored");
    expect(await comprobantes.inFlight([sent.id, old.id])).toEqual(new Set([sent.id]));
    // sent again: the earlier send's time is answered, to be put back once this one is answered
    const again = await comprobantes.markResending(sent.id, 60_000, fence);
    expect(again?.before).toBeInstanceOf(Date);
    await comprobantes.endSend([sent.id], again!.before, fence);
    expect(await comprobantes.inFlight([sent.id])).toEqual(new Set([sent.id]));
    // the only send answered: nothing can land any more
    await comprobantes.endSend([sent.id], null, fence);
    expect(await comprobantes.inFlight([sent.id])).toEqual(new Set());
    // not while the lease is another's
    expect(await comprobantes.markResending(old.id, 60_000, { series: key, owner: "x" })).toBe(
      undefined,
    );
  });

  it("one live voucher per Idempotency-Key: a second attempt waits until the first is settled", async () => {
    const key = newSeries();
    const first = voucher(key, 1, "clave-1");
    expect(await comprobantes.insertPending([first])).toBe("stored");
    expect(await comprobantes.insertPending([voucher(key, 2, "clave-1")])).toBe("key-live");
    expect(await comprobantes.liveKeys(first.accountId, ["clave-1", "clave-2"])).toEqual(
      new Set(["clave-1"]),
    );
    await comprobantes.markNotIssued(first.id, {});
    expect(await comprobantes.insertPending([voucher(key, 1, "clave-1")])).toBe("stored");
  });
});
