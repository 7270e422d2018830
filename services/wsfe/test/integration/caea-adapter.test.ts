import type { AccessTicketCache } from "@pasarela/authority";
import {
  makeControlClient,
  startSimulator,
  type ControlClient,
  type Simulator,
} from "@pasarela/authority-sim";
import { ok } from "@pasarela/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWsfeCaeaAdapter, type WsfeCaeaAdapter } from "../../src/adapters/wsfe-caea.js";
import { quincenaDe, siguiente } from "../../src/domain/caea/quincena.js";
import { simTicket } from "../sim-ticket.js";

const ENV = "homologacion";
const CUIT = "20222222223";
const caller = { accountId: "a", cuit: CUIT, environment: ENV } as const;

/**
 * The CAEA operations of the WSFEv1 adapter against the simulator over real SOAP, with a
 * ticket from its own WSAA: a fortnight's CAEA granted once, asked again (15008) and looked up,
 * none for a fortnight not asked for, and a fortnight whose window has not opened (15006).
 */
describe("WSFEv1 CAEA operations against the simulator", () => {
  let sim: Simulator;
  let control: ControlClient;
  let caea: WsfeCaeaAdapter;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
    control = makeControlClient(sim.url);
    await control.enablePointOfSale(ENV, { cuit: CUIT, ptoVta: 90, emisionTipo: "CAEA" });
    const ticket = await simTicket(sim, control, ENV, CUIT, "contingencia");
    const held = {
      ...ticket,
      cuit: CUIT,
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      certificateNotAfter: new Date(Date.now() + 86_400_000).toISOString(),
    };
    const tickets: AccessTicketCache = {
      get: () => Promise.resolve(ok(held)),
      invalidate: () => {},
      clear: () => {},
    };
    const url = sim.endpoints(ENV).wsfe;
    caea = makeWsfeCaeaAdapter({
      urls: { homologacion: url, produccion: url },
      timeoutMs: 10_000,
      tickets,
    });
  });

  afterAll(async () => {
    await sim?.close();
  });

  it("grants the current fortnight's CAEA once, and looks it up", async () => {
    const actual = quincenaDe(new Date());
    const first = await caea.solicitar(caller, actual);
    expect(first.ok).toBe(true);
    if (!first.ok || first.value.kind !== "otorgado") throw new Error(JSON.stringify(first));
    const granted = first.value.caea;
    expect(granted).toMatchObject({
      periodo: actual.periodo,
      orden: actual.orden,
      fchVigDesde: actual.desde,
      fchVigHasta: actual.hasta,
    });
    expect(granted.caea).toMatch(/^\d{14}$/);
    expect(Number(granted.fchTopeInf)).toBeGreaterThan(Number(actual.hasta));

    expect(await caea.solicitar(caller, actual)).toEqual(ok({ kind: "ya_otorgado" }));
    expect(await caea.consultar(caller, actual)).toEqual(ok(granted));
    const held = await control.caeas(ENV, CUIT);
    expect(held.caeas.map((c) => c.caea)).toEqual([granted.caea]);
  });

  it("answers none for a fortnight not asked for, and refuses one whose window is closed", async () => {
    const later = siguiente(siguiente(quincenaDe(new Date())));
    expect(await caea.consultar(caller, later)).toEqual(ok(undefined));
    const early = await caea.solicitar(caller, later);
    expect(early.ok && early.value.kind).toBe("fuera_de_ventana");
    if (early.ok && early.value.kind === "fuera_de_ventana") {
      expect(early.value.mensaje).toMatch(/5 días corridos anteriores/);
    }
  });
});
