import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomCuit, type ErrorBody } from "../support/operator.js";
import { seeder, type Seeder } from "../support/seed.js";
import { eventually, sleep } from "../support/wait.js";
import { startWsfeIssuerStack, type WsfeIssuerStack } from "../support/wsfe-issuer.js";

const env = "homologacion" as const;
const AUTHORITY_TIMEOUT_MS = 5_000;
// room for a slow numbering query and a slow FECAESolicitar in one call
const API_TIMEOUT_MS = 20_000;
/** one point of sale per test, so each one's numbering is its own */
const POS = { batches: 11, rejected: 12, twoProcesses: 13, dropped: 14, stranger: 15, crash: 16 };

interface Issued {
  resultado: string;
  cae: string;
  cbteNro: number;
  ptoVta: number;
}

interface Answer {
  status: number;
  text: string;
  json: <T>() => T;
}

describe("exactly-once issuance: two wsfe processes, batches, reconciliation, a crash", () => {
  let wsfe: WsfeIssuerStack;
  let stack: WsfeIssuerStack["stack"];
  let control: WsfeIssuerStack["control"];
  let sql: WsfeIssuerStack["sql"];
  let seed: Seeder;
  let account: WsfeIssuerStack["account"];
  let issuer: WsfeIssuerStack["issuer"];
  const inactive = randomCuit("30");

  const body = (ptoVta: number, total: string | number, extra: Record<string, unknown> = {}) =>
    wsfe.facturaC(ptoVta, total, extra, "Clase");
  async function issue(payload: Record<string, unknown>, key?: string): Promise<Answer> {
    const response = await wsfe.post("/api/wsfe/facturas", payload, key);
    const text = await response.text();
    return { status: response.status, text, json: <T>() => JSON.parse(text) as T };
  }
  const solicitudes = async () => (await control.stats(env)).requests.FECAESolicitar ?? 0;
  /** what the simulator holds on a series of this issuer: number → CAE */
  async function held(ptoVta: number) {
    return new Map((await wsfe.atAuthority(ptoVta)).map((v) => [v.cbteNro, v.cae]));
  }
  /** the gateway's vouchers of a series: number → [state, CAE] */
  const stored = (ptoVta: number) => wsfe.stored(ptoVta);
  /**
   * The gateway's vouchers under a key, newest first, read straight from wsfe's table (asking
   * wsfe.factura.get would reconcile them on the spot).
   */
  const underKey = (key: string) =>
    sql<{ state: string; cae: string | null; cbte_nro: string }[]>`
      select state, cae, cbte_nro from wsfe.comprobantes where idempotency_key = ${key}
      order by created_at desc`;

  beforeAll(async () => {
    wsfe = await startWsfeIssuerStack({
      env: {
        AUTHORITY_TIMEOUT_MS: String(AUTHORITY_TIMEOUT_MS),
        API_TIMEOUT_MS: String(API_TIMEOUT_MS),
        // only start-up and the next issuance reconcile here, so each test sees which did
        RECONCILE_INTERVAL_MS: "600000",
        LOG_LEVEL: "info",
      },
      pos: Object.values(POS),
    });
    ({ stack, control, sql, account, issuer } = wsfe);
    await control.setPerson(env, {
      cuit: inactive,
      razonSocial: "Inactiva SA",
      condicionIva: "responsable_inscripto",
      estadoClave: "INACTIVO",
    });
    seed = await seeder(stack);
  });

  afterAll(async () => {
    await seed?.close();
    await wsfe?.close();
  });

  it("concurrent callers on one series get consecutive numbers in fewer FECAESolicitar calls", async () => {
    const before = await solicitudes();
    // a slow authority lets the callers pile up behind the series' writer
    await control.setFault(env, { service: "wsfe", mode: "none", latencyMs: 400 });
    let answers: Answer[];
    try {
      answers = await Promise.all(
        Array.from({ length: 24 }, (_, i) => issue(body(POS.batches, 100 + i))),
      );
    } finally {
      await control.setFault(env, { service: "wsfe", mode: "none" });
    }
    for (const a of answers) expect(a.status, a.text).toBe(200);
    const issued = answers.map((a) => a.json<Issued>());
    expect(issued.map((i) => i.cbteNro).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 24 }, (_, i) => i + 1),
    );
    expect(new Set(issued.map((i) => i.cae)).size).toBe(24);
    const sent = (await solicitudes()) - before;
    console.log(`24 vouchers on one series in ${sent} FECAESolicitar calls`);
    expect(sent).toBeLessThan(24);
    expect((await control.stats(env)).details?.largestBatch).toBeGreaterThan(1);
    // each caller got its own voucher: the simulator holds exactly these numbers and CAEs
    const authority = await held(POS.batches);
    expect([...authority.entries()].sort((a, b) => a[0] - b[0])).toEqual(
      issued.map((i) => [i.cbteNro, i.cae]).sort((a, b) => Number(a[0]) - Number(b[0])),
    );
  });

  it("a detail rejected in the middle answers 422; the ones after it are re-sent, never reported", async () => {
    // one series, so they share batches: the fourth goes to an inactive receiver, which the
    // authority rejects on its own merits (10247); the others are good
    await control.setFault(env, { service: "wsfe", mode: "none", latencyMs: 600 });
    const keys = Array.from({ length: 9 }, (_, i) => `medio-${i}-${Date.now()}`);
    let answers: Answer[];
    try {
      answers = await Promise.all(
        keys.map(async (key, i) => {
          await sleep(i * 10);
          const receptor = i === 3 ? { docTipo: 80, docNro: inactive } : {};
          return issue(body(POS.rejected, 70 + i, receptor), key);
        }),
      );
    } finally {
      await control.setFault(env, { service: "wsfe", mode: "none" });
    }
    expect(answers[3]!.status, answers[3]!.text).toBe(422);
    expect(answers[3]!.json<{ observaciones: { code: number }[] }>().observaciones).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 10247 })]),
    );
    for (const [i, a] of answers.entries()) if (i !== 3) expect(a.status, a.text).toBe(200);
    const numbers = answers
      .filter((a) => a.status === 200)
      .map((a) => a.json<Issued>().cbteNro)
      .sort((x, y) => x - y);
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const rows = await stored(POS.rejected);
    // only the bad one was rejected; a re-sent detail left a not_issued row, then its voucher
    expect(rows.filter((r) => r.state === "rejected").map((r) => r.idempotency_key)).toEqual([
      keys[3],
    ]);
    const resent = rows.filter((r) => r.state === "not_issued").length;
    console.log(`rejected detail: ${resent} later detail(s) re-sent in the next batch`);
    for (const [i, key] of keys.entries()) {
      const settled = (await underKey(key)).filter((r) => r.state !== "not_issued");
      expect(settled.map((r) => r.state)).toEqual([i === 3 ? "rejected" : "authorized"]);
    }
  });

  it("two wsfe processes issuing on one series never hand out a number twice", async () => {
    expect(stack.pid("wsfe")).toBeDefined();
    expect(stack.pid("wsfe-2")).toBeDefined();
    await control.setFault(env, { service: "wsfe", mode: "none", latencyMs: 0, latencyMaxMs: 60 });
    let answers: Answer[];
    try {
      answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) => issue(body(POS.twoProcesses, 200 + i))),
      );
    } finally {
      await control.setFault(env, { service: "wsfe", mode: "none" });
    }
    for (const a of answers) expect(a.status, a.text).toBe(200);
    const numbers = answers.map((a) => a.json<Issued>().cbteNro).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    const rows = await stored(POS.twoProcesses);
    expect(rows.every((r) => r.state === "authorized")).toBe(true);
    expect(rows).toHaveLength(60);
  });

  it("drop-after-commit → 502; the voucher is reconciled and adopted, no second voucher at the authority", async () => {
    const key = `dropped-${Date.now()}`;
    await control.setFault(env, {
      service: "wsfe",
      mode: "drop-after-commit",
      operation: "FECAESolicitar",
    });
    let lost: Answer;
    try {
      lost = await issue(body(POS.dropped, "321.50"), key);
    } finally {
      await control.setFault(env, { service: "wsfe", mode: "none" });
    }
    expect(lost.status, lost.text).toBe(502);
    expect(lost.json<ErrorBody>().details).toMatchObject({ outcome: "unknown", cbteNro: 1 });
    expect((await underKey(key)).map((r) => r.state)).toEqual(["unknown"]);

    // the same key again: the voucher the authority issued, with its CAE, and no second one
    const retried = await issue(body(POS.dropped, "321.50"), key);
    expect(retried.status, retried.text).toBe(200);
    const authority = await held(POS.dropped);
    expect([...authority.keys()]).toEqual([1]);
    expect(retried.json<Issued>()).toMatchObject({ cbteNro: 1, cae: authority.get(1) });
    expect((await underKey(key)).map((r) => [r.state, r.cae])).toEqual([
      ["authorized", authority.get(1)],
    ]);
    // and once more: the same answer, still one voucher
    const again = await issue(body(POS.dropped, "321.50"), key);
    expect(again.status).toBe(200);
    expect(again.json<Issued>().cae).toBe(authority.get(1));
    const next = await issue(body(POS.dropped, 10));
    expect(next.status, next.text).toBe(200);
    expect(next.json<Issued>().cbteNro).toBe(2);
    expect([...(await held(POS.dropped)).keys()].sort()).toEqual([1, 2]);
  });

  it("a stranger's voucher on the number is a conflict: never adopted, and said so", async () => {
    const key = `stranger-${Date.now()}`;
    await control.setFault(env, { service: "wsfe", mode: "timeout", operation: "FECAESolicitar" });
    let lost: Answer;
    try {
      lost = await issue(body(POS.stranger, 500), key);
    } finally {
      await control.setFault(env, { service: "wsfe", mode: "none" });
    }
    expect(lost.status, lost.text).toBe(502);
    expect(lost.json<ErrorBody>().details).toMatchObject({ outcome: "unknown", cbteNro: 1 });
    // another system takes that number at the authority, for another amount
    await seed.facturaC(
      { accountId: account.accountId, cuit: issuer.cuit, environment: env },
      POS.stranger,
      1,
      777,
    );
    const strangers = (await held(POS.stranger)).get(1);
    // the same key again: the number proved someone else's, so the voucher is issued anew
    const retried = await issue(body(POS.stranger, 500), key);
    expect(retried.status, retried.text).toBe(200);
    const issued = retried.json<Issued>();
    expect(issued.cbteNro).toBe(2);
    expect(issued.cae).not.toBe(strangers);
    expect((await underKey(key)).map((r) => [Number(r.cbte_nro), r.state, r.cae])).toEqual([
      [2, "authorized", issued.cae],
      [1, "conflict", null],
    ]);
  });

  it("a crash between pending and the answer: recovered at start-up, the CAE adopted", async () => {
    const key = `crash-${Date.now()}`;
    // the authority takes 4 s to answer FECAESolicitar (and commits it even with nobody left)
    await control.setFault(env, {
      service: "wsfe",
      mode: "none",
      latencyMs: 4_000,
    });
    const inFlight = issue(body(POS.crash, "99.99"), key);
    let holder: string;
    try {
      holder = await eventually("the voucher stored pending", async () => {
        const [row] = await sql<{ state: string; writer_owner: string | null }[]>`
          select c.state, s.writer_owner from wsfe.comprobantes c join wsfe.series s
            using (environment, cuit, pto_vta, cbte_tipo)
          where c.idempotency_key = ${key}`;
        return row?.state === "pending" && row.writer_owner ? row.writer_owner : undefined;
      });
      // the writer is `wsfe@host:pid:...`: that process dies before the answer comes back
      const pid = wsfe.writerPid(holder);
      expect(wsfe.wsfePids()).toContain(pid);
      process.kill(pid, "SIGKILL");
      const answer = await inFlight;
      expect(answer.status).not.toBe(200);
      await eventually("the authority to commit it", async () =>
        (await held(POS.crash)).has(1) ? true : undefined,
      );
    } finally {
      await control.setFault(env, { service: "wsfe", mode: "none" });
    }
    // the restarted process reconciles it at start-up, once the dead writer's lease runs out
    const recovered = await eventually(
      "the voucher reconciled",
      async () => {
        const [row] = await underKey(key);
        return row?.state === "authorized" ? row : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(recovered.cae).toBe((await held(POS.crash)).get(1));
    expect(Object.values(stack.restarts()).reduce((a, b) => a + b, 0)).toBe(1);
    // its event follows the reconciliation (published, then marked so)
    await eventually("the recovered voucher's event published", async () => {
      const [published] = await sql<{ event_published_at: Date | null }[]>`
        select event_published_at from wsfe.comprobantes where idempotency_key = ${key}`;
      return published?.event_published_at ?? undefined;
    });
    // a restart with backoff, then the dead writer's lease to run out: more than the default
  }, 90_000);
});
