// `npm run bench:npm-start`: the stack `npm start` runs, measured from outside as a user
// measures it, beside `npm run bench` (which starts the same stack itself). With `npm start`
// running, it registers an account, a read-only key and a representada with the operator CLIs,
// as the README's first query does, and logs in at the simulator's WSAA with a certificate of
// its own for the ceiling (what an integrator does without the gateway). Then, with one plain
// keep-alive node:http client, it warms each call up and measures them as `npm run bench`
// does (tests/bench/load.ts): FECompUltimoAutorizado straight to the simulator (the ceiling)
// and POST /api/wsfe/ultimo-comprobante through the gateway, in alternating rounds at
// concurrency 1 and 32.
//
// BENCH_COLD_SECONDS=N first measures the gateway at concurrency 1 for N seconds before any
// warm-up, in 3-second windows: right after `npm start` it shows what a measurement of a stack
// that has not run yet gets, and how soon that passes.
//
// EDGE_URL (http://127.0.0.1:3000) and SIM_URL (http://127.0.0.1:4400) say where the stack
// answers; the CLIs reach NATS as `npm run admin` does (NATS_URL, or .data/operator.env when
// `npm start` runs its own nats-server).
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { Agent, request } from "node:http";
import { makeWsaaClient } from "@pasarela/authority";
import { cliJson, npmRun } from "../support/cli.js";
import { opensslKeyAndCsr, randomCuit, scratch, type Scratch } from "../support/operator.js";
import {
  alternated,
  DURATION_MS,
  figuresOf,
  figureTable,
  load,
  measure,
  type Figures,
} from "./load.js";

const EDGE_URL = process.env.EDGE_URL ?? "http://127.0.0.1:3000";
const SIM_URL = process.env.SIM_URL ?? "http://127.0.0.1:4400";
const ENVIRONMENT = "homologacion";
const PTO_VTA = 3;
const CBTE_TIPO = 6;
const SIM = { SIM_URL };
const COLD_SECONDS = Number(process.env.BENCH_COLD_SECONDS ?? 0);

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** One POST on the keep-alive agent; answers the status and the body. */
function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        agent,
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function run(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { encoding: "buffer", timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(" ")}: ${stderr.toString()}`));
      else resolve(stdout.toString("base64"));
    });
  });
}

/** A certificate of the simulator's CA for `alias`, delegated wsfe for `cuit`. */
async function certified(dir: Scratch, cuit: string, alias: string) {
  const { keyFile, csrFile } = await opensslKeyAndCsr(dir, cuit, alias);
  const cert = await npmRun("sim", ["cert", "--environment", ENVIRONMENT, "--csr", csrFile], SIM);
  if (cert.code !== 0) throw new Error(`npm run sim -- cert: ${cert.stderr}`);
  await cliJson(
    "sim",
    [
      "delegate",
      "--environment",
      ENVIRONMENT,
      "--cuit",
      cuit,
      "--alias",
      alias,
      "--service",
      "wsfe",
    ],
    SIM,
  );
  return { keyFile, certFile: dir.file(`${alias}.pem`, cert.stdout) };
}

/** A TA for wsfe from the simulator's WSAA: a TRA signed with openssl (CMS, SHA-256). */
async function login(dir: Scratch, credential: { keyFile: string; certFile: string }) {
  const now = Date.now();
  const at = (ms: number) => new Date(ms - 3 * 3_600_000).toISOString().replace("Z", "-03:00");
  const tra = dir.file(
    "tra.xml",
    `<?xml version="1.0" encoding="UTF-8"?><loginTicketRequest version="1.0"><header>` +
      `<uniqueId>${Math.floor(now / 1000)}</uniqueId><generationTime>${at(now - 600_000)}</generationTime>` +
      `<expirationTime>${at(now + 600_000)}</expirationTime></header><service>wsfe</service></loginTicketRequest>`,
  );
  const cms = await run("openssl", [
    ...["cms", "-sign", "-in", tra, "-signer", credential.certFile, "-inkey", credential.keyFile],
    ...["-nodetach", "-binary", "-md", "sha256", "-outform", "DER"],
  ]);
  const wsaa = makeWsaaClient({
    endpoint: `${SIM_URL}/${ENVIRONMENT}/ws/services/LoginCms`,
    timeoutMs: 30_000,
  });
  const outcome = await wsaa.loginCms(cms);
  if (!outcome.ok)
    throw new Error(`WSAA login at the simulator: ${JSON.stringify(outcome.failure)}`);
  return outcome.ticket;
}

/** An account, a read-only key and a representada with its certificate, as the README does. */
async function register(dir: Scratch, cuit: string, alias: string): Promise<string> {
  const { accountId } = await cliJson<{ accountId: string }>(
    "admin",
    ["account", "create", "--name", "bench npm start"],
    {},
  );
  const { secret } = await cliJson<{ secret: string }>(
    "admin",
    ["key", "create", "--account", accountId, "--scope", "read_only"],
    {},
  );
  const representada = await cliJson<{ representadaId: string; csr: string }>(
    "admin",
    [
      ...["representada", "create", "--account", accountId, "--cuit", cuit],
      ...["--environment", ENVIRONMENT, "--alias", alias, "--pto-vta", String(PTO_VTA)],
    ],
    {},
  );
  const csrFile = dir.file(`${alias}.csr`, representada.csr);
  const cert = await npmRun("sim", ["cert", "--environment", ENVIRONMENT, "--csr", csrFile], SIM);
  if (cert.code !== 0) throw new Error(`npm run sim -- cert: ${cert.stderr}`);
  const certFile = dir.file(`${alias}.pem`, cert.stdout);
  await cliJson(
    "admin",
    ["certificate", "upload", "--representada", representada.representadaId, "--cert", certFile],
    {},
  );
  await cliJson(
    "sim",
    [
      "delegate",
      "--environment",
      ENVIRONMENT,
      "--cuit",
      cuit,
      "--alias",
      alias,
      "--service",
      "wsfe",
    ],
    SIM,
  );
  await cliJson(
    "sim",
    ["pos", "--environment", ENVIRONMENT, "--cuit", cuit, "--pto-vta", String(PTO_VTA)],
    SIM,
  );
  return secret;
}

async function main(): Promise<void> {
  const dir = scratch();
  try {
    const cuit = randomCuit();
    const tag = randomBytes(3).toString("hex");
    const secret = await register(dir, cuit, `bench-${tag}`);
    const ta = await login(dir, await certified(dir, cuit, `bench-bare-${tag}`));

    const wsfeUrl = new URL(`${SIM_URL}/${ENVIRONMENT}/wsfev1/service.asmx`);
    const soapBody =
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">` +
      `<soap:Body><FECompUltimoAutorizado xmlns="http://ar.gov.afip.dif.FEV1/"><Auth><Token>${ta.token}</Token>` +
      `<Sign>${ta.sign}</Sign><Cuit>${cuit}</Cuit></Auth><PtoVta>${PTO_VTA}</PtoVta><CbteTipo>${CBTE_TIPO}</CbteTipo>` +
      `</FECompUltimoAutorizado></soap:Body></soap:Envelope>`;
    const bare = async () => {
      const answer = await post(
        wsfeUrl,
        {
          "content-type": "text/xml; charset=utf-8",
          soapaction: '"http://ar.gov.afip.dif.FEV1/FECompUltimoAutorizado"',
        },
        soapBody,
      );
      return answer.status === 200 && answer.text.includes("<CbteNro>");
    };
    const gatewayCall = (body: Record<string, unknown>) => {
      const text = JSON.stringify(body);
      const url = new URL(`${EDGE_URL}/api/wsfe/ultimo-comprobante`);
      const headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" };
      return async () => (await post(url, headers, text)).status === 200;
    };
    const query = { environment: ENVIRONMENT, representada: cuit, cbteTipo: CBTE_TIPO };
    const gateway = gatewayCall({ ...query, ptoVta: PTO_VTA });
    const gatewayDefault = gatewayCall(query);
    if (!(await bare())) throw new Error("the simulator gets no CbteNro with the bare client");
    if (!(await gateway()) || !(await gatewayDefault())) {
      throw new Error(`${EDGE_URL} does not answer /api/wsfe/ultimo-comprobante`);
    }

    const cold: Figures[] = [];
    for (let second = 0; second < COLD_SECONDS; second += 3) {
      const sample = await measure(1, gateway, 3_000, undefined);
      cold.push(
        figuresOf(`gateway, seconds ${second}–${second + 3} before any warm-up`, 1, [sample]),
      );
    }
    if (cold.length > 0) process.stdout.write(`${[...figureTable(cold), ""].join("\n")}\n`);

    // warmed up as `npm run bench` warms its own stack, before anything is measured
    for (const call of [bare, gateway, gatewayDefault]) await load("warm-up", 16, call);
    const figures: Figures[] = [];
    for (const concurrency of [1, 32]) {
      figures.push(
        ...(await alternated(concurrency, [
          ["simulator, bare SOAP loop (ceiling)", bare],
          ["gateway /api/wsfe/ultimo-comprobante", gateway],
          ["gateway, ptoVta omitted", gatewayDefault],
        ])),
      );
    }
    const [bare1, gw1, , bare32, gw32] = figures;
    const lines = [
      `${EDGE_URL} (npm start), one keep-alive node:http client, ${DURATION_MS} ms per scenario in alternating rounds`,
      "",
      ...figureTable(figures),
      "",
      `gateway at concurrency 1: ${gw1!.rps} req/s, ${Math.round((gw1!.rps / bare1!.rps) * 100)}% of the ceiling; p50 overhead ${(gw1!.p50 - bare1!.p50).toFixed(2)} ms`,
      `gateway at concurrency 32: ${gw32!.rps} req/s, ${Math.round((gw32!.rps / bare32!.rps) * 100)}% of the ceiling`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    agent.destroy();
    dir.remove();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:npm-start failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
