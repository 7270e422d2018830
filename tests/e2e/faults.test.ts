import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gatewayServices, startPrivateNats, type Running } from "@pasarela/stack";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { http, newAccount, randomCuit, type Account } from "../support/operator.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { sleep } from "../support/wait.js";

interface Answer {
  status: number;
  code: string | undefined;
  ms: number;
  /** when the answer arrived, in ms since the epoch */
  at: number;
}

/** Statuses and catalogue codes of a load run, the figures a fault test reports. */
function summary(answers: readonly Answer[]) {
  const byStatus: Record<string, number> = {};
  for (const a of answers) {
    const key = a.status === 0 ? "no answer" : `${a.status}${a.code ? ` ${a.code}` : ""}`;
    byStatus[key] = (byStatus[key] ?? 0) + 1;
  }
  const unavailable = answers.filter((a) => a.status === 503).map((a) => a.ms);
  return {
    requests: answers.length,
    byStatus,
    slowest503Ms: unavailable.length ? Math.max(...unavailable) : null,
  };
}

/**
 * `concurrency` callers, each creating a customer or listing customers in turn, until `done()`
 * says stop. Every answer is kept: a fault test asserts on all of them.
 */
async function customerLoad(
  stack: E2EStack,
  account: Account,
  concurrency: number,
  done: () => boolean,
): Promise<Answer[]> {
  const answers: Answer[] = [];
  const caller = async (index: number) => {
    for (let n = 0; !done(); n++) {
      const started = Date.now();
      let status = 0;
      let code: string | undefined;
      try {
        const answer =
          (index + n) % 2 === 0
            ? await http(stack, "POST", "/api/clientes", account.rw, {
                docTipo: 80,
                docNro: randomCuit("30"),
                razonSocial: "Carga SA",
              })
            : await http(stack, "GET", "/api/clientes?limit=5", account.rw);
        status = answer.status;
        if (status >= 400) code = answer.json<{ code?: string }>().code;
      } catch {
        status = 0;
      }
      answers.push({ status, code, ms: Date.now() - started, at: Date.now() });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, i) => caller(i)));
  return answers;
}

const report = (what: string, figures: unknown) =>
  process.stdout.write(`[faults] ${what}: ${JSON.stringify(figures)}\n`);

function pids(stack: E2EStack): Record<string, number | undefined> {
  return Object.fromEntries(gatewayServices.map((name) => [name, stack.pid(name)]));
}

describe("faults: PostgreSQL drops connections, a service is killed", () => {
  let stack: E2EStack;
  let account: Account;
  let database: string;

  beforeAll(async () => {
    stack = await startE2EStack({
      // every request verifies its key in billing, so billing's pool is under the same fault
      env: { LOG_LEVEL: "info", EDGE_KEY_CACHE_TTL_MS: "0", DATABASE_POOL_SIZE: "4" },
      // a killed service stays down long enough to be seen down
      supervision: { initialDelayMs: 3_000 },
      // a test kills catalog's process alone
      topology: "processes",
    });
    account = await newAccount(stack, "Carga");
    database = new URL(stack.env.DATABASE_URL ?? "").pathname.slice(1);
  });

  afterAll(async () => {
    await stack?.teardown();
  });

  it("answers 503 (never 500) while the database's backends are terminated under load, and no process dies", async () => {
    const before = pids(stack);
    const admin = postgres(inject("databaseServerUrl"), { max: 1, onnotice: () => {} });
    let loading = true;
    const load = customerLoad(stack, account, 8, () => !loading);
    let terminated = 0;
    try {
      await sleep(500);
      const until = Date.now() + 4_000;
      while (Date.now() < until) {
        // only this file's database: other test files share the server
        const [row] = await admin<{ n: number }[]>`
          select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
          where datname = ${database} and pid <> pg_backend_pid()`;
        terminated += row?.n ?? 0;
        await sleep(20 + Math.random() * 40);
      }
    } finally {
      loading = false;
      await admin.end({ timeout: 2 });
    }
    const stoppedAt = Date.now();
    const answers = await load;

    // the pool answers again: a write and a read through catalog and billing
    let recoveredAt = 0;
    await expect
      .poll(
        async () => {
          const created = await http(stack, "POST", "/api/clientes", account.rw, {
            docTipo: 80,
            docNro: randomCuit("30"),
            razonSocial: "Después SA",
          });
          const listed = await http(stack, "GET", "/api/clientes?limit=5", account.rw);
          recoveredAt = Date.now();
          return [created.status, listed.status];
        },
        { timeout: 30_000, interval: 100 },
      )
      .toEqual([201, 200]);

    const figures = {
      terminatedBackends: terminated,
      ...summary(answers),
      recoveryMs: recoveredAt - stoppedAt,
      restarts: stack.restarts(),
    };
    report("terminate backends under load", figures);
    expect(terminated).toBeGreaterThan(0);
    expect(Object.values(stack.restarts()).every((n) => n === 0)).toBe(true);
    expect(pids(stack)).toEqual(before);
    // the lines themselves, so that a failure says what was thrown
    expect(
      stack
        .output()
        .split("\n")
        .filter((line) => /TypeError|uncaught|unhandled/i.test(line)),
    ).toEqual([]);
    const statuses = new Set(answers.map((a) => `${a.status} ${a.code ?? ""}`.trim()));
    // an unexpected answer comes with what the services logged as an error, to find its cause
    const errorLogs = stack
      .output()
      .split("\n")
      .filter((line) => /"level":(50|60)|handler failed|unexpected error/.test(line))
      .slice(0, 20)
      .join("\n");
    expect([...statuses].sort(), errorLogs).toEqual(
      [...statuses].filter((s) => ["200", "201", "503 SERVICE_UNAVAILABLE"].includes(s)).sort(),
    );
    expect(figures.byStatus["503 SERVICE_UNAVAILABLE"]).toBeGreaterThan(0);
  }, 90_000);

  it("restarts a killed service: its routes and /readyz answer 503, then 200 again", async () => {
    const catalog = stack.pid("catalog");
    expect(catalog).toBeDefined();
    const killedAt = Date.now();
    process.kill(catalog!, "SIGKILL");
    // Requests sent before the NATS server saw the connection close would wait for their
    // timeout: look only once the process is gone.
    await expect.poll(() => stack.pid("catalog")).toBeUndefined();

    const route = async () => {
      const answer = await http(stack, "GET", "/api/clientes?limit=1", account.rw);
      return answer.status === 200
        ? 200
        : `${answer.status} ${answer.json<{ code?: string }>().code}`;
    };
    const ready = async () => {
      const response = await fetch(`${stack.edgeUrl}/readyz`);
      const body = (await response.json()) as { services: Record<string, boolean> };
      return { status: response.status, catalog: body.services.catalog };
    };
    expect(await route()).toBe("503 SERVICE_UNAVAILABLE");
    expect(await ready()).toEqual({ status: 503, catalog: false });
    const downAt = Date.now();

    await expect.poll(route, { timeout: 30_000, interval: 100 }).toBe(200);
    const backAt = Date.now();
    expect(await ready()).toEqual({ status: 200, catalog: true });
    expect(stack.restarts().catalog).toBe(1);
    expect(stack.pid("catalog")).not.toBe(catalog);
    expect(stack.output()).toMatch(
      /catalog exited \(code null, signal SIGKILL\).*restart 1 in 3000 ms/,
    );
    report("kill -9 catalog", { seenDownMs: downAt - killedAt, backMs: backAt - killedAt });
  }, 90_000);
});

describe("faults: the NATS server dies under load and comes back", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "pasarela-faults-nats-"));
  let nats: Running;
  let port: number;
  let stack: E2EStack;
  let account: Account;
  // Far above how long a request may take to fail while NATS is down, so a request that
  // waited for its subject's timeout cannot pass for a failed-fast one.
  const timeoutMs = 60_000;

  beforeAll(async () => {
    nats = await startPrivateNats(join(dataDir, "nats"));
    port = Number(new URL(nats.url.replace(/^nats:/, "http:")).port);
    stack = await startE2EStack({
      natsUrl: nats.url,
      env: { LOG_LEVEL: "info", NATS_REQUEST_TIMEOUT_MS: String(timeoutMs) },
    });
    account = await newAccount(stack, "Sin NATS");
  });

  afterAll(async () => {
    await stack?.teardown();
    await nats?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers 503 at once while NATS is down and serves again once it is back", async () => {
    const before = pids(stack);
    let loading = true;
    const load = customerLoad(stack, account, 8, () => !loading);
    await sleep(1_000);
    const killedAt = Date.now();
    process.kill(nats.pid!, "SIGKILL");
    await sleep(3_000);
    const readyWhileDown = await fetch(`${stack.edgeUrl}/readyz`);
    const readyBody = (await readyWhileDown.json()) as { nats: boolean };
    nats = await startPrivateNats(join(dataDir, "nats"), { port });
    const restartedAt = Date.now();
    let recoveredAt = 0;
    await expect
      .poll(
        async () => {
          const status = (await http(stack, "GET", "/api/clientes?limit=1", account.rw)).status;
          recoveredAt = Date.now();
          return status;
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe(200);
    loading = false;
    const answers = await load;

    const duringOutage = answers.filter((a) => a.at > killedAt && a.at < restartedAt);
    const figures = {
      ...summary(answers),
      outage: summary(duringOutage),
      recoveryMs: recoveredAt - restartedAt,
      restarts: stack.restarts(),
    };
    report("kill NATS under load", figures);
    expect(readyWhileDown.status).toBe(503);
    expect(readyBody.nats).toBe(false);
    expect(duringOutage.length).toBeGreaterThan(0);
    for (const answer of duringOutage) {
      expect([200, 201, 503]).toContain(answer.status);
      if (answer.status === 503) {
        expect(answer.code).toBe("SERVICE_UNAVAILABLE");
        expect(answer.ms).toBeLessThan(timeoutMs / 4);
      }
    }
    expect(figures.outage.byStatus["503 SERVICE_UNAVAILABLE"]).toBeGreaterThan(0);
    expect(answers.every((a) => a.status !== 500 && a.status !== 0)).toBe(true);
    expect(pids(stack)).toEqual(before);
    expect(await fetch(`${stack.edgeUrl}/readyz`).then((r) => r.status)).toBe(200);
  }, 90_000);
});
