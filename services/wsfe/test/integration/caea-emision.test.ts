import { randomBytes, randomUUID } from "node:crypto";
import { openDatabase, type Database } from "@pasarela/db";
import { fail, ok, authorityUnavailable, type Result } from "@pasarela/errors";
import { makeSealer } from "@pasarela/sealing";
import { fileInfra } from "@pasarela/testing";
import { createLogger } from "@pasarela/telemetry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WsfeDatabase } from "../../src/db/database.js";
import { makeCaeaComprobantesRepository } from "../../src/db/repositories/caea-comprobantes.js";
import { makeCaeasRepository } from "../../src/db/repositories/caeas.js";
import { makeComprobantesRepository } from "../../src/db/repositories/comprobantes.js";
import { makeSeriesRepository, type SeriesKey } from "../../src/db/repositories/series.js";
import { domesticSummary } from "../../src/domain/voucher-summary.js";
import { KEY_LAPSED } from "../../src/flows/issuance-job.js";
import { makeCaeaIssuer, type CaeaJob } from "../../src/flows/caea-issue.js";
import { makeSeriesWriter } from "../../src/flows/series-writer.js";
import { sent, seriesFrom } from "./fixture.js";

const newSeries = seriesFrom(300);
const CAEA = "31234567890123";
const logger = createLogger({ service: "test", level: "silent" });

/**
 * Issuing in contingency against PostgreSQL: numbering on the CAEA point of sale as its only
 * writer (after the authority's last the first time, then the gateway's own), the voucher
 * stored authorized by the fortnight's CAEA and awaiting informing with its e-mail record, one
 * live voucher per key, and no voucher without a CAEA for its date.
 */
describe("wsfe contingency issuance (PostgreSQL)", () => {
  let database: Database<WsfeDatabase>;
  let cleanup: () => Promise<void>;
  let lastAtAuthority: Result<number> = ok(0);
  const asked: SeriesKey[] = [];
  let issue: ReturnType<typeof makeCaeaIssuer>;
  let caeaComprobantes: ReturnType<typeof makeCaeaComprobantesRepository>;

  beforeAll(async () => {
    const infra = await fileInfra();
    cleanup = () => infra.cleanup();
    database = openDatabase<WsfeDatabase>({ url: infra.databaseUrl, schema: "wsfe" });
    const caeas = makeCaeasRepository(database.db, makeSealer(randomBytes(32).toString("base64")));
    await caeas.store(
      { environment: "homologacion", cuit: "20111111112" },
      {
        caea: CAEA,
        periodo: 202612,
        orden: 1,
        fchVigDesde: "20261201",
        fchVigHasta: "20261215",
        fchTopeInf: "20261223",
        fchProceso: "20261126120000",
      },
    );
    caeaComprobantes = makeCaeaComprobantesRepository(database.db);
    issue = makeCaeaIssuer({
      writer: makeSeriesWriter({
        series: makeSeriesRepository(database.db),
        owner: "test",
        leaseMs: 5_000,
      }),
      caeas,
      comprobantes: caeaComprobantes,
      authority: {
        ultimoAutorizado: (_caller, series) => {
          asked.push(series as SeriesKey);
          return Promise.resolve(lastAtAuthority);
        },
      },
      now: () => Date.parse("2026-12-03T13:04:05Z"),
    });
  });

  afterAll(async () => {
    await database?.close();
    await cleanup?.();
  });

  const job = (series: SeriesKey, extra: Partial<CaeaJob> = {}): CaeaJob => ({
    accountId: "7a0c5a36-6d2f-4a4e-8a53-0c6c1f0e3b11",
    caller: { accountId: "a", cuit: series.cuit, environment: series.environment },
    series,
    cbteFch: "20261201",
    request: { items: [] },
    emailTo: null,
    build: (cbteNro) => {
      const detail = sent(cbteNro);
      return { sent: detail, summary: domesticSummary(detail) };
    },
    reply: (granted) =>
      ({
        cbteNro: granted.cbteNro,
        cae: granted.cae,
        tipoAutorizacion: granted.tipoAutorizacion,
      }) as never,
    idempotencyKey: null,
    requestId: randomUUID(),
    deadline: Date.now() + 10_000,
    logger,
    ...extra,
  });

  it("numbers after the authority's last the first time, then after its own, in order", async () => {
    const series = newSeries();
    lastAtAuthority = ok(41);
    const first = await issue(job(series));
    expect(first).toEqual(ok({ cbteNro: 42, cae: CAEA, tipoAutorizacion: "CAEA" }));
    lastAtAuthority = fail(authorityUnavailable("caída"));
    const many = await Promise.all(Array.from({ length: 5 }, () => issue(job(series))));
    const numbers = many.map((r) => (r.ok ? (r.value as { cbteNro: number }).cbteNro : 0));
    expect(numbers.sort((a, b) => a - b)).toEqual([43, 44, 45, 46, 47]);
    // the authority was asked once, for the series it had never numbered here
    expect(asked.filter((s) => s.ptoVta === series.ptoVta)).toHaveLength(1);
  });

  it("stores the voucher authorized by the CAEA, awaiting informing, with its e-mail", async () => {
    const series = newSeries();
    lastAtAuthority = fail(authorityUnavailable("caída"));
    const settled: unknown[] = [];
    const requestId = randomUUID();
    const answer = await issue(
      job(series, {
        emailTo: "cliente@example.com",
        requestId,
        settled: (stored) => settled.push(stored),
      }),
    );
    expect(answer.ok).toBe(true);
    const [stored] = await caeaComprobantes.ofRequest(
      "7a0c5a36-6d2f-4a4e-8a53-0c6c1f0e3b11",
      requestId,
    );
    expect(stored).toMatchObject({
      state: "authorized",
      cbteNro: 1,
      cae: CAEA,
      caeVencimiento: "20261215",
      tipoAutorizacion: "CAEA",
      caea: { estado: "pendiente", periodo: 202612, orden: 1, cbteFchHsGen: "20261203100405" },
    });
    expect(settled).toEqual([stored]);
    const email = await database.db
      .selectFrom("comprobantes_email")
      .selectAll()
      .where("pto_vta", "=", series.ptoVta)
      .executeTakeFirst();
    expect(email).toMatchObject({ email_to: "cliente@example.com", status: "pending" });
  });

  it("holds one live voucher per key, and none without a CAEA for the date", async () => {
    const series = newSeries();
    const key = `caja-${randomUUID()}`;
    expect((await issue(job(series, { idempotencyKey: key }))).ok).toBe(true);
    const again = await issue(job(series, { idempotencyKey: key }));
    expect(again).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE" } });
    const later = await issue(job(series, { cbteFch: "20261216" }));
    expect(later).toMatchObject({
      ok: false,
      error: { code: "CAEA_NOT_AVAILABLE", details: { periodo: 202612, orden: 2 } },
    });
    expect(await caeaComprobantes.lastNumber(series)).toBe(1);
    // a CAE series holds nothing of this
    const comprobantes = makeComprobantesRepository(database.db);
    expect(await comprobantes.unresolved(series)).toEqual([]);
  });

  it("stores nothing for a call that let its Idempotency-Key go", async () => {
    const series = newSeries();
    lastAtAuthority = fail(authorityUnavailable("caída"));
    const lapsed = await issue(job(series, { keyHeld: () => false }));
    expect(lapsed).toMatchObject({
      ok: false,
      error: { code: "SERVICE_UNAVAILABLE", details: { reason: KEY_LAPSED } },
    });
    expect(await caeaComprobantes.lastNumber(series)).toBeUndefined();
    expect(await issue(job(series, { keyHeld: () => true }))).toMatchObject({
      ok: true,
      value: { cbteNro: 1 },
    });
    // the writer gives the series back after answering: let it, before the pool closes
    await expect
      .poll(async () => {
        const row = await database.db
          .selectFrom("series")
          .select("writer_owner")
          .where("environment", "=", series.environment)
          .where("cuit", "=", series.cuit)
          .where("pto_vta", "=", series.ptoVta)
          .where("cbte_tipo", "=", series.cbteTipo)
          .executeTakeFirst();
        return row?.writer_owner ?? null;
      })
      .toBeNull();
  });
});
