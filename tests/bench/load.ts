// Load and its figures, shared by `npm run bench` and `npm run bench:npm-start`: each call is
// warmed up before it is measured, compared calls alternate in rounds, and a scenario's figures
// pool its rounds.
import { performance } from "node:perf_hooks";
import { percentile } from "./percentile.js";
import {
  addCpu,
  cpuSnapshot,
  cpuSpent,
  NO_CPU,
  type CpuTime,
  type Watched,
} from "./process-cpu.js";

export const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8_000);
const WARMUP_MS = 2_000;
/** rounds the compared query scenarios alternate in */
const ROUNDS = 4;

export interface Figures {
  scenario: string;
  concurrency: number;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  /** microseconds of CPU per request in each process the scenario runs through */
  cpuUs?: Record<string, { total: number; system: number }>;
}

/** What one stretch of load measured. */
export interface Sample {
  latencies: number[];
  errors: number;
  elapsedMs: number;
  /** the CPU time each watched process spent during it */
  cpu: Record<string, CpuTime>;
}

/** Warms `call` up at the measured concurrency, so every process has compiled its hot paths. */
export async function warmUp(concurrency: number, call: () => Promise<boolean>): Promise<void> {
  const warmUntil = performance.now() + WARMUP_MS;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < warmUntil) await call();
    }),
  );
}

/** Runs `call` from `concurrency` loops for `durationMs`; latencies in ms. */
export async function measure(
  concurrency: number,
  call: () => Promise<boolean>,
  durationMs: number,
  watched: Watched | undefined,
): Promise<Sample> {
  const latencies: number[] = [];
  let errors = 0;
  const cpuBefore = watched ? cpuSnapshot(watched) : {};
  const started = performance.now();
  const until = started + durationMs;
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
  const elapsedMs = performance.now() - started;
  const cpu = watched ? cpuSpent(cpuBefore, cpuSnapshot(watched)) : {};
  return { latencies, errors, elapsedMs, cpu };
}

/** One scenario's figures from its samples: requests over their time, latencies pooled. */
export function figuresOf(
  scenario: string,
  concurrency: number,
  samples: readonly Sample[],
): Figures {
  const latencies = samples.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const elapsed = samples.reduce((sum, s) => sum + s.elapsedMs, 0);
  const errors = samples.reduce((sum, s) => sum + s.errors, 0);
  const cpu: Record<string, CpuTime> = {};
  for (const sample of samples) {
    for (const [name, time] of Object.entries(sample.cpu)) {
      cpu[name] = addCpu(cpu[name] ?? NO_CPU, time);
    }
  }
  const perRequestUs = (ms: number) => Math.round((ms * 1000) / Math.max(latencies.length, 1));
  const cpuUs = Object.fromEntries(
    Object.entries(cpu).map(([name, time]) => [
      name,
      { total: perRequestUs(time.totalMs), system: perRequestUs(time.systemMs) },
    ]),
  );
  const rate = (latencies.length / elapsed) * 1000;
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
    ...(Object.keys(cpuUs).length > 0 ? { cpuUs } : {}),
  };
}

/** Runs `call` from `concurrency` loops for DURATION_MS after a warm-up. */
export async function load(
  scenario: string,
  concurrency: number,
  call: () => Promise<boolean>,
): Promise<Figures> {
  await warmUp(concurrency, call);
  return figuresOf(scenario, concurrency, [
    await measure(concurrency, call, DURATION_MS, undefined),
  ]);
}

/**
 * Scenarios compared with each other, measured in alternating rounds (DURATION_MS each in all),
 * so a change in the machine's speed during the run falls on all of them alike.
 */
export async function alternated(
  concurrency: number,
  scenarios: readonly (readonly [string, () => Promise<boolean>])[],
  watched?: Watched,
): Promise<Figures[]> {
  for (const [, call] of scenarios) await warmUp(concurrency, call);
  const samples: Sample[][] = scenarios.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, [, call]] of scenarios.entries()) {
      samples[i]!.push(await measure(concurrency, call, DURATION_MS / ROUNDS, watched));
    }
  }
  return scenarios.map(([scenario], i) => figuresOf(scenario, concurrency, samples[i]!));
}

/** CPU per request by process, in all and (in brackets) in the kernel, for the scenarios that measured it. */
export function cpuTable(figures: readonly Figures[]): string[] {
  const measured = figures.filter((f) => f.cpuUs !== undefined);
  const names = [...new Set(measured.flatMap((f) => Object.keys(f.cpuUs!)))];
  if (names.length === 0) return [];
  const cell = (f: Figures, name: string) => {
    const time = f.cpuUs![name];
    return time === undefined ? "" : `${time.total} (${time.system})`;
  };
  return [
    `| CPU µs per request (of it in the kernel) | concurrency | ${names.join(" | ")} |`,
    `|---|---|${names.map(() => "---|").join("")}`,
    ...measured.map(
      (f) => `| ${f.scenario} | ${f.concurrency} | ${names.map((n) => cell(f, n)).join(" | ")} |`,
    ),
  ];
}

export const figureTable = (figures: Figures[]) => [
  `| scenario | concurrency | requests | errors | req/s | p50 ms | p99 ms |`,
  `|---|---|---|---|---|---|---|`,
  ...figures.map(
    (f) =>
      `| ${f.scenario} | ${f.concurrency} | ${f.requests} | ${f.errors} | ${f.rps} | ${f.p50} | ${f.p99} |`,
  ),
];
