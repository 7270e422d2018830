import {
  AUTHORITY_MAX_BODY_BYTES,
  httpPost,
  readXml,
  socketFailure,
  traceAuthorityCall,
  xmlElement,
  type PostAnswer,
  type SoapFailure,
  type XmlObject,
} from "@pasarela/authority";

/**
 * A client for the registry services' JAX-WS dialect (SOAP 1.1, qualified operation,
 * unqualified children), written as XML templates over the shared keep-alive transport
 * (`httpPost`) rather than with the `soap` package and a WSDL of our own:
 * - the request is four leaf elements in a fixed order, the operation element qualified and
 *   its children unqualified: spelled out here it cannot drift, while a WSDL-driven
 *   serializer qualifies or not according to `elementFormDefault` and sends keys in
 *   insertion order, so a mistake in a WSDL of ours would send what JAXB refuses;
 * - the answer is read with the same parser and helpers as the ASMX services, whatever the
 *   order of its children (alphabetical) and whether a list came once or many times;
 * - a fault is HTTP 500 with `SRValidationException` in its detail for data errors; reading
 *   the envelope here tells that apart directly, where `soap` turns it into a thrown error
 *   whose shape depends on the package version;
 * - one transport for every authority call: the body cap, trusted CAs, the DH-tolerant TLS of
 *   the production hosts and the call's deadline, with no WSDL to load on the first call.
 */
export interface JaxwsClient {
  readonly endpoint: string;
  /**
   * Posts `<ns2:operation>{innerXml}</ns2:operation>` and answers the parsed
   * `<operation>Response` element; every failure is a value. `budgetMs` shortens the
   * configured timeout for this call.
   */
  call: (operation: string, innerXml: string, budgetMs?: number) => Promise<JaxwsOutcome>;
}

export type JaxwsOutcome =
  | { readonly ok: true; readonly response: XmlObject }
  | {
      readonly ok: false;
      readonly failure: SoapFailure;
      /** the fault carries `SRValidationException`: the registry says the input is wrong */
      readonly validation: boolean;
    };

export interface JaxwsClientOptions {
  endpoint: string;
  /** target namespace of the service, with its trailing slash */
  namespace: string;
  timeoutMs: number;
  /** the web service's name for traces (ws_sr_padron_a13, …) */
  service: string;
  /** the environment this endpoint belongs to, for traces */
  environment?: string;
  /** injectable for tests; by default the shared keep-alive transport */
  post?: typeof httpPost;
}

const SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** `soap:Client` → `Client`. */
const localName = (code: string) => code.slice(code.lastIndexOf(":") + 1);

/** Reads one answer of `operation`: its response element, or what went wrong. */
export function readJaxwsAnswer(operation: string, answer: PostAnswer): JaxwsOutcome {
  const { status, text: body } = answer;
  let doc: unknown;
  try {
    doc = readXml(body);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      validation: false,
      failure: status >= 300 ? { kind: "http", status } : { kind: "unreadable", message },
    };
  }
  const envelopeBody = record(record(record(doc)?.Envelope)?.Body);
  const fault = record(envelopeBody?.Fault);
  if (fault) {
    return {
      ok: false,
      validation: record(fault.detail)?.SRValidationException !== undefined,
      failure: {
        kind: "fault",
        code: localName(text(fault.faultcode)),
        message: text(fault.faultstring).trim(),
        status,
      },
    };
  }
  if (status >= 300) return { ok: false, validation: false, failure: { kind: "http", status } };
  const response = envelopeBody?.[`${operation}Response`];
  // an operation whose answer is empty (`<ns2:opResponse/>`) is read as an empty element
  if (response === "") return { ok: true, response: {} };
  const parsed = record(response);
  if (!parsed) {
    return {
      ok: false,
      validation: false,
      failure: { kind: "unreadable", message: `no ${operation}Response in the answer` },
    };
  }
  return { ok: true, response: parsed as XmlObject };
}

function isTimeout(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === "TimeoutError" || name === "AbortError";
}

/** The request children in the operation's order: token, sign, cuitRepresentada, parameters. */
export function jaxwsParams(params: readonly (readonly [string, string | number])[]): string {
  return params.map(([name, value]) => xmlElement(name, value)).join("");
}

export function makeJaxwsClient(options: JaxwsClientOptions): JaxwsClient {
  const { endpoint, namespace } = options;
  const post = options.post ?? httpPost;
  const target = { service: options.service, endpoint, environment: options.environment };
  return {
    endpoint,
    call: (operation, innerXml, budgetMs) =>
      traceAuthorityCall(
        target,
        operation,
        () => send(operation, innerXml, budgetMs),
        (outcome) => (outcome.ok ? { ok: true } : outcome),
      ),
  };

  async function send(
    operation: string,
    innerXml: string,
    budgetMs: number | undefined,
  ): Promise<JaxwsOutcome> {
    const timeoutMs = Math.min(options.timeoutMs, budgetMs ?? Infinity);
    const envelope =
      `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${SOAP11}">` +
      `<soapenv:Body><ns2:${operation} xmlns:ns2="${namespace}">${innerXml}</ns2:${operation}>` +
      `</soapenv:Body></soapenv:Envelope>`;
    const headers = { "content-type": "text/xml; charset=utf-8", soapaction: '""' };
    try {
      return readJaxwsAnswer(operation, await post(endpoint, headers, envelope, timeoutMs));
    } catch (error) {
      if (isTimeout(error)) {
        return { ok: false, validation: false, failure: { kind: "timeout", timeoutMs } };
      }
      return {
        ok: false,
        validation: false,
        failure: socketFailure(error, AUTHORITY_MAX_BODY_BYTES),
      };
    }
  }
}
