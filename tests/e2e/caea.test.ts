import { makeControlClient, type ControlClient } from "@pasarela/authority-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  http,
  newAccount,
  register,
  scratch,
  type Account,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { eventually } from "../support/wait.js";

const env = "homologacion" as const;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The instant the fortnight after the one `at` falls in starts, in Argentina (UTC−3). */
function nextFortnightStart(at: number): number {
  const local = new Date(at - 3 * HOUR_MS);
  const [year, month, day] = [local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()];
  const start = day <= 15 ? Date.UTC(year, month, 16) : Date.UTC(year, month + 1, 1);
  return start + 3 * HOUR_MS;
}
const CAE_PTO_VTA = 3;
const CAEA_PTO_VTA = 90;

interface CaeaBody {
  caea: string;
  periodo: number;
  orden: 1 | 2;
  fchVigDesde: string;
  fchVigHasta: string;
  fchTopeInf: string;
}

interface RepresentadaBody {
  contingencia: { caea: boolean; puntosDeVenta: number[] };
  caea: { actual: CaeaBody | null; proxima: CaeaBody | null } | null;
}

/**
 * CAEA contingency's configuration through the running stack: turned on only with points of
 * sale the authority lists with EmisionTipo CAEA (400 naming the one that is not, nothing
 * changed), and the fortnights' CAEAs then obtained ahead of time, shown on the representada
 * exactly as the simulator granted them.
 */
describe("CAEA contingency: configuration and the fortnights' CAEAs", { timeout: 180_000 }, () => {
  let stack: E2EStack;
  let dir: Scratch;
  let control: ControlClient;
  let account: Account;
  let other: Account;
  let rep: Registered;

  beforeAll(async () => {
    stack = await startE2EStack({
      env: { LOG_LEVEL: "warn", CAEA_CHECK_INTERVAL_MS: "1000" },
      // every subject the contingency adds runs under the generated grants
      withNatsGrants: true,
    });
    dir = scratch();
    control = makeControlClient(stack.simulatorUrl!);
    [account, other] = await Promise.all([
      newAccount(stack, "Tienda con contingencia"),
      newAccount(stack, "Otra cuenta"),
    ]);
    rep = await register(stack, dir, {
      accountId: account.accountId,
      environment: env,
      delegate: ["wsfe"],
      pos: [{ ptoVta: CAE_PTO_VTA, service: "wsfe" as const }],
    });
    await control.enablePointOfSale(env, {
      cuit: rep.cuit,
      ptoVta: CAEA_PTO_VTA,
      emisionTipo: "CAEA",
    });
  });

  afterAll(async () => {
    await stack?.teardown();
    dir?.remove();
  });

  const path = () => `/api/representadas/${rep.representadaId}`;

  it("is off by default, and refuses a point of sale that is not a CAEA one, changing nothing", async () => {
    const before = await http(stack, "GET", path(), account.ro);
    expect(before.status, before.text).toBe(200);
    expect(before.json<RepresentadaBody>()).toMatchObject({
      contingencia: { caea: false, puntosDeVenta: [] },
      caea: null,
    });

    const cae = await http(stack, "PATCH", path(), account.rw, {
      contingencia: { caea: true, puntosDeVenta: [CAE_PTO_VTA] },
      ptoVta: 4,
    });
    expect(cae.status, cae.text).toBe(400);
    expect(cae.json()).toMatchObject({
      code: "INVALID_FIELD",
      details: { field: "contingencia.puntosDeVenta" },
    });
    expect(cae.text).toContain(`el punto de venta ${CAE_PTO_VTA} es de emisión`);
    const unknown = await http(stack, "PATCH", path(), account.rw, {
      contingencia: { caea: true, puntosDeVenta: [77] },
    });
    expect(unknown.status, unknown.text).toBe(400);
    expect(unknown.text).toContain("el punto de venta 77 no figura");
    const empty = await http(stack, "PATCH", path(), account.rw, {
      contingencia: { caea: true, puntosDeVenta: [] },
    });
    expect(empty.status, empty.text).toBe(400);
    // nothing was written by the refused calls, the point of sale included
    const after = await http(stack, "GET", path(), account.ro);
    expect(after.json()).toMatchObject({ ptoVta: null, contingencia: { caea: false } });
    // a read-only key and another account cannot turn it on
    const readOnly = await http(stack, "PATCH", path(), account.ro, {
      contingencia: { caea: true, puntosDeVenta: [CAEA_PTO_VTA] },
    });
    expect(readOnly.status).toBe(403);
    const stranger = await http(stack, "PATCH", path(), other.rw, {
      contingencia: { caea: true, puntosDeVenta: [CAEA_PTO_VTA] },
    });
    expect(stranger.status).toBe(404);
  });

  it("turned on with a CAEA point of sale, obtains the current and next fortnights' CAEAs", async () => {
    const on = await http(stack, "PATCH", path(), account.rw, {
      contingencia: { caea: true, puntosDeVenta: [CAEA_PTO_VTA] },
    });
    expect(on.status, on.text).toBe(200);
    expect(on.json<RepresentadaBody>().contingencia).toEqual({
      caea: true,
      puntosDeVenta: [CAEA_PTO_VTA],
    });

    const shown = await eventually(
      "the fortnight's CAEA",
      async () => {
        const body = (await http(stack, "GET", path(), account.ro)).json<RepresentadaBody>();
        return body.caea?.actual ? body.caea : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    // exactly what the authority granted, fortnight by fortnight
    const granted = (await control.caeas(env, rep.cuit)).caeas;
    const actual = granted.find((c) => c.caea === shown.actual!.caea);
    expect(actual).toMatchObject({
      periodo: shown.actual!.periodo,
      orden: shown.actual!.orden,
      fchVigDesde: shown.actual!.fchVigDesde,
      fchVigHasta: shown.actual!.fchVigHasta,
      fchTopeInf: shown.actual!.fchTopeInf,
    });
    // the next fortnight's window opens 5 days before it: asked for on every pass until then
    if (shown.proxima) {
      expect(granted.map((c) => c.caea)).toContain(shown.proxima.caea);
      expect(Number(shown.proxima.fchVigDesde)).toBeGreaterThan(Number(shown.actual!.fchVigHasta));
    }
    // asked for once each, however many passes ran
    expect(new Set(granted.map((c) => `${c.periodo}/${c.orden}`)).size).toBe(granted.length);

    // turned off, nothing is shown and the points of sale are forgotten
    const off = await http(stack, "PATCH", path(), account.rw, {
      contingencia: { caea: false, puntosDeVenta: [] },
    });
    expect(off.status, off.text).toBe(200);
    expect(off.json<RepresentadaBody>()).toMatchObject({
      contingencia: { caea: false, puntosDeVenta: [] },
      caea: null,
    });
  });
  it("obtains the next fortnight's CAEA once the authority's window opens, by the authority's clock", async () => {
    // the authority's clock is moved ahead, into the next fortnight, to 6 days before the one
    // after it starts (its window closed), then to 4 days before (open); the gateway's own
    // clock stays where it is
    const next = nextFortnightStart(nextFortnightStart(Date.now()));
    const at = (daysBefore: number) => next - daysBefore * DAY_MS + 15 * HOUR_MS;
    const late = await register(stack, dir, {
      accountId: account.accountId,
      environment: env,
      delegate: ["wsfe"],
      pos: [{ ptoVta: CAE_PTO_VTA, service: "wsfe" as const }],
    });
    await control.enablePointOfSale(env, {
      cuit: late.cuit,
      ptoVta: CAEA_PTO_VTA,
      emisionTipo: "CAEA",
    });
    await control.settings(env, { clockOffsetMs: at(6) - Date.now() });
    try {
      const on = await http(
        stack,
        "PATCH",
        `/api/representadas/${late.representadaId}`,
        account.rw,
        {
          contingencia: { caea: true, puntosDeVenta: [CAEA_PTO_VTA] },
        },
      );
      expect(on.status, on.text).toBe(200);
      const shown = () =>
        http(stack, "GET", `/api/representadas/${late.representadaId}`, account.ro).then(
          (answer) => answer.json<RepresentadaBody>().caea,
        );
      const before = await eventually(
        "the current fortnight's CAEA",
        async () => ((await shown())?.actual ? await shown() : undefined),
        { timeoutMs: 30_000, intervalMs: 500 },
      );
      // passes go on, and the authority keeps the next fortnight's window closed (15006)
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect((await shown())?.proxima).toBeNull();
      expect((await control.caeas(env, late.cuit)).caeas).toHaveLength(1);

      await control.settings(env, { clockOffsetMs: at(4) - Date.now() });
      const after = await eventually(
        "the next fortnight's CAEA",
        async () => (await shown())?.proxima ?? undefined,
        { timeoutMs: 30_000, intervalMs: 500 },
      );
      expect(Number(after.fchVigDesde)).toBeGreaterThan(Number(before!.actual!.fchVigHasta));
      const granted = (await control.caeas(env, late.cuit)).caeas;
      expect(granted.map((c) => c.caea)).toEqual([before!.actual!.caea, after.caea]);
    } finally {
      await control.settings(env, { clockOffsetMs: 0 });
    }
  });
});
