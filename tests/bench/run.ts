// `npm run bench`: FECompUltimoAutorizado answered by the simulator to a bare SOAP loop (the
// ceiling), then /api/wsfe/ultimo-comprobante through the whole gateway (edge → NATS → wsfe →
// SOAP → simulator) at concurrency 1 and 32, and the WSAA logins counted during the run.
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
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    scenario,
    concurrency,
    requests: latencies.length,
    errors,
    rps: Math.round((latencies.length / elapsed) * 1000),
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
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    mkdirSync(join(repoRoot, ".data"), { recursive: true });
    writeFileSync(
      join(repoRoot, ".data", "bench.json"),
      JSON.stringify(
        { at: new Date().toISOString(), durationMs: DURATION_MS, figures, logins: stats.logins },
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
