import { makeControlClient, type ControlClient } from "@pasarela/authority-sim";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  newAccount,
  registerWsfeIssuer,
  scratch,
  type Account,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { eventually, sleep } from "../support/wait.js";

/**
 * The proof of contingency: issuances with Idempotency-Key over four series while the authority
 * answers, then while it is down (every WSFEv1 operation fails), then while it is back but
 * FECAEARegInformativo drops or fails some of its calls. Every issuance must end in one voucher:
 * authorized by its CAE, or issued under the fortnight's CAEA and informed exactly once; no
 * number skipped on any point of sale; nothing left awaiting informing. The simulator's own
 * state is the judge.
 */
const ISSUANCES = Number(process.env.CAEA_CHAOS_ISSUANCES ?? 1_000);
const CLIENTS = 40;
const env = "homologacion" as const;
const CAE_PTO_VTA = 3;
const CAEA_PTO_VTA = 90;
const API_TIMEOUT_MS = 15_000;
/** the whole run, retries and informing included; past it the test fails naming what was left */
const RUN_BUDGET_MS = 360_000;

type Phase = "up" | "down" | "informing-faults";

interface Outcome {
  i: number;
  key: string;
  rep: Registered;
  /** the voucher's total, unique per issuance: how the simulator's vouchers are told apart */
  total: string;
  statuses: { phase: Phase; status: number }[];
  answer?: { ptoVta: number; cbteNro: number; tipoAutorizacion?: string };
  /** the last answer that was not a voucher, for the failure message */
  last?: unknown;
}

describe("chaos: CAEA contingency through an authority outage", { timeout: 600_000 }, () => {
  let stack: E2EStack;
  let dir: Scratch;
  let control: ControlClient;
  let sql: postgres.Sql;
  let account: Account;
  const reps: Registered[] = [];
  let phase: Phase = "up";

  beforeAll(async () => {
    stack = await startE2EStack({
      env: {
        LOG_LEVEL: "warn",
        AUTHORITY_TIMEOUT_MS: "3000",
        API_TIMEOUT_MS: String(API_TIMEOUT_MS),
        IDEMPOTENCY_LEASE_MS: String(API_TIMEOUT_MS + 10_000),
        RECONCILE_INTERVAL_MS: "2000",
        CAEA_CHECK_INTERVAL_MS: "1000",
        CAEA_INFORM_INTERVAL_MS: "1000",
        CAEA_INFORM_RETRY_MAX: "2s",
      },
    });
    dir = scratch();
    control = makeControlClient(stack.simulatorUrl!);
    sql = postgres(stack.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
    account = await newAccount(stack, "Cadena de locales");
    const plan = `caea-chaos-${account.accountId.slice(0, 8)}`;
    await stack.admin(
      "plan",
      "create",
      "--name",
      plan,
      "--facturas",
      String(ISSUANCES * 2),
      "--padrones",
      "10",
      "--rechazos-por-hora",
      String(ISSUANCES),
    );
    await stack.admin("account", "plan", "--account", account.accountId, "--plan", plan);
    for (let n = 0; n < 4; n++) {
      const rep = await registerWsfeIssuer(stack, dir, account.accountId, env, CAE_PTO_VTA);
      await control.enablePointOfSale(env, {
        cuit: rep.cuit,
        ptoVta: CAEA_PTO_VTA,
        emisionTipo: "CAEA",
      });
      const on = await call("PATCH", `/api/representadas/${rep.representadaId}`, {
        contingencia: { caea: true, puntosDeVenta: [CAEA_PTO_VTA] },
      });
      expect(on.status).toBe(200);
      reps.push(rep);
    }
    for (const rep of reps) {
      await eventually(
        `the fortnight's CAEA of ${rep.cuit}`,
        async () => {
          const shown = await call("GET", `/api/representadas/${rep.representadaId}`);
          return (shown.body as { caea?: { actual?: unknown } }).caea?.actual ?? undefined;
        },
        { timeoutMs: 60_000, intervalMs: 500 },
      );
    }
  });

  afterAll(async () => {
    await control?.setFault(env, { service: "wsfe", mode: "none" }).catch(() => {});
    await sql?.end({ timeout: 2 });
    await stack?.teardown();
    dir?.remove();
  });

  async function call(
    method: string,
    path: string,
    body?: unknown,
    key?: string,
  ): Promise<{ status: number; body: unknown }> {
    try {
      const response = await fetch(`${stack.edgeUrl}${path}`, {
        method,
        headers: {
          authorization: account.rw,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(key === undefined ? {} : { "idempotency-key": key }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(API_TIMEOUT_MS + 5_000),
      });
      const text = await response.text();
      return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
    } catch {
      return { status: 0, body: undefined };
    }
  }

  /** One client: the same key and body until a final answer. */
  async function issueUntilFinal(outcome: Outcome, until: number): Promise<void> {
    const body = {
      environment: env,
      representada: outcome.rep.cuit,
      ptoVta: CAE_PTO_VTA,
      cbteTipo: 11,
      concepto: 1,
      docTipo: 99,
      docNro: "0",
      condicionIvaReceptorId: 5,
      items: [
        {
          descripcion: `Venta ${outcome.i}`,
          cantidad: 1,
          precioUnitario: outcome.total,
          alicuotaIva: 0,
        },
      ],
    };
    while (Date.now() < until) {
      const answered = await call("POST", "/api/wsfe/facturas", body, outcome.key);
      outcome.statuses.push({ phase, status: answered.status });
      outcome.last = answered.body;
      if (answered.status === 200) {
        outcome.answer = answered.body as Outcome["answer"];
        return;
      }
      // anything but a 409 (the key's attempt still open), a 5xx or no answer is final
      if (answered.status >= 400 && answered.status < 500 && answered.status !== 409) return;
      await sleep(200 + Math.random() * 300);
    }
  }

  it("issues every voucher once, by CAE or under the CAEA, and informs every CAEA voucher once", async () => {
    const started = Date.now();
    const until = started + RUN_BUDGET_MS;
    const outcomes: Outcome[] = Array.from({ length: ISSUANCES }, (_, i) => ({
      i,
      key: `caea-chaos-${started}-${i}`,
      rep: reps[i % reps.length]!,
      total: `${1000 + i}.${String(i % 100).padStart(2, "0")}`,
      statuses: [],
    }));
    let next = 0;
    let answered = 0;
    const third = Math.ceil(ISSUANCES / 3);
    const phaseStarts: Record<Phase, number> = { up: started, down: 0, "informing-faults": 0 };
    /** the phases follow the answers: a third of them before the outage, a third during it */
    let switching = Promise.resolve();
    const onAnswered = () => {
      answered++;
      if (answered === third) {
        // the authority down: every WSFEv1 operation answers 503
        switching = switching.then(async () => {
          await control.setFault(env, { service: "wsfe", mode: "unavailable", rate: 1 });
          phase = "down";
          phaseStarts.down = Date.now();
        });
      }
      if (answered === 2 * third) {
        // back, but informing is lossy: drops after committing and 501s
        switching = switching.then(async () => {
          await control.setFault(env, {
            service: "wsfe",
            mode: "drop-after-commit",
            rate: 0.15,
            operation: "FECAEARegInformativo",
            mix: [{ mode: "error-501", rate: 0.15 }],
          });
          phase = "informing-faults";
          phaseStarts["informing-faults"] = Date.now();
        });
      }
      return switching;
    };
    const client = async () => {
      for (;;) {
        const i = next++;
        if (i >= outcomes.length) return;
        await issueUntilFinal(outcomes[i]!, until);
        await onAnswered();
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    const answeredAt = Date.now();
    const unanswered = outcomes.filter((o) => o.answer === undefined);
    expect(unanswered.map((o) => [o.key, o.statuses.at(-1), o.last]).slice(0, 5)).toEqual([]);

    // every contingency voucher informed, faults and all
    const pendientes = async () =>
      Number(
        (
          await sql<{ n: string }[]>`
            select count(*)::text as n from wsfe.comprobantes
            where account_id = ${account.accountId} and caea_estado = 'pendiente'`
        )[0]!.n,
      );
    await eventually(
      "every CAEA voucher informed",
      async () => ((await pendientes()) === 0 ? true : undefined),
      { timeoutMs: Math.max(5_000, until - Date.now()), intervalMs: 500 },
    );
    const informedAt = Date.now();
    const faults = (await control.stats(env)).faults ?? {};
    await control.setFault(env, { service: "wsfe", mode: "none" });

    // the simulator's vouchers: by CAE on each CAE series, informed under each CAEA
    const { series } = await control.vouchers(env);
    const byTotal = new Map<string, string[]>();
    const note = (total: number, where: string) => {
      const key = total.toFixed(2);
      byTotal.set(key, [...(byTotal.get(key) ?? []), where]);
    };
    let byCae = 0;
    let underCaea = 0;
    for (const rep of reps) {
      const cae = series[`${rep.cuit}|${CAE_PTO_VTA}|11`]?.vouchers ?? [];
      expect(cae.map((v) => v.cbteNro)).toEqual(cae.map((_, n) => n + 1));
      for (const v of cae) note(v.impTotal, `CAE ${rep.cuit} ${v.cbteNro}`);
      byCae += cae.length;
      const informed = (await control.caeas(env, rep.cuit)).caeas
        .flatMap((c) => c.vouchers)
        .filter((v) => v.ptoVta === CAEA_PTO_VTA && v.cbteTipo === 11)
        .sort((a, b) => a.cbteNro - b.cbteNro);
      expect(informed.map((v) => v.cbteNro)).toEqual(informed.map((_, n) => n + 1));
      for (const v of informed) note(v.impTotal, `CAEA ${rep.cuit} ${v.cbteNro}`);
      underCaea += informed.length;
    }
    // exactly one voucher per issuance, the one its caller was answered
    const twice = [...byTotal.entries()].filter(([, where]) => where.length > 1);
    expect(twice).toEqual([]);
    for (const o of outcomes) {
      const where = byTotal.get(Number(o.total).toFixed(2));
      const kind = o.answer?.tipoAutorizacion === "CAEA" ? "CAEA" : "CAE";
      expect(where, o.key).toEqual([`${kind} ${o.rep.cuit} ${o.answer?.cbteNro}`]);
    }
    expect(byCae + underCaea).toBe(ISSUANCES);
    expect(
      Number(
        (
          await sql<{ n: string }[]>`
            select count(*)::text as n from wsfe.comprobantes
            where account_id = ${account.accountId} and state = 'caea_rechazado'`
        )[0]!.n,
      ),
    ).toBe(0);

    const statuses: Record<string, Record<string, number>> = {};
    for (const o of outcomes) {
      for (const { phase: p, status } of o.statuses) {
        statuses[p] ??= {};
        statuses[p][status] = (statuses[p][status] ?? 0) + 1;
      }
    }
    console.log(
      [
        `CAEA chaos: ${ISSUANCES} issuances over ${reps.length} series, ${CLIENTS} clients`,
        `  by CAE: ${byCae}; under CAEA and informed once: ${underCaea}`,
        `  answers by phase: ${JSON.stringify(statuses)}`,
        `  all answered ${((answeredAt - started) / 1000).toFixed(1)} s after the start` +
          ` (down from ${((phaseStarts.down - started) / 1000).toFixed(1)} s, informing faults` +
          ` from ${((phaseStarts["informing-faults"] - started) / 1000).toFixed(1)} s)`,
        `  every CAEA voucher informed ${((informedAt - answeredAt) / 1000).toFixed(1)} s later`,
        `  faults injected: ${JSON.stringify(faults)}`,
      ].join("\n"),
    );
  });
});
