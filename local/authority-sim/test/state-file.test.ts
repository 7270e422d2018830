import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startSimulator } from "../src/index.js";
import { arToday, login, makeControlClient, makeIdentity } from "./helpers.js";
import type { Ta } from "./helpers.js";
import { detail, feCalls } from "./fe-helpers.js";
import { caeOf, fexCalls } from "./fex-helpers.js";

const dir = mkdtempSync(join(tmpdir(), "authority-sim-state-"));

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const modeOf = (file: string): number => statSync(file).mode & 0o777;

describe("SIM_STATE_FILE", () => {
  it("is written owner-only (0600): it holds the CAs' private keys", async () => {
    const file = join(dir, "fresh.json");
    const sim = await startSimulator({ port: 0, stateFile: file });
    try {
      expect(readFileSync(file, "utf8")).toContain("PRIVATE KEY");
      expect(modeOf(file)).toBe(0o600);
      await makeControlClient(sim.url).setCotizacion("homologacion", { monId: "DOL", cotiz: 9 });
      expect(modeOf(file)).toBe(0o600);
    } finally {
      await sim.close();
    }
  });

  it("narrows a state file left readable by an earlier version to 0600, keeping its content", async () => {
    const file = join(dir, "legacy.json");
    const first = await startSimulator({ port: 0, stateFile: file });
    const ca = await makeControlClient(first.url).caCertificate("produccion");
    await first.close();
    chmodSync(file, 0o644);
    // a temp file left by a crashed writer with the same pid must not keep its mode either
    writeFileSync(`${file}.${process.pid}.tmp`, "{}", { mode: 0o644 });
    chmodSync(`${file}.${process.pid}.tmp`, 0o644);

    const second = await startSimulator({ port: 0, stateFile: file });
    try {
      expect(modeOf(file)).toBe(0o600);
      expect(await makeControlClient(second.url).caCertificate("produccion")).toBe(ca);
    } finally {
      await second.close();
    }
  });

  it("loads a state file written before the registry and stored answers, filling them in", async () => {
    const file = join(dir, "before-registry.json");
    const cuit = "30711111111";
    const first = await startSimulator({ port: 0, stateFile: file });
    let ta: Ta;
    try {
      const c = makeControlClient(first.url);
      const id = await makeIdentity(c, "homologacion", cuit, "viejo", ["wsfe"]);
      await c.enablePointOfSale("homologacion", { cuit, ptoVta: 1 });
      ta = await login(first, "homologacion", id, "wsfe");
      const fe = feCalls(first.endpoints("homologacion").wsfe, ta, cuit);
      expect(await fe.solicitar(1, 1, [detail(1)])).toContain("<Resultado>A</Resultado>");
    } finally {
      await first.close();
    }
    // what an earlier version wrote: no registry, vouchers without the stored answer's fields
    const old = JSON.parse(readFileSync(file, "utf8")) as {
      envs: Record<
        string,
        {
          persons?: unknown;
          caeas?: unknown;
          caeaSinMovimiento?: unknown;
          fe: Record<string, { vouchers: object }>;
        }
      >;
    };
    for (const env of Object.values(old.envs)) {
      delete env.persons;
      delete env.caeas;
      delete env.caeaSinMovimiento;
      for (const series of Object.values(env.fe)) {
        for (const v of Object.values(series.vouchers) as Record<string, unknown>[]) {
          for (const k of [
            "compradores",
            "periodoAsoc",
            "actividades",
            "resultado",
            "observaciones",
          ]) {
            delete v[k];
          }
        }
      }
    }
    writeFileSync(file, JSON.stringify(old));

    const second = await startSimulator({ port: 0, stateFile: file });
    try {
      const fe = feCalls(second.endpoints("homologacion").wsfe, ta, cuit);
      expect(await fe.consultar(1, 1, 1)).toContain(`<CbteFch>${arToday()}</CbteFch>`);
      expect(await fe.consultar(1, 1, 1)).toMatch(
        /<Resultado>A<\/Resultado><CodAutorizacion>\d{14}<\/CodAutorizacion><EmisionTipo>CAE</,
      );
      // nor CAEAs, which came later
      expect(await makeControlClient(second.url).caeas("homologacion", cuit)).toEqual({
        caeas: [],
      });
      // the default registry is back: the recorded receiver is registered, no 10017
      const res = await fe.solicitar(1, 1, [detail(2)]);
      expect(res).toContain("<Resultado>A</Resultado>");
      expect(res).not.toContain("<Observaciones>");
    } finally {
      await second.close();
    }
  });

  it("keeps FEXAuthorize's Ids across a restart, each CUIT's its own", async () => {
    const file = join(dir, "fex-ids.json");
    const [issuer, other] = ["20111111112", "30711111111"];
    const first = await startSimulator({ port: 0, stateFile: file });
    const tas: Record<string, Ta> = {};
    let cae: string | undefined;
    try {
      const c = makeControlClient(first.url);
      for (const cuit of [issuer, other]) {
        const id = await makeIdentity(c, "produccion", cuit, `fex-${cuit}`, ["wsfex"]);
        await c.enablePointOfSale("produccion", { cuit, ptoVta: 7, service: "wsfex" });
        tas[cuit] = await login(first, "produccion", id, "wsfex");
      }
      const fex = fexCalls(first.endpoints("produccion").wsfex, tas[issuer] as Ta, issuer);
      cae = caeOf(await fex.authorize(77, 1));
      expect(cae).toBeDefined();
    } finally {
      await first.close();
    }

    const second = await startSimulator({ port: 0, stateFile: file });
    try {
      const url = second.endpoints("produccion").wsfex;
      const again = await fexCalls(url, tas[issuer] as Ta, issuer).authorize(77, 1);
      expect(again).toContain("<Reproceso>S</Reproceso>");
      expect(caeOf(again)).toBe(cae);
      // the same Id from another CUIT is another request
      const theirs = await fexCalls(url, tas[other] as Ta, other).authorize(77, 1);
      expect(theirs).toContain("<Reproceso>N</Reproceso>");
      expect(caeOf(theirs)).not.toBe(cae);
    } finally {
      await second.close();
    }
  });
});
