import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Rendered } from "./context.js";
import type { Section } from "./layout.js";
import { html, raw } from "./html.js";
import type { SessionStore } from "./sessions.js";

/** The query parameter that names the page a form's POST answered. */
export const RESULT_PARAM = "resultado";

/** A page a POST answered, kept (sealed, for that browser only) for the GET it is sent to. */
interface Answered {
  readonly title: string;
  readonly section: Section;
  readonly body: string;
  readonly script?: boolean;
  readonly status: number;
  /** the headers the POST's page carried that still hold for the page shown (Retry-After) */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Headers of a POST's page that say something about the page shown after it. */
const KEPT_HEADERS = ["retry-after"] as const;

const isAnswered = (value: unknown): value is Answered =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as Answered).title === "string" &&
  typeof (value as Answered).section === "string" &&
  typeof (value as Answered).body === "string" &&
  typeof (value as Answered).status === "number";

/** Whose flash it is: the session's, or before login the form cookie's. */
const flashOwner = (request: FastifyRequest): string | undefined =>
  request.panelSessionId ?? request.panelPreToken;

/**
 * Post/Redirect/Get for every form: a POST never answers a page itself. What it would have
 * shown (an error beside its field, a confirmation, a probe's results) is kept as a one-time
 * flash and the browser is sent with 303 to the page the form belongs to (the POST's own
 * address when it has a page, else the one above it), which shows it once. A reload then asks
 * for that page again, never for the form to be sent again.
 */
export function makePostRedirect(app: FastifyInstance, sessions: SessionStore) {
  const pages = new Set<string>();
  app.addHook("onRoute", (route) => {
    if ([route.method].flat().includes("GET")) pages.add(route.url);
  });

  /** The page a form posted to belongs to, as a concrete path. */
  function pageOf(request: FastifyRequest): string {
    let pattern = request.routeOptions.url ?? "";
    let path = request.url.split("?")[0] ?? "";
    while (!pages.has(pattern) && pattern.lastIndexOf("/") > 0) {
      pattern = pattern.slice(0, pattern.lastIndexOf("/"));
      path = path.slice(0, path.lastIndexOf("/"));
    }
    return path;
  }

  return {
    /** Keeps a POST's page and sends the browser to see it; false when it cannot be kept. */
    async redirect(reply: FastifyReply, rendered: Rendered, status: number): Promise<boolean> {
      const owner = flashOwner(reply.request);
      if (owner === undefined) return false;
      const answered: Answered = {
        title: rendered.title,
        section: rendered.section,
        body: html`${rendered.body}`.text,
        ...(rendered.script ? { script: true } : {}),
        status,
      };
      const headers: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      if (Object.keys(headers).length > 0) Object.assign(answered, { headers });
      const id = await sessions.putFlash(owner, answered);
      await reply.redirect(`${pageOf(reply.request)}?${RESULT_PARAM}=${id}`, 303);
      return true;
    },
    /** The page a POST answered, once, for the GET it sent the browser to. */
    async take(
      request: FastifyRequest,
    ): Promise<(Rendered & Pick<Answered, "status" | "headers">) | undefined> {
      const id = (request.query as Record<string, unknown> | undefined)?.[RESULT_PARAM];
      const owner = flashOwner(request);
      if (typeof id !== "string" || owner === undefined || !/^[0-9a-f-]{36}$/.test(id)) {
        return undefined;
      }
      const kept = await sessions.takeFlash(owner, id);
      if (!isAnswered(kept)) return undefined;
      // markup this gateway rendered for this browser, kept sealed under its own key
      return { ...kept, body: raw(kept.body) };
    },
  };
}
