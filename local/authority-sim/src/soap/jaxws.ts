import { child, escapeXml, isReadError, parseXml } from "./xml.js";
import type { XmlElement } from "./xml.js";

/**
 * The JAX-WS dialect of the registry services: SOAP 1.1 only,
 * `soapAction=""` (routed by the body element), the operation element qualified in the
 * service namespace and its children unqualified, answers as `ns2:<op>Response` with
 * unqualified children, and every failure an HTTP 500 `soap:Fault`.
 */

const SOAP11_NS = "http://schemas.xmlsoap.org/soap/envelope/";
const SOAP12_NS = "http://www.w3.org/2003/05/soap-envelope";

export const JAXWS_CONTENT_TYPE = "text/xml;charset=UTF-8";

export type JaxwsRequest =
  { kind: "fault"; fault: JaxwsFault } | { kind: "ok"; op: string; body: XmlElement };

export interface JaxwsFault {
  readonly code: "Client" | "Server" | "VersionMismatch";
  readonly message: string;
  /** data errors carry `<detail><ns1:SRValidationException/>`: the input is wrong, not the service */
  readonly validation?: boolean;
}

export const clientFault = (message: string): JaxwsFault => ({ code: "Client", message });
export const validationFault = (message: string): JaxwsFault => ({
  code: "Server",
  message,
  validation: true,
});

/** Reads the envelope and finds the operation the body element names. */
export function readJaxwsRequest(
  rawBody: string,
  ns: string,
  operations: ReadonlySet<string>,
): JaxwsRequest {
  const doc = parseXml(rawBody);
  if (isReadError(doc)) {
    return { kind: "fault", fault: clientFault(`Error reading XMLStreamReader: ${doc.message}`) };
  }
  if (doc.name === "Envelope" && doc.ns === SOAP12_NS) {
    return {
      kind: "fault",
      fault: { code: "VersionMismatch", message: "Invalid SOAP version: only SOAP 1.1 is served" },
    };
  }
  if (doc.name !== "Envelope" || doc.ns !== SOAP11_NS) {
    return {
      kind: "fault",
      fault: clientFault(`Message part {${doc.ns}}${doc.name} was not recognized.`),
    };
  }
  const body = child(doc, SOAP11_NS, "Body")?.children[0];
  if (body === undefined) return { kind: "fault", fault: clientFault("No SOAP body found") };
  if (body.ns !== ns || !operations.has(body.name)) {
    return {
      kind: "fault",
      fault: clientFault(
        `Unexpected wrapper element {${body.ns}}${body.name} found.   Expected one of: ${[...operations].map((op) => `{${ns}}${op}`).join(", ")}.`,
      ),
    };
  }
  return { kind: "ok", op: body.name, body };
}

export function jaxwsEnvelope(ns: string, op: string, inner: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="${SOAP11_NS}"><soap:Body>` +
    `<ns2:${op}Response xmlns:ns2="${escapeXml(ns)}">${inner}</ns2:${op}Response>` +
    `</soap:Body></soap:Envelope>`
  );
}

export function jaxwsFault(ns: string, fault: JaxwsFault): string {
  const detail = fault.validation
    ? `<detail><ns1:SRValidationException xmlns:ns1="${escapeXml(ns)}"/></detail>`
    : "";
  return (
    `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="${SOAP11_NS}"><soap:Body>` +
    `<soap:Fault><faultcode>soap:${fault.code}</faultcode>` +
    `<faultstring>${escapeXml(fault.message)}</faultstring>${detail}</soap:Fault>` +
    `</soap:Body></soap:Envelope>`
  );
}
