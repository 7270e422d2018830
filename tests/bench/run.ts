// `npm run bench`: FECompUltimoAutorizado answered by the simulator to a bare SOAP loop (the
// ceiling) and to a SOAP library client built from the WSDL (the `soap` package: what an
// integrator runs without the gateway), then /api/wsfe/ultimo-comprobante through the whole gateway (edge → NATS → wsfe →
// SOAP → simulator) at concurrency 1 and 32, the ceiling and the gateway in alternating rounds,
// and the WSAA logins counted during the run. Then
// issuance one voucher at a time on one series, with the simulator answering at once and at
// 300 ms: the bare pair of calls an issuer needs (FECompUltimoAutorizado + FECAESolicitar)
// against POST /api/wsfe/facturas, whose difference is the gateway's own time per voucher.
// Then BATCH_SIZE issuances sent at once on one series, which the gateway coalesces into
// batches (FECAESolicitar with CantReg > 1), against the one-at-a-time rate.
// Then export vouchers (POST /api/wsfex/facturas, FEXAuthorize: one voucher per call) with the
// simulator at 300 ms: one at a time, EXPORT_CONCURRENT callers at once on one series (its one
// writer sends them in turn) and the same callers spread over EXPORT_SERIES series.
// Then printed vouchers: POST /api/wsfe/comprobantes/pdf rendering a 1-item and a 200-item
// voucher (its stored file removed before each call) and served from storage.
// Last, webhook deliveries (webhooks.ts): a burst of vouchers, each delivered to several
// endpoints on a local receiver: deliveries/s and the latency from authorization to receipt.
// The query path is also measured through a second edge with usage recording off, to show
// what publishing every call to the usage history costs. Each query scenario also reports the
// CPU every process on its path spent per request (from /proc): steadier than the rates on a
// machine whose speed varies from run to run, and it shows which process a change relieved.
import { writeFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { httpPost } from "@pasarela/authority";
import { makeControlClient } from "@pasarela/authority-sim";
import { createClientAsync } from "soap";
import { repoRoot } from "../support/cli.js";
import { pidsOf, type Watched } from "./process-cpu.js";
import { measureIdleWake, type IdleWake } from "./idle-wake.js";
import { alternated, cpuTable, DURATION_MS, figureTable, load, type Figures } from "./load.js";
import { startBenchStack } from "./stack.js";
import {
  argentinaToday,
  bareIssuance,
  facturaBody,
  gatewayCall as postToGateway,
  registerIssuer,
} from "./issuer.js";
import { benchWebhooks, webhookLines } from "./webhooks.js";
import { summarizeProfiles } from "./profile.js";

const CUIT = "20111111112";
const PTO_VTA = 3;
const CBTE_TIPO = 6;
/** issuance: Factura C to a consumidor final; the bare loop numbers a series of its own */
const ISSUE_TIPO = 11;
const BARE_ISSUE_PTO_VTA = 4;
const AUTHORITY_LATENCIES_MS = [0, 300];
/** concurrent issuances on one series (a point of sale of their own) */
const BATCH_SIZE = Number(process.env.BENCH_BATCH_SIZE ?? 500);
const BATCH_PTO_VTA = 5;
/** export issuance: points of sale of their own (WSFEXv1), callers at once */
const EXPORT_PTO_VTAS = [7, 8, 9, 10];
const EXPORT_CONCURRENT = Number(process.env.BENCH_EXPORT_CONCURRENT ?? 16);
const EXPORT_LATENCY_MS = 300;
/**
 * BENCH_PROFILE_DIR: run the query scenarios only, with every process of the stack under
 * `--cpu-prof`, and print where each spends its time (profiles kept in that folder).
 */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
/** BENCH_QUERY_ONLY=1: the query scenarios only (ceiling, gateway, library client), for a quick look */
const QUERY_ONLY = process.env.BENCH_QUERY_ONLY === "1";
/** webhook deliveries: vouchers of a series of their own */
const WEBHOOKS_PTO_VTA = 11;
/** BENCH_WEBHOOKS_ONLY=1: the webhook deliveries only, for a quick look */
const WEBHOOKS_ONLY = process.env.BENCH_WEBHOOKS_ONLY === "1";
/**
 * BENCH_TOPOLOGY=processes: the services one process each (`npm start -- --processes`) rather
 * than every one in one process (`npm start`'s default)
 */
const TOPOLOGY = process.env.BENCH_TOPOLOGY === "processes" ? "processes" : "one";
/** BENCH_NODE_ARGS: flags for every node process of the stack, to try runtime settings */
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter((arg) => arg !== "");

/** BATCH_SIZE issuances sent together on one series, at one authority latency */
interface Batched {
  latencyMs: number;
  vouchers: number;
  errors: number;
  seconds: number;
  rps: number;
  feCaeSolicitar: number;
  /** vouchers/s against the one-at-a-time gateway rate at the same latency */
  speedup: number;
}

const idleWakeLine = (wake: IdleWake) =>
  `this machine's cost of waking a sleeping process: a bare node:http server spends ${wake.backToBackUs} µs of CPU per request back to back and ${wake.afterIdleUs} µs after ${wake.idleGapMs} ms asleep (${(wake.afterIdleUs / Math.max(wake.backToBackUs, 1)).toFixed(1)}×)`;

async function main(): Promise<void> {
  const bench = await startBenchStack(
    [...NODE_ARGS, ...(PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] : [])],
    TOPOLOGY,
  );
  process.stdout.write(`[bench] topology: ${TOPOLOGY}\n`);
  const { stack } = bench;
  const control = makeControlClient(stack.simulatorUrl!);
  try {
    // the operator CLI's calls: account, keys, representada, certificate, delegation, points
    // of sale; the one WSAA login of the run is the ticket wsfe asks, which the bare loops reuse
    const issuer = await registerIssuer(
      { connect: (identity) => bench.connect(identity), simulatorUrl: bench.stack.simulatorUrl! },
      control,
      {
        cuit: CUIT,
        alias: "bench",
        ptoVtas: [PTO_VTA, BARE_ISSUE_PTO_VTA, BATCH_PTO_VTA, WEBHOOKS_PTO_VTA],
      },
    );
    const { accountId, ta, wsfeUrl } = issuer;
    const secret = issuer.readSecret;
    const writer = { secret: issuer.writeSecret };
    await control.delegate("homologacion", { cuit: CUIT, alias: "bench", service: "wsfex" });
    for (const ptoVta of EXPORT_PTO_VTAS) {
      await control.enablePointOfSale("homologacion", { cuit: CUIT, ptoVta, service: "wsfex" });
    }
    const webhookFactura = JSON.stringify({
      ...(JSON.parse(facturaBody(CUIT, WEBHOOKS_PTO_VTA, ISSUE_TIPO)) as object),
      items: [{ descripcion: "Servicio", cantidad: 1, precioUnitario: "100", alicuotaIva: 0 }],
    });
    if (WEBHOOKS_ONLY) {
      const webhooks = await benchWebhooks(stack.edgeUrl, writer.secret, webhookFactura);
      process.stdout.write(`${webhookLines(webhooks).join("\n")}\n`);
      return;
    }

    const soapBody =
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">` +
      `<soap:Body><FECompUltimoAutorizado xmlns="http://ar.gov.afip.dif.FEV1/"><Auth><Token>${ta.token}</Token>` +
      `<Sign>${ta.sign}</Sign><Cuit>${CUIT}</Cuit></Auth><PtoVta>${PTO_VTA}</PtoVta><CbteTipo>${CBTE_TIPO}</CbteTipo>` +
      `</FECompUltimoAutorizado></soap:Body></soap:Envelope>`;
    // Both loops use the same keep-alive HTTP client, so the difference is the gateway's.
    const bare = async () => {
      const answer = await httpPost(
        wsfeUrl,
        {
          "content-type": "text/xml; charset=utf-8",
          soapaction: '"http://ar.gov.afip.dif.FEV1/FECompUltimoAutorizado"',
        },
        soapBody,
        10_000,
      );
      return answer.status === 200 && answer.text.includes("<CbteNro>");
    };
    // what an integrator does without the gateway: a SOAP library client built from the WSDL
    const library = await createClientAsync(`${wsfeUrl}?WSDL`);
    const libraryArgs = {
      Auth: { Token: ta.token, Sign: ta.sign, Cuit: CUIT },
      PtoVta: PTO_VTA,
      CbteTipo: CBTE_TIPO,
    };
    const viaLibrary = async () => {
      // the soap package builds its methods from the WSDL at run time: untyped
      const call = library.FECompUltimoAutorizadoAsync as (args: unknown) => Promise<unknown>;
      const [result] = (await call(libraryArgs)) as [
        { FECompUltimoAutorizadoResult?: { CbteNro?: unknown } },
      ];
      return result.FECompUltimoAutorizadoResult?.CbteNro !== undefined;
    };
    const unrecorded = await bench.edgeWithoutUsage();
    const gatewayCall = (body: Record<string, unknown>, edgeUrl = stack.edgeUrl) => {
      const text = JSON.stringify(body);
      return async () => {
        const answer = await httpPost(
          `${edgeUrl}/api/wsfe/ultimo-comprobante`,
          { authorization: `Bearer ${secret}`, "content-type": "application/json" },
          text,
          10_000,
        );
        return answer.status === 200;
      };
    };
    const query = { environment: "homologacion", representada: CUIT, cbteTipo: CBTE_TIPO };
    // the same work as the bare loop (point of sale named), and the representada's default
    const gateway = gatewayCall({ ...query, ptoVta: PTO_VTA });
    const gatewayDefault = gatewayCall(query);
    const gatewayUnrecorded = gatewayCall({ ...query, ptoVta: PTO_VTA }, unrecorded.url);
    if (!(await gateway()) || !(await gatewayDefault()) || !(await gatewayUnrecorded())) {
      throw new Error("the gateway does not answer /api/wsfe/ultimo-comprobante");
    }

    // every process compiles its hot paths before anything is measured
    if (!(await viaLibrary())) throw new Error("the SOAP library client gets no CbteNro");
    for (const call of [bare, viaLibrary, gateway, gatewayDefault, gatewayUnrecorded]) {
      await load("warm-up", 16, call);
    }

    // the processes a query runs through; the NATS and PostgreSQL servers are whichever run
    // here (PostgreSQL stores the usage history billing writes)
    const pidOf = (name: string) => () => {
      const pid = stack.pid(name);
      return pid === undefined ? [] : [pid];
    };
    // looked up once: a scan of /proc at every snapshot would be the bench's own work
    const natsServers = pidsOf("nats-server");
    const postgresProcesses = pidsOf("postgres");
    // one process runs every service, or each service its own (the simulator runs in the
    // stand-ins' process either way)
    const services: Watched =
      stack.topology === "one"
        ? { gateway: pidOf("gateway") }
        : { edge: pidOf("edge"), wsfe: pidOf("wsfe"), billing: pidOf("billing") };
    const watched: Watched = {
      bench: () => [process.pid],
      ...services,
      "nats-server": () => natsServers,
      "stand-ins": pidOf("stand-ins"),
      postgres: () => postgresProcesses,
    };
    // The ceiling and the gateway alternate; the SOAP library client, a reference row that
    // leaves much garbage behind in this process, runs after them.
    const figures: Figures[] = [];
    for (const concurrency of [1, 32]) {
      figures.push(
        ...(await alternated(
          concurrency,
          [
            ["simulator, bare SOAP loop (ceiling)", bare],
            ["gateway /api/wsfe/ultimo-comprobante", gateway],
            ["gateway, ptoVta omitted", gatewayDefault],
          ],
          watched,
        )),
        ...(await alternated(
          concurrency,
          [["simulator, SOAP library client (soap)", viaLibrary]],
          watched,
        )),
      );
    }
    // measured right after, so it describes the same spell of the machine
    const idleWake = await measureIdleWake();
    if (PROFILE_DIR || QUERY_ONLY) {
      await unrecorded.stop();
      process.stdout.write(
        `${[...figureTable(figures), "", ...cpuTable(figures), "", idleWakeLine(idleWake)].join("\n")}\n`,
      );
      return;
    }
    // usage recording on and off, alternated in rounds so a change in the machine's load
    // falls on both alike; the throughput of each is its requests over its time
    const recording: { concurrency: number; on: number; off: number }[] = [];
    for (const concurrency of [1, 32]) {
      const row = { concurrency, on: 0, off: 0 };
      for (let round = 0; round < 2; round++) {
        row.on += (await load("usage recorded", concurrency, gateway)).requests;
        row.off += (await load("usage recording off", concurrency, gatewayUnrecorded)).requests;
      }
      recording.push(row);
    }
    await unrecorded.stop();
    // issuance, one voucher at a time on one series
    const bareIssue = bareIssuance(issuer, BARE_ISSUE_PTO_VTA, ISSUE_TIPO);
    const factura = facturaBody(CUIT, PTO_VTA, ISSUE_TIPO);
    const gatewayIssue = postToGateway(
      `${stack.edgeUrl}/api/wsfe/facturas`,
      writer.secret,
      factura,
    );
    if (!(await bareIssue()) || !(await gatewayIssue())) {
      throw new Error("a voucher could not be issued (bare or through /api/wsfe/facturas)");
    }
    const issuance: (Figures & { latencyMs: number })[] = [];
    for (const latencyMs of AUTHORITY_LATENCIES_MS) {
      await control.setFault("homologacion", { service: "wsfe", mode: "none", latencyMs });
      const at = `simulator at ${latencyMs} ms`;
      issuance.push({
        ...(await load(`bare issuance (2 SOAP calls), ${at}`, 1, bareIssue)),
        latencyMs,
      });
      issuance.push({
        ...(await load(`gateway /api/wsfe/facturas, ${at}`, 1, gatewayIssue)),
        latencyMs,
      });
    }
    // BATCH_SIZE callers at once on one series, each with its own connection (fetch's pool
    // has no limit), so they all wait on the series' writer together
    const batchFactura = JSON.stringify({ ...JSON.parse(factura), ptoVta: BATCH_PTO_VTA });
    const batches: Batched[] = [];
    for (const latencyMs of AUTHORITY_LATENCIES_MS) {
      await control.setFault("homologacion", { service: "wsfe", mode: "none", latencyMs });
      const sentBefore = (await control.stats("homologacion")).requests.FECAESolicitar ?? 0;
      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: BATCH_SIZE }, () =>
          fetch(`${stack.edgeUrl}/api/wsfe/facturas`, {
            method: "POST",
            headers: {
              authorization: `Bearer ${writer.secret}`,
              "content-type": "application/json",
            },
            body: batchFactura,
          }).then(
            async (r) => {
              await r.arrayBuffer();
              return r.status === 200;
            },
            () => false,
          ),
        ),
      );
      const seconds = (performance.now() - started) / 1000;
      const sent =
        ((await control.stats("homologacion")).requests.FECAESolicitar ?? 0) - sentBefore;
      const serial = issuance.find(
        (f) => f.latencyMs === latencyMs && f.scenario.startsWith("gateway"),
      )!;
      const rps = BATCH_SIZE / seconds;
      batches.push({
        latencyMs,
        vouchers: answers.filter(Boolean).length,
        errors: answers.filter((a) => !a).length,
        seconds: Math.round(seconds * 100) / 100,
        rps: Math.round(rps * 10) / 10,
        feCaeSolicitar: sent,
        speedup: Math.round((rps / serial.rps) * 10) / 10,
      });
    }
    await control.setFault("homologacion", { service: "wsfe", mode: "none", latencyMs: 0 });

    // export vouchers: a Factura E of services in dollars, the rate given
    const exportacion = (ptoVta: number) =>
      JSON.stringify({
        environment: "homologacion",
        representada: CUIT,
        ptoVta,
        cbteTipo: 19,
        tipoExpo: 2,
        dstCmp: 212,
        cliente: {
          razonSocial: "Acme Inc.",
          domicilio: "500 Market St, San Francisco",
          cuitPais: "50000002124",
        },
        moneda: "DOL",
        cotizacion: "1050.25",
        idioma: 2,
        formaPago: "Wire transfer",
        fechaPago: argentinaToday(),
        items: [{ descripcion: "Services", cantidad: 1, unidadMedida: 7, precioUnitario: "100" }],
      });
    const exportIssue = (ptoVta: number) => {
      const body = exportacion(ptoVta);
      return async () => {
        const answer = await httpPost(
          `${stack.edgeUrl}/api/wsfex/facturas`,
          { authorization: `Bearer ${writer.secret}`, "content-type": "application/json" },
          body,
          60_000,
        );
        return answer.status === 200;
      };
    };
    await control.setFault("homologacion", {
      service: "wsfex",
      mode: "none",
      latencyMs: EXPORT_LATENCY_MS,
    });
    if (!(await exportIssue(EXPORT_PTO_VTAS[0]!)())) {
      throw new Error("an export voucher could not be issued (/api/wsfex/facturas)");
    }
    const exportSerial = await load(
      `gateway /api/wsfex/facturas, one at a time, simulator at ${EXPORT_LATENCY_MS} ms`,
      1,
      exportIssue(EXPORT_PTO_VTAS[0]!),
    );
    /** EXPORT_CONCURRENT callers at once over `series` points of sale */
    const exportBurst = async (series: readonly number[]) => {
      const authorizeBefore = (await control.stats("homologacion")).requests.FEXAuthorize ?? 0;
      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: EXPORT_CONCURRENT }, (_, i) =>
          exportIssue(series[i % series.length]!)().catch(() => false),
        ),
      );
      const seconds = (performance.now() - started) / 1000;
      const rps = EXPORT_CONCURRENT / seconds;
      return {
        series: series.length,
        vouchers: answers.filter(Boolean).length,
        errors: answers.filter((a) => !a).length,
        seconds: Math.round(seconds * 100) / 100,
        rps: Math.round(rps * 10) / 10,
        fexAuthorize:
          ((await control.stats("homologacion")).requests.FEXAuthorize ?? 0) - authorizeBefore,
        speedup: Math.round((rps / exportSerial.rps) * 10) / 10,
      };
    };
    const exportBursts = [
      await exportBurst(EXPORT_PTO_VTAS.slice(1, 2)),
      await exportBurst(EXPORT_PTO_VTAS),
    ];
    await control.setFault("homologacion", { service: "wsfex", mode: "none", latencyMs: 0 });

    // printed vouchers: a 1-item and a 200-item voucher of the issuance series
    const issueWith = async (items: unknown[]) => {
      const answer = await httpPost(
        `${stack.edgeUrl}/api/wsfe/facturas`,
        { authorization: `Bearer ${writer.secret}`, "content-type": "application/json" },
        JSON.stringify({ ...(JSON.parse(factura) as Record<string, unknown>), items }),
        30_000,
      );
      if (answer.status !== 200) throw new Error(`issuance for the pdf bench: ${answer.text}`);
      return (JSON.parse(answer.text) as { cbteNro: number }).cbteNro;
    };
    const oneItem = await issueWith([
      { descripcion: "Servicio", cantidad: 1, precioUnitario: "1210.50", alicuotaIva: 0 },
    ]);
    const manyItems = await issueWith(
      Array.from({ length: 200 }, (_, i) => ({
        codigo: `ART-${i + 1}`,
        descripcion: `Artículo número ${i + 1}`,
        cantidad: 1,
        precioUnitario: `${i + 1}.25`,
        alicuotaIva: 0,
      })),
    );
    const stored = (cbteNro: number) =>
      join(
        bench.pdfDir,
        "v2",
        accountId,
        "homologacion",
        CUIT,
        String(PTO_VTA),
        String(ISSUE_TIPO),
        `${cbteNro}-original.pdf`,
      );
    const printCall = (cbteNro: number, render: boolean) => {
      const body = JSON.stringify({
        environment: "homologacion",
        representada: CUIT,
        ptoVta: PTO_VTA,
        cbteTipo: ISSUE_TIPO,
        cbteNro,
      });
      return async () => {
        // a stored document that is missing is rendered again
        if (render) rmSync(stored(cbteNro), { force: true });
        const answer = await httpPost(
          `${stack.edgeUrl}/api/wsfe/comprobantes/pdf`,
          { authorization: `Bearer ${secret}`, "content-type": "application/json" },
          body,
          30_000,
        );
        return answer.status === 200 && answer.text.startsWith("%PDF-");
      };
    };
    const printing: Figures[] = [
      await load("render, 1 item", 1, printCall(oneItem, true)),
      await load("render, 200 items", 1, printCall(manyItems, true)),
      await load("served from storage, 1 item", 1, printCall(oneItem, false)),
      await load("served from storage, 200 items", 1, printCall(manyItems, false)),
      await load("served from storage, 1 item", 8, printCall(oneItem, false)),
    ];

    const webhooks = await benchWebhooks(stack.edgeUrl, writer.secret, webhookFactura);

    const stats = await control.stats("homologacion");
    const logins = Object.entries(stats.logins);

    const [bare1, gw1, , library1, bare32, gw32, , library32] = figures;
    const lines = [
      ...figureTable(figures),
      "",
      ...cpuTable(figures),
      "",
      `gateway throughput at concurrency 32: ${Math.round((gw32!.rps / bare32!.rps) * 100)}% of the ceiling (target ≥ 50%)`,
      `gateway at concurrency 1: ${gw1!.rps} req/s (target ≥ 650)`,
      `gateway p50 overhead at concurrency 1: ${(gw1!.p50 - bare1!.p50).toFixed(2)} ms (target ≤ 2 ms)`,
      `gateway against a SOAP library client of the simulator: ${Math.round((gw1!.rps / library1!.rps) * 100)}% of its throughput at concurrency 1, ${Math.round((gw32!.rps / library32!.rps) * 100)}% at 32`,
      ...recording.map(
        (r) =>
          `usage recording at concurrency ${r.concurrency}: ${r.on} requests recorded vs ${r.off} not (same time, alternated): ${(100 - (r.on / r.off) * 100).toFixed(1)}% less throughput (target ≤ 5%)`,
      ),
      idleWakeLine(idleWake),
      `WSAA logins during the run: ${logins.map(([k, n]) => `${k}: ${n}`).join(", ") || "none"} (target: exactly 1 per certificate and service)`,
      "",
      `| issuance, one at a time on one series | vouchers | errors | vouchers/s | p50 ms | p99 ms |`,
      `|---|---|---|---|---|---|`,
      ...issuance.map(
        (f) => `| ${f.scenario} | ${f.requests} | ${f.errors} | ${f.rps} | ${f.p50} | ${f.p99} |`,
      ),
      "",
      ...AUTHORITY_LATENCIES_MS.map((latencyMs) => {
        const [bareRun, gatewayRun] = issuance.filter((f) => f.latencyMs === latencyMs);
        return `gateway's own time per voucher, simulator at ${latencyMs} ms: ${(gatewayRun!.p50 - bareRun!.p50).toFixed(2)} ms at p50`;
      }),
      "",
      `| ${BATCH_SIZE} issuances at once on one series | authorized | errors | seconds | vouchers/s | FECAESolicitar calls | vs one at a time |`,
      `|---|---|---|---|---|---|---|`,
      ...batches.map(
        (b) =>
          `| simulator at ${b.latencyMs} ms | ${b.vouchers} | ${b.errors} | ${b.seconds} | ${b.rps} | ${b.feCaeSolicitar} | ${b.speedup}× |`,
      ),
      `coalesced batches at 300 ms: ${batches.find((b) => b.latencyMs === 300)?.speedup ?? "?"}× one at a time (target ≥ 25×)`,
      "",
      `| export issuance, simulator at ${EXPORT_LATENCY_MS} ms | series | authorized | errors | seconds | vouchers/s | FEXAuthorize calls | vs one at a time |`,
      `|---|---|---|---|---|---|---|---|`,
      `| one at a time | 1 | ${exportSerial.requests} | ${exportSerial.errors} | ${DURATION_MS / 1000} | ${exportSerial.rps} | | 1× |`,
      ...exportBursts.map(
        (b) =>
          `| ${EXPORT_CONCURRENT} at once | ${b.series} | ${b.vouchers} | ${b.errors} | ${b.seconds} | ${b.rps} | ${b.fexAuthorize} | ${b.speedup}× |`,
      ),
      `export issuance at ${EXPORT_LATENCY_MS} ms: ${exportSerial.rps} vouchers/s one at a time (p50 ${exportSerial.p50} ms); ${EXPORT_CONCURRENT} callers at once: ${exportBursts.map((b) => `${b.speedup}× on ${b.series} series`).join(", ")}`,
      "",
      `| POST /api/wsfe/comprobantes/pdf | concurrency | requests | errors | req/s | p50 ms | p99 ms |`,
      `|---|---|---|---|---|---|---|`,
      ...printing.map(
        (f) =>
          `| ${f.scenario} | ${f.concurrency} | ${f.requests} | ${f.errors} | ${f.rps} | ${f.p50} | ${f.p99} |`,
      ),
      "",
      ...webhookLines(webhooks),
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    mkdirSync(join(repoRoot, ".data"), { recursive: true });
    writeFileSync(
      join(repoRoot, ".data", "bench.json"),
      JSON.stringify(
        {
          at: new Date().toISOString(),
          durationMs: DURATION_MS,
          figures,
          idleWake,
          recording,
          issuance,
          printing,
          batches,
          exportacion: { serial: exportSerial, bursts: exportBursts },
          webhooks,
          logins: stats.logins,
        },
        null,
        2,
      ),
    );
  } finally {
    await bench.stop();
    // the profiles are written as the processes exit
    if (PROFILE_DIR) process.stdout.write(summarizeProfiles(PROFILE_DIR));
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
