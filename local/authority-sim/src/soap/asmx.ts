import type { IncomingHttpHeaders } from "node:http";
import { child, escapeXml, isReadError, parseXml } from "./xml.js";
import type { XmlElement } from "./xml.js";

const SOAP11_NS = "http://schemas.xmlsoap.org/soap/envelope/";
const SOAP12_NS = "http://www.w3.org/2003/05/soap-envelope";

export type SoapVersion = "1.1" | "1.2";

/** Raised while reading a field: the ASMX deserializer rejects the whole request. */
export class RequestReadError extends Error {}

export type AsmxRequest =
  | { kind: "fault"; version: SoapVersion; message: string }
  | { kind: "ok"; version: SoapVersion; op: string; body: XmlElement | undefined };

function soapVersion(headers: IncomingHttpHeaders): SoapVersion {
  return (headers["content-type"] ?? "").toLowerCase().includes("application/soap+xml")
    ? "1.2"
    : "1.1";
}

function actionOf(headers: IncomingHttpHeaders, version: SoapVersion): string | undefined {
  if (version === "1.1") {
    const raw = headers["soapaction"];
    const value = Array.isArray(raw) ? raw[0] : raw;
    return value === undefined ? undefined : value.trim().replace(/^"(.*)"$/, "$1");
  }
  const m = /;\s*action\s*=\s*"?([^";]*)"?/i.exec(headers["content-type"] ?? "");
  return m?.[1];
}

/**
 * Routes like ASMX: by SOAPAction (SOAP 1.1 header or the SOAP 1.2 `action` parameter);
 * SOAP 1.2 without an action falls back to the body element, as .NET does.
 */
export function readAsmxRequest(
  headers: IncomingHttpHeaders,
  rawBody: string,
  ns: string,
  operations: ReadonlySet<string>,
): AsmxRequest {
  const version = soapVersion(headers);
  const action = actionOf(headers, version);
  let op: string | undefined;
  // SOAP 1.1 routes on the header alone; only SOAP 1.2 may omit the action.
  if (version === "1.1" && (action === undefined || action === "")) {
    return {
      kind: "fault",
      version,
      message: "Server did not recognize the value of HTTP Header SOAPAction: .",
    };
  }
  if (action !== undefined && action !== "") {
    op = action.startsWith(ns) ? action.slice(ns.length) : undefined;
    if (op === undefined || !operations.has(op)) {
      return {
        kind: "fault",
        version,
        message: `Server did not recognize the value of HTTP Header SOAPAction: ${action}.`,
      };
    }
  }
  const doc = parseXml(rawBody);
  if (isReadError(doc)) {
    return {
      kind: "fault",
      version,
      message: `Server was unable to read request. ---> ${doc.message}`,
    };
  }
  const envNs = version === "1.1" ? SOAP11_NS : SOAP12_NS;
  if (doc.name !== "Envelope" || doc.ns !== envNs) {
    return {
      kind: "fault",
      version,
      message:
        "Server was unable to read request. ---> There is an error in XML document (1, 1). ---> " +
        `<${doc.name} xmlns='${doc.ns}'> was not expected.`,
    };
  }
  const bodyEl = child(doc, envNs, "Body");
  const first = bodyEl?.children[0];
  if (op === undefined) {
    const candidate = first !== undefined && first.ns === ns ? first.name : undefined;
    if (candidate === undefined || !operations.has(candidate)) {
      return {
        kind: "fault",
        version,
        message: `Server did not recognize the value of HTTP Header SOAPAction: ${action ?? ""}.`,
      };
    }
    op = candidate;
  }
  const body = first !== undefined && first.ns === ns && first.name === op ? first : undefined;
  return { kind: "ok", version, op, body };
}

const XSI = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';
const XSD = 'xmlns:xsd="http://www.w3.org/2001/XMLSchema"';

export interface HeaderInfo {
  ambiente: string;
  fecha: string;
  id: string;
}

export function asmxContentType(version: SoapVersion): string {
  return version === "1.1" ? "text/xml; charset=utf-8" : "application/soap+xml; charset=utf-8";
}

export function asmxEnvelope(
  version: SoapVersion,
  ns: string,
  header: HeaderInfo,
  body: string,
): string {
  const envNs = version === "1.1" ? SOAP11_NS : SOAP12_NS;
  return (
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${envNs}" ${XSI} ${XSD}>` +
    `<soap:Header><FEHeaderInfo xmlns="${ns}"><ambiente>${escapeXml(header.ambiente)}</ambiente>` +
    `<fecha>${header.fecha}</fecha><id>${header.id}</id></FEHeaderInfo></soap:Header>` +
    `<soap:Body>${body}</soap:Body></soap:Envelope>`
  );
}

export function asmxFault(version: SoapVersion, message: string, server = false): string {
  if (version === "1.1") {
    return (
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11_NS}" ${XSI} ${XSD}>` +
      `<soap:Body><soap:Fault><faultcode>soap:${server ? "Server" : "Client"}</faultcode>` +
      `<faultstring>${escapeXml(message)}</faultstring><detail /></soap:Fault></soap:Body>` +
      `</soap:Envelope>`
    );
  }
  return (
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP12_NS}" ${XSI} ${XSD}>` +
    `<soap:Body><soap:Fault><soap:Code><soap:Value>soap:${server ? "Receiver" : "Sender"}` +
    `</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">${escapeXml(message)}` +
    `</soap:Text></soap:Reason><soap:Detail /></soap:Fault></soap:Body></soap:Envelope>`
  );
}

const INT_RE = /^\s*[+-]?\d+\s*$/;
const DOUBLE_RE = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

function badFormat(): never {
  throw new RequestReadError(
    "Server was unable to read request. ---> There is an error in XML document (1, 1). ---> " +
      "Input string was not in a correct format.",
  );
}

/** Typed access to qualified children; unqualified ones do not exist, as in ASMX. */
export interface FieldReader {
  el(parent: XmlElement | undefined, name: string): XmlElement | undefined;
  all(parent: XmlElement | undefined, name: string): XmlElement[];
  str(parent: XmlElement | undefined, name: string): string | undefined;
  int(parent: XmlElement | undefined, name: string): number | undefined;
  num(parent: XmlElement | undefined, name: string): number | undefined;
}

export function fieldReader(ns: string): FieldReader {
  const el = (parent: XmlElement | undefined, name: string): XmlElement | undefined =>
    child(parent, ns, name);
  return {
    el,
    all: (parent, name) =>
      parent === undefined ? [] : parent.children.filter((c) => c.ns === ns && c.name === name),
    str: (parent, name) => el(parent, name)?.text,
    int: (parent, name) => {
      const node = el(parent, name);
      if (node === undefined) return undefined;
      if (!INT_RE.test(node.text)) badFormat();
      return Number(node.text);
    },
    num: (parent, name) => {
      const node = el(parent, name);
      if (node === undefined) return undefined;
      if (!DOUBLE_RE.test(node.text)) badFormat();
      return Number(node.text);
    },
  };
}
