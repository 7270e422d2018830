// What this machine charges a process for being woken after it slept: a plain node:http server
// answering a small JSON body, its CPU per request (from /proc) when requests arrive back to
// back and when it sleeps IDLE_GAP_MS between them. At concurrency 1 every process on the
// gateway's path sleeps between its messages (a request wakes the load generator, edge, NATS
// server, wsfe and simulator eight times in all; the bare loop's two processes twice), so this
// figure, printed with each run, tells how much of the concurrency-1 rate the machine's current
// spell decides.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { httpPost } from "@pasarela/authority";
import { percentile } from "./percentile.js";
import { cpuSnapshot, cpuSpent, type Watched } from "./process-cpu.js";

const IDLE_GAP_MS = 2;
const ROUNDS = 3;
/** requests per round: enough CPU for /proc's 10 ms ticks to count within a few per cent */
const BACK_TO_BACK_REQUESTS = 3_000;
const GAPPED_REQUESTS = 1_500;

const SERVER = `
const http = require("node:http");
const server = http.createServer((request, response) => {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ ok: true, n: body.n, at: new Date().toISOString() }));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\\n"));
`;

export interface IdleWake {
  /** server CPU µs per request, requests back to back (median of the rounds) */
  backToBackUs: number;
  /** the same with the server asleep IDLE_GAP_MS before each request */
  afterIdleUs: number;
  idleGapMs: number;
}

const median = (values: readonly number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

export async function measureIdleWake(): Promise<IdleWake> {
  const child = spawn(process.execPath, ["-e", SERVER], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    // the port it listens on, or a failure if it exits or cannot start first
    const port = await new Promise<string>((resolve, reject) => {
      child.stdout.once("data", (line: Buffer) => resolve(line.toString().trim()));
      child.once("error", reject);
      child.once("exit", (code) => reject(new Error(`the idle-wake server exited (${code})`)));
    });
    const url = `http://127.0.0.1:${port}/`;
    const watched: Watched = { server: () => (child.pid === undefined ? [] : [child.pid]) };
    const headers = { "content-type": "application/json" };
    /** CPU µs per request of the server over `requests` calls, each after `gapMs` */
    const round = async (requests: number, gapMs: number) => {
      const before = cpuSnapshot(watched);
      for (let n = 0; n < requests; n++) {
        // the caller waits awake (spinning), so only the server sleeps between requests
        const until = performance.now() + gapMs;
        while (performance.now() < until);
        const answer = await httpPost(url, headers, JSON.stringify({ n }), 10_000);
        if (answer.status !== 200)
          throw new Error(`the idle-wake server answered ${answer.status}`);
      }
      const spent = cpuSpent(before, cpuSnapshot(watched)).server;
      return ((spent?.totalMs ?? 0) * 1000) / requests;
    };
    await round(BACK_TO_BACK_REQUESTS, 0);
    const backToBack: number[] = [];
    const afterIdle: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      backToBack.push(await round(BACK_TO_BACK_REQUESTS, 0));
      afterIdle.push(await round(GAPPED_REQUESTS, IDLE_GAP_MS));
    }
    return {
      backToBackUs: Math.round(median(backToBack)),
      afterIdleUs: Math.round(median(afterIdle)),
      idleGapMs: IDLE_GAP_MS,
    };
  } finally {
    child.kill("SIGTERM");
  }
}
