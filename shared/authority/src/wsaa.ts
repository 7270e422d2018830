import type { Environment } from "@pasarela/contracts";
import { makeAuthorityClient, type CallOutcome } from "./authority-client.js";
import { makeSoapEnvelopeWriter } from "./soap-client.js";
import type { SoapFailure } from "./soap-failure.js";
import { readXml, type XmlObject, type XmlValue } from "./xml-reader.js";

/** The credentials and validity of a TA (loginTicketResponse). */
export interface LoginTicket {
  readonly token: string;
  readonly sign: string;
  readonly generationTime: Date;
  readonly expirationTime: Date;
}

export type WsaaLoginOutcome =
  | { readonly ok: true; readonly ticket: LoginTicket }
  | { readonly ok: false; readonly failure: SoapFailure };

export interface WsaaClient {
  readonly endpoint: string;
  /** `loginCms(in0 = base64 CMS)`; faults, timeouts and garbage come back as values. */
  loginCms: (cmsBase64: string) => Promise<WsaaLoginOutcome>;
}

type XmlRecord = Readonly<Record<string, XmlValue>>;

/** The element as a record of children, or undefined when it is text, a list or absent. */
function element(value: XmlValue | undefined): XmlRecord | undefined {
  return typeof value === "object" && !Array.isArray(value) ? value : undefined;
}

/** An element's text as a date; an invalid date when it is not text. */
const dateOf = (value: XmlValue | undefined) => new Date(typeof value === "string" ? value : NaN);

/** Parses the TA XML that travels escaped inside `loginCmsReturn`; undefined when malformed. */
export function parseLoginTicket(xml: string): LoginTicket | undefined {
  let doc: XmlObject;
  try {
    doc = readXml(xml);
  } catch {
    return undefined;
  }
  // values stay strings: token and sign are opaque base64, never numbers
  const response = element(doc.loginTicketResponse);
  const header = element(response?.header);
  const credentials = element(response?.credentials);
  const token = credentials?.token;
  const sign = credentials?.sign;
  const generationTime = dateOf(header?.generationTime);
  const expirationTime = dateOf(header?.expirationTime);
  if (typeof token !== "string" || token === "" || typeof sign !== "string" || sign === "") {
    return undefined;
  }
  if (Number.isNaN(generationTime.getTime()) || Number.isNaN(expirationTime.getTime())) {
    return undefined;
  }
  return { token, sign, generationTime, expirationTime };
}

const BASE64 = /^[A-Za-z0-9+/\r\n]+={0,2}$/;

/**
 * The WSAA that issued a TA token, read from `sso/id/@src`: the
 * homologation WSAA signs as `CN=wsaahomo`, the production one as `CN=wsaa`. `malformed` when
 * the token is not base64 of an `sso` document with an `id`; `unknown` when it is but its source
 * names neither. The token stays opaque for every other purpose: this only explains a refusal.
 */
export function tokenIssuer(token: string): Environment | "malformed" | "unknown" {
  const trimmed = token.trim();
  if (!BASE64.test(trimmed)) return "malformed";
  const xml = Buffer.from(trimmed, "base64").toString("utf8");
  let doc: XmlObject;
  try {
    // the token's own attributes are what tells who issued it; everything else stays ignored
    doc = readXml(xml, { attributes: true });
  } catch {
    return "malformed";
  }
  const src = element(element(doc.sso)?.id)?.["@src"];
  if (typeof src !== "string") return "malformed";
  const cn = /(?:^|,)\s*CN=([^,]+)/i.exec(src)?.[1]?.trim().toLowerCase();
  if (cn === "wsaahomo") return "homologacion";
  if (cn === "wsaa") return "produccion";
  return "unknown";
}

/** `loginCmsResponse/loginCmsReturn`: the TA, escaped XML in a string. */
function ticketOf(body: XmlObject): CallOutcome<LoginTicket> {
  const returned = element(body.loginCmsResponse)?.loginCmsReturn;
  const ticket = typeof returned === "string" ? parseLoginTicket(returned) : undefined;
  return ticket
    ? { ok: true, value: ticket }
    : { ok: false, failure: { kind: "unreadable", message: "loginCmsReturn is not a TA" } };
}

/**
 * A WSAA client: `soap` writes the loginCms envelope from the project's own WSDL
 * (`wsdl/wsaa.wsdl`), and the authority client layer sends it to the configured endpoint over
 * the transport of every other call (trusted CAs, body cap) and reads the answer.
 */
export function makeWsaaClient(options: {
  endpoint: string;
  timeoutMs: number;
  /** the environment this endpoint belongs to, for traces */
  environment?: string;
}): WsaaClient {
  const writer = makeSoapEnvelopeWriter({ wsdl: "wsaa.wsdl", endpoint: options.endpoint });
  const client = makeAuthorityClient({ service: "wsaa", ...options });
  return {
    endpoint: options.endpoint,
    async loginCms(cmsBase64) {
      const outcome = await client.call({
        operation: "loginCms",
        request: () => writer.envelope("loginCms", { in0: cmsBase64 }),
        read: ticketOf,
      });
      return outcome.ok
        ? { ok: true, ticket: outcome.value }
        : { ok: false, failure: outcome.failure };
    },
  };
}
