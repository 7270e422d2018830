import {
  makeAuthorityClient,
  readEnvelope,
  xmlElement,
  type AuthorityPost,
  type CallOutcome,
  type PostAnswer,
  type SoapFailure,
  type XmlObject,
} from "@pasarela/authority";

/**
 * A client for the registry services' JAX-WS dialect (SOAP 1.1, qualified operation,
 * unqualified children): XML templates sent through the authority client layer
 * (`makeAuthorityClient`) rather than with the `soap` package and a WSDL of our own:
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
  post?: AuthorityPost;
}

const SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";

function record(value: unknown): XmlObject | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as XmlObject)
    : undefined;
}

/** The fault carries `SRValidationException` in its detail: the input is wrong. */
const isValidation = (fault: XmlObject | undefined) =>
  record(fault?.detail)?.SRValidationException !== undefined;

/** The `<operation>Response` element of an answer's Body (empty for `<ns2:opResponse/>`). */
function responseOf(operation: string, body: XmlObject): CallOutcome<XmlObject> {
  const response = body[`${operation}Response`];
  // an operation whose answer is empty (`<ns2:opResponse/>`) is read as an empty element
  if (response === "") return { ok: true, value: {} };
  const parsed = record(response);
  if (!parsed) {
    return {
      ok: false,
      failure: { kind: "unreadable", message: `no ${operation}Response in the answer` },
    };
  }
  return { ok: true, value: parsed };
}

const outcomeOf = (outcome: CallOutcome<XmlObject>): JaxwsOutcome =>
  outcome.ok
    ? { ok: true, response: outcome.value }
    : { ok: false, failure: outcome.failure, validation: isValidation(outcome.fault) };

/** Reads one answer of `operation`: its response element, or what went wrong. */
export function readJaxwsAnswer(operation: string, answer: PostAnswer): JaxwsOutcome {
  const envelope = readEnvelope(answer);
  return outcomeOf(envelope.ok ? responseOf(operation, envelope.value) : envelope);
}

/** The request children in the operation's order: token, sign, cuitRepresentada, parameters. */
export function jaxwsParams(params: readonly (readonly [string, string | number])[]): string {
  return params.map(([name, value]) => xmlElement(name, value)).join("");
}

export function makeJaxwsClient(options: JaxwsClientOptions): JaxwsClient {
  const { endpoint, namespace } = options;
  const client = makeAuthorityClient({
    endpoint,
    timeoutMs: options.timeoutMs,
    service: options.service,
    environment: options.environment,
    post: options.post,
  });
  return {
    endpoint,
    call: async (operation, innerXml, budgetMs) =>
      outcomeOf(
        await client.call({
          operation,
          budgetMs,
          request: () => ({
            headers: { "content-type": "text/xml; charset=utf-8", soapaction: '""' },
            body:
              `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${SOAP11}">` +
              `<soapenv:Body><ns2:${operation} xmlns:ns2="${namespace}">${innerXml}</ns2:${operation}>` +
              `</soapenv:Body></soapenv:Envelope>`,
          }),
          read: (body) => responseOf(operation, body),
        }),
      ),
  };
}
