/**
 * Test doubles for callers of the authority (wsfe, wsfex): a scripted ASMX service behind an
 * injected `fetch` and a TA cache that needs no bus. Exported as `@pasarela/authority/testing`,
 * apart from the main entry, so no production path loads them; they have no side effects and
 * import nothing a production install lacks.
 */
import { ok } from "@pasarela/errors";
import type { AccessTicket, AccessTicketCache } from "./access-ticket-cache.js";

/** A TA cache that hands out token-1, token-2, … and counts invalidations. */
export function fakeTickets(): AccessTicketCache & { invalidations: number; issued: number } {
  let current: AccessTicket | undefined;
  const state = {
    invalidations: 0,
    issued: 0,
    get: (_a: string, cuit: string) => {
      if (!current) {
        state.issued++;
        current = {
          token: `token-${state.issued}`,
          sign: "sign",
          expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
          certificateNotAfter: new Date(Date.now() + 365 * 86_400_000).toISOString(),
          cuit,
        };
      }
      return Promise.resolve(ok(current));
    },
    invalidate: () => {
      state.invalidations++;
      current = undefined;
    },
    clear: () => {
      current = undefined;
    },
  };
  return state;
}

/** An ASMX answer for `operation` carrying `inner` inside its Result. */
export function asmxAnswer(namespace: string, operation: string, inner: string): string {
  return (
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">` +
    `<soap:Header><FEHeaderInfo xmlns="${namespace}"><ambiente>x</ambiente></FEHeaderInfo></soap:Header>` +
    `<soap:Body><${operation}Response xmlns="${namespace}"><${operation}Result>${inner}` +
    `</${operation}Result></${operation}Response></soap:Body></soap:Envelope>`
  );
}

export interface Sent {
  url: string;
  soapAction: string;
  body: string;
}

/** A fetch that records requests and answers with `respond`. */
export function fakeFetch(respond: (sent: Sent) => Response | Promise<Response>) {
  const sent: Sent[] = [];
  const fn = (async (input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    const request: Sent = {
      url: input instanceof Request ? input.url : input.toString(),
      soapAction: headers.get("soapaction") ?? "",
      body: typeof init?.body === "string" ? init.body : "",
    };
    sent.push(request);
    return respond(request);
  }) as typeof fetch;
  return { fetch: fn, sent };
}

export const xml = (body: string, status = 200) =>
  new Response(body, { status, headers: { "content-type": "text/xml; charset=utf-8" } });
