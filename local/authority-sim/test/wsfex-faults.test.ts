import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli.js";
import { startSimulator } from "../src/index.js";
import type { ControlClient, Simulator } from "../src/index.js";
import { FEX_NS, asmx, authXml, login, makeControlClient, makeIdentity } from "./helpers.js";
import type { Ta } from "./helpers.js";
import { caeOf, fexCalls, fexCmp, fexErrXml } from "./fex-helpers.js";
import type { FexCalls } from "./fex-helpers.js";

const CUIT = "20111111112";
const ENV = "homologacion";

let sim: Simulator;
let control: ControlClient;
let ta: Ta;
let fex: FexCalls;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, timeoutHoldMs: 1_000 });
  control = makeControlClient(sim.url);
  const id = await makeIdentity(control, ENV, CUIT, "fex-fault", ["wsfex"]);
  await control.enablePointOfSale(ENV, { cuit: CUIT, ptoVta: 7, service: "wsfex" });
  ta = await login(sim, ENV, id, "wsfex");
  fex = fexCalls(sim.endpoints(ENV).wsfex, ta, CUIT);
});

afterAll(async () => {
  await sim.close();
});

const clear = () => control.setFault(ENV, { service: "wsfex", mode: "none" });
const rawAuthorize = (id: number, nro: number) =>
  asmx(sim.endpoints(ENV).wsfex, FEX_NS, "FEXAuthorize", `${authXml(ta, CUIT)}${fexCmp(id, nro)}`);

describe("faults aimed at FEXAuthorize", () => {
  it("error-501 (through the CLI) hits FEXAuthorize only: one FEXErr, nothing authorized", async () => {
    await runCli(
      [
        "fault",
        "--environment",
        ENV,
        "--service",
        "wsfex",
        "--mode",
        "error-501",
        "--operation",
        "FEXAuthorize",
      ],
      control,
    );
    try {
      expect(await fex.authorize(1, 1)).toBe(fexErrXml(501, "Error interno de base de datos"));
      expect(await fex.lastCmp(7, 19)).toContain("<Cbte_nro>0</Cbte_nro>");
    } finally {
      await clear();
    }
    expect(await fex.authorize(1, 1)).toContain("<Reproceso>N</Reproceso>");
  });

  it("unavailable answers the front end's 503 to FEXAuthorize", async () => {
    await control.setFault(ENV, {
      service: "wsfex",
      mode: "unavailable",
      operation: "FEXAuthorize",
    });
    try {
      expect((await rawAuthorize(2, 2)).status).toBe(503);
      expect(await fex.lastCmp(7, 19)).toContain("<Cbte_nro>1</Cbte_nro>");
    } finally {
      await clear();
    }
  });

  it("drop-after-commit authorizes the voucher, drops the connection; the same Id then answers it with Reproceso S", async () => {
    await control.setFault(ENV, {
      service: "wsfex",
      mode: "drop-after-commit",
      operation: "FEXAuthorize",
    });
    try {
      await expect(rawAuthorize(3, 2)).rejects.toThrow();
      expect(await fex.lastCmp(7, 19)).toContain("<Cbte_nro>2</Cbte_nro>");
    } finally {
      await clear();
    }
    const held = (await control.exportVouchers(ENV)).series[`${CUIT}|7|19`]?.vouchers.at(-1);
    expect(held).toMatchObject({ cbteNro: 2, id: 3 });
    const again = await fex.authorize(3, 2);
    expect(again).toContain("<Reproceso>S</Reproceso>");
    expect(caeOf(again)).toBe(held?.cae);
    expect((await control.stats(ENV)).faults?.["FEXAuthorize drop-after-commit"]).toBe(1);
  });

  it("latency aimed at FEXAuthorize makes two on one series overlap: the later answers 502", async () => {
    await control.setFault(ENV, {
      service: "wsfex",
      mode: "none",
      latencyMs: 600,
      latencyOperation: "FEXAuthorize",
    });
    try {
      const quick = Date.now();
      await fex.lastId();
      expect(Date.now() - quick).toBeLessThan(500);
      const first = fex.authorize(4, 3);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const second = await fex.authorize(5, 3);
      expect(second).toBe(fexErrXml(502, "Transaccion Activa"));
      expect(await first).toContain("<Resultado>A</Resultado>");
    } finally {
      await clear();
    }
    // the refused request held nothing: its Id is free to authorize the next number
    expect(await fex.authorize(5, 4)).toContain("<Reproceso>N</Reproceso>");
  });
});
