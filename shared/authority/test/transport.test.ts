import { generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { rootCertificates } from "node:tls";
import { makeControlClient, startSimulator, type Simulator } from "@pasarela/authority-sim";
import forge from "node-forge";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorityCas } from "../src/http-post.js";
import {
  AUTHORITY_MAX_BODY_BYTES,
  httpPost,
  makeAsmxClient,
  makeWsaaClient,
  trustAuthorityCa,
} from "../src/index.js";

const FE_NS = "http://ar.gov.afip.dif.FEV1/";
const CUIT = "20111111112";

/** An "authority" that answers every POST with `size` bytes, as announced or chunked. */
async function oversizedAuthority(size: number, announce: boolean) {
  const closedEarly: boolean[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, {
        "content-type": "text/xml; charset=utf-8",
        ...(announce ? { "content-length": String(size) } : {}),
      });
      const chunk = Buffer.alloc(64 * 1024, "a");
      let sent = 0;
      const pump = (): void => {
        while (sent < size) {
          sent += chunk.length;
          if (!res.write(chunk)) {
            res.once("drain", pump);
            return;
          }
        }
        res.end();
      };
      res.socket?.once("close", () => closedEarly.push(sent < size));
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/wsfev1/service.asmx`,
    closedEarly,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function eventually(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("one deadline for the whole exchange", () => {
  it("ends a call whose answer stops half-way, closes its connection, and the next call works", async () => {
    const closed: boolean[] = [];
    let calls = 0;
    const server: Server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        calls++;
        if (calls === 1) {
          // headers and a first chunk, then nothing
          res.writeHead(200, { "content-type": "text/xml; charset=utf-8" });
          res.write("<a>");
          res.socket?.once("close", () => closed.push(true));
          return;
        }
        res.end("<ok/>");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/service.asmx`;
    try {
      const started = Date.now();
      const outcome = await httpPost(url, {}, "<x/>", 300).then(
        () => "resolved",
        (error: Error) => error.name,
      );
      expect(outcome).toBe("TimeoutError");
      expect(Date.now() - started).toBeLessThan(5_000);
      await eventually(() => closed.length > 0);
      await expect(httpPost(url, {}, "<x/>", 5_000)).resolves.toMatchObject({
        status: 200,
        text: "<ok/>",
      });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("idle keep-alive connections", () => {
  it("are closed by the WSAA client before the server closes them, as the server announces", async () => {
    // the server keeps idle connections 2 s and says so (Keep-Alive: timeout=2); a request
    // sent on one the server is closing at that moment would fail with "socket hang up"
    const connections: number[] = [];
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => res.end("ok"));
    });
    server.keepAliveTimeout = 2_000;
    server.on("connection", (socket) => connections.push(socket.remotePort ?? 0));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    // the WSAA client sends through the transport of every call to the authority; the pool
    // takes a connection back once the answer has been handed over (the next turn of the loop)
    const post = async () => {
      const answer = await httpPost(
        `http://127.0.0.1:${port}/ws/services/LoginCms`,
        {},
        "<x/>",
        5_000,
      );
      await new Promise((resolve) => setImmediate(resolve));
      return answer.text;
    };
    try {
      expect(await post()).toBe("ok");
      expect(await post()).toBe("ok");
      expect(connections).toHaveLength(1);
      // past the announced limit less the agent's margin, before the server's own
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await post()).toBe("ok");
      expect(connections).toHaveLength(2);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("authority response bodies are capped", () => {
  it("refuses a streamed answer past the cap and closes the connection before it ends", async () => {
    const authority = await oversizedAuthority(AUTHORITY_MAX_BODY_BYTES * 4, false);
    try {
      const outcome = await httpPost(authority.url, {}, "<x/>", 20_000).then(
        () => "resolved",
        (error: Error) => `${error.name}: ${error.message}`,
      );
      expect(outcome).toBe(
        `ResponseTooLargeError: la respuesta supera el límite de ${AUTHORITY_MAX_BODY_BYTES} bytes`,
      );
      await eventually(() => authority.closedEarly.length > 0);
      expect(authority.closedEarly).toEqual([true]);
    } finally {
      await authority.close();
    }
  });

  it("refuses an answer that announces a length past the cap without reading it", async () => {
    const authority = await oversizedAuthority(AUTHORITY_MAX_BODY_BYTES + 1, true);
    try {
      await expect(httpPost(authority.url, {}, "<x/>", 20_000)).rejects.toThrow(/límite/);
      await eventually(() => authority.closedEarly.length > 0);
      expect(authority.closedEarly).toEqual([true]);
    } finally {
      await authority.close();
    }
  });

  it("still reads an answer just under the cap", async () => {
    const authority = await oversizedAuthority(AUTHORITY_MAX_BODY_BYTES - 64 * 1024, true);
    try {
      const answer = await httpPost(authority.url, {}, "<x/>", 20_000);
      expect(answer.text.length).toBe(AUTHORITY_MAX_BODY_BYTES - 64 * 1024);
    } finally {
      await authority.close();
    }
  });

  it("is a transport failure of the ASMX and WSAA clients, never a throw", async () => {
    const authority = await oversizedAuthority(AUTHORITY_MAX_BODY_BYTES * 2, false);
    try {
      const asmx = makeAsmxClient({
        service: "wsfe",
        endpoint: authority.url,
        namespace: FE_NS,
        timeoutMs: 20_000,
      });
      expect(await asmx.call("FEDummy", "")).toEqual({
        ok: false,
        failure: { kind: "too-large", limitBytes: AUTHORITY_MAX_BODY_BYTES },
      });
      const wsaa = makeWsaaClient({ endpoint: authority.url, timeoutMs: 20_000 });
      const login = await wsaa.loginCms("QUJD");
      expect(login.ok).toBe(false);
      expect(login.ok ? undefined : login.failure).toEqual({
        kind: "too-large",
        limitBytes: AUTHORITY_MAX_BODY_BYTES,
      });
    } finally {
      await authority.close();
    }
  });
});

describe("the authority's HTTPS with an extra trusted CA", () => {
  let sim: Simulator;
  let keyPem: string;
  let certPem: string;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, httpsPort: 0 });
    const control = makeControlClient(sim.url);
    keyPem = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    }).privateKey;
    const key = forge.pki.privateKeyFromPem(keyPem);
    const csr = forge.pki.createCertificationRequest();
    csr.publicKey = forge.pki.rsa.setPublicKey(key.n, key.e);
    csr.setSubject([
      { shortName: "CN", value: "tlsclient" },
      { type: "2.5.4.5", value: `CUIT ${CUIT}` },
    ]);
    csr.sign(key, forge.md.sha256.create());
    certPem = await control.issueCertificate(
      "homologacion",
      forge.pki.certificationRequestToPem(csr),
    );
    await control.delegate("homologacion", { cuit: CUIT, alias: "tlsclient", service: "wsfe" });
  });

  afterAll(async () => {
    await sim?.close();
  });

  function loginCms(): string {
    const now = Date.now();
    const at = (ms: number) => new Date(ms - 3 * 3600_000).toISOString().replace("Z", "-03:00");
    const tra =
      `<?xml version="1.0" encoding="UTF-8"?><loginTicketRequest version="1.0"><header>` +
      `<uniqueId>${Math.floor(now / 1000)}</uniqueId><generationTime>${at(now - 600_000)}</generationTime>` +
      `<expirationTime>${at(now + 600_000)}</expirationTime></header><service>wsfe</service></loginTicketRequest>`;
    const p7 = forge.pkcs7.createSignedData();
    p7.content = forge.util.createBuffer(tra, "utf8");
    const cert = forge.pki.certificateFromPem(certPem);
    p7.addCertificate(cert);
    p7.addSigner({
      key: forge.pki.privateKeyFromPem(keyPem),
      certificate: cert,
      digestAlgorithm: forge.pki.oids.sha256!,
      authenticatedAttributes: [
        { type: forge.pki.oids.contentType!, value: forge.pki.oids.data! },
        { type: forge.pki.oids.messageDigest! },
        { type: forge.pki.oids.signingTime!, value: new Date() as unknown as string },
      ],
    });
    p7.sign();
    return forge.util.encode64(forge.asn1.toDer(p7.toAsn1()).getBytes());
  }

  it("fails as a transport failure naming the certificate until the CA is trusted, then works", async () => {
    const endpoints = sim.endpoints("homologacion", "https");
    const asmx = makeAsmxClient({
      service: "wsfe",
      endpoint: endpoints.wsfe,
      namespace: FE_NS,
      timeoutMs: 5_000,
    });
    const wsaa = makeWsaaClient({ endpoint: endpoints.wsaa, timeoutMs: 5_000 });
    const untrusted = /UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN/;

    const refused = await asmx.call("FEDummy", "");
    expect(refused.ok).toBe(false);
    expect(refused.ok ? undefined : refused.failure).toMatchObject({
      kind: "tls",
      message: expect.stringMatching(untrusted) as string,
    });
    const refusedLogin = await wsaa.loginCms(loginCms());
    expect(refusedLogin.ok ? undefined : refusedLogin.failure).toMatchObject({
      kind: "tls",
      message: expect.stringMatching(untrusted) as string,
    });

    trustAuthorityCa(sim.tlsCaCertificate ?? "");

    expect(await asmx.call("FEDummy", "")).toEqual({
      ok: true,
      result: { AppServer: "OK", DbServer: "OK", AuthServer: "OK" },
    });
    const login = await wsaa.loginCms(loginCms());
    expect(login.ok).toBe(true);
    // trusting is additive and idempotent, and keeps the system roots beside the extra CA
    trustAuthorityCa(sim.tlsCaCertificate ?? "");
    expect((await asmx.call("FEDummy", "")).ok).toBe(true);
    const ca = authorityCas();
    expect(ca).toEqual([...rootCertificates, sim.tlsCaCertificate]);
  });
});
