import type { Environment } from "@pasarela/contracts";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { authorityAxiosOptions } from "./http-post.js";
import { createSoapClient } from "./soap-client.js";
import type { SoapFailure } from "./soap-failure.js";

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

// Values stay strings: token and sign are opaque base64, never numbers.
const parser = new XMLParser({ parseTagValue: false, ignoreAttributes: true, trimValues: true });

/** Parses the TA XML that travels escaped inside `loginCmsReturn`; undefined when malformed. */
export function parseLoginTicket(xml: string): LoginTicket | undefined {
  let doc: unknown;
  try {
    doc = parser.parse(xml);
  } catch {
    return undefined;
  }
  const response = (doc as { loginTicketResponse?: Record<string, unknown> }).loginTicketResponse;
  const header = response?.header as Record<string, unknown> | undefined;
  const credentials = response?.credentials as Record<string, unknown> | undefined;
  const token = credentials?.token;
  const sign = credentials?.sign;
  const generationTime = new Date(String(header?.generationTime));
  const expirationTime = new Date(String(header?.expirationTime));
  if (typeof token !== "string" || token === "" || typeof sign !== "string" || sign === "") {
    return undefined;
  }
  if (Number.isNaN(generationTime.getTime()) || Number.isNaN(expirationTime.getTime())) {
    return undefined;
  }
  return { token, sign, generationTime, expirationTime };
}

// The token's own attributes are what tells who issued it; everything else stays ignored.
const tokenParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseAttributeValue: false,
  parseTagValue: false,
});

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
  if (XMLValidator.validate(xml) !== true) return "malformed";
  const doc: unknown = tokenParser.parse(xml);
  const id = (doc as { sso?: { id?: { src?: unknown } } } | null)?.sso?.id;
  if (typeof id !== "object" || id === null || typeof id.src !== "string") return "malformed";
  const cn = /(?:^|,)\s*CN=([^,]+)/i.exec(id.src)?.[1]?.trim().toLowerCase();
  if (cn === "wsaahomo") return "homologacion";
  if (cn === "wsaa") return "produccion";
  return "unknown";
}

/**
 * A WSAA client on the project's own WSDL (`wsdl/wsaa.wsdl`) at the configured endpoint, over
 * the transport the business services use (trusted CAs, body cap).
 */
export function makeWsaaClient(options: {
  endpoint: string;
  timeoutMs: number;
  /** the environment this endpoint belongs to, for traces */
  environment?: string;
}): WsaaClient {
  const soap = createSoapClient({
    wsdl: "wsaa.wsdl",
    service: "wsaa",
    ...options,
    transport: authorityAxiosOptions,
  });
  return {
    endpoint: options.endpoint,
    async loginCms(cmsBase64) {
      const outcome = await soap.call("loginCms", { in0: cmsBase64 });
      if (!outcome.ok) return outcome;
      const returned = (outcome.result as { loginCmsReturn?: unknown } | null)?.loginCmsReturn;
      const ticket = typeof returned === "string" ? parseLoginTicket(returned) : undefined;
      if (!ticket) {
        return {
          ok: false,
          failure: { kind: "unreadable", message: "loginCmsReturn is not a TA" },
        };
      }
      return { ok: true, ticket };
    },
  };
}
