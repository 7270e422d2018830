import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import forge from "node-forge";
import * as soap from "soap";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../src/index.js";
import type { ControlClient, Simulator } from "../src/index.js";
import {
  WSAA_NS,
  faultCode,
  faultString,
  loginEnvelope,
  makeControlClient,
  makeCsr,
  makeIdentity,
  makeTra,
  parseTa,
  postLogin,
  rsaKey,
  signCms,
  soapCall,
} from "./helpers.js";

const CUIT = "20111111112";
const OTHER = "30711111111";

let sim: Simulator;
let control: ControlClient;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  control = makeControlClient(sim.url);
  dir = mkdtempSync(join(tmpdir(), "authority-sim-wsaa-"));
});

afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The recorded WSAA fault, with the simulator's hostname. */
function faultFixture(code: string, message: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" ' +
    'xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
    "<soapenv:Body><soapenv:Fault>" +
    `<faultcode xmlns:ns1="http://xml.apache.org/axis/">ns1:${code}</faultcode>` +
    `<faultstring>${message}</faultstring><detail>` +
    '<ns2:exceptionName xmlns:ns2="http://xml.apache.org/axis/">gov.afip.desein.dvadac.sua.view.wsaa.LoginFault</ns2:exceptionName>' +
    '<ns3:hostname xmlns:ns3="http://xml.apache.org/axis/">wsaaext0.homo.afip.gov.ar</ns3:hostname>' +
    "</detail></soapenv:Fault></soapenv:Body></soapenv:Envelope>"
  );
}

describe("WSAA loginCms", () => {
  it("serves its WSDL at ?wsdl and ?WSDL with the simulator address", async () => {
    for (const q of ["?wsdl", "?WSDL"]) {
      const res = await fetch(`${sim.endpoints("homologacion").wsaa}${q}`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain(`location="${sim.endpoints("homologacion").wsaa}"`);
      expect(text).toContain('<wsdlsoap:operation soapAction=""/>');
      expect(text).toContain(`targetNamespace="${WSAA_NS}"`);
    }
  });

  it("issues a 12 h TA for a node-forge CMS, shaped like the recorded one", async () => {
    const id = await makeIdentity(control, "homologacion", CUIT, "forge1", ["wsfe"]);
    const before = Date.now();
    const res = await postLogin(sim, "homologacion", signCms(id, makeTra("wsfe")));
    expect(res.status).toBe(200);
    expect(res.text).toMatch(
      new RegExp(
        `^<\\?xml version="1.0" encoding="UTF-8"\\?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" ` +
          `xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body>` +
          `<loginCmsResponse xmlns="${WSAA_NS}"><loginCmsReturn>&lt;\\?xml version=&quot;1.0&quot; encoding=&quot;UTF-8&quot; standalone=&quot;yes&quot;\\?&gt;`,
      ),
    );
    const ta = parseTa(res.text);
    expect(ta.xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8" standalone="yes"\?>\n<loginTicketResponse version="1.0">\n {4}<header>\n {8}<source>CN=wsaahomo, O=AFIP, C=AR, SERIALNUMBER=CUIT 33693450239<\/source>\n {8}<destination>SERIALNUMBER=CUIT 20111111112, CN=forge1<\/destination>\n {8}<uniqueId>\d+<\/uniqueId>\n {8}<generationTime>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}-03:00<\/generationTime>\n {8}<expirationTime>[^<]+<\/expirationTime>\n {4}<\/header>\n {4}<credentials>\n {8}<token>[A-Za-z0-9+/=]+<\/token>\n {8}<sign>[A-Za-z0-9+/=]+<\/sign>\n {4}<\/credentials>\n<\/loginTicketResponse>\n$/,
    );
    const gen = Date.parse(/<generationTime>([^<]+)</.exec(ta.xml)?.[1] ?? "");
    const exp = Date.parse(/<expirationTime>([^<]+)</.exec(ta.xml)?.[1] ?? "");
    expect(exp - gen).toBe(12 * 3600_000);
    expect(gen).toBeGreaterThanOrEqual(before - 1000);
    const sso = Buffer.from(ta.token, "base64").toString("utf8");
    expect(sso).toContain('<sso version="2.0">');
    expect(sso).toContain('dst="CN=wsfe, O=AFIP, C=AR"');
    expect(sso).toContain(
      '<login entity="33693450239" service="wsfe" uid="SERIALNUMBER=CUIT 20111111112, CN=forge1" authmethod="cms" regmethod="22">',
    );
    expect(sso).toContain('<relations><relation key="20111111112" reltype="4"/></relations>');
    const genTime = Number(/gen_time="(\d+)"/.exec(sso)?.[1]);
    const expTime = Number(/exp_time="(\d+)"/.exec(sso)?.[1]);
    expect(expTime - genTime).toBe(43_260);
  });

  it("accepts the pyafipws form (impl-URL namespace, unqualified in0, SOAPAction None) and echoes its namespace", async () => {
    const id = await makeIdentity(control, "homologacion", CUIT, "pyafip", ["wsfex"]);
    const res = await postLogin(sim, "homologacion", signCms(id, makeTra("wsfex")), "pyafipws");
    expect(res.status).toBe(200);
    expect(res.text).toContain(
      '<loginCmsResponse xmlns="https://wsaahomo.afip.gov.ar/ws/services/LoginCms"><loginCmsReturn>',
    );
  });

  it("accepts a CMS made by `openssl cms -sign -nodetach -outform DER -md sha256`", async () => {
    const id = await makeIdentity(control, "homologacion", CUIT, "openssl1", []);
    await control.delegate("homologacion", {
      cuit: CUIT,
      alias: "openssl1",
      service: "ws_sr_padron_a13",
    });
    writeFileSync(join(dir, "key.pem"), id.keyPem);
    writeFileSync(join(dir, "cert.pem"), id.certPem);
    writeFileSync(join(dir, "tra.xml"), makeTra("ws_sr_padron_a13"));
    const der = execFileSync("openssl", [
      "cms",
      "-sign",
      "-in",
      join(dir, "tra.xml"),
      "-signer",
      join(dir, "cert.pem"),
      "-inkey",
      join(dir, "key.pem"),
      "-nodetach",
      "-outform",
      "DER",
      "-md",
      "sha256",
    ]);
    // pyafipws sends 64-column base64 lines; those must be accepted too.
    const b64 = der.toString("base64").replace(/(.{64})/g, "$1\n");
    const res = await postLogin(sim, "homologacion", b64);
    expect(res.status, res.text).toBe(200);
    const sso = Buffer.from(parseTa(res.text).token, "base64").toString("utf8");
    expect(sso).toContain('service="ws_sr_padron_a13"');
  });

  it("answers coe.alreadyAuthenticated with the recorded fault envelope, and relaxes on request", async () => {
    const id = await makeIdentity(control, "homologacion", CUIT, "twice", ["wsfe"]);
    expect((await postLogin(sim, "homologacion", signCms(id, makeTra("wsfe")))).status).toBe(200);
    const second = await postLogin(sim, "homologacion", signCms(id, makeTra("wsfe")));
    expect(second.status).toBe(500);
    expect(second.text).toBe(
      faultFixture(
        "coe.alreadyAuthenticated",
        "El CEE ya posee un TA valido para el acceso al WSN solicitado",
      ),
    );
    await control.settings("homologacion", { enforceSingleTa: false });
    try {
      expect((await postLogin(sim, "homologacion", signCms(id, makeTra("wsfe")))).status).toBe(200);
    } finally {
      await control.settings("homologacion", { enforceSingleTa: true });
    }
    await control.forgetTas("homologacion");
    expect((await postLogin(sim, "homologacion", signCms(id, makeTra("wsfe")))).status).toBe(200);
  });

  it("rejects a certificate without the service association (coe.notAuthorized); wsfe does not enable wsfex", async () => {
    const id = await makeIdentity(control, "homologacion", CUIT, "onlyfe", ["wsfe"]);
    const res = await postLogin(sim, "homologacion", signCms(id, makeTra("wsfex")));
    expect(res.status).toBe(500);
    expect(res.text).toBe(
      faultFixture("coe.notAuthorized", "Computador no autorizado a acceder al servicio"),
    );
    // A delegation by another CUIT to this alias does not associate the certificate's own CUIT.
    await control.delegate("homologacion", { cuit: OTHER, alias: "onlyfe", service: "wsfex" });
    const again = await postLogin(sim, "homologacion", signCms(id, makeTra("wsfex")));
    expect(faultCode(again.text)).toBe("ns1:coe.notAuthorized");
  });

  it("lists delegating CUITs in the token relations (from the next login on)", async () => {
    const id = await makeIdentity(control, "homologacion", CUIT, "rel1", ["wsfe"]);
    await control.settings("homologacion", { enforceSingleTa: false });
    try {
      const first = parseTa(
        (await postLogin(sim, "homologacion", signCms(id, makeTra("wsfe")))).text,
      );
      expect(Buffer.from(first.token, "base64").toString()).not.toContain(OTHER);
      await control.delegate("homologacion", { cuit: OTHER, alias: "rel1", service: "wsfe" });
      const second = parseTa(
        (await postLogin(sim, "homologacion", signCms(id, makeTra("wsfe")))).text,
      );
      expect(Buffer.from(second.token, "base64").toString()).toContain(
        `<relations><relation key="${CUIT}" reltype="4"/><relation key="${OTHER}" reltype="4"/></relations>`,
      );
    } finally {
      await control.settings("homologacion", { enforceSingleTa: true });
    }
  });

  it("rejects a production certificate in homologacion (cms.cert.untrusted)", async () => {
    const id = await makeIdentity(control, "produccion", CUIT, "prodcert", ["wsfe"]);
    await control.delegate("homologacion", { cuit: CUIT, alias: "prodcert", service: "wsfe" });
    const res = await postLogin(sim, "homologacion", signCms(id, makeTra("wsfe")));
    expect(res.text).toBe(
      faultFixture("cms.cert.untrusted", "Certificado no emitido por AC de confianza"),
    );
    const issuer = forge.pki.certificateFromPem(id.certPem).issuer.getField("CN") as {
      value: string;
    };
    expect(issuer.value).toBe("Computadores");
    const ca = forge.pki.certificateFromPem(await control.caCertificate("homologacion"));
    expect((ca.subject.getField("CN") as { value: string }).value).toBe("Computadores Test");
  });

  it("issues certificates like the authority: CN and serialNumber only, 2 years, CA:false", async () => {
    const certPem = await control.issueCertificate(
      "homologacion",
      makeCsr(rsaKey(), CUIT, "shape"),
    );
    const cert = forge.pki.certificateFromPem(certPem);
    expect(cert.subject.attributes.map((a) => a.shortName ?? a.type)).toEqual(["CN", "2.5.4.5"]);
    expect(cert.subject.attributes[1]?.value).toBe(`CUIT ${CUIT}`);
    const years =
      (cert.validity.notAfter.getTime() - cert.validity.notBefore.getTime()) / (365 * 86_400_000);
    expect(Math.round(years)).toBe(2);
    const bc = cert.getExtension("basicConstraints") as { cA: boolean; critical: boolean };
    expect(bc.cA).toBe(false);
    expect(bc.critical).toBe(true);
    expect(cert.siginfo.algorithmOid).toBe(forge.pki.oids.sha512WithRSAEncryption);
  });

  it("checks certificate validity dates (cms.cert.expired, cms.cert.invalid)", async () => {
    const id = await makeIdentity(control, "produccion", CUIT, "dates", ["wsfe"]);
    await control.settings("produccion", { clockOffsetMs: 3 * 365 * 86_400_000 });
    try {
      const res = await postLogin(sim, "produccion", signCms(id, makeTra("wsfe")));
      expect(faultCode(res.text)).toBe("ns1:cms.cert.expired");
      await control.settings("produccion", { clockOffsetMs: -86_400_000 });
      const res2 = await postLogin(sim, "produccion", signCms(id, makeTra("wsfe")));
      expect(faultCode(res2.text)).toBe("ns1:cms.cert.invalid");
    } finally {
      await control.settings("produccion", { clockOffsetMs: 0 });
    }
  });

  it("validates the TRA: xml.bad, times, service id", async () => {
    const id = await makeIdentity(control, "homologacion", CUIT, "tra", ["wsfe"]);
    const now = Date.now();
    const cases: [string, string, string | undefined][] = [
      [makeTra("wsfe", { raw: "<notATra/>" }), "xml.bad", undefined],
      [makeTra("wsfe", { raw: "not xml at all" }), "xml.bad", undefined],
      [
        makeTra("wsfe", { genMs: now + 3600_000, expMs: now + 7200_000 }),
        "xml.generationTime.invalid",
        "generationTime posee formato o dato inválido (ej: en el futuro o más de 24 horas de antigüedad)",
      ],
      [
        makeTra("wsfe", { genMs: now - 25 * 3600_000, expMs: now + 600_000 }),
        "xml.generationTime.invalid",
        undefined,
      ],
      [
        makeTra("wsfe", { genMs: now - 7200_000, expMs: now - 3600_000 }),
        "xml.expirationTime.expired",
        undefined,
      ],
      [
        makeTra("wsfe", { genMs: now - 600_000, expMs: now + 25 * 3600_000 }),
        "xml.expirationTime.invalid",
        undefined,
      ],
      [makeTra("wsfev1"), "wsn.notFound", undefined],
    ];
    for (const [tra, code, message] of cases) {
      const res = await postLogin(sim, "homologacion", signCms(id, tra));
      expect(res.status, code).toBe(500);
      expect(faultCode(res.text), code).toBe(`ns1:${code}`);
      if (message !== undefined) expect(faultString(res.text)).toBe(message);
    }
    // An offset-less time is read as Argentina time: "now" in UTC wall-clock is 3 h ahead.
    const utcWall = new Date(Date.now()).toISOString().slice(0, 19);
    const tra =
      `<loginTicketRequest version="1.0"><header><uniqueId>1</uniqueId><generationTime>${utcWall}</generationTime>` +
      `<expirationTime>${new Date(Date.now() + 7200_000).toISOString().slice(0, 19)}</expirationTime></header>` +
      `<service>wsfe</service></loginTicketRequest>`;
    const skew = await postLogin(sim, "homologacion", signCms(id, tra));
    expect(faultCode(skew.text)).toBe("ns1:xml.generationTime.invalid");
  });

  it("rejects malformed CMS: cms.bad.base64, cms.bad, cms.cert.notFound, cms.sign.invalid", async () => {
    const id = await makeIdentity(control, "homologacion", CUIT, "badcms", ["wsfe"]);
    expect(faultCode((await postLogin(sim, "homologacion", "!!not*base64")).text)).toBe(
      "ns1:cms.bad.base64",
    );
    expect(
      faultCode(
        (await postLogin(sim, "homologacion", Buffer.from("hello world!").toString("base64"))).text,
      ),
    ).toBe("ns1:cms.bad");

    const noCert = forge.pkcs7.createSignedData();
    noCert.content = forge.util.createBuffer(makeTra("wsfe"), "utf8");
    noCert.addSigner({
      key: forge.pki.privateKeyFromPem(id.keyPem),
      certificate: forge.pki.certificateFromPem(id.certPem),
      digestAlgorithm: forge.pki.oids.sha256 ?? "",
      authenticatedAttributes: [
        { type: forge.pki.oids.contentType ?? "", value: forge.pki.oids.data ?? "" },
        { type: forge.pki.oids.messageDigest ?? "" },
      ],
    });
    noCert.sign();
    const noCertB64 = forge.util.encode64(forge.asn1.toDer(noCert.toAsn1()).getBytes());
    expect(faultCode((await postLogin(sim, "homologacion", noCertB64)).text)).toBe(
      "ns1:cms.cert.notFound",
    );

    const otherKey = rsaKey(true);
    const wrongKey = signCms({ keyPem: otherKey, certPem: id.certPem }, makeTra("wsfe"));
    expect(faultCode((await postLogin(sim, "homologacion", wrongKey)).text)).toBe(
      "ns1:cms.sign.invalid",
    );
  });

  it("answers an unreadable envelope with an Axis server fault (HTTP 500), never crashing", async () => {
    for (const body of ["<soapenv:Envelope", "", "<a><b></a>"]) {
      const res = await fetch(sim.endpoints("homologacion").wsaa, {
        method: "POST",
        headers: { "content-type": "text/xml" },
        body,
      });
      expect(res.status).toBe(500);
      expect(faultCode(await res.text())).toBe("soapenv:Server.userException");
    }
    const missing = await fetch(sim.endpoints("homologacion").wsaa, {
      method: "POST",
      headers: { "content-type": "text/xml" },
      body: loginEnvelope("").replace(/<tns1:in0><\/tns1:in0>/, ""),
    });
    expect(faultCode(await missing.text())).toBe("ns1:cms.bad");
  });

  it("works with the npm soap client through the served WSDL", async () => {
    const id = await makeIdentity(control, "produccion", CUIT, "soapclient", ["wsfe"]);
    const client = await soap.createClientAsync(`${sim.endpoints("produccion").wsaa}?wsdl`);
    const result = (await soapCall(client, "loginCms", { in0: signCms(id, makeTra("wsfe")) })) as {
      loginCmsReturn: string;
    };
    expect(result.loginCmsReturn).toContain("<loginTicketResponse");
    expect(result.loginCmsReturn).toContain("CN=wsaa, O=AFIP, C=AR, SERIALNUMBER=CUIT 33693450239");
    await expect(
      soapCall(client, "loginCms", { in0: signCms(id, makeTra("wsfe")) }),
    ).rejects.toThrow(/coe\.alreadyAuthenticated/);
  });
});
