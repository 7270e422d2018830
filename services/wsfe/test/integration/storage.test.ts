import { randomUUID } from "node:crypto";
import { ok } from "@pasarela/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ComprobantesEmailRepository } from "../../src/db/repositories/comprobantes-email.js";
import type { ComprobantesRepository } from "../../src/db/repositories/comprobantes.js";
import type { SeriesRepository } from "../../src/db/repositories/series.js";
import { makeSeriesWriter } from "../../src/flows/series-writer.js";
import { openWsfeStore, sent, seriesFrom, voucher, type WsfeStore } from "./fixture.js";

const newSeries = seriesFrom(100);

describe("wsfe storage: vouchers and series (PostgreSQL)", () => {
  let store: WsfeStore;
  let comprobantes: ComprobantesRepository;
  let series: SeriesRepository;
  let emails: ComprobantesEmailRepository;

  beforeAll(async () => {
    store = await openWsfeStore();
    ({ comprobantes, series, emails } = store);
  });

  afterAll(async () => {
    await store?.close();
  });

  describe("vouchers", () => {
    it("two live vouchers never hold one number of a series; a rejected one gives it back", async () => {
      const key = newSeries();
      const first = voucher(key, 1);
      expect(await comprobantes.insertPending([first])).toBe("stored");
      expect(await comprobantes.insertPending([voucher(key, 1)])).toBe("number-taken");
      // the same number on another series is another voucher
      expect(await comprobantes.insertPending([voucher({ ...key, cbteTipo: 13 }, 1)])).toBe(
        "stored",
      );
      expect(await comprobantes.markUnknown(first.id, { why: "timeout" })).toBe(true);
      expect(await comprobantes.insertPending([voucher(key, 1)])).toBe("number-taken");
      expect(
        await comprobantes.markRejected(first.id, { observaciones: [], errores: [], eventos: [] }),
      ).toMatchObject({ state: "rejected", resultado: "R" });
      expect(await comprobantes.insertPending([voucher(key, 1)])).toBe("stored");
    });

    it("keeps what was sent, with exact decimals, and a final state is never overwritten", async () => {
      const key = newSeries();
      const v = voucher(key, 7, { idempotencyKey: "pedido-7" });
      await comprobantes.insertPending([v]);
      expect(
        await comprobantes.markAuthorized(v.id, {
          cae: "71263951827464",
          caeVencimiento: "20261211",
          observaciones: [{ code: 10217, msg: "obs" }],
          eventos: [],
        }),
      ).toMatchObject({ id: v.id, state: "authorized" });
      expect(await comprobantes.markUnknown(v.id, {})).toBe(false);
      expect(await comprobantes.markNotIssued(v.id, {})).toBeUndefined();
      const stored = await comprobantes.find(v.id);
      expect(stored).toMatchObject({
        state: "authorized",
        cbteNro: 7,
        cae: "71263951827464",
        caeVencimiento: "20261211",
        resultado: "A",
        idempotencyKey: "pedido-7",
        totales: { impTotal: "121.00", impNeto: "121.00", impIVA: "0.00" },
        moneda: { id: "PES", cotizacion: "1" },
        observaciones: [{ code: 10217, msg: "obs" }],
        eventos: [],
        errores: [],
        sent: sent(7),
      });
    });

    it("an authorized voucher with a recipient gets its e-mail record; a rejected one none", async () => {
      const key = newSeries();
      const accountId = randomUUID();
      const a = voucher(key, 1, { accountId, emailTo: "cliente@example.com" });
      const r = voucher(key, 2, { accountId, emailTo: "otro@example.com" });
      await comprobantes.insertPending([a]);
      await comprobantes.insertPending([r]);
      await comprobantes.markAuthorized(a.id, {
        cae: "71263951827464",
        caeVencimiento: "20261211",
        observaciones: [],
        eventos: [],
      });
      await comprobantes.markRejected(r.id, { observaciones: [], errores: [], eventos: [] });
      const tuple = { accountId, ...key };
      expect(await emails.find({ ...tuple, cbteNro: 1 })).toEqual({
        to: "cliente@example.com",
        status: "pending",
        error: null,
      });
      expect(await emails.find({ ...tuple, cbteNro: 2 })).toBeUndefined();
    });

    it("a batch is stored pending and authorized in one statement each, e-mail records included", async () => {
      const key = newSeries();
      const accountId = randomUUID();
      const batch = [1, 2, 3].map((n) =>
        voucher(key, n, {
          accountId,
          idempotencyKey: `lote-${n}`,
          emailTo: n === 2 ? "lote@example.com" : null,
        }),
      );
      expect(await comprobantes.insertPending(batch)).toBe("stored");
      // one number already live: the whole batch is refused, nothing half-written
      expect(await comprobantes.insertPending([voucher(key, 4), voucher(key, 3)])).toBe(
        "number-taken",
      );
      expect((await comprobantes.unresolved(key)).map((v) => v.cbteNro)).toEqual([1, 2, 3]);
      await comprobantes.markUnknown(batch[2]!.id, {});
      await comprobantes.markRejected(batch[0]!.id, {
        observaciones: [],
        errores: [],
        eventos: [],
      });
      const authorized = await comprobantes.markManyAuthorized(
        batch.map((v, i) => ({
          id: v.id,
          cae: `7126395182746${i}`,
          caeVencimiento: "20261211",
          observaciones: i === 1 ? [{ code: 10217, msg: 'obs "citada"' }] : [],
          eventos: [{ code: 41, msg: "aviso" }],
        })),
      );
      // the rejected one stays rejected; the pending and the unknown ones are authorized
      expect(authorized.map((v) => [v.cbteNro, v.state, v.cae])).toEqual([
        [2, "authorized", "71263951827461"],
        [3, "authorized", "71263951827462"],
      ]);
      expect(await comprobantes.find(batch[1]!.id)).toMatchObject({
        observaciones: [{ code: 10217, msg: 'obs "citada"' }],
        eventos: [{ code: 41, msg: "aviso" }],
        idempotencyKey: "lote-2",
      });
      expect(await comprobantes.find(batch[0]!.id)).toMatchObject({ state: "rejected", cae: null });
      expect(await emails.find({ accountId, ...key, cbteNro: 2 })).toMatchObject({
        to: "lote@example.com",
      });
      expect((await comprobantes.byIdempotencyKey(accountId, "lote-3"))[0]).toMatchObject({
        state: "authorized",
        cbteNro: 3,
      });
    });

    it("lists the unresolved vouchers of a series, lowest number first", async () => {
      const key = newSeries();
      const [a, b, c] = [voucher(key, 3), voucher(key, 1), voucher(key, 2)];
      for (const v of [a, b, c]) await comprobantes.insertPending([v]);
      await comprobantes.markUnknown(a.id, {});
      await comprobantes.markNotIssued(c.id, {});
      expect((await comprobantes.unresolved(key)).map((v) => [v.cbteNro, v.state])).toEqual([
        [1, "pending"],
        [3, "unknown"],
      ]);
    });
  });

  describe("one writer per series", () => {
    it("two instances never run two jobs of one series at once", async () => {
      const key = newSeries();
      const writers = ["instance-a", "instance-b"].map((owner) =>
        makeSeriesWriter({ series, owner, leaseMs: 10_000, pollMs: 5 }),
      );
      let inside = 0;
      let most = 0;
      const holders: string[] = [];
      const deadline = Date.now() + 60_000;
      const jobs = Array.from({ length: 24 }, (_, i) =>
        writers[i % 2]!.run(key, deadline, async () => {
          inside++;
          most = Math.max(most, inside);
          const row = await series.find(key);
          holders.push(row?.writer_owner ?? "none");
          await new Promise((r) => setTimeout(r, 2));
          inside--;
          return ok(i);
        }),
      );
      const results = await Promise.all(jobs);
      expect(results.every((r) => r.ok)).toBe(true);
      expect(most).toBe(1);
      // while a job ran, the series' lease was its own instance's
      expect(holders.filter((h) => h === "none")).toEqual([]);
      expect(new Set(holders)).toEqual(new Set(["instance-a", "instance-b"]));
      // given back once both queues emptied (after the answers, off the callers' path)
      const givenBackBy = Date.now() + 10_000;
      while ((await series.find(key))?.writer_owner != null && Date.now() < givenBackBy) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect((await series.find(key))?.writer_owner).toBeNull();
    });

    it("a holder that died blocks the series only until its lease runs out", async () => {
      const key = newSeries();
      expect(await series.takeLease(key, "dead-instance", 300)).toBe(true);
      const writer = makeSeriesWriter({ series, owner: "alive", leaseMs: 10_000, pollMs: 20 });
      const result = await writer.run(key, Date.now() + 20_000, async () => {
        const row = await series.find(key);
        return ok(row?.writer_owner);
      });
      expect(result).toEqual({ ok: true, value: "alive" });
    });

    it("past its deadline a waiter answers 'unavailable' without running its job", async () => {
      const key = newSeries();
      expect(await series.takeLease(key, "busy-instance", 10_000)).toBe(true);
      const writer = makeSeriesWriter({ series, owner: "late", leaseMs: 10_000, pollMs: 20 });
      let ran = false;
      const result = await writer.run(key, Date.now() + 200, () => {
        ran = true;
        return Promise.resolve(ok(undefined));
      });
      expect(ran).toBe(false);
      expect(result.ok || result.error.code).toBe("SERVICE_UNAVAILABLE");
      await series.releaseLease(key, "busy-instance");
    });

    it("a lease taken over by another instance can no longer be renewed", async () => {
      const key = newSeries();
      expect(await series.takeLease(key, "first", 50)).toBe(true);
      await new Promise((r) => setTimeout(r, 100));
      expect(await series.takeLease(key, "second", 10_000)).toBe(true);
      expect(await series.renewLease(key, "first", 10_000)).toBe(false);
      expect(await series.renewLease(key, "second", 10_000)).toBe(true);
    });
  });
});
