import { makeAuthorityClient, postWithFetch, type CallOutcome } from "./authority-client.js";
import type { SoapFailure } from "./soap-failure.js";
import type { XmlObject, XmlValue } from "./xml-reader.js";

export type { XmlObject, XmlValue } from "./xml-reader.js";

/**
 * A SOAP 1.1 client for the authority's .NET ASMX services (WSFEv1, WSFEXv1): XML templates
 * sent through the authority client layer (`makeAuthorityClient`) rather than the `soap`
 * package's serializer: ASMX silently ignores unqualified, mis-cased or misplaced elements, so the request
 * text is spelled out by the caller in WSDL order under one default namespace, and the hot path
 * of a query costs one string concatenation and one parse instead of a WSDL-driven serializer.
 */
export interface AsmxClient {
  readonly endpoint: string;
  readonly namespace: string;
  /**
   * Posts `<operation xmlns=namespace>{innerXml}</operation>` and answers the parsed
   * `<operation>Result` element (or `{}` when it is empty); every failure is a value.
   * `budgetMs` shortens the configured timeout for this call (what is left of a deadline).
   */
  call: (operation: string, innerXml: string, budgetMs?: number) => Promise<AsmxOutcome>;
}

export type AsmxOutcome =
  | { readonly ok: true; readonly result: XmlObject }
  | { readonly ok: false; readonly failure: SoapFailure };

export interface AsmxClientOptions {
  endpoint: string;
  /** target namespace of the service, with its trailing slash */
  namespace: string;
  timeoutMs: number;
  /** the web service's name for traces (wsfe, wsfex) */
  service: string;
  /** the environment this endpoint belongs to, for traces */
  environment?: string;
  /** injectable for tests; by default the shared keep-alive transport */
  fetch?: typeof fetch;
}

const SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";

const XML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Text for an element body; every value from a caller passes through here. */
export function xmlText(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);
}

/** `<name>value</name>`, escaped. */
export function xmlElement(name: string, value: string | number): string {
  return `<${name}>${xmlText(value)}</${name}>`;
}

/** The child `name` of an element; undefined when `parent` is not an element. */
function childOf(parent: XmlValue | undefined, name: string): XmlValue | undefined {
  return parent === undefined || typeof parent === "string" || Array.isArray(parent)
    ? undefined
    : parent[name];
}

/** A child record, or undefined when the element is absent, empty or text. */
export function xmlChild(parent: XmlValue | undefined, name: string): XmlObject | undefined {
  const value = childOf(parent, name);
  if (value === undefined || typeof value === "string") return undefined;
  return Array.isArray(value) ? (value[0] as XmlObject | undefined) : value;
}

/** The text of a child, or undefined; `<CAE />` is "". */
export function xmlString(parent: XmlValue | undefined, name: string): string | undefined {
  const value = childOf(parent, name);
  return typeof value === "string" ? value : undefined;
}

/** Repeated children as a list whether the service sent none, one or many. */
export function xmlList(parent: XmlValue | undefined, name: string): XmlObject[] {
  const value = childOf(parent, name);
  if (value === undefined || typeof value === "string") return [];
  return (Array.isArray(value) ? value : [value]).filter(
    (v): v is XmlObject => typeof v === "object" && !Array.isArray(v),
  );
}

function record(value: unknown): XmlObject | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as XmlObject)
    : undefined;
}

/**
 * The authority's own error codes in an ASMX answer, for traces: WSFEv1's `Errors/Err/Code`
 * and WSFEXv1's `FEXErr/ErrCode` (0 there means no error).
 */
function answerErrorCodes(result: XmlObject): string[] {
  const codes = xmlList(xmlChild(result, "Errors"), "Err")
    .map((err) => xmlString(err, "Code"))
    .filter((code): code is string => code !== undefined);
  const fexCode = xmlString(xmlChild(result, "FEXErr"), "ErrCode");
  if (fexCode !== undefined && fexCode !== "0") codes.push(fexCode);
  return codes;
}

export function makeAsmxClient(options: AsmxClientOptions): AsmxClient {
  const { endpoint, namespace } = options;
  const client = makeAuthorityClient({
    endpoint,
    timeoutMs: options.timeoutMs,
    service: options.service,
    environment: options.environment,
    post: options.fetch ? postWithFetch(options.fetch) : undefined,
  });
  return {
    endpoint,
    namespace,
    async call(operation, innerXml, budgetMs) {
      const outcome = await client.call({
        operation,
        budgetMs,
        request: () => ({
          headers: {
            "content-type": "text/xml; charset=utf-8",
            soapaction: `"${namespace}${operation}"`,
          },
          body:
            `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11}">` +
            `<soap:Body><${operation} xmlns="${namespace}">${innerXml}</${operation}></soap:Body>` +
            `</soap:Envelope>`,
        }),
        read: (body) => resultOf(operation, body),
        errorCodes: answerErrorCodes,
      });
      return outcome.ok ? { ok: true, result: outcome.value } : outcome;
    },
  };
}

/** `<operation>Response/<operation>Result`, or `{}` when the result is empty. */
function resultOf(operation: string, body: XmlObject): CallOutcome<XmlObject> {
  const response = record(body[`${operation}Response`]);
  if (!response) {
    return {
      ok: false,
      failure: { kind: "unreadable", message: `no ${operation}Response in the answer` },
    };
  }
  const result = response[`${operation}Result`];
  if (result === undefined || result === "") return { ok: true, value: {} };
  const parsed = record(result);
  if (!parsed) {
    return {
      ok: false,
      failure: { kind: "unreadable", message: `${operation}Result is not an element` },
    };
  }
  return { ok: true, value: parsed };
}
