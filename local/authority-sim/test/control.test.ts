import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageError, runCli } from "../src/cli.js";
import { loadConfig } from "../src/config.js";
import { ControlError, isValidCuit, startSimulator } from "../src/index.js";
import type { ControlClient, Simulator } from "../src/index.js";
import {
  FEX_NS,
  FE_NS,
  arToday,
  asmx,
  authXml,
  faultCode,
  login,
  makeControlClient,
  makeCsr,
  makeIdentity,
  makeTra,
  postLogin,
  resultOf,
  rsaKey,
  signCms,
} from "./helpers.js";
import { fexCmp } from "./fex-helpers.js";
import type { Identity, Ta } from "./helpers.js";

const CUIT = "23123456785";

let sim: Simulator;
let control: ControlClient;
let id: Identity;
let ta: Ta;
let fexTa: Ta;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "authority-sim-control-"));
  sim = await startSimulator({ port: 0, timeoutHoldMs: 1500 });
  control = makeControlClient(sim.url);
  id = await makeIdentity(control, "homologacion", CUIT, "ctl");
  await control.enablePointOfSale("homologacion", { cuit: CUIT, ptoVta: 9 });
  await control.enablePointOfSale("homologacion", { cuit: CUIT, ptoVta: 9, service: "wsfex" });
  ta = await login(sim, "homologacion", id, "wsfe");
  fexTa = await login(sim, "homologacion", id, "wsfex");
});

afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const fe = (op: string, inner: string) =>
  asmx(sim.endpoints("homologacion").wsfe, FE_NS, op, inner);
const fex = (op: string, inner: string) =>
  asmx(sim.endpoints("homologacion").wsfex, FEX_NS, op, inner);
const ultimo = async () =>
  resultOf(
    (
      await fe(
        "FECompUltimoAutorizado",
        `${authXml(ta, CUIT)}<PtoVta>9</PtoVta><CbteTipo>11</CbteTipo>`,
      )
    ).text,
    "FECompUltimoAutorizado",
  );

function facturaC(nro: number): string {
  return (
    `${authXml(ta, CUIT)}<FeCAEReq><FeCabReq><CantReg>1</CantReg><PtoVta>9</PtoVta><CbteTipo>11</CbteTipo></FeCabReq>` +
    `<FeDetReq><FECAEDetRequest><Concepto>1</Concepto><DocTipo>99</DocTipo><DocNro>0</DocNro><CbteDesde>${nro}</CbteDesde>` +
    `<CbteHasta>${nro}</CbteHasta><CbteFch>${arToday()}</CbteFch><ImpTotal>50</ImpTotal><ImpTotConc>0</ImpTotConc>` +
    `<ImpNeto>50</ImpNeto><ImpOpEx>0</ImpOpEx><ImpTrib>0</ImpTrib><ImpIVA>0</ImpIVA><MonId>PES</MonId><MonCotiz>1</MonCotiz>` +
    `<CondicionIVAReceptorId>5</CondicionIVAReceptorId></FECAEDetRequest></FeDetReq></FeCAEReq>`
  );
}

describe("fault injection", () => {
  it("error-501 answers the dialect's infrastructure error", async () => {
    await control.setFault("homologacion", { service: "wsfe", mode: "error-501" });
    expect(await ultimo()).toBe(
      "<PtoVta>0</PtoVta><CbteTipo>0</CbteTipo><CbteNro>0</CbteNro><Errors><Err><Code>501</Code><Msg>Error interno de base de datos</Msg></Err></Errors>",
    );
    await control.setFault("homologacion", { service: "wsfe", mode: "none" });
    await control.setFault("homologacion", { service: "wsfex", mode: "error-501" });
    const r = resultOf((await fex("FEXGetLast_ID", authXml(fexTa, CUIT))).text, "FEXGetLast_ID");
    expect(r).toContain(
      "<FEXErr><ErrCode>501</ErrCode><ErrMsg>Error interno de base de datos</ErrMsg></FEXErr>",
    );
    await control.setFault("homologacion", { service: "wsfex", mode: "none" });
    await control.setFault("homologacion", { service: "wsaa", mode: "error-501" });
    const w = await postLogin(sim, "homologacion", signCms(id, makeTra("wsfe")));
    expect(w.status).toBe(500);
    expect(faultCode(w.text)).toBe("ns1:wsaa.internalError");
    await control.setFault("homologacion", { service: "wsaa", mode: "none" });
  });

  it("unavailable: WSAA faults ns1:wsaa.unavailable, ASMX answers HTTP 503", async () => {
    await control.setFault("homologacion", { service: "wsaa", mode: "unavailable" });
    const w = await postLogin(sim, "homologacion", signCms(id, makeTra("wsfe")));
    expect(w.status).toBe(500);
    expect(faultCode(w.text)).toBe("ns1:wsaa.unavailable");
    await control.setFault("homologacion", { service: "wsaa", mode: "none" });
    await control.setFault("homologacion", { service: "wsfe", mode: "unavailable" });
    expect((await fe("FEDummy", "")).status).toBe(503);
    await control.setFault("homologacion", { service: "wsfe", mode: "none" });
    expect((await fe("FEDummy", "")).status).toBe(200);
  });

  it("timeout holds the response until the client gives up", async () => {
    await control.setFault("homologacion", { service: "wsfe", mode: "timeout" });
    const started = Date.now();
    await expect(
      fetch(sim.endpoints("homologacion").wsfe, {
        method: "POST",
        headers: { "content-type": "text/xml", soapaction: `"${FE_NS}FEDummy"` },
        body: `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><FEDummy xmlns="${FE_NS}"/></soap:Body></soap:Envelope>`,
        signal: AbortSignal.timeout(300),
      }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    // Past the hold bound the simulator drops the connection without an answer.
    await expect(fe("FEDummy", "")).rejects.toThrow();
    await control.setFault("homologacion", { service: "wsfe", mode: "none" });
  });

  it("drop-after-commit authorizes and stores the voucher, then drops the connection", async () => {
    await control.setFault("homologacion", { service: "wsfe", mode: "drop-after-commit" });
    await expect(fe("FECAESolicitar", facturaC(1))).rejects.toThrow();
    await control.setFault("homologacion", { service: "wsfe", mode: "none" });
    expect(await ultimo()).toContain("<CbteNro>1</CbteNro>");
    const cons = resultOf(
      (
        await fe(
          "FECompConsultar",
          `${authXml(ta, CUIT)}<FeCompConsReq><CbteTipo>11</CbteTipo><CbteNro>1</CbteNro><PtoVta>9</PtoVta></FeCompConsReq>`,
        )
      ).text,
      "FECompConsultar",
    );
    expect(cons).toMatch(/<CodAutorizacion>\d{14}<\/CodAutorizacion>/);

    await control.setFault("homologacion", { service: "wsfex", mode: "drop-after-commit" });
    const cmp = fexCmp(77, 1, { Punto_vta: "9" });
    await expect(fex("FEXAuthorize", `${authXml(fexTa, CUIT)}${cmp}`)).rejects.toThrow();
    await control.setFault("homologacion", { service: "wsfex", mode: "none" });
    const again = resultOf(
      (await fex("FEXAuthorize", `${authXml(fexTa, CUIT)}${cmp}`)).text,
      "FEXAuthorize",
    );
    expect(again).toContain("<Reproceso>S</Reproceso>");
  });

  it("rate 0 never faults; latency-ms delays every answer", async () => {
    await control.setFault("homologacion", {
      service: "wsfe",
      mode: "unavailable",
      rate: 0,
      latencyMs: 150,
    });
    const started = Date.now();
    expect((await fe("FEDummy", "")).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    await control.setFault("homologacion", { service: "wsfe", mode: "none" });
  });
});

describe("control API", () => {
  it("counts logins per (alias, service) and requests per operation", async () => {
    const stats = await control.stats("homologacion");
    expect(stats.logins["ctl|wsfe"]).toBeGreaterThanOrEqual(1);
    expect(stats.logins["ctl|wsfex"]).toBe(1);
    expect(stats.requests["FECompUltimoAutorizado"]).toBeGreaterThanOrEqual(2);
    expect(stats.requests["loginCms"]).toBeGreaterThanOrEqual(4);
    expect(stats.total).toBe(Object.values(stats.requests).reduce((a, b) => a + b, 0));
    const before = stats.requests["FEDummy"] ?? 0;
    await fe("FEDummy", "");
    expect((await control.stats("homologacion")).requests["FEDummy"]).toBe(before + 1);
    expect((await control.stats("produccion")).total).toBe(0);
  });

  it("rejects invalid input with a JSON error naming the field", async () => {
    await expect(
      control.delegate("homologacion", { cuit: "20111111113", alias: "x", service: "wsfe" }),
    ).rejects.toThrow(/cuit: cuit has an invalid check digit/);
    await expect(control.issueCertificate("homologacion", "not a csr")).rejects.toBeInstanceOf(
      ControlError,
    );
    const res = await fetch(`${sim.url}/_control/staging/stats`);
    expect(res.status).toBe(404);
    expect(isValidCuit("33693450239")).toBe(true);
    expect(isValidCuit("23000000000")).toBe(true);
    expect(isValidCuit("30000000008")).toBe(false);
  });

  it("reset clears the world but keeps the CA", async () => {
    const other = await startSimulator({ port: 0 });
    try {
      const c = makeControlClient(other.url);
      const ident = await makeIdentity(c, "homologacion", CUIT, "rst", ["wsfe"]);
      const ca = await c.caCertificate("homologacion");
      await login(other, "homologacion", ident, "wsfe");
      await c.reset("homologacion");
      expect(await c.caCertificate("homologacion")).toBe(ca);
      expect(await c.stats("homologacion")).toEqual({ logins: {}, requests: {}, total: 0 });
      const res = await postLogin(other, "homologacion", signCms(ident, makeTra("wsfe")));
      expect(faultCode(res.text)).toBe("ns1:coe.notAuthorized");
      await c.delegate("homologacion", { cuit: CUIT, alias: "rst", service: "wsfe" });
      expect((await postLogin(other, "homologacion", signCms(ident, makeTra("wsfe")))).status).toBe(
        200,
      );
    } finally {
      await other.close();
    }
  });

  it("persists state to SIM_STATE_FILE so a restart keeps CA, delegations and numbering", async () => {
    const file = join(dir, "state.json");
    const first = await startSimulator({ port: 0, stateFile: file });
    let ident: Identity;
    let ca: string;
    try {
      const c = makeControlClient(first.url);
      ident = await makeIdentity(c, "produccion", CUIT, "persist", ["wsfe"]);
      await c.enablePointOfSale("produccion", { cuit: CUIT, ptoVta: 4 });
      ca = await c.caCertificate("produccion");
      const t = await login(first, "produccion", ident, "wsfe");
      const body = facturaC(1)
        .replace(authXml(ta, CUIT), authXml(t, CUIT))
        .replace(/<PtoVta>9<\/PtoVta>/, "<PtoVta>4</PtoVta>");
      const res = await asmx(first.endpoints("produccion").wsfe, FE_NS, "FECAESolicitar", body);
      expect(res.text).toContain("<Resultado>A</Resultado>");
    } finally {
      await first.close();
    }
    const second = await startSimulator({ port: 0, stateFile: file });
    try {
      const c = makeControlClient(second.url);
      expect(await c.caCertificate("produccion")).toBe(ca);
      // The TA from before the restart is still on record: the one-TA rule survives too.
      const res = await postLogin(second, "produccion", signCms(ident, makeTra("wsfe")));
      expect(faultCode(res.text)).toBe("ns1:coe.alreadyAuthenticated");
      await c.forgetTas("produccion");
      const t = await login(second, "produccion", ident, "wsfe");
      const last = await asmx(
        second.endpoints("produccion").wsfe,
        FE_NS,
        "FECompUltimoAutorizado",
        `${authXml(t, CUIT)}<PtoVta>4</PtoVta><CbteTipo>11</CbteTipo>`,
      );
      expect(resultOf(last.text, "FECompUltimoAutorizado")).toContain("<CbteNro>1</CbteNro>");
    } finally {
      await second.close();
    }
  });
});

describe("CLI", () => {
  it("runs every command against the control API", async () => {
    const other = await startSimulator({ port: 0 });
    try {
      const c = makeControlClient(other.url);
      const csrFile = join(dir, "req.csr");
      writeFileSync(csrFile, makeCsr(rsaKey(), CUIT, "cli"));
      const pem = await runCli(["cert", "--environment", "homologacion", "--csr", csrFile], c);
      expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----/);
      expect(await runCli(["ca", "--environment", "produccion"], c)).toBe(
        await c.caCertificate("produccion"),
      );
      const okJson = '{"ok":true}';
      expect(
        await runCli(
          [
            "delegate",
            "--environment",
            "homologacion",
            "--cuit",
            CUIT,
            "--alias",
            "cli",
            "--service",
            "wsfe",
          ],
          c,
        ),
      ).toBe(okJson);
      expect(
        await runCli(["pos", "--environment", "homologacion", "--cuit", CUIT, "--pto-vta", "3"], c),
      ).toBe(okJson);
      expect(
        await runCli(
          [
            "pos",
            "--environment",
            "homologacion",
            "--cuit",
            CUIT,
            "--pto-vta",
            "3",
            "--service",
            "wsfex",
          ],
          c,
        ),
      ).toBe(okJson);
      expect(
        await runCli(
          [
            "fault",
            "--environment",
            "homologacion",
            "--service",
            "wsfe",
            "--mode",
            "error-501",
            "--rate",
            "0.5",
            "--latency-ms",
            "10",
          ],
          c,
        ),
      ).toBe(okJson);
      expect(
        await runCli(
          [
            "person",
            "--environment",
            "homologacion",
            "--cuit",
            "30711111111",
            "--condicion-iva",
            "responsable_inscripto",
            "--razon-social",
            "EMISORA S.A.",
            "--actividades",
            '[{"id":620100,"desc":"SERVICIOS DE CONSULTORES EN INFORMATICA"}]',
          ],
          c,
        ),
      ).toBe(okJson);
      expect(
        await runCli(
          [
            "person",
            "--environment",
            "homologacion",
            "--cuit",
            CUIT,
            "--condicion-iva",
            "monotributo",
            "--apellido",
            "GOMEZ",
            "--nombre",
            "ANA",
            "--estado-clave",
            "INACTIVO",
          ],
          c,
        ),
      ).toBe(okJson);
      expect(
        await runCli(["forget-person", "--environment", "homologacion", "--cuit", CUIT], c),
      ).toBe('{"ok":true,"removed":true}');
      await expect(
        runCli(
          [
            "person",
            "--environment",
            "homologacion",
            "--cuit",
            CUIT,
            "--condicion-iva",
            "monotributo",
            "--actividades",
            "620100",
          ],
          c,
        ),
      ).rejects.toThrow(/--actividades must be JSON/);
      await expect(
        runCli(
          ["person", "--environment", "homologacion", "--cuit", CUIT, "--condicion-iva", "rico"],
          c,
        ),
      ).rejects.toThrow(/--condicion-iva must be one of/);
      expect(JSON.parse(await runCli(["stats", "--environment", "homologacion"], c))).toEqual({
        logins: {},
        requests: {},
        total: 0,
      });
      expect(
        await runCli(
          ["settings", "--environment", "homologacion", "--enforce-single-ta", "false"],
          c,
        ),
      ).toBe(okJson);
      expect(await runCli(["reset", "--environment", "homologacion"], c)).toBe(okJson);
      await expect(runCli(["stats", "--environment", "staging"], c)).rejects.toBeInstanceOf(
        UsageError,
      );
      await expect(runCli(["bogus", "--environment", "homologacion"], c)).rejects.toBeInstanceOf(
        UsageError,
      );
      await expect(
        runCli(
          ["fault", "--environment", "homologacion", "--service", "wsfe", "--mode", "explode"],
          c,
        ),
      ).rejects.toThrow(/--mode must be one of/);
      await expect(
        runCli(
          [
            "delegate",
            "--environment",
            "homologacion",
            "--cuit",
            "123",
            "--alias",
            "a",
            "--service",
            "wsfe",
          ],
          c,
        ),
      ).rejects.toBeInstanceOf(ControlError);
    } finally {
      await other.close();
    }
  });

  it("config fails fast naming the variable", () => {
    expect(loadConfig({})).toEqual({
      SIM_PORT: 4400,
      SIM_HOST: "127.0.0.1",
      SIM_HTTPS_PORT: 4401,
      SIM_TLS_NAMES: [],
      SIM_LOG_LEVEL: "info",
    });
    expect(() => loadConfig({ SIM_PORT: "abc" })).toThrow(/SIM_PORT/);
    expect(() => loadConfig({ SIM_LOG_LEVEL: "loud" })).toThrow(/SIM_LOG_LEVEL/);
  });
});
