// `npm run bench:topologies`: the two topologies side by side in one run. Both stacks are
// started as `npm start` starts them (every service in one process; one process per service,
// `npm start -- --processes`), each with its own stand-ins, the same issuer registered on each,
// and their calls alternate in rounds with the ceiling, so a change in the machine's speed
// during the run falls on all of them alike:
//  - queries, POST /api/wsfe/ultimo-comprobante at concurrency 1 and 32, against the bare SOAP
//    loop on the simulator (the ceiling);
//  - issuance one voucher at a time on one series (POST /api/wsfe/facturas), against the bare
//    pair of calls an issuer needs (FECompUltimoAutorizado + FECAESolicitar);
//  - BENCH_BATCH_SIZE (200) issuances sent at once on another series, coalesced into batches.
// Each scenario prints the CPU every process of each stack spent per request, and the run ends
// with each stack's resident memory.
import { readFileSync } from "node:fs";
import { makeControlClient } from "@pasarela/authority-sim";
import { gatewayServices, type Topology } from "@pasarela/stack";
import {
  bareIssuance,
  facturaBody,
  gatewayCall,
  registerIssuer,
  soapCaller,
  type BenchIssuer,
} from "./issuer.js";
import { alternated, cpuTable, figureTable, type Figures } from "./load.js";
import { pidsOf, type Watched } from "./process-cpu.js";
import { startBenchStack, type BenchStack } from "./stack.js";

const CUIT = "20111111112";
const QUERY = { ptoVta: 3, cbteTipo: 6 };
const ISSUE = { ptoVta: 4, cbteTipo: 11 };
const BARE_ISSUE_PTO_VTA = 5;
const BATCH_PTO_VTA = 6;
const BATCH_SIZE = Number(process.env.BENCH_BATCH_SIZE ?? 200);
const TOPOLOGIES: readonly Topology[] = ["one", "processes"];

interface Side {
  topology: Topology;
  bench: BenchStack;
  issuer: BenchIssuer;
}

/** The resident memory of a stack's Node processes, in MB. */
function rssMb(pids: readonly number[]): number {
  let kb = 0;
  for (const pid of pids) {
    try {
      kb += Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
    } catch {
      // gone
    }
  }
  return Math.round(kb / 1024);
}

const gatewayPids = (side: Side): number[] =>
  side.topology === "one"
    ? [side.bench.stack.pid("gateway")!]
    : gatewayServices.map((name) => side.bench.stack.pid(name)!);

async function batch(side: Side): Promise<{ seconds: number; ok: number }> {
  const body = facturaBody(CUIT, BATCH_PTO_VTA, ISSUE.cbteTipo);
  const call = gatewayCall(
    `${side.bench.stack.edgeUrl}/api/wsfe/facturas`,
    side.issuer.writeSecret,
    body,
    60_000,
  );
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: BATCH_SIZE }, () => call().catch(() => false)),
  );
  return { seconds: (performance.now() - started) / 1000, ok: answers.filter(Boolean).length };
}

async function main(): Promise<void> {
  const sides: Side[] = [];
  try {
    for (const topology of TOPOLOGIES) {
      const bench = await startBenchStack([], topology);
      const control = makeControlClient(bench.stack.simulatorUrl!);
      const issuer = await registerIssuer(
        { connect: (identity) => bench.connect(identity), simulatorUrl: bench.stack.simulatorUrl! },
        control,
        {
          cuit: CUIT,
          alias: `bench-${topology}`,
          ptoVtas: [QUERY.ptoVta, ISSUE.ptoVta, BARE_ISSUE_PTO_VTA, BATCH_PTO_VTA],
        },
      );
      sides.push({ topology, bench, issuer });
    }
    const [one] = sides as [Side, Side];
    const soap = soapCaller(one.issuer);
    const queryInner = `<PtoVta>${QUERY.ptoVta}</PtoVta><CbteTipo>${QUERY.cbteTipo}</CbteTipo>`;
    const ceiling = async () =>
      (await soap("FECompUltimoAutorizado", queryInner)).includes("<CbteNro>");
    const query = (side: Side) =>
      gatewayCall(
        `${side.bench.stack.edgeUrl}/api/wsfe/ultimo-comprobante`,
        side.issuer.readSecret,
        JSON.stringify({ environment: "homologacion", representada: CUIT, ...QUERY }),
        10_000,
      );
    const issue = (side: Side) =>
      gatewayCall(
        `${side.bench.stack.edgeUrl}/api/wsfe/facturas`,
        side.issuer.writeSecret,
        facturaBody(CUIT, ISSUE.ptoVta, ISSUE.cbteTipo),
      );
    const natsServers = pidsOf("nats-server");
    const postgres = pidsOf("postgres");
    const watched: Watched = {
      bench: () => [process.pid],
      ...Object.fromEntries(
        sides.flatMap((side) => [
          [`${side.topology}: gateway`, () => gatewayPids(side)],
          [`${side.topology}: stand-ins`, () => [side.bench.stack.pid("stand-ins")!]],
        ]),
      ),
      "nats-server": () => natsServers,
      postgres: () => postgres,
    };

    const figures: Figures[] = [];
    for (const concurrency of [1, 32]) {
      figures.push(
        ...(await alternated(
          concurrency,
          [
            ["simulator, bare SOAP loop (ceiling)", ceiling],
            ...sides.map(
              (side) => [`${side.topology}: /api/wsfe/ultimo-comprobante`, query(side)] as const,
            ),
          ],
          watched,
        )),
      );
    }
    const issuance = await alternated(
      1,
      [
        [
          "bare issuance (2 SOAP calls)",
          bareIssuance(one.issuer, BARE_ISSUE_PTO_VTA, ISSUE.cbteTipo),
        ],
        ...sides.map((side) => [`${side.topology}: /api/wsfe/facturas`, issue(side)] as const),
      ],
      watched,
    );
    const batches: { topology: Topology; seconds: number; ok: number }[] = [];
    for (let round = 0; round < 2; round++) {
      for (const side of sides) batches.push({ topology: side.topology, ...(await batch(side)) });
    }

    const share = (scenario: string, concurrency: number) => {
      const of = (name: string) =>
        figures.find((f) => f.scenario === name && f.concurrency === concurrency)!.rps;
      return `${Math.round((of(scenario) / of("simulator, bare SOAP loop (ceiling)")) * 100)}%`;
    };
    const bare = issuance[0]!;
    const lines = [
      ...figureTable([...figures, ...issuance]),
      "",
      ...cpuTable([...figures, ...issuance]),
      "",
      "| topology | queries at 1, share of the ceiling | at 32 | issuance p50, over the bare pair | batch of " +
        `${BATCH_SIZE}, vouchers/s | RSS of the gateway's processes |`,
      "|---|---|---|---|---|---|",
      ...sides.map((side) => {
        const own = issuance.find((f) => f.scenario.startsWith(side.topology))!;
        const runs = batches.filter((b) => b.topology === side.topology);
        const rate = runs.map((b) => Math.round(b.ok / b.seconds)).join(", ");
        return (
          `| ${side.topology} | ${share(`${side.topology}: /api/wsfe/ultimo-comprobante`, 1)} | ` +
          `${share(`${side.topology}: /api/wsfe/ultimo-comprobante`, 32)} | ` +
          `${own.p50} ms (+${Math.round((own.p50 - bare.p50) * 100) / 100} ms) | ${rate} | ` +
          `${rssMb(gatewayPids(side))} MB |`
        );
      }),
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    for (const side of sides.reverse()) await side.bench.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
