import { randomBytes, randomUUID } from "node:crypto";
import type { AccessTicketCache } from "@pasarela/authority";
import { makeWsfexAdapter } from "@pasarela/authority";
import {
  makeControlClient,
  startSimulator,
  type ControlClient,
  type Simulator,
} from "@pasarela/authority-sim";
import { billing, mail, ticket, wsfe } from "@pasarela/contracts";
import { openDatabase, type Database } from "@pasarela/db";
import { ok } from "@pasarela/errors";
import { makeSealer } from "@pasarela/sealing";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeVoucherAuthority } from "../../src/adapters/voucher-authority.js";
import { makeWsfeCaeaInformeAdapter } from "../../src/adapters/wsfe-caea-informe.js";
import { makeWsfeCaeaAdapter } from "../../src/adapters/wsfe-caea.js";
import { makeWsfeAdapter } from "../../src/adapters/wsfe.js";
import type { WsfeDatabase } from "../../src/db/database.js";
import { makeCaeaInformesRepository } from "../../src/db/repositories/caea-informes.js";
import { makeCaeasRepository, type StoredCaea } from "../../src/db/repositories/caeas.js";
import { makeComprobantesRepository } from "../../src/db/repositories/comprobantes.js";
import { makeExportacionIdsRepository } from "../../src/db/repositories/exportacion-ids.js";
import { makeSeriesRepository, type SeriesKey } from "../../src/db/repositories/series.js";
import { quincenaDe } from "../../src/domain/caea/quincena.js";
import type { FECAEDetRequest } from "../../src/domain/issuance/index.js";
import { domesticSummary } from "../../src/domain/voucher-summary.js";
import { startCaeaInformer } from "../../src/flows/caea-informar.js";
import { makeSeriesWriter } from "../../src/flows/series-writer.js";
import { simTicket } from "../sim-ticket.js";

const ENV = "homologacion";
const CUIT = "20222222223";
const ACCOUNT = randomUUID();
const DAY = 86_400_000;

/** yyyymmdd and yyyymmddhhmmss in Argentina at `at`. */
const arDay = (at: number) =>
  new Date(at - 3 * 3_600_000).toISOString().slice(0, 10).replace(/-/g, "");
const arStamp = (at: number) =>
  new Date(at - 3 * 3_600_000).toISOString().slice(0, 19).replace(/[-T:]/g, "");

/**
 * The informing job against the simulator over real SOAP and a real PostgreSQL: the vouchers
 * issued under a CAEA are stored as issuance stores them, then each pass is checked against
 * what the simulator itself holds. The bus is the one stand-in: a recorder of what wsfe
 * publishes, answering for billing (the owner) and ticket (the contingency list);
 * tests/e2e/caea-informar.test.ts runs the same with the real services.
 */
describe("the CAEA informing job against the simulator", () => {
  let sim: Simulator;
  let control: ControlClient;
  let infra: FileInfra;
  let database: Database<WsfeDatabase>;
  let caea: StoredCaea;
  const published: { subject: string; body: Record<string, unknown> }[] = [];
  let contingencia: number[] = [];
  const { logger } = capturingLogger("wsfe");
  let deps: Omit<Parameters<typeof startCaeaInformer>[0], "writer">;
  let wsfeAdapter: ReturnType<typeof makeWsfeAdapter>;
  let informe: ReturnType<typeof makeWsfeCaeaInformeAdapter>;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
    control = makeControlClient(sim.url);
    for (const ptoVta of [90, 91, 92, 94, 95]) {
      await control.enablePointOfSale(ENV, { cuit: CUIT, ptoVta, emisionTipo: "CAEA" });
    }
    await control.enablePointOfSale(ENV, { cuit: CUIT, ptoVta: 93, emisionTipo: "CAE" });
    const held = {
      ...(await simTicket(sim, control, ENV, CUIT, "informe")),
      cuit: CUIT,
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      certificateNotAfter: new Date(Date.now() + 86_400_000).toISOString(),
    };
    const tickets: AccessTicketCache = {
      get: () => Promise.resolve(ok(held)),
      invalidate: () => {},
      clear: () => {},
    };
    const url = sim.endpoints(ENV).wsfe;
    const adapterDeps = { urls: { homologacion: url, produccion: url }, timeoutMs: 5_000, tickets };
    infra = await fileInfra();
    database = openDatabase<WsfeDatabase>({ url: infra.databaseUrl, schema: "wsfe" });
    const caeas = makeCaeasRepository(database.db, makeSealer(randomBytes(32).toString("base64")));
    const granted = await makeWsfeCaeaAdapter(adapterDeps).solicitar(
      { accountId: ACCOUNT, cuit: CUIT, environment: ENV },
      quincenaDe(new Date()),
    );
    if (!granted.ok || granted.value.kind !== "otorgado") throw new Error(JSON.stringify(granted));
    await caeas.store({ environment: ENV, cuit: CUIT }, granted.value.caea);
    caea = (await caeas.find({ environment: ENV, cuit: CUIT }, granted.value.caea))!;
    wsfeAdapter = makeWsfeAdapter(adapterDeps);
    informe = makeWsfeCaeaInformeAdapter(adapterDeps);
    const authority = makeVoucherAuthority({
      wsfe: wsfeAdapter,
      wsfex: makeWsfexAdapter(adapterDeps),
      ids: makeExportacionIdsRepository(database.db),
      logger,
    });
    deps = {
      bus: {
        request: ((contract: { subject: string }) =>
          Promise.resolve(
            contract.subject === ticket.contingenciaList.subject
              ? ok({
                  representadas: [
                    {
                      accountId: ACCOUNT,
                      cuit: CUIT,
                      environment: ENV,
                      puntosDeVenta: contingencia,
                    },
                  ],
                })
              : contract.subject === billing.accountOwnerGet.subject
                ? ok({
                    userId: ACCOUNT,
                    accountId: ACCOUNT,
                    accountName: "Tienda",
                    name: "Ana",
                    email: "ana@example.com",
                  })
                : ok({}),
          )) as never,
        publish: (contract: { subject: string }, body: Record<string, unknown>) => {
          published.push({ subject: contract.subject, body });
          return Promise.resolve();
        },
      },
      // two vouchers a request, so a handful of vouchers makes several batches
      authority: { ...authority, perRequest: () => Promise.resolve(ok(2)) },
      wsfe: wsfeAdapter,
      informe,
      informes: makeCaeaInformesRepository(database.db),
      caeas,
      logger,
      intervalMs: 3_600_000,
      retryBaseMs: 60_000,
      retryMaxMs: 600_000,
      waitMs: 10_000,
    };
  });

  afterAll(async () => {
    await database?.close();
    await infra?.cleanup();
    await sim?.close();
  });

  const series = (ptoVta: number): SeriesKey => ({
    environment: ENV,
    cuit: CUIT,
    ptoVta,
    cbteTipo: 11,
  });

  /** What a contingency voucher C of final consumer numbered `cbteNro` was handed out as. */
  const detail = (cbteNro: number, cbteFch = arDay(Date.now())): FECAEDetRequest => ({
    Concepto: 1,
    DocTipo: 99,
    DocNro: "0",
    CbteDesde: cbteNro,
    CbteHasta: cbteNro,
    CbteFch: cbteFch,
    ImpTotal: `${100 + cbteNro}.00`,
    ImpTotConc: "0.00",
    ImpNeto: `${100 + cbteNro}.00`,
    ImpOpEx: "0.00",
    ImpTrib: "0.00",
    ImpIVA: "0.00",
    MonId: "PES",
    MonCotiz: "1",
    CondicionIVAReceptorId: 5,
  });

  /** Stores CAEA vouchers as contingency issuance leaves them: authorized, pending informing. */
  async function issued(ptoVta: number, numbers: number[], sent = detail): Promise<string[]> {
    const comprobantes = makeComprobantesRepository(database.db);
    const ids: string[] = [];
    for (const n of numbers) {
      const id = randomUUID();
      const d = sent(n);
      expect(
        await comprobantes.insertPending([
          {
            id,
            accountId: ACCOUNT,
            series: series(ptoVta),
            cbteNro: n,
            sent: d,
            summary: domesticSummary(d),
            request: { items: [] },
            emailTo: null,
            idempotencyKey: null,
            requestId: randomUUID(),
          },
        ]),
      ).toBe("stored");
      await database.db
        .updateTable("comprobantes")
        .where("id", "=", id)
        .set({
          state: "authorized",
          resultado: "A",
          cae: caea.caea,
          cae_vencimiento: caea.fchVigHasta,
          tipo_autorizacion: "CAEA",
          caea_estado: "pendiente",
          caea_periodo: caea.periodo,
          caea_orden: caea.orden,
          cbte_fch_hs_gen: arStamp(Date.now()),
          answered_at: sql<Date>`now()`,
        })
        .execute();
      ids.push(id);
    }
    return ids;
  }

  const rows = (ids: string[]) =>
    database.db
      .selectFrom("comprobantes")
      .selectAll()
      .where("id", "in", ids)
      .orderBy("cbte_nro")
      .execute();

  /** One pass of a fresh informer (a process of its own: its own lease owner). */
  async function pass(extra: { now?: () => number } = {}) {
    const writer = makeSeriesWriter({
      series: makeSeriesRepository(database.db),
      owner: `test:${randomUUID()}`,
      leaseMs: 5_000,
    });
    const informer = startCaeaInformer({ ...deps, ...extra, writer });
    await informer.run();
    await informer.stop();
  }

  const informedAt = async (ptoVta: number) =>
    (await control.caeas(ENV, CUIT)).caeas
      .flatMap((c) => c.vouchers)
      .filter((v) => v.ptoVta === ptoVta)
      .map((v) => v.cbteNro);
  const requests = async (operation: string) => (await control.stats(ENV)).requests[operation] ?? 0;
  const eventsOf = (subject: string, ids: string[]) =>
    published.filter((p) => p.subject === subject && ids.includes(p.body.comprobanteId as string));

  it("informs every pending voucher once, in order and in batches, each with its event", async () => {
    const ids = await issued(90, [1, 2, 3, 4, 5]);
    const before = await requests("FECAEARegInformativo");
    await pass();
    const stored = await rows(ids);
    expect(stored.map((r) => r.caea_estado)).toEqual(Array(5).fill("informado"));
    expect(stored.every((r) => r.caea_informado_at !== null && r.caea_evento_at !== null)).toBe(
      true,
    );
    expect(await informedAt(90)).toEqual([1, 2, 3, 4, 5]);
    // two a request
    expect((await requests("FECAEARegInformativo")) - before).toBe(3);
    const events = eventsOf(wsfe.comprobanteCaeaInformado.subject, ids);
    expect(events.map((e) => e.body.id)).toEqual(
      ids.map((id) => wsfe.comprobanteEventId(id, "caea_informado")),
    );
    expect(events[0]!.body).toMatchObject({ caea: caea.caea, cbteNro: 1, ptoVta: 90 });
    // the authority holds them as CAEA vouchers
    const looked = await wsfeAdapter.consultar(
      { accountId: ACCOUNT, cuit: CUIT, environment: ENV },
      { ptoVta: 90, cbteTipo: 11, cbteNro: 3 },
    );
    expect(looked.ok && looked.value).toMatchObject({
      emisionTipo: "CAEA",
      codAutorizacion: caea.caea,
    });

    // nothing left: a second pass sends nothing
    const after = await requests("FECAEARegInformativo");
    await pass();
    expect(await requests("FECAEARegInformativo")).toBe(after);
  });

  it("adopts what an attempt whose answer was lost informed, and sends only the rest", async () => {
    const ids = await issued(91, [1, 2, 3]);
    const lost = await informe.informar(
      { accountId: ACCOUNT, cuit: CUIT, environment: ENV },
      {
        ptoVta: 91,
        cbteTipo: 11,
        detalles: (await rows(ids.slice(0, 2))).map((r) => ({
          sent: r.sent as FECAEDetRequest,
          caea: caea.caea,
          cbteFchHsGen: r.cbte_fch_hs_gen!,
        })),
      },
    );
    expect(lost.kind === "judged" && lost.resultado).toBe("A");
    const consultas = await requests("FECompConsultar");
    const before = await requests("FECAEARegInformativo");
    await pass();
    expect((await rows(ids)).map((r) => r.caea_estado)).toEqual(Array(3).fill("informado"));
    expect(await informedAt(91)).toEqual([1, 2, 3]);
    expect((await requests("FECompConsultar")) - consultas).toBe(2);
    expect((await requests("FECAEARegInformativo")) - before).toBe(1);
  });

  it("rejects a voucher the authority refuses, holds the numbers after it, then resumes", async () => {
    // voucher 2 dated before the CAEA's fortnight: the authority refuses it (702)
    const before = new Date(
      Date.parse(
        `${caea.fchVigDesde.slice(0, 4)}-${caea.fchVigDesde.slice(4, 6)}-${caea.fchVigDesde.slice(6)}T12:00:00Z`,
      ) - DAY,
    );
    const outside = before.toISOString().slice(0, 10).replace(/-/g, "");
    const ids = await issued(92, [1, 2, 3, 4], (n) => detail(n, n === 2 ? outside : undefined));
    await pass();
    let stored = await rows(ids);
    expect(stored.map((r) => [r.state, r.caea_estado])).toEqual([
      ["authorized", "informado"],
      ["caea_rechazado", "rechazado"],
      ["authorized", "pendiente"],
      ["authorized", "pendiente"],
    ]);
    expect((stored[1]!.observaciones as { code: number }[]).map((o) => o.code)).toContain(702);
    expect(stored[2]!.caea_failure).toMatchObject({
      reason: "blocked by a voucher rejected at informing",
      cbteNro: 2,
    });
    const rejected = eventsOf(wsfe.comprobanteCaeaRechazado.subject, [ids[1]!]);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.body).toMatchObject({
      id: wsfe.comprobanteEventId(ids[1]!, "caea_rechazado"),
      cbteNro: 2,
      caea: caea.caea,
    });
    const email = published.filter(
      (p) =>
        p.subject === mail.mensajeJob.subject && String(p.body.text).includes("00092-00000002"),
    );
    expect(email).toHaveLength(1);
    expect(email[0]!.body).toMatchObject({ to: "ana@example.com" });
    expect(String(email[0]!.body.text)).toContain("702");
    expect(await informedAt(92)).toEqual([1]);

    // held: a pass sends nothing more while number 2 is not informed at the authority
    const sent = await requests("FECAEARegInformativo");
    await pass();
    expect(await requests("FECAEARegInformativo")).toBe(sent);

    // the account regularizes number 2 at the authority: 3 and 4 follow on the next pass
    const fixed = await informe.informar(
      { accountId: ACCOUNT, cuit: CUIT, environment: ENV },
      {
        ptoVta: 92,
        cbteTipo: 11,
        detalles: [{ sent: detail(2), caea: caea.caea, cbteFchHsGen: arStamp(Date.now()) }],
      },
    );
    expect(fixed.kind === "judged" && fixed.resultado).toBe("A");
    // the held series is looked at again once its wait is over
    await pass({ now: () => Date.now() + 10 * 60_000 });
    stored = await rows(ids);
    expect(stored.map((r) => r.caea_estado)).toEqual([
      "informado",
      "rechazado",
      "informado",
      "informado",
    ]);
    expect(await informedAt(92)).toEqual([1, 2, 3, 4]);
    // the rejected voucher stays rejected and was told once
    expect(eventsOf(wsfe.comprobanteCaeaRechazado.subject, [ids[1]!])).toHaveLength(1);
  });

  it("keeps the vouchers pending and backs off when the authority refuses the request (701)", async () => {
    const ids = await issued(93, [1, 2]);
    const before = await requests("FECAEARegInformativo");
    await pass();
    let stored = await rows(ids);
    expect(stored.map((r) => [r.state, r.caea_estado, r.caea_intentos])).toEqual([
      ["authorized", "pendiente", 1],
      ["authorized", "pendiente", 1],
    ]);
    expect(stored[0]!.caea_failure).toMatchObject({
      reason: "refused by the authority",
      errores: [expect.objectContaining({ code: 701 })],
    });
    expect((await requests("FECAEARegInformativo")) - before).toBe(1);
    // within the wait, nothing is sent again; after it, it is
    await pass();
    expect((await requests("FECAEARegInformativo")) - before).toBe(1);
    await pass({ now: () => Date.now() + 61_000 });
    expect((await requests("FECAEARegInformativo")) - before).toBe(2);
    stored = await rows(ids);
    expect(stored[0]!.caea_intentos).toBe(2);
    expect(eventsOf(wsfe.comprobanteCaeaRechazado.subject, ids)).toHaveLength(0);
  });

  it("informs each voucher once when two instances inform the same series at once", async () => {
    const ids = await issued(94, [1, 2, 3, 4, 5, 6, 7]);
    const before = await requests("FECAEARegInformativo");
    await Promise.all([pass(), pass(), pass()]);
    expect((await rows(ids)).map((r) => r.caea_estado)).toEqual(Array(7).fill("informado"));
    expect(await informedAt(94)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // one writer at a time: every request informed something, none was refused as a repeat
    expect((await requests("FECAEARegInformativo")) - before).toBe(4);
    const events = eventsOf(wsfe.comprobanteCaeaInformado.subject, ids);
    expect(new Set(events.map((e) => e.body.id)).size).toBe(7);
  });

  it("declares once, after the fortnight, each contingency point of sale that issued nothing", async () => {
    // 95 was declared by an attempt whose answer was lost
    const lost = await informe.sinMovimientoInformar(
      { accountId: ACCOUNT, cuit: CUIT, environment: ENV },
      { ptoVta: 95, caea: caea.caea },
    );
    expect(lost.ok && lost.value.resultado).toBe("A");
    contingencia = [90, 91, 95, 96];
    await control.enablePointOfSale(ENV, { cuit: CUIT, ptoVta: 96, emisionTipo: "CAEA" });
    // the day after the fortnight (the authority takes a declaration from the fortnight's start)
    const after =
      Date.parse(
        `${caea.fchVigHasta.slice(0, 4)}-${caea.fchVigHasta.slice(4, 6)}-${caea.fchVigHasta.slice(6)}T15:00:00Z`,
      ) + DAY;
    const informar = await requests("FECAEASinMovimientoInformar");
    await pass({ now: () => after });
    await pass({ now: () => after });
    const declared = await database.db
      .selectFrom("caea_sin_movimiento")
      .selectAll()
      .where("cuit", "=", CUIT)
      .orderBy("pto_vta")
      .execute();
    expect(declared.map((d) => [d.pto_vta, d.resultado])).toEqual([
      [95, "A"],
      [96, "A"],
    ]);
    expect((await requests("FECAEASinMovimientoInformar")) - informar).toBe(1);
    const held = (await control.caeas(ENV, CUIT)).caeas.find((c) => c.caea === caea.caea)!;
    expect(held.sinMovimiento.map((s) => s.ptoVta).sort()).toEqual([95, 96]);
  });

  it("alerts the owner once per fortnight on vouchers uninformed 48 h before FchTopeInf", async () => {
    // still pending: the 701 ones of point of sale 93
    const tope = caea.fchTopeInf;
    const near =
      Date.parse(`${tope.slice(0, 4)}-${tope.slice(4, 6)}-${tope.slice(6)}T12:00:00Z`) - DAY;
    const mails = () =>
      published.filter(
        (p) =>
          p.subject === mail.mensajeJob.subject && String(p.body.subject).includes("sin informar"),
      );
    await pass({ now: () => near - 3 * DAY });
    expect(mails()).toHaveLength(0);
    await pass({ now: () => near });
    await pass({ now: () => near });
    expect(mails()).toHaveLength(1);
    expect(String(mails()[0]!.body.text)).toContain("2 comprobante(s)");
  });
});
