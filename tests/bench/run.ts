// `npm run bench`: FECompUltimoAutorizado answered by the simulator to a bare SOAP loop (the
// ceiling), then /api/wsfe/ultimo-comprobante through the whole gateway (edge → NATS → wsfe →
// SOAP → simulator) at concurrency 1 and 32, and the WSAA logins counted during the run. Then
// issuance one voucher at a time on one series, with the simulator answering at once and at
// 300 ms: the bare pair of calls an issuer needs (FECompUltimoAutorizado + FECAESolicitar)
// against POST /api/wsfe/facturas, whose difference is the gateway's own time per voucher.
import { randomBytes } from "node:crypto";
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { httpPost } from "@pasarela/authority";
import { makeControlClient } from "@pasarela/authority-sim";
import { connectBus } from "@pasarela/bus";
import { billing, ticket } from "@pasarela/contracts";
import { ensureDatabase, startStack } from "@pasarela/stack";
import { createLogger, startTracing } from "@pasarela/telemetry";
import { dropDatabase, resolveTestInfra } from "@pasarela/testing";
import { repoRoot } from "../support/cli.js";

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8_000);
const WARMUP_MS = 2_000;
const CUIT = "20111111112";
const PTO_VTA = 3;
const CBTE_TIPO = 6;
/** issuance: Factura C to a consumidor final; the bare loop numbers a series of its own */
const ISSUE_TIPO = 11;
const BARE_ISSUE_PTO_VTA = 4;
const AUTHORITY_LATENCIES_MS = [0, 300];

interface Figures {
  scenario: string;
  concurrency: number;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Runs `call` from `concurrency` loops for the duration; latencies in ms after a warm-up. */
async function load(
  scenario: string,
  concurrency: number,
  call: () => Promise<boolean>,
): Promise<Figures> {
  // warm up at the measured concurrency, so every process has compiled its hot paths
  const warmUntil = performance.now() + WARMUP_MS;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < warmUntil) await call();
    }),
  );
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const until = started + DURATION_MS;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const ok = await call();
        latencies.push(performance.now() - t0);
        if (!ok) errors++;
      }
    }),
  );
  const elapsed = performance.now() - started;
  const rate = (latencies.length / elapsed) * 1000;
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    scenario,
    concurrency,
    requests: latencies.length,
    errors,
    // slow scenarios (issuance against a slowed authority) keep two decimals
    rps: rate < 100 ? Math.round(rate * 100) / 100 : Math.round(rate),
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
  };
}

async function main(): Promise<void> {
  const infra = await resolveTestInfra();
  const databaseUrl = await ensureDatabase(infra.databaseUrl, `pasarela_bench_${process.pid}`);
  const prefix = `bench${randomBytes(3).toString("hex")}`;
  const stack = await startStack({
    root: repoRoot,
    natsUrl: infra.natsUrl,
    databaseUrl,
    prefix,
    simulator: {},
    env: {
      API_KEY_PEPPER: randomBytes(32).toString("base64"),
      KEY_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      LOG_LEVEL: "warn",
    },
    output: "memory",
  });
  const logger = createLogger({ service: "bench", level: "warn" });
  const bus = await connectBus({
    url: infra.natsUrl,
    prefix,
    name: "bench",
    logger,
    tracer: startTracing({ service: "bench" }).tracer,
  });
  const control = makeControlClient(stack.simulatorUrl!);
  const must = <T>(
    result: { ok: true; value: T } | { ok: false; error: { message: string } },
  ): T => {
    if (!result.ok) throw new Error(result.error.message);
    return result.value;
  };
  try {
    // account, key, representada, certificate, delegation, point of sale
    const { accountId } = must(await bus.request(billing.accountCreate, { name: "bench" }));
    const { secret } = must(
      await bus.request(billing.keyCreate, { accountId, scope: "read_only" }),
    );
    const representada = must(
      await bus.request(ticket.representadaCreate, {
        accountId,
        cuit: CUIT,
        environment: "homologacion",
        alias: "bench",
        ptoVta: PTO_VTA,
      }),
    );
    const certificate = await control.issueCertificate("homologacion", representada.csr);
    must(
      await bus.request(ticket.certificateCreate, {
        representadaId: representada.representadaId,
        certificate,
      }),
    );
    await control.delegate("homologacion", { cuit: CUIT, alias: "bench", service: "wsfe" });
    await control.enablePointOfSale("homologacion", { cuit: CUIT, ptoVta: PTO_VTA });
    await control.enablePointOfSale("homologacion", { cuit: CUIT, ptoVta: BARE_ISSUE_PTO_VTA });
    const writer = must(await bus.request(billing.keyCreate, { accountId, scope: "read_write" }));

    // The one WSAA login of the run, through the ticket service; the bare loop reuses its TA.
    const ta = must(
      await bus.request(
        ticket.accessGet,
        { cuit: CUIT, environment: "homologacion", service: "wsfe" },
        { accountId },
      ),
    );
    const wsfeUrl = `${stack.simulatorUrl!}/homologacion/wsfev1/service.asmx`;
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
    const gatewayCall = (body: Record<string, unknown>) => {
      const text = JSON.stringify(body);
      return async () => {
        const answer = await httpPost(
          `${stack.edgeUrl}/api/wsfe/ultimo-comprobante`,
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
    if (!(await gateway()) || !(await gatewayDefault())) {
      throw new Error("the gateway does not answer /api/wsfe/ultimo-comprobante");
    }

    // every process compiles its hot paths before anything is measured
    for (const call of [bare, gateway, gatewayDefault]) await load("warm-up", 16, call);

    const figures: Figures[] = [];
    for (const concurrency of [1, 32]) {
      figures.push(await load("simulator, bare SOAP loop (ceiling)", concurrency, bare));
      figures.push(await load("gateway /api/wsfe/ultimo-comprobante", concurrency, gateway));
      figures.push(await load("gateway, ptoVta omitted", concurrency, gatewayDefault));
    }
    // issuance, one voucher at a time on one series
    const soap = async (operation: string, inner: string) => {
      const answer = await httpPost(
        wsfeUrl,
        {
          "content-type": "text/xml; charset=utf-8",
          soapaction: `"http://ar.gov.afip.dif.FEV1/${operation}"`,
        },
        `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">` +
          `<soap:Body><${operation} xmlns="http://ar.gov.afip.dif.FEV1/"><Auth><Token>${ta.token}</Token>` +
          `<Sign>${ta.sign}</Sign><Cuit>${CUIT}</Cuit></Auth>${inner}</${operation}></soap:Body></soap:Envelope>`,
        10_000,
      );
      return answer.status === 200 ? answer.text : "";
    };
    const argentinaToday = () =>
      new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10).replaceAll("-", "");
    // what any issuer must send per voucher: the last number, then the voucher numbered after it
    const bareIssue = async () => {
      const last = /<CbteNro>(\d+)<\/CbteNro>/.exec(
        await soap(
          "FECompUltimoAutorizado",
          `<PtoVta>${BARE_ISSUE_PTO_VTA}</PtoVta><CbteTipo>${ISSUE_TIPO}</CbteTipo>`,
        ),
      );
      if (!last) return false;
      const nro = Number(last[1]) + 1;
      const answer = await soap(
        "FECAESolicitar",
        `<FeCAEReq><FeCabReq><CantReg>1</CantReg><PtoVta>${BARE_ISSUE_PTO_VTA}</PtoVta><CbteTipo>${ISSUE_TIPO}</CbteTipo></FeCabReq>` +
          `<FeDetReq><FECAEDetRequest><Concepto>1</Concepto><DocTipo>99</DocTipo><DocNro>0</DocNro>` +
          `<CbteDesde>${nro}</CbteDesde><CbteHasta>${nro}</CbteHasta><CbteFch>${argentinaToday()}</CbteFch>` +
          `<ImpTotal>1210.50</ImpTotal><ImpTotConc>0.00</ImpTotConc><ImpNeto>1210.50</ImpNeto><ImpOpEx>0.00</ImpOpEx>` +
          `<ImpTrib>0.00</ImpTrib><ImpIVA>0.00</ImpIVA><MonId>PES</MonId><MonCotiz>1</MonCotiz>` +
          `<CondicionIVAReceptorId>5</CondicionIVAReceptorId></FECAEDetRequest></FeDetReq></FeCAEReq>`,
      );
      return answer.includes("<Resultado>A</Resultado>");
    };
    const factura = JSON.stringify({
      environment: "homologacion",
      representada: CUIT,
      ptoVta: PTO_VTA,
      cbteTipo: ISSUE_TIPO,
      concepto: 1,
      docTipo: 99,
      docNro: "0",
      condicionIvaReceptorId: 5,
      items: [{ descripcion: "Servicio", cantidad: 1, precioUnitario: "1210.50", alicuotaIva: 0 }],
    });
    const gatewayIssue = async () => {
      const answer = await httpPost(
        `${stack.edgeUrl}/api/wsfe/facturas`,
        { authorization: `Bearer ${writer.secret}`, "content-type": "application/json" },
        factura,
        30_000,
      );
      return answer.status === 200;
    };
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
    await control.setFault("homologacion", { service: "wsfe", mode: "none", latencyMs: 0 });

    const stats = await control.stats("homologacion");
    const logins = Object.entries(stats.logins);

    const [bare1, gw1, , bare32, gw32] = figures;
    const lines = [
      `| scenario | concurrency | requests | errors | req/s | p50 ms | p99 ms |`,
      `|---|---|---|---|---|---|---|`,
      ...figures.map(
        (f) =>
          `| ${f.scenario} | ${f.concurrency} | ${f.requests} | ${f.errors} | ${f.rps} | ${f.p50} | ${f.p99} |`,
      ),
      "",
      `gateway throughput at concurrency 32: ${Math.round((gw32!.rps / bare32!.rps) * 100)}% of the ceiling (target ≥ 50%)`,
      `gateway p50 overhead at concurrency 1: ${(gw1!.p50 - bare1!.p50).toFixed(2)} ms (target ≤ 2 ms)`,
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
          issuance,
          logins: stats.logins,
        },
        null,
        2,
      ),
    );
  } finally {
    await bus.close();
    await stack.stop();
    await dropDatabase(infra.databaseUrl, `pasarela_bench_${process.pid}`);
    await infra.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
