import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli.js";
import { startSimulator } from "../src/index.js";
import type { ControlClient, Simulator } from "../src/index.js";
import {
  FE_NS,
  arToday,
  asmx,
  authXml,
  login,
  makeControlClient,
  makeIdentity,
  resultOf,
} from "./helpers.js";
import type { Ta } from "./helpers.js";

const CUIT = "20111111112";

let sim: Simulator;
let control: ControlClient;
let ta: Ta;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, timeoutHoldMs: 1_000 });
  control = makeControlClient(sim.url);
  const id = await makeIdentity(control, "homologacion", CUIT, "op-fault");
  await control.enablePointOfSale("homologacion", { cuit: CUIT, ptoVta: 4 });
  ta = await login(sim, "homologacion", id, "wsfe");
});

afterAll(async () => {
  await sim.close();
});

const fe = (op: string, inner: string) =>
  asmx(sim.endpoints("homologacion").wsfe, FE_NS, op, inner);
const ultimo = () =>
  fe("FECompUltimoAutorizado", `${authXml(ta, CUIT)}<PtoVta>4</PtoVta><CbteTipo>11</CbteTipo>`);
const facturaC = (nro: number) =>
  fe(
    "FECAESolicitar",
    `${authXml(ta, CUIT)}<FeCAEReq><FeCabReq><CantReg>1</CantReg><PtoVta>4</PtoVta><CbteTipo>11</CbteTipo></FeCabReq>` +
      `<FeDetReq><FECAEDetRequest><Concepto>1</Concepto><DocTipo>99</DocTipo><DocNro>0</DocNro><CbteDesde>${nro}</CbteDesde>` +
      `<CbteHasta>${nro}</CbteHasta><CbteFch>${arToday()}</CbteFch><ImpTotal>50</ImpTotal><ImpTotConc>0</ImpTotConc>` +
      `<ImpNeto>50</ImpNeto><ImpOpEx>0</ImpOpEx><ImpTrib>0</ImpTrib><ImpIVA>0</ImpIVA><MonId>PES</MonId><MonCotiz>1</MonCotiz>` +
      `<CondicionIVAReceptorId>5</CondicionIVAReceptorId></FECAEDetRequest></FeDetReq></FeCAEReq>`,
  );

describe("a fault aimed at one operation", () => {
  it("hits only that operation: the numbering query answers, FECAESolicitar gets the fault", async () => {
    await runCli(
      [
        "fault",
        "--environment",
        "homologacion",
        "--service",
        "wsfe",
        "--mode",
        "error-501",
        "--operation",
        "FECAESolicitar",
      ],
      control,
    );
    try {
      expect(resultOf((await ultimo()).text, "FECompUltimoAutorizado")).toContain(
        "<CbteNro>0</CbteNro>",
      );
      expect(resultOf((await facturaC(1)).text, "FECAESolicitar")).toContain("<Code>501</Code>");
    } finally {
      await control.setFault("homologacion", { service: "wsfe", mode: "none" });
    }
    expect(resultOf((await facturaC(1)).text, "FECAESolicitar")).toContain(
      "<Resultado>A</Resultado>",
    );
  });

  it("drop-after-commit on FECAESolicitar commits the voucher and drops the connection", async () => {
    await control.setFault("homologacion", {
      service: "wsfe",
      mode: "drop-after-commit",
      operation: "FECAESolicitar",
    });
    try {
      await expect(facturaC(2)).rejects.toThrow();
      expect(resultOf((await ultimo()).text, "FECompUltimoAutorizado")).toContain(
        "<CbteNro>2</CbteNro>",
      );
    } finally {
      await control.setFault("homologacion", { service: "wsfe", mode: "none" });
    }
  });

  it("latency aimed at one operation slows only that one", async () => {
    await runCli(
      [
        "fault",
        "--environment",
        "homologacion",
        "--service",
        "wsfe",
        "--mode",
        "none",
        "--latency-ms",
        "1500",
        "--latency-operation",
        "FECAESolicitar",
      ],
      control,
    );
    try {
      const quick = Date.now();
      await ultimo();
      expect(Date.now() - quick).toBeLessThan(1_000);
      const slow = Date.now();
      expect(resultOf((await facturaC(3)).text, "FECAESolicitar")).toContain(
        "<Resultado>A</Resultado>",
      );
      expect(Date.now() - slow).toBeGreaterThanOrEqual(1_400);
    } finally {
      await control.setFault("homologacion", { service: "wsfe", mode: "none" });
    }
  });
});
