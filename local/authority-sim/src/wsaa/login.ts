import { createHash, randomInt, verify as cryptoVerify } from "node:crypto";
import forge from "node-forge";
import { subjectField } from "../ca.js";
import {
  AXIS_CONTENT_TYPE,
  axisLoginFault,
  axisLoginResponse,
  axisServerFault,
} from "../soap/axis.js";
import { child, isReadError, parseXml } from "../soap/xml.js";
import type { XmlElement } from "../soap/xml.js";
import { WSN_SERVICES } from "../state.js";
import type { WsnService } from "../state.js";
import { arIsoMillis, parseXsdDateTime } from "../time.js";
import { buildToken, signToken } from "../token.js";
import type { HandlerResult, World } from "../world.js";

export const WSAA_NS = "http://wsaa.view.sua.dvadac.desein.afip.gov";
const TA_LIFETIME_MS = 12 * 3600_000;
const DAY_MS = 24 * 3600_000;
const AFIP_CUIT = "33693450239";

const MESSAGES: Record<string, string> = {
  "cms.bad": "CMS no es valido",
  "cms.bad.base64": "El CMS no esta codificado en base64",
  "cms.cert.notFound": "No se ha encontrado certificado de firma en CMS",
  "cms.sign.invalid": "Firma invalida o algoritmo no soportado",
  "cms.cert.expired": "Certificado expirado",
  "cms.cert.invalid": "Certificado con fecha de generacion posterior a la actual",
  "cms.cert.untrusted": "Certificado no emitido por AC de confianza",
  "xml.bad": "No se ha podido interpretar el XML contra el SCHEMA",
  "xml.version.notSupported": "Version de xml no soportada",
  "xml.generationTime.invalid":
    "generationTime posee formato o dato inválido (ej: en el futuro o más de 24 horas de antigüedad)",
  "xml.expirationTime.expired": "expirationTime posee una fecha ya expirada",
  "xml.expirationTime.invalid": "expirationTime posee formato o dato invalido",
  "wsn.notFound": "No se ha encontrado el servicio solicitado",
  "coe.notAuthorized": "Computador no autorizado a acceder al servicio",
  "coe.alreadyAuthenticated": "El CEE ya posee un TA valido para el acceso al WSN solicitado",
  "wsaa.unavailable": "El servicio de autenticacion no esta disponible",
  "wsaa.internalError": "No se ha podido procesar el requerimiento",
};

function wsaaHostname(world: World): string {
  return world.environment === "homologacion"
    ? "wsaaext0.homo.afip.gov.ar"
    : "wsaaext0.afip.gov.ar";
}

export function wsaaFault(world: World, code: string): HandlerResult {
  return {
    status: 500,
    contentType: AXIS_CONTENT_TYPE,
    body: axisLoginFault(code, MESSAGES[code] ?? code, wsaaHostname(world)),
  };
}

class LoginFailure extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

function fail(code: string): never {
  throw new LoginFailure(code);
}

function bytesToBuffer(bytes: string): Buffer {
  return Buffer.from(bytes, "binary");
}

const DIGESTS: Record<string, string> = {
  [forge.pki.oids.sha256 ?? "2.16.840.1.101.3.4.2.1"]: "sha256",
  [forge.pki.oids.sha1 ?? "1.3.14.3.2.26"]: "sha1",
  [forge.pki.oids.sha384 ?? "2.16.840.1.101.3.4.2.2"]: "sha384",
  [forge.pki.oids.sha512 ?? "2.16.840.1.101.3.4.2.3"]: "sha512",
};

/** Verifies the (single) SignerInfo: messageDigest over the content, RSA over signedAttrs. */
function verifySignerInfo(
  signerInfo: forge.asn1.Asn1,
  content: Buffer,
  cert: forge.pki.Certificate,
): boolean {
  const parts = signerInfo.value as forge.asn1.Asn1[];
  const digestAlg = parts[2]?.value as forge.asn1.Asn1[] | undefined;
  const digestOid = forge.asn1.derToOid(digestAlg?.[0]?.value as string);
  const hash = DIGESTS[digestOid];
  if (hash === undefined) return false;
  let index = 3;
  let signedData: Buffer = content;
  const maybeAttrs = parts[3];
  if (
    maybeAttrs?.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC &&
    (maybeAttrs.type as number) === 0
  ) {
    index = 4;
    const attrs = maybeAttrs.value as forge.asn1.Asn1[];
    const md = attrs.find(
      (a) =>
        forge.asn1.derToOid((a.value as forge.asn1.Asn1[])[0]?.value as string) ===
        forge.pki.oids.messageDigest,
    );
    const mdValue = (
      (md?.value as forge.asn1.Asn1[] | undefined)?.[1]?.value as forge.asn1.Asn1[] | undefined
    )?.[0]?.value;
    if (typeof mdValue !== "string") return false;
    const actual = createHash(hash).update(content).digest();
    if (!actual.equals(bytesToBuffer(mdValue))) return false;
    // The signature covers the attributes re-tagged as a universal SET.
    const set = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, attrs);
    signedData = bytesToBuffer(forge.asn1.toDer(set).getBytes());
  }
  const signature = parts[index + 1]?.value;
  if (typeof signature !== "string") return false;
  const publicKeyPem = forge.pki.publicKeyToPem(cert.publicKey);
  return cryptoVerify(hash, signedData, publicKeyPem, bytesToBuffer(signature));
}

/** eContent (`[0] EXPLICIT OCTET STRING`), primitive or chunked (constructed). */
function encapsulatedContent(explicit: forge.asn1.Asn1): Buffer | undefined {
  const octets = (explicit.value as forge.asn1.Asn1[] | undefined)?.[0];
  if (octets === undefined) return undefined;
  if (typeof octets.value === "string") return bytesToBuffer(octets.value);
  const chunks = octets.value.map((c) =>
    typeof c.value === "string" ? bytesToBuffer(c.value) : undefined,
  );
  if (chunks.some((c) => c === undefined)) return undefined;
  return Buffer.concat(chunks as Buffer[]);
}

function textOf(el: XmlElement | undefined): string | undefined {
  return el?.text.trim();
}

/** Runs WSAA's checks in its order; returns the TA XML or throws the first LoginFailure. */
function login(world: World, in0: string): string {
  const now = world.now();
  const b64 = in0.replace(/\s+/g, "");
  if (b64 === "" || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) {
    fail("cms.bad.base64");
  }
  let p7: forge.pkcs7.PkcsSignedData;
  let content: Buffer;
  let signerInfos: forge.asn1.Asn1[];
  try {
    const der = forge.util.decode64(b64);
    const msg = forge.pkcs7.messageFromAsn1(forge.asn1.fromDer(der));
    if (!("certificates" in msg) || (msg as { type?: string }).type !== forge.pki.oids.signedData) {
      fail("cms.bad");
    }
    p7 = msg;
    const raw = (
      msg as unknown as {
        rawCapture: { signerInfos?: forge.asn1.Asn1[]; content?: forge.asn1.Asn1 };
      }
    ).rawCapture;
    signerInfos = raw.signerInfos ?? [];
    const c = raw.content === undefined ? undefined : encapsulatedContent(raw.content);
    if (c === undefined) fail("cms.bad");
    content = c;
  } catch (error) {
    if (error instanceof LoginFailure) throw error;
    fail("cms.bad");
  }
  const cert = p7.certificates[0];
  if (cert === undefined) fail("cms.cert.notFound");
  const signer = signerInfos[0];
  if (signer === undefined) fail("cms.bad");
  let signatureOk = false;
  try {
    signatureOk = verifySignerInfo(signer, content, cert);
  } catch {
    signatureOk = false;
  }
  if (!signatureOk) fail("cms.sign.invalid");
  let trusted = false;
  try {
    trusted = cert.isIssuer(world.ca.cert) && world.ca.cert.verify(cert);
  } catch {
    trusted = false;
  }
  if (!trusted) fail("cms.cert.untrusted");
  if (now < cert.validity.notBefore.getTime()) fail("cms.cert.invalid");
  if (now > cert.validity.notAfter.getTime()) fail("cms.cert.expired");

  const tra = parseXml(content.toString("utf8"));
  if (isReadError(tra) || tra.name !== "loginTicketRequest") fail("xml.bad");
  const version = tra.attrs["version"];
  if (version !== undefined && version !== "1.0") fail("xml.version.notSupported");
  const header = child(tra, "", "header");
  const uniqueId = textOf(child(header, "", "uniqueId"));
  const genText = textOf(child(header, "", "generationTime"));
  const expText = textOf(child(header, "", "expirationTime"));
  const service = textOf(child(tra, "", "service"));
  if (
    uniqueId === undefined ||
    !/^\d+$/.test(uniqueId) ||
    Number(uniqueId) > 0xffffffff ||
    genText === undefined ||
    expText === undefined ||
    service === undefined
  ) {
    fail("xml.bad");
  }
  const gen = parseXsdDateTime(genText);
  const exp = parseXsdDateTime(expText);
  if (gen === undefined || exp === undefined) fail("xml.bad");
  if (gen > now || gen < now - DAY_MS) fail("xml.generationTime.invalid");
  if (exp < now) fail("xml.expirationTime.expired");
  if (exp <= gen || exp - gen > DAY_MS) fail("xml.expirationTime.invalid");
  if (!(WSN_SERVICES as readonly string[]).includes(service)) fail("wsn.notFound");
  const wsn = service as WsnService;

  const alias = subjectField(cert, "CN") ?? "";
  const cuit = /^CUIT (\d{11})$/.exec(subjectField(cert, "serialNumber") ?? "")?.[1];
  const key = `${alias}|${wsn}`;
  world.state.stats.logins[key] = (world.state.stats.logins[key] ?? 0) + 1;
  world.commit();
  const delegations = world.state.delegations.filter((d) => d.alias === alias && d.service === wsn);
  if (cuit === undefined || !delegations.some((d) => d.cuit === cuit)) fail("coe.notAuthorized");

  const fingerprint = createHash("sha256")
    .update(bytesToBuffer(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes()))
    .digest("hex");
  const taKey = `${fingerprint}|${wsn}`;
  const existing = world.state.tas[taKey];
  if (world.state.settings.enforceSingleTa && existing !== undefined && existing > now) {
    fail("coe.alreadyAuthenticated");
  }

  const relations = [cuit, ...new Set(delegations.map((d) => d.cuit).filter((c) => c !== cuit))];
  const expiration = now + TA_LIFETIME_MS;
  const source =
    world.environment === "homologacion"
      ? `CN=wsaahomo, O=AFIP, C=AR, SERIALNUMBER=CUIT ${AFIP_CUIT}`
      : `CN=wsaa, O=AFIP, C=AR, SERIALNUMBER=CUIT ${AFIP_CUIT}`;
  const destination = `SERIALNUMBER=CUIT ${cuit}, CN=${alias}`;
  const taUniqueId = randomInt(1, 2 ** 31 - 1);
  const token = buildToken({
    source,
    service: wsn,
    uniqueId: taUniqueId,
    genTimeSec: Math.floor(now / 1000) - 60,
    expTimeSec: Math.floor(expiration / 1000),
    entity: AFIP_CUIT,
    uid: destination,
    relations,
  });
  const sign = signToken(world.state.tokenSecret, token);
  world.state.tas[taKey] = expiration;
  world.commit();
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n` +
    `<loginTicketResponse version="1.0">\n    <header>\n` +
    `        <source>${source}</source>\n` +
    `        <destination>${destination}</destination>\n` +
    `        <uniqueId>${taUniqueId}</uniqueId>\n` +
    `        <generationTime>${arIsoMillis(now)}</generationTime>\n` +
    `        <expirationTime>${arIsoMillis(expiration)}</expirationTime>\n` +
    `    </header>\n    <credentials>\n` +
    `        <token>${token}</token>\n        <sign>${sign}</sign>\n` +
    `    </credentials>\n</loginTicketResponse>\n`
  );
}

/** loginCms in the Axis dialect; accepts the WSDL namespace and the pyafipws impl-URL form. */
export function handleLoginCms(world: World, rawBody: string): HandlerResult {
  const doc = parseXml(rawBody);
  if (isReadError(doc)) {
    return {
      status: 500,
      contentType: AXIS_CONTENT_TYPE,
      body: axisServerFault(`org.xml.sax.SAXParseException: ${doc.message}`, wsaaHostname(world)),
    };
  }
  const body = doc.children.find((c) => c.name === "Body");
  const op = body?.children.find((c) => c.name === "loginCms");
  if (doc.name !== "Envelope" || op === undefined) {
    return {
      status: 500,
      contentType: AXIS_CONTENT_TYPE,
      body: axisServerFault("No such operation 'loginCms'", wsaaHostname(world)),
    };
  }
  const in0 = op.children.find((c) => c.name === "in0");
  try {
    if (in0 === undefined) fail("cms.bad");
    const ta = login(world, in0.text);
    return { status: 200, contentType: AXIS_CONTENT_TYPE, body: axisLoginResponse(op.ns, ta) };
  } catch (error) {
    if (error instanceof LoginFailure) return wsaaFault(world, error.code);
    return wsaaFault(world, "wsaa.internalError");
  }
}
