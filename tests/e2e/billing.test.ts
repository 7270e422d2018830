import { makeControlClient, type ControlClient } from "@pasarela/authority-sim";
import { connectBus, type Bus } from "@pasarela/bus";
import { billing } from "@pasarela/contracts";
import { createLogger, startTracing } from "@pasarela/telemetry";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  newAccount,
  registerWsfeIssuer,
  scratch,
  type Account,
  type Environment,
  type ErrorBody,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";

const PTO_VTA = 4;

interface Answer {
  status: number;
  text: string;
  headers: Headers;
  json<T = Record<string, unknown>>(): T;
}

/**
 * Plans, quotas and the rejection cap through the running stack: every refusal is
 * decided by billing before the authority is asked, which the simulator's own counters prove.
 */
// each test opens an account with a representada per environment through the CLIs
describe(
  "billing end to end: quota (402), rejection cap (429), admission before the authority",
  { timeout: 120_000 },
  () => {
    let stack: E2EStack;
    let dir: Scratch;
    let control: ControlClient;
    let sql: postgres.Sql;
    let bus: Bus;

    beforeAll(async () => {
      stack = await startE2EStack({ env: { LOG_LEVEL: "warn" } });
      dir = scratch();
      control = makeControlClient(stack.simulatorUrl!);
      sql = postgres(stack.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
      bus = await connectBus({
        url: stack.env.NATS_URL!,
        prefix: stack.env.NATS_PREFIX,
        name: "e2e-billing",
        logger: createLogger({ service: "e2e-billing", level: "silent" }),
        tracer: startTracing({ service: "e2e-billing" }).tracer,
      });
    });

    afterAll(async () => {
      await bus?.close();
      await sql?.end({ timeout: 2 });
      await stack?.teardown();
      dir?.remove();
    });

    /** an account on a plan of its own, with a representada in each environment */
    async function customer(plan: { facturas: number; padrones?: number; cap?: number }) {
      const account = await newAccount(stack, "Cliente");
      const name = `plan-${account.accountId.slice(0, 8)}`;
      // the operator CLI, as the README shows it
      await stack.admin(
        "plan",
        "create",
        "--name",
        name,
        "--facturas",
        String(plan.facturas),
        "--padrones",
        String(plan.padrones ?? 10),
        ...(plan.cap === undefined ? [] : ["--rechazos-por-hora", String(plan.cap)]),
      );
      await stack.admin("account", "plan", "--account", account.accountId, "--plan", name);
      const reps = {} as Record<Environment, Registered>;
      for (const environment of ["homologacion", "produccion"] as const) {
        reps[environment] = await registerWsfeIssuer(
          stack,
          dir,
          account.accountId,
          environment,
          PTO_VTA,
        );
      }
      return { account, reps };
    }

    const facturaC = (rep: Registered, extra: Record<string, unknown> = {}) => ({
      environment: rep.environment,
      representada: rep.cuit,
      ptoVta: PTO_VTA,
      cbteTipo: 11,
      concepto: 1,
      docTipo: 99,
      docNro: "0",
      condicionIvaReceptorId: 5,
      items: [{ descripcion: "Clase", cantidad: 1, precioUnitario: "1000", alicuotaIva: 0 }],
      ...extra,
    });
    /** a Factura C with VAT: refused by the totals rules (422) before the authority */
    const badTotals = (rep: Registered) =>
      facturaC(rep, {
        items: [{ descripcion: "Clase", cantidad: 1, precioUnitario: "1000", alicuotaIva: 21 }],
      });

    async function issue(
      account: Account,
      body: unknown,
      headers: Record<string, string> = {},
    ): Promise<Answer> {
      const response = await fetch(`${stack.edgeUrl}/api/wsfe/facturas`, {
        method: "POST",
        headers: { authorization: account.rw, "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      return {
        status: response.status,
        text,
        headers: response.headers,
        json: <T>() => JSON.parse(text) as T,
      };
    }

    const sent = async (environment: Environment) => (await control.stats(environment)).total;
    const usage = async (account: Account) => {
      const result = await bus.request(billing.accountUsage, { accountId: account.accountId });
      if (!result.ok) throw new Error(result.error.message);
      return result.value;
    };

    it("counts only production vouchers that obtained a CAE", async () => {
      const { account, reps } = await customer({ facturas: 5 });
      expect((await issue(account, facturaC(reps.homologacion))).status).toBe(200);
      expect((await issue(account, badTotals(reps.produccion))).status).toBe(422);
      const issued = await issue(account, facturaC(reps.produccion));
      expect(issued.status, issued.text).toBe(200);
      expect((await usage(account)).facturas).toEqual({ quota: 5, used: 1, left: 4 });
      // what the operator sees
      expect(await stack.admin("account", "usage", "--account", account.accountId)).toMatchObject({
        plan: { facturas: 5, padrones: 10, periodo: "mensual", rejectionCapPerHour: 50 },
        facturas: { quota: 5, used: 1, left: 4 },
        padrones: { quota: 10, used: 0, left: 10 },
      });
    });

    it("the operator CLI lists plans (the default inicial among them) and refuses unknown ones", async () => {
      const { plans } = await stack.admin<{ plans: { name: string }[] }>("plan", "list");
      expect(plans).toContainEqual({
        name: "inicial",
        facturas: 100,
        padrones: 500,
        periodo: "mensual",
        rejectionCapPerHour: 50,
      });
      const account = await newAccount(stack, "Sin plan");
      const refused = await stack.adminRun(
        "account",
        "plan",
        "--account",
        account.accountId,
        "--plan",
        "no-existe",
      );
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain("El plan no existe");
      const duplicate = await stack.adminRun(
        "plan",
        "create",
        "--name",
        "inicial",
        "--facturas",
        "1",
        "--padrones",
        "1",
      );
      expect(duplicate.stderr).toContain("Ya existe un plan con ese nombre");
    });

    it("answers 402 `Cuota de facturas del período agotada` before the authority once the quota is used", async () => {
      const { account, reps } = await customer({ facturas: 1 });
      expect((await issue(account, facturaC(reps.produccion))).status).toBe(200);
      const before = await sent("produccion");
      const refused = await issue(account, facturaC(reps.produccion));
      expect(refused.status).toBe(402);
      expect(refused.json<ErrorBody>()).toEqual({
        error: "Cuota de facturas del período agotada",
        code: "QUOTA_FACTURAS_EXHAUSTED",
      });
      expect(await sent("produccion")).toBe(before);
      // homologacion is never metered
      expect((await issue(account, facturaC(reps.homologacion))).status).toBe(200);
    });

    it("with 1 voucher of quota left, 20 concurrent production issuances give exactly one CAE and 19 × 402", async () => {
      const { account, reps } = await customer({ facturas: 1 });
      const before = await sent("produccion");
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => issue(account, facturaC(reps.produccion))),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 402)).toHaveLength(19);
      // the one admitted issuance: its number and FECAESolicitar, nothing else reached the authority
      expect((await control.stats("produccion")).requests.FECAESolicitar).toBeGreaterThan(0);
      expect(await sent("produccion")).toBeLessThanOrEqual(before + 3);
      expect((await usage(account)).facturas).toEqual({ quota: 1, used: 1, left: 0 });
    });

    it("the rejection cap: 429 with Retry-After before the authority in that environment only", async () => {
      const { account, reps } = await customer({ facturas: 5, cap: 2 });
      for (let i = 0; i < 2; i++) {
        const rejected = await issue(account, badTotals(reps.homologacion));
        expect(rejected.status, rejected.text).toBe(422);
      }
      const before = await sent("homologacion");
      const capped = await issue(account, facturaC(reps.homologacion));
      expect(capped.status, capped.text).toBe(429);
      const body = capped.json<ErrorBody>();
      expect(body.code).toBe("REJECTION_CAP");
      expect(body.error.startsWith("Demasiados comprobantes rechazados")).toBe(true);
      const retryAfter = Number(capped.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(3_000);
      expect(retryAfter).toBeLessThanOrEqual(3_600);
      expect(body.error).toContain(`${retryAfter} s`);
      expect(await sent("homologacion")).toBe(before);
      // produccion has its own window
      const prod = await issue(account, facturaC(reps.produccion));
      expect(prod.status, prod.text).toBe(200);
    });

    describe("registry lookups", () => {
      const constancia = (account: Account, rep: Registered) =>
        fetch(`${stack.edgeUrl}/api/padron/constancia`, {
          method: "POST",
          headers: { authorization: account.rw, "content-type": "application/json" },
          body: JSON.stringify({
            environment: rep.environment,
            representada: rep.cuit,
            idPersona: "20172543597",
          }),
        }).then(async (r) => ({ status: r.status, text: await r.text() }));

      it("count only successful production lookups; 402 `Cuota de padrones del período agotada` before the authority", async () => {
        const { account, reps } = await customer({ facturas: 1, padrones: 2 });
        for (const rep of Object.values(reps)) {
          await control.delegate(rep.environment, {
            cuit: rep.cuit,
            alias: rep.alias,
            service: "ws_sr_constancia_inscripcion",
          });
        }
        expect((await constancia(account, reps.homologacion)).status).toBe(200);
        expect((await usage(account)).padrones.used).toBe(0);
        // a failed production lookup (unknown person) does not count
        const unknown = await fetch(`${stack.edgeUrl}/api/padron/constancia`, {
          method: "POST",
          headers: { authorization: account.rw, "content-type": "application/json" },
          body: JSON.stringify({
            environment: "produccion",
            representada: reps.produccion.cuit,
            idPersona: "20000000001",
          }),
        });
        expect(unknown.status).toBe(404);
        for (let i = 0; i < 2; i++) {
          const found = await constancia(account, reps.produccion);
          expect(found.status, found.text).toBe(200);
        }
        expect((await usage(account)).padrones).toEqual({ quota: 2, used: 2, left: 0 });
        const before = await sent("produccion");
        const refused = await constancia(account, reps.produccion);
        expect(refused.status).toBe(402);
        expect(JSON.parse(refused.text)).toEqual({
          error: "Cuota de padrones del período agotada",
          code: "QUOTA_PADRONES_EXHAUSTED",
        });
        expect(await sent("produccion")).toBe(before);
        // homologacion stays free
        expect((await constancia(account, reps.homologacion)).status).toBe(200);
      });
    });

    describe("usage history", () => {
      interface UsageItem {
        route: string;
        method: string;
        status: number;
        code: string | null;
        environment: string | null;
        representada: string | null;
        quotaConsumed: boolean;
        keyId: string;
      }
      const get = async (account: Account, path: string) => {
        const response = await fetch(`${stack.edgeUrl}${path}`, {
          headers: { authorization: account.rw },
        });
        return {
          status: response.status,
          json: (await response.json()) as Record<string, unknown>,
        };
      };
      /** every page of /api/uso, newest first */
      async function history(account: Account, query = "", limit = 100): Promise<UsageItem[]> {
        const items: UsageItem[] = [];
        let cursor: string | null = null;
        do {
          const page = await get(
            account,
            `/api/uso?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
          );
          expect(page.status).toBe(200);
          items.push(...(page.json.items as UsageItem[]));
          cursor = page.json.nextCursor as string | null;
        } while (cursor);
        return items;
      }
      const settled = async (account: Account, count: number) => {
        for (let i = 0; i < 200; i++) {
          const items = await history(account);
          // the listing calls themselves are recorded too: wait for the scripted ones
          if (items.filter((x) => x.route !== "/api/uso").length >= count) return items;
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error("usage history never caught up");
      };

      it("lists every call of a scripted session with its status, and never another account's", async () => {
        const { account, reps } = await customer({ facturas: 5 });
        const other = await newAccount(stack, "Otra");
        expect((await get(account, "/api/cuenta")).status).toBe(200);
        expect((await issue(account, facturaC(reps.produccion))).status).toBe(200);
        expect((await issue(account, badTotals(reps.homologacion))).status).toBe(422);
        expect(
          (await get(account, "/api/clientes/00000000-0000-4000-8000-000000000000")).status,
        ).toBe(404);
        expect((await issue(account, { environment: "marte" })).status).toBe(400);
        // unauthenticated: not an account's call
        expect((await fetch(`${stack.edgeUrl}/api/cuenta`)).status).toBe(401);
        expect((await get(other, "/api/cuenta")).status).toBe(200);

        const items = (await settled(account, 5)).filter((x) => x.route !== "/api/uso");
        expect(items.map((x) => [x.method, x.route, x.status, x.code])).toEqual([
          ["POST", "/api/wsfe/facturas", 400, "INVALID_FIELD"],
          ["GET", "/api/clientes/:id", 404, "CLIENTE_NOT_FOUND"],
          ["POST", "/api/wsfe/facturas", 422, "TOTALS_INVALID"],
          ["POST", "/api/wsfe/facturas", 200, null],
          ["GET", "/api/cuenta", 200, null],
        ]);
        expect(items[3]).toMatchObject({
          environment: "produccion",
          representada: reps.produccion.cuit,
          quotaConsumed: true,
        });
        expect(items[2]).toMatchObject({ environment: "homologacion", quotaConsumed: false });
        // pages of 2 through the keyset give the same history
        const paged = (await history(account, "&route=%2Fapi%2Fwsfe%2Ffacturas", 2)).map(
          (x) => x.status,
        );
        expect(paged).toEqual([400, 422, 200]);
        // filters
        const failed = await history(account, "&status=422&route=%2Fapi%2Fwsfe%2Ffacturas");
        expect(failed).toHaveLength(1);
        expect((await history(account, "&environment=produccion")).map((x) => x.status)).toEqual([
          200,
        ]);
        // the other account sees only its own call(s)
        const theirs = await settled(other, 1);
        expect(theirs.filter((x) => x.route !== "/api/uso").map((x) => x.route)).toEqual([
          "/api/cuenta",
        ]);
        // a summary per day and status, with this period's quota
        const summary = await get(account, "/api/uso/resumen");
        expect(summary.status).toBe(200);
        expect(summary.json).toMatchObject({
          facturas: { quota: 5, used: 1, left: 4 },
          plan: { facturas: 5 },
        });
        const dias = summary.json.dias as { total: number; porStatus: Record<string, number> }[];
        expect(dias.reduce((n, d) => n + (d.porStatus["422"] ?? 0), 0)).toBe(1);
        expect(dias.reduce((n, d) => n + (d.porStatus["404"] ?? 0), 0)).toBe(1);
      });

      it("a cursor that is not one of the list's is a 400 naming it", async () => {
        const account = await newAccount(stack, "Cursor");
        const response = await get(account, "/api/uso?cursor=basura");
        expect(response.status).toBe(400);
        expect(response.json.error).toContain("cursor");
      });
    });
  },
);
