import { generateKeyPairSync } from "node:crypto";
import forge from "node-forge";
import { makeControlClient } from "../src/index.js";
import type { ControlClient, Environment, Simulator } from "../src/index.js";

export const SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
export const SOAP12 = "http://www.w3.org/2003/05/soap-envelope";
export const FE_NS = "http://ar.gov.afip.dif.FEV1/";
export const FEX_NS = "http://ar.gov.afip.dif.fexv1/";
export const WSAA_NS = "http://wsaa.view.sua.dvadac.desein.afip.gov";

export interface Identity {
  keyPem: string;
  certPem: string;
  cuit: string;
  alias: string;
}

let cachedKey: { privateKey: string } | undefined;

/** One RSA key reused across identities keeps the suite fast; certificates differ. */
export function rsaKey(fresh = false): string {
  if (!fresh && cachedKey !== undefined) return cachedKey.privateKey;
  const pair = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  if (!fresh) cachedKey = pair;
  return pair.privateKey;
}

export function makeCsr(keyPem: string, cuit: string, alias: string): string {
  const key = forge.pki.privateKeyFromPem(keyPem);
  const csr = forge.pki.createCertificationRequest();
  csr.publicKey = forge.pki.rsa.setPublicKey(key.n, key.e);
  csr.setSubject([
    { shortName: "C", value: "AR" },
    { shortName: "O", value: "Empresa de prueba" },
    { shortName: "CN", value: alias },
    { type: "2.5.4.5", value: `CUIT ${cuit}` },
  ]);
  csr.sign(key, forge.md.sha256.create());
  return forge.pki.certificationRequestToPem(csr);
}

export async function makeIdentity(
  control: ControlClient,
  env: Environment,
  cuit: string,
  alias: string,
  services: readonly ("wsfe" | "wsfex")[] = ["wsfe", "wsfex"],
): Promise<Identity> {
  const keyPem = rsaKey();
  const certPem = await control.issueCertificate(env, makeCsr(keyPem, cuit, alias));
  for (const service of services) await control.delegate(env, { cuit, alias, service });
  return { keyPem, certPem, cuit, alias };
}

export function isoOffset(ms: number): string {
  return new Date(ms - 3 * 3600_000).toISOString().replace("Z", "-03:00");
}

export function makeTra(
  service: string,
  opts: { genMs?: number; expMs?: number; raw?: string } = {},
): string {
  if (opts.raw !== undefined) return opts.raw;
  const now = Date.now();
  return (
    `<?xml version="1.0" encoding="UTF-8"?><loginTicketRequest version="1.0"><header>` +
    `<uniqueId>${Math.floor(now / 1000)}</uniqueId>` +
    `<generationTime>${isoOffset(opts.genMs ?? now - 600_000)}</generationTime>` +
    `<expirationTime>${isoOffset(opts.expMs ?? now + 600_000)}</expirationTime>` +
    `</header><service>${service}</service></loginTicketRequest>`
  );
}

/** The afip.js recipe: attached content, sha256, contentType/messageDigest/signingTime. */
export function signCms(id: { keyPem: string; certPem: string }, tra: string): string {
  const p7 = forge.pkcs7.createSignedData();
  p7.content = forge.util.createBuffer(tra, "utf8");
  const cert = forge.pki.certificateFromPem(id.certPem);
  p7.addCertificate(cert);
  p7.addSigner({
    key: forge.pki.privateKeyFromPem(id.keyPem),
    certificate: cert,
    digestAlgorithm: forge.pki.oids.sha256 ?? "2.16.840.1.101.3.4.2.1",
    authenticatedAttributes: [
      { type: forge.pki.oids.contentType ?? "", value: forge.pki.oids.data ?? "" },
      { type: forge.pki.oids.messageDigest ?? "" },
      { type: forge.pki.oids.signingTime ?? "", value: new Date() as unknown as string },
    ],
  });
  p7.sign();
  return forge.util.encode64(forge.asn1.toDer(p7.toAsn1()).getBytes());
}

export function loginEnvelope(cms: string, form: "wsdl" | "pyafipws" = "wsdl"): string {
  const inner =
    form === "wsdl"
      ? `<tns1:loginCms xmlns:tns1="${WSAA_NS}"><tns1:in0>${cms}</tns1:in0></tns1:loginCms>`
      : `<ser:loginCms xmlns:ser="https://wsaahomo.afip.gov.ar/ws/services/LoginCms"><in0>${cms}</in0></ser:loginCms>`;
  return `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${SOAP11}"><soapenv:Body>${inner}</soapenv:Body></soapenv:Envelope>`;
}

export async function postLogin(
  sim: Simulator,
  env: Environment,
  cms: string,
  form: "wsdl" | "pyafipws" = "wsdl",
): Promise<{ status: number; text: string }> {
  const res = await fetch(sim.endpoints(env).wsaa, {
    method: "POST",
    headers: {
      "content-type": "text/xml; charset=utf-8",
      soapaction: form === "wsdl" ? '""' : '"None"',
    },
    body: loginEnvelope(cms, form),
  });
  return { status: res.status, text: await res.text() };
}

export function unescapeXml(s: string): string {
  return s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

export interface Ta {
  token: string;
  sign: string;
  xml: string;
}

export function parseTa(responseText: string): Ta {
  const m = /<loginCmsReturn>([\s\S]*)<\/loginCmsReturn>/.exec(responseText);
  if (m === null) throw new Error(`no loginCmsReturn in ${responseText}`);
  const xml = unescapeXml(m[1] ?? "");
  const token = /<token>([^<]*)<\/token>/.exec(xml)?.[1] ?? "";
  const sign = /<sign>([^<]*)<\/sign>/.exec(xml)?.[1] ?? "";
  return { token, sign, xml };
}

export async function login(
  sim: Simulator,
  env: Environment,
  id: Identity,
  service: string,
): Promise<Ta> {
  const res = await postLogin(sim, env, signCms(id, makeTra(service)));
  if (res.status !== 200) throw new Error(`login failed: ${res.text}`);
  return parseTa(res.text);
}

export function faultCode(text: string): string | undefined {
  return /<faultcode[^>]*>([^<]*)<\/faultcode>/.exec(text)?.[1];
}

export function faultString(text: string): string | undefined {
  return /<faultstring>([^<]*)<\/faultstring>/.exec(text)?.[1];
}

export async function asmx(
  url: string,
  ns: string,
  op: string,
  inner: string,
  version: "1.1" | "1.2" = "1.1",
  opts: { action?: string; rawBody?: string } = {},
): Promise<{ status: number; text: string; contentType: string }> {
  const envNs = version === "1.1" ? SOAP11 : SOAP12;
  const body =
    opts.rawBody ??
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${envNs}"><soap:Body>` +
      `<${op} xmlns="${ns}">${inner}</${op}></soap:Body></soap:Envelope>`;
  const action = opts.action ?? `${ns}${op}`;
  const headers: Record<string, string> =
    version === "1.1"
      ? { "content-type": "text/xml; charset=utf-8", soapaction: `"${action}"` }
      : { "content-type": `application/soap+xml; charset=utf-8; action="${action}"` };
  const res = await fetch(url, { method: "POST", headers, body });
  return {
    status: res.status,
    text: await res.text(),
    contentType: res.headers.get("content-type") ?? "",
  };
}

export function authXml(ta: Ta, cuit: string, extra = ""): string {
  return `<Auth><Token>${ta.token}</Token><Sign>${ta.sign}</Sign><Cuit>${cuit}</Cuit>${extra}</Auth>`;
}

/** The Result element's inner XML, for comparison against fixtures. */
export function resultOf(text: string, op: string): string {
  const m = new RegExp(`<${op}Result>([\\s\\S]*)</${op}Result>`).exec(text);
  if (m === null) throw new Error(`no ${op}Result in ${text}`);
  return m[1] ?? "";
}

export function arToday(offsetDays = 0): string {
  const d = new Date(Date.now() - 3 * 3600_000 + offsetDays * 86_400_000);
  return d.toISOString().slice(0, 10).replace(/-/g, "");
}

/** Calls `<name>Async` on a client built by the `soap` package, whose methods are untyped. */
export async function soapCall(client: object, name: string, args: unknown): Promise<unknown> {
  const fn = (client as Record<string, unknown>)[`${name}Async`];
  if (typeof fn !== "function") throw new Error(`soap client has no ${name}Async`);
  const out = (await (fn as (a: unknown) => Promise<unknown[]>).call(client, args))[0];
  return out;
}

export { makeControlClient };
