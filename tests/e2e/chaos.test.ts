import { makeControlClient, type ControlClient, type Stats } from "@pasarela/authority-sim";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  newAccount,
  randomCuit,
  register,
  scratch,
  type Account,
  type Environment,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { argentinaToday } from "../support/exportacion.js";
import { sleep } from "../support/wait.js";

/**
 * The proof of exactly-once issuance: two wsfe processes, an
 * authority that drops 10% of its connections after committing and fails 5% of its calls with
 * error 501, at random latencies, one wsfe process killed twice mid-run, and clients that retry
 * with their Idempotency-Key until they get a final answer (200 or 422). A quarter of the
 * issuances are export vouchers (FEXAuthorize) on series of their own, under the same faults.
 * At the end the simulator's vouchers and the gateway's records must tell the same story.
 */
const ISSUANCES = Number(process.env.CHAOS_ISSUANCES ?? 2_000);
const CLIENTS = Number(process.env.CHAOS_CLIENTS ?? 160);
const AUTHORITY_TIMEOUT_MS = 3_000;
const API_TIMEOUT_MS = 15_000;
/** one voucher in this many goes to an inactive receiver: the authority rejects it (10247) */
const REJECT_EVERY = 97;
/** the whole run, kills and retries included; past it the test fails naming what was left */
const RUN_BUDGET_MS = 480_000;

interface Series {
  who: Registered;
  account: Account;
  environment: Environment;
  ptoVta: number;
  /** 19: an export invoice (WSFEXv1) */
  cbteTipo: 6 | 11 | 19;
}

/** The export point of sale of each representada. */
const EXPORT_PTO_VTA = 7;
const isExport = (s: Series) => s.cbteTipo === 19;

interface Outcome {
  key: string;
  series: Series;
  attempts: number;
  statuses: number[];
  /** every 200 answered for the key: its number and CAE */
  granted: { cbteNro: number; cae: string }[];
  final?: number;
}

const jitter = (ms: number) => sleep(ms / 2 + Math.random() * ms);

describe("chaos: exactly-once issuance under authority faults and a killed wsfe", () => {
  let stack: E2EStack;
  let dir: Scratch;
  let control: ControlClient;
  let sql: postgres.Sql;
  const series: Series[] = [];
  const inactive = randomCuit("30");

  beforeAll(async () => {
    stack = await startE2EStack({
      env: {
        AUTHORITY_TIMEOUT_MS: String(AUTHORITY_TIMEOUT_MS),
        API_TIMEOUT_MS: String(API_TIMEOUT_MS),
        RECONCILE_INTERVAL_MS: "2000",
        // a key is "in progress" (409) for one API call's budget, not billing's 130 s default
        IDEMPOTENCY_LEASE_MS: String(API_TIMEOUT_MS + 10_000),
        LOG_LEVEL: "warn",
      },
      replicas: { wsfe: 2 },
    });
    dir = scratch();
    control = makeControlClient(stack.simulatorUrl!);
    sql = postgres(stack.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
    const setups: { environment: Environment; name: string }[] = [
      { environment: "produccion", name: "Comercio de producción" },
      { environment: "homologacion", name: "Comercio de prueba" },
    ];
    for (const { environment, name } of setups) {
      const account = await newAccount(stack, name);
      // a plan the run fits in: the quota and the rejection cap are not what is under test
      const plan = `chaos-${account.accountId.slice(0, 8)}`;
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
      const who = await register(stack, dir, {
        accountId: account.accountId,
        environment,
        delegate: ["wsfe", "wsfex"],
        pos: [
          ...[1, 2].map((ptoVta) => ({ ptoVta, service: "wsfe" as const })),
          { ptoVta: EXPORT_PTO_VTA, service: "wsfex" as const },
        ],
      });
      for (const [ptoVta, cbteTipo] of [
        [1, 11],
        [2, 11],
        [1, 6],
        [EXPORT_PTO_VTA, 19],
      ] as const) {
        series.push({ who, account, environment, ptoVta, cbteTipo });
      }
      await control.setPerson(environment, {
        cuit: inactive,
        razonSocial: "Inactiva SA",
        condicionIva: "responsable_inscripto",
        estadoClave: "INACTIVO",
      });
    }
  });

  afterAll(async () => {
    await sql?.end({ timeout: 2 });
    await stack?.teardown();
    dir?.remove();
  });

  function bodyFor(i: number, s: Series) {
    const cents = String(100 + ((i * 7919) % 90_000));
    const precio = `${cents.slice(0, -2)}.${cents.slice(-2)}`;
    const rejected = i % REJECT_EVERY === REJECT_EVERY - 1;
    if (isExport(s)) {
      return {
        environment: s.environment,
        representada: s.who.cuit,
        ptoVta: s.ptoVta,
        cbteTipo: s.cbteTipo,
        tipoExpo: 2,
        // a destination the authority does not know: it rejects the voucher (1560)
        dstCmp: rejected ? 999 : 212,
        cliente: {
          razonSocial: "Acme Software Inc.",
          domicilio: "500 Market St, San Francisco",
          cuitPais: "50000002124",
        },
        moneda: "DOL",
        cotizacion: "1050.25",
        idioma: 2,
        formaPago: "Wire transfer",
        fechaPago: argentinaToday(),
        items: [
          { descripcion: `Service ${i}`, cantidad: 1, unidadMedida: 7, precioUnitario: precio },
        ],
      };
    }
    return {
      environment: s.environment,
      representada: s.who.cuit,
      ptoVta: s.ptoVta,
      cbteTipo: s.cbteTipo,
      concepto: 1,
      ...(rejected
        ? { docTipo: 80, docNro: inactive, condicionIvaReceptorId: 5 }
        : { docTipo: 99, docNro: "0", condicionIvaReceptorId: 5 }),
      items: [
        {
          descripcion: `Artículo ${i}`,
          cantidad: 1,
          precioUnitario: precio,
          alicuotaIva: s.cbteTipo === 11 ? 0 : 21,
        },
      ],
    };
  }

  /** One client: the same key and body until a final answer (200 or 422). */
  async function issueUntilFinal(outcome: Outcome, body: unknown, until: number) {
    while (Date.now() < until) {
      outcome.attempts++;
      let status = 0;
      let text = "";
      try {
        const path = isExport(outcome.series) ? "/api/wsfex/facturas" : "/api/wsfe/facturas";
        const response = await fetch(`${stack.edgeUrl}${path}`, {
          method: "POST",
          headers: {
            authorization: outcome.series.account.rw,
            "content-type": "application/json",
            "idempotency-key": outcome.key,
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(API_TIMEOUT_MS + 5_000),
        });
        status = response.status;
        text = await response.text();
      } catch {
        status = 0; // the connection failed: as good as a 502 to a client
      }
      outcome.statuses.push(status);
      if (status === 200) {
        const issued = JSON.parse(text) as { cbteNro: number; cae: string };
        outcome.granted.push({ cbteNro: issued.cbteNro, cae: issued.cae });
      }
      if (status === 200 || status === 422) {
        outcome.final = status;
        return;
      }
      await jitter(status === 409 ? 400 : 200);
    }
  }

  it(`${ISSUANCES} issuances over 8 series and two accounts end exactly once`, async () => {
    for (const environment of ["produccion", "homologacion"] as const) {
      for (const service of ["wsfe", "wsfex"] as const) {
        await control.setFault(environment, {
          service,
          mode: "drop-after-commit",
          rate: 0.1,
          mix: [{ mode: "error-501", rate: 0.05 }],
          latencyMs: 0,
          latencyMaxMs: 120,
        });
      }
    }
    const started = Date.now();
    const until = started + RUN_BUDGET_MS;
    const outcomes: Outcome[] = Array.from({ length: ISSUANCES }, (_, i) => ({
      key: `chaos-${i}-${started}`,
      series: series[i % series.length]!,
      attempts: 0,
      statuses: [],
      granted: [],
    }));
    let next = 0;
    let done = 0;
    const kills: number[] = [];
    const client = async () => {
      for (let i = next++; i < ISSUANCES; i = next++) {
        await issueUntilFinal(outcomes[i]!, bodyFor(i, outcomes[i]!.series), until);
        done++;
      }
    };
    // one wsfe process is killed twice mid-run, and comes back each time
    const killer = async () => {
      for (const share of [0.3, 0.65]) {
        while (done < ISSUANCES * share && Date.now() < until) await sleep(50);
        const pid = stack.pid("wsfe-2");
        if (pid === undefined) continue;
        process.kill(pid, "SIGKILL");
        kills.push(done);
        while (stack.pid("wsfe-2") === undefined && Date.now() < until) await sleep(50);
      }
    };
    try {
      await Promise.all([killer(), ...Array.from({ length: CLIENTS }, client)]);
    } finally {
      for (const environment of ["produccion", "homologacion"] as const) {
        await control.setFault(environment, { service: "wsfe", mode: "none" });
        await control.setFault(environment, { service: "wsfex", mode: "none" });
      }
    }
    const issuedMs = Date.now() - started;
    const unfinished = outcomes.filter((o) => o.final === undefined);
    expect(unfinished.map((o) => [o.key, o.statuses.join(",")])).toEqual([]);
    expect(kills).toHaveLength(2);

    // everything left pending or unknown is settled by reconciliation, without any issuance
    const settle = Date.now() + 90_000;
    for (;;) {
      const [left] = await sql<{ n: string }[]>`
        select count(*) as n from wsfe.comprobantes where state in ('pending', 'unknown')`;
      if (left?.n === "0") break;
      if (Date.now() > settle) throw new Error(`${left?.n} vouchers never reconciled`);
      await sleep(500);
    }

    const rows = await sql<
      {
        environment: Environment;
        cuit: string;
        pto_vta: number;
        cbte_tipo: number;
        cbte_nro: string;
        state: string;
        cae: string | null;
        idempotency_key: string;
      }[]
    >`select environment, cuit, pto_vta, cbte_tipo, cbte_nro, state, cae, idempotency_key
      from wsfe.comprobantes`;
    const byKey = new Map<string, (typeof rows)[number][]>();
    for (const r of rows)
      byKey.set(r.idempotency_key, [...(byKey.get(r.idempotency_key) ?? []), r]);

    // every key: exactly one authorized voucher (whose CAE every 200 for it carried) or one
    // rejection, never both, never two
    const problems: string[] = [];
    for (const o of outcomes) {
      const mine = byKey.get(o.key) ?? [];
      const authorized = mine.filter((r) => r.state === "authorized");
      const rejected = mine.filter((r) => r.state === "rejected");
      if (o.final === 200) {
        if (authorized.length !== 1 || rejected.length !== 0) {
          problems.push(
            `${o.key}: 200 but ${authorized.length} authorized, ${rejected.length} rejected`,
          );
        } else if (o.granted.some((g) => g.cae !== authorized[0]!.cae)) {
          problems.push(`${o.key}: answered CAEs ${o.granted.map((g) => g.cae).join(",")}`);
        }
      } else if (authorized.length !== 0 || rejected.length !== 1) {
        problems.push(
          `${o.key}: 422 but ${authorized.length} authorized, ${rejected.length} rejected`,
        );
      }
    }
    expect(problems.slice(0, 20)).toEqual([]);

    // the authority's side: every series numbered without a gap, every voucher known to the
    // gateway as authorized with that CAE, and every CAE answered to its caller on some attempt
    const answered = new Set(outcomes.flatMap((o) => o.granted.map((g) => g.cae)));
    const authorizedByCae = new Map(
      rows.filter((r) => r.state === "authorized").map((r) => [r.cae!, r]),
    );
    let atAuthority = 0;
    for (const environment of ["produccion", "homologacion"] as const) {
      const { series: held } = await control.vouchers(environment);
      const { series: heldExport } = await control.exportVouchers(environment);
      for (const s of series.filter((x) => x.environment === environment)) {
        const key = `${s.who.cuit}|${s.ptoVta}|${s.cbteTipo}`;
        const vouchers = (isExport(s) ? heldExport[key] : held[key])?.vouchers ?? [];
        atAuthority += vouchers.length;
        const numbers = vouchers.map((v) => v.cbteNro).sort((a, b) => a - b);
        expect(numbers, key).toEqual(numbers.map((_, i) => i + 1));
        for (const v of vouchers) {
          const ours = authorizedByCae.get(v.cae);
          if (!ours || Number(ours.cbte_nro) !== v.cbteNro || ours.pto_vta !== s.ptoVta) {
            problems.push(`${key} #${v.cbteNro}: CAE ${v.cae} not authorized in the gateway`);
          } else if (!answered.has(v.cae)) {
            problems.push(`${key} #${v.cbteNro}: CAE ${v.cae} never answered to its caller`);
          }
        }
      }
    }
    expect(problems.slice(0, 20)).toEqual([]);
    expect(atAuthority).toBe(authorizedByCae.size);

    // quota: exactly the production vouchers the authority authorized, each counted once
    // (billing follows the vouchers' events, at least once, de-duplicated by event id)
    const production = series.find((x) => x.environment === "produccion")!.account;
    const atAuthorityInProduction = [...authorizedByCae.values()].filter(
      (r) => r.environment === "produccion",
    ).length;
    const used = async () =>
      (
        await stack.admin<{ facturas: { used: number } }>(
          "account",
          "usage",
          "--account",
          production.accountId,
        )
      ).facturas.used;
    const quotaDeadline = Date.now() + 60_000;
    while ((await used()) !== atAuthorityInProduction && Date.now() < quotaDeadline) {
      await sleep(500);
    }
    expect(await used()).toBe(atAuthorityInProduction);

    const stats: Record<string, Stats> = {
      produccion: await control.stats("produccion"),
      homologacion: await control.stats("homologacion"),
    };
    const sum = (f: (s: Stats) => number) => f(stats.produccion!) + f(stats.homologacion!);
    const faults = (mode: string) =>
      sum((s) =>
        Object.entries(s.faults ?? {})
          .filter(([what]) => what.endsWith(` ${mode}`))
          .reduce((a, [, n]) => a + n, 0),
      );
    const count = (status: number) =>
      outcomes.reduce((a, o) => a + o.statuses.filter((s) => s === status).length, 0);
    const figures = {
      issuances: ISSUANCES,
      authorized: outcomes.filter((o) => o.final === 200).length,
      rejected: outcomes.filter((o) => o.final === 422).length,
      exportAuthorized: outcomes.filter((o) => o.final === 200 && isExport(o.series)).length,
      exportRejected: outcomes.filter((o) => o.final === 422 && isExport(o.series)).length,
      fexAuthorize: sum((s) => s.requests.FEXAuthorize ?? 0),
      attempts: outcomes.reduce((a, o) => a + o.attempts, 0),
      answers502: count(502),
      answers503: count(503),
      answers409: count(409),
      connectionErrors: count(0),
      feCaeSolicitar: sum((s) => s.requests.FECAESolicitar ?? 0),
      detailsSent: sum((s) => s.details?.sent ?? 0),
      largestBatch: Math.max(
        stats.produccion!.details?.largestBatch ?? 0,
        stats.homologacion!.details?.largestBatch ?? 0,
      ),
      dropAfterCommit: faults("drop-after-commit"),
      error501: faults("error-501"),
      notIssued: rows.filter((r) => r.state === "not_issued").length,
      wsfeKilledAt: kills,
      wsfeRestarts: stack.restarts()["wsfe-2"],
      quotaUsedInProduction: atAuthorityInProduction,
      issuedInMs: issuedMs,
    };
    console.log(`chaos figures: ${JSON.stringify(figures, null, 2)}`);
    expect(figures.dropAfterCommit).toBeGreaterThan(0);
    expect(figures.error501).toBeGreaterThan(0);
    expect(figures.rejected).toBeGreaterThan(0);
    expect(figures.exportAuthorized).toBeGreaterThan(0);
    expect(figures.exportRejected).toBeGreaterThan(0);
  }, 660_000);
});
