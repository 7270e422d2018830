import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import type { TLSSocket } from "node:tls";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli.js";
import { loadConfig } from "../src/config.js";
import { ControlError, startSimulator } from "../src/index.js";
import type { Simulator } from "../src/index.js";
import {
  FE_NS,
  authXml,
  loginEnvelope,
  makeControlClient,
  makeIdentity,
  makeTra,
  parseTa,
  resultOf,
  signCms,
} from "./helpers.js";

const CUIT = "20111111112";

let dir: string;
let sim: Simulator;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "authority-sim-https-"));
  sim = await startSimulator({
    port: 0,
    httpsPort: 0,
    stateFile: join(dir, "state.json"),
    tlsCaFile: join(dir, "tls-ca.pem"),
  });
});

afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  text: string;
}

/** One HTTPS exchange with node:https, trusting `ca` only when given (else the system roots). */
function httpsCall(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; ca?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? "GET",
        headers: options.headers ?? {},
        ...(options.ca === undefined ? {} : { ca: options.ca }),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const soap11 = (op: string, inner: string) => ({
  method: "POST",
  headers: { "content-type": "text/xml; charset=utf-8", soapaction: `"${FE_NS}${op}"` },
  body:
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">` +
    `<soap:Body><${op} xmlns="${FE_NS}">${inner}</${op}></soap:Body></soap:Envelope>`,
});

describe("HTTPS", () => {
  it("serves the same app over TLS beside plain HTTP, with a certificate from its own CA", async () => {
    const ca = sim.tlsCaCertificate ?? "";
    expect(sim.httpsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(sim.endpoints("homologacion", "https").wsfe).toBe(
      `${sim.httpsUrl}/homologacion/wsfev1/service.asmx`,
    );
    const overTls = await httpsCall(sim.endpoints("homologacion", "https").wsfe, {
      ...soap11("FEDummy", ""),
      ca,
    });
    expect(overTls.status).toBe(200);
    expect(overTls.text).toContain(
      "<FEDummyResult><AppServer>OK</AppServer><DbServer>OK</DbServer><AuthServer>OK</AuthServer></FEDummyResult>",
    );
    const plain = await fetch(sim.endpoints("homologacion").wsfe, soap11("FEDummy", ""));
    expect(plain.status).toBe(200);

    const cert = new X509Certificate(await tlsPeerCertificate(sim.httpsUrl ?? "", ca));
    expect(cert.checkIssued(new X509Certificate(ca))).toBe(true);
    expect(cert.subjectAltName).toContain("DNS:localhost");
    expect(cert.subjectAltName).toContain("IP Address:127.0.0.1");
  });

  it("is refused by a client that was not told to trust the simulator's CA", async () => {
    const refused = await httpsCall(
      sim.endpoints("homologacion", "https").wsfe,
      soap11("FEDummy", ""),
    ).then(
      () => undefined,
      (error: unknown) => (error as { code?: unknown }).code,
    );
    expect(refused).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN/);
  });

  it("logs in and answers business calls over HTTPS, sharing the world with HTTP", async () => {
    const control = makeControlClient(sim.url);
    const ca = sim.tlsCaCertificate ?? "";
    const id = await makeIdentity(control, "homologacion", CUIT, "tls", ["wsfe"]);
    await control.enablePointOfSale("homologacion", { cuit: CUIT, ptoVta: 3 });
    const login = await httpsCall(sim.endpoints("homologacion", "https").wsaa, {
      method: "POST",
      headers: { "content-type": "text/xml; charset=utf-8", soapaction: '""' },
      body: loginEnvelope(signCms(id, makeTra("wsfe"))),
      ca,
    });
    expect(login.status).toBe(200);
    const ta = parseTa(login.text);
    const last = await fetch(
      sim.endpoints("homologacion").wsfe,
      soap11(
        "FECompUltimoAutorizado",
        `${authXml(ta, CUIT)}<PtoVta>3</PtoVta><CbteTipo>11</CbteTipo>`,
      ),
    );
    expect(resultOf(await last.text(), "FECompUltimoAutorizado")).toBe(
      "<PtoVta>3</PtoVta><CbteTipo>11</CbteTipo><CbteNro>0</CbteNro>",
    );
  });

  it("advertises the HTTPS address in a WSDL read over HTTPS", async () => {
    const ca = sim.tlsCaCertificate ?? "";
    const wsdl = await httpsCall(`${sim.endpoints("produccion", "https").wsfex}?WSDL`, { ca });
    expect(wsdl.status).toBe(200);
    expect(wsdl.text).toContain(
      `<soap:address location="${sim.endpoints("produccion", "https").wsfex}"/>`,
    );
    const plain = await (await fetch(`${sim.endpoints("produccion").wsfex}?WSDL`)).text();
    expect(plain).toContain(`<soap:address location="${sim.endpoints("produccion").wsfex}"/>`);
  });

  it("hands out its CA: the file written at start, GET /_control/tls-ca and `sim tls-ca`", async () => {
    const ca = sim.tlsCaCertificate ?? "";
    expect(ca).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(readFileSync(join(dir, "tls-ca.pem"), "utf8")).toBe(ca);
    const control = makeControlClient(sim.url);
    expect(await control.tlsCaCertificate()).toBe(ca);
    expect(await runCli(["tls-ca"], control)).toBe(ca);
    // the CA's private key stays in the owner-only state file
    expect(statSync(join(dir, "state.json")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, "tls-ca.pem"), "utf8")).not.toContain("PRIVATE KEY");
  });

  it("keeps its CA across restarts and reissues the server certificate for new names", async () => {
    const file = join(dir, "restart.json");
    const first = await startSimulator({ port: 0, httpsPort: 0, stateFile: file });
    const ca = first.tlsCaCertificate ?? "";
    const before = await tlsPeerCertificate(first.httpsUrl ?? "", ca);
    await first.close();

    const same = await startSimulator({ port: 0, httpsPort: 0, stateFile: file });
    try {
      expect(same.tlsCaCertificate).toBe(ca);
      expect((await tlsPeerCertificate(same.httpsUrl ?? "", ca)).equals(before)).toBe(true);
    } finally {
      await same.close();
    }
    const named = await startSimulator({
      port: 0,
      httpsPort: 0,
      stateFile: file,
      tlsNames: ["authority-sim"],
    });
    try {
      expect(named.tlsCaCertificate).toBe(ca);
      const cert = new X509Certificate(await tlsPeerCertificate(named.httpsUrl ?? "", ca));
      expect(cert.subjectAltName).toContain("DNS:authority-sim");
      expect(cert.checkIssued(new X509Certificate(ca))).toBe(true);
    } finally {
      await named.close();
    }
  });

  it("serves plain HTTP only unless asked, and says so when asked for its TLS CA", async () => {
    const plain = await startSimulator({ port: 0 });
    try {
      expect(plain.httpsUrl).toBeUndefined();
      expect(() => plain.endpoints("homologacion", "https")).toThrow(/httpsPort/);
      await expect(makeControlClient(plain.url).tlsCaCertificate()).rejects.toBeInstanceOf(
        ControlError,
      );
    } finally {
      await plain.close();
    }
    expect(loadConfig({}).SIM_HTTPS_PORT).toBe(4401);
    expect(loadConfig({ SIM_HTTPS_PORT: "off" }).SIM_HTTPS_PORT).toBeUndefined();
    expect(loadConfig({ SIM_TLS_NAMES: "authority-sim, 10.0.0.5" }).SIM_TLS_NAMES).toEqual([
      "authority-sim",
      "10.0.0.5",
    ]);
    expect(() => loadConfig({ SIM_HTTPS_PORT: "https" })).toThrow(/SIM_HTTPS_PORT/);
    expect(() => loadConfig({ SIM_TLS_NAMES: "a b" })).toThrow(/SIM_TLS_NAMES/);
  });
});

/** The DER of the certificate the server presents. */
function tlsPeerCertificate(origin: string, ca: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}/_control/health`, { ca, agent: false }, (res) => {
      const socket = res.socket as TLSSocket;
      resolve(socket.getPeerCertificate().raw);
      res.resume();
    });
    req.on("error", reject);
    req.end();
  });
}
