import { makeControlClient, type ControlClient } from "@pasarela/authority-sim";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  newAccount,
  registerWsfeIssuer,
  scratch,
  type Account,
  type ErrorBody,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { sleep } from "../support/wait.js";

const env = "homologacion" as const;
const PTO_VTA = 5;
const AUTHORITY_TIMEOUT_MS = 5_000;
const API_TIMEOUT_MS = 13_000;

interface Answer {
  status: number;
  text: string;
  json<T = Record<string, unknown>>(): T;
}

/**
 * Idempotency-Key through the running stack: the key is the account's, the first
 * answer is replayed, another body is a 422, a repeat in flight waits for the first's answer, and a refusal before
 * the authority leaves the key free. The simulator's counters prove no second voucher.
 */
describe("Idempotency-Key end to end", { timeout: 120_000 }, () => {
  let stack: E2EStack;
  let dir: Scratch;
  let control: ControlClient;
  let sql: postgres.Sql;
  let account: Account;
  let rep: Registered;
  let keyN = 0;
  const newKey = () => `pedido-${Date.now()}-${keyN++}`;

  beforeAll(async () => {
    stack = await startE2EStack({
      env: {
        LOG_LEVEL: "warn",
        AUTHORITY_TIMEOUT_MS: String(AUTHORITY_TIMEOUT_MS),
        API_TIMEOUT_MS: String(API_TIMEOUT_MS),
      },
    });
    dir = scratch();
    control = makeControlClient(stack.simulatorUrl!);
    sql = postgres(stack.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
    account = await newAccount(stack, "Idempotente");
    rep = await registerWsfeIssuer(stack, dir, account.accountId, env, PTO_VTA);
  });

  afterAll(async () => {
    await sql?.end({ timeout: 2 });
    await stack?.teardown();
    dir?.remove();
  });

  const facturaC = (precio = "1000", extra: Record<string, unknown> = {}) => ({
    environment: env,
    representada: rep.cuit,
    ptoVta: PTO_VTA,
    cbteTipo: 11,
    concepto: 1,
    docTipo: 99,
    docNro: "0",
    condicionIvaReceptorId: 5,
    items: [{ descripcion: "Clase", cantidad: 1, precioUnitario: precio, alicuotaIva: 0 }],
    ...extra,
  });

  async function issue(body: unknown, key?: string, who: Account = account): Promise<Answer> {
    const response = await fetch(`${stack.edgeUrl}/api/wsfe/facturas`, {
      method: "POST",
      headers: {
        authorization: who.rw,
        "content-type": "application/json",
        ...(key === undefined ? {} : { "idempotency-key": key }),
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, json: <T>() => JSON.parse(text) as T };
  }
  const solicitados = async () => (await control.stats(env)).requests.FECAESolicitar ?? 0;
  const vouchersWithKey = async (key: string) =>
    (
      await sql<{ state: string }[]>`
        select state from wsfe.comprobantes where idempotency_key = ${key} order by created_at`
    ).map((r) => r.state);

  it("the same key and body answer the identical status and body, without a second voucher", async () => {
    const key = newKey();
    const first = await issue(facturaC(), key);
    expect(first.status, first.text).toBe(200);
    const before = await solicitados();
    // the same body written differently (key order, amount as a number) is the same request
    const { items, ...rest } = facturaC();
    const again = await issue({ items: [{ ...items[0], precioUnitario: 1000.0 }], ...rest }, key);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(await solicitados()).toBe(before);
    expect(await vouchersWithKey(key)).toEqual(["authorized"]);
  });

  it("a rejection is replayed too: the same 422, not a second attempt", async () => {
    const key = newKey();
    const bad = facturaC("1000", {
      items: [{ descripcion: "Clase", cantidad: 1, precioUnitario: "1000", alicuotaIva: 21 }],
    });
    const first = await issue(bad, key);
    expect(first.status, first.text).toBe(422);
    const again = await issue(bad, key);
    expect(again.status).toBe(422);
    expect(again.text).toBe(first.text);
  });

  it("the same key with another body is a 422 naming the problem", async () => {
    const key = newKey();
    expect((await issue(facturaC(), key)).status).toBe(200);
    const before = await solicitados();
    const other = await issue(facturaC("2000"), key);
    expect(other.status, other.text).toBe(422);
    expect(other.json<ErrorBody>()).toMatchObject({
      code: "IDEMPOTENCY_KEY_REUSED",
      error: expect.stringContaining("Idempotency-Key") as string,
    });
    expect(await solicitados()).toBe(before);
  });

  it("a repeat while the first is still at the authority waits for it: the same answer, never a second voucher", async () => {
    const key = newKey();
    await control.setFault(env, { service: "wsfe", mode: "none", latencyMs: 1_500 });
    let first: Promise<Answer>;
    try {
      first = issue(facturaC("3000"), key);
      // the key is bound once billing admitted the first request
      for (;;) {
        const rows = await sql`select 1 from billing.idempotency_records where key = ${key}`;
        if (rows.length > 0) break;
        await sleep(20);
      }
      const repeat = await issue(facturaC("3000"), key);
      expect(repeat.status, repeat.text).toBe(200);
      expect((await first).status).toBe(200);
      expect(repeat.text).toBe((await first).text);
    } finally {
      await control.setFault(env, { service: "wsfe", mode: "none", latencyMs: 0 });
    }
    expect(await vouchersWithKey(key)).toEqual(["authorized"]);
    expect((await issue(facturaC("3000"), key)).text).toBe((await first).text);
  });

  it("a request refused before the authority does not bind the key: corrected, it issues", async () => {
    const key = newKey();
    const unknownCliente = facturaC("1000", {
      clienteId: "00000000-0000-4000-8000-000000000000",
      docTipo: undefined,
      docNro: undefined,
      condicionIvaReceptorId: undefined,
    });
    const refused = await issue(unknownCliente, key);
    expect(refused.status, refused.text).toBe(400);
    const corrected = await issue(facturaC("4000"), key);
    expect(corrected.status, corrected.text).toBe(200);
  });

  it("keys belong to the account: another account's same key is its own issuance", async () => {
    const key = newKey();
    expect((await issue(facturaC(), key)).status).toBe(200);
    const other = await newAccount(stack, "Otra");
    const otherRep = await registerWsfeIssuer(stack, dir, other.accountId, env, PTO_VTA);
    const theirs = await issue({ ...facturaC(), representada: otherRep.cuit }, key, other);
    expect(theirs.status, theirs.text).toBe(200);
    expect(await vouchersWithKey(key)).toEqual(["authorized", "authorized"]);
  });

  it("drop-after-commit: 502, then the same key answers the CAE the authority granted, no second voucher", async () => {
    const key = newKey();
    await control.setFault(env, {
      service: "wsfe",
      mode: "drop-after-commit",
      operation: "FECAESolicitar",
    });
    let lost: Answer;
    try {
      lost = await issue(facturaC("5000"), key);
    } finally {
      await control.setFault(env, { service: "wsfe", mode: "none" });
    }
    expect(lost.status, lost.text).toBe(502);
    expect(lost.json<ErrorBody>().details).toMatchObject({ outcome: "unknown" });
    const before = await solicitados();
    const retry = await issue(facturaC("5000"), key);
    expect(retry.status, retry.text).toBe(200);
    expect(await solicitados()).toBe(before);
    expect(await vouchersWithKey(key)).toEqual(["authorized"]);
    const voucher = retry.json<{ cae: string; cbteNro: number }>();
    const [stored] = await sql<{ cae: string }[]>`
      select cae from wsfe.comprobantes where idempotency_key = ${key} and state = 'authorized'`;
    expect(stored?.cae).toBe(voucher.cae);
    // and from now on it is replayed
    expect((await issue(facturaC("5000"), key)).text).toBe(retry.text);
  });

  it("a 502 whose voucher the authority never got: the same key issues it on retry", async () => {
    const key = newKey();
    await control.setFault(env, { service: "wsfe", mode: "timeout", operation: "FECAESolicitar" });
    let lost: Answer;
    try {
      lost = await issue(facturaC("6000"), key);
    } finally {
      await control.setFault(env, { service: "wsfe", mode: "none" });
    }
    expect(lost.status, lost.text).toBe(502);
    const retry = await issue(facturaC("6000"), key);
    expect(retry.status, retry.text).toBe(200);
    expect(await vouchersWithKey(key)).toEqual(["not_issued", "authorized"]);
  });
});
