import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../src/index.js";
import type { Simulator } from "../src/index.js";
import { makeControlClient, makeIdentity } from "./helpers.js";

/**
 * A third-party client, unmodified, against the simulator: AfipSDK's afip.js 0.8 (the last line
 * that speaks SOAP to the services itself; 1.x sends every call through its vendor's hosted
 * API), asking for the current fortnight's CAEA and reading it back. It is pointed at the
 * simulator the way its own code allows, through its instance's WSAA_URL and
 * ElectronicBilling.URL, and reads its certificate, key and TA cache from a folder of ours.
 */

interface AfipClient {
  WSAA_URL: string;
  ElectronicBilling: {
    URL: string;
    createCAEA(periodo: number, orden: number): Promise<Record<string, unknown>>;
    getCAEA(periodo: number, orden: number): Promise<Record<string, unknown>>;
  };
}

const require = createRequire(import.meta.url);
const afipMain = require.resolve("@afipsdk/afip.js");
// afip.js reports each use to Mixpanel; a test run must not phone a third party, so its
// Mixpanel client is replaced by one that records nothing before afip.js loads it
const mixpanelPath = createRequire(afipMain).resolve("mixpanel");
require.cache[mixpanelPath] = {
  id: mixpanelPath,
  filename: mixpanelPath,
  loaded: true,
  exports: { init: () => ({ track: () => undefined }) },
} as unknown as NodeJS.Module;
const Afip = require("@afipsdk/afip.js") as new (options: object) => AfipClient;

const ENV = "homologacion";
const CUIT = "20111111112";

let sim: Simulator;
let folder: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  const control = makeControlClient(sim.url);
  const id = await makeIdentity(control, ENV, CUIT, "afipjs", ["wsfe"]);
  await control.enablePointOfSale(ENV, { cuit: CUIT, ptoVta: 20, emisionTipo: "CAEA" });
  folder = mkdtempSync(join(tmpdir(), "afipjs-"));
  writeFileSync(join(folder, "cert.pem"), id.certPem);
  writeFileSync(join(folder, "key.pem"), id.keyPem);
});

afterAll(async () => {
  await sim.close();
  rmSync(folder, { recursive: true, force: true });
});

describe("afip.js against the simulator", () => {
  it("createCAEA grants the current fortnight's CAEA and getCAEA reads it back", async () => {
    const afip = new Afip({
      CUIT: Number(CUIT),
      production: false,
      res_folder: folder,
      ta_folder: folder,
      cert: "cert.pem",
      key: "key.pem",
    });
    afip.WSAA_URL = sim.endpoints(ENV).wsaa;
    afip.ElectronicBilling.URL = sim.endpoints(ENV).wsfe;

    // the fortnight of today in Argentina: always inside its own request window
    const ar = new Date(Date.now() - 3 * 3600_000);
    const periodo = ar.getUTCFullYear() * 100 + ar.getUTCMonth() + 1;
    const orden = ar.getUTCDate() <= 15 ? 1 : 2;

    const granted = await afip.ElectronicBilling.createCAEA(periodo, orden);
    expect(String(granted["CAEA"])).toMatch(/^\d{14}$/);
    // its old soap client reads the short Orden as text
    expect([Number(granted["Periodo"]), Number(granted["Orden"])]).toEqual([periodo, orden]);
    expect(String(granted["FchVigDesde"])).toBe(`${periodo}${orden === 1 ? "01" : "16"}`);

    const read = await afip.ElectronicBilling.getCAEA(periodo, orden);
    expect(read).toEqual(granted);
    // asking again is refused: afip.js raises the authority's error
    await expect(afip.ElectronicBilling.createCAEA(periodo, orden)).rejects.toThrow(/^\(15008\)/);
  });
});
