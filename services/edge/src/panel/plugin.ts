import { randomBytes } from "node:crypto";
import cookie from "@fastify/cookie";
import formbody from "@fastify/formbody";
import multipart from "@fastify/multipart";
import { appError, type AppError } from "@pasarela/errors";
import type { FastifyError, FastifyInstance, FastifyReply } from "fastify";
import { EdgeError, unwrap } from "../http/edge-error.js";
import { toAppError } from "../http/error-handler.js";
import { statusOf } from "../http/status.js";
import type { Asker } from "../routes/route-module.js";
import { CSS_PATH, FAVICON_PATH, faviconSvg, JS_PATH, panelCss, panelJs } from "./assets.js";
import type { PanelContext, PanelSettings, Rendered } from "./context.js";
import { makePostRedirect } from "./post-redirect.js";
import { html } from "./html.js";
import { notice, page } from "./layout.js";
import { registerAuthPages } from "./pages/auth.js";
import { registerKeyPages } from "./pages/claves.js";
import { registerComprobantePages } from "./pages/comprobantes.js";
import { registerEmisionPages } from "./pages/emisiones.js";
import { registerRepresentadaPages } from "./pages/representadas.js";
import { registerSoportePages } from "./pages/soporte.js";
import { registerUsoPages } from "./pages/uso.js";
import { registerWebhookPages } from "./pages/webhooks.js";
import { csrfToken, looksLikeSessionId, sameToken, type SessionStore } from "./sessions.js";

export const SESSION_COOKIE = "pasarela_sesion";
/** the pre-login forms' token (double submit): there is no session to bind them to yet */
export const PRE_COOKIE = "pasarela_form";

declare module "fastify" {
  interface FastifyRequest {
    panelPreToken?: string;
  }
}

/** Never framed; no URL (reset tokens) in a Referer; for every answer under /panel. */
const SECURITY_HEADERS = {
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "cross-origin-opener-policy": "same-origin",
};
/** The pages' policy: same-origin only, nothing inline. */
const PAGE_POLICY = {
  "content-security-policy":
    "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'",
};

export interface PanelDeps {
  /** the edge's requests for the caller (the session's account), in its trace, with a deadline */
  ask: Asker;
  sessions: SessionStore;
  settings: PanelSettings;
  /** the API's route templates (/api/clientes/:id), sorted */
  routes: () => readonly string[];
}

const cookieOptions = (settings: PanelSettings) =>
  ({
    path: "/panel",
    httpOnly: true,
    sameSite: "lax",
    secure: settings.cookieSecure,
  }) as const;

/** Sets the session cookie (a browser session cookie: the server decides when it ends). */
export function setSessionCookie(reply: FastifyReply, settings: PanelSettings, id: string): void {
  void reply.setCookie(SESSION_COOKIE, id, cookieOptions(settings));
  void reply.clearCookie(PRE_COOKIE, cookieOptions(settings));
}

export function clearSessionCookie(reply: FastifyReply, settings: PanelSettings): void {
  void reply.clearCookie(SESSION_COOKIE, cookieOptions(settings));
}

/**
 * The dashboard under /panel: server-rendered pages over the same contracts as the API, with
 * their own credential (a session cookie) that never opens /api, as an API key never opens
 * these pages. Every POST carries a form token; every page answers for the session's account.
 */
export async function panelPlugin(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const { ask, sessions, settings } = deps;
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(multipart, {
    attachFieldsToBody: "keyValues",
    limits: { fileSize: 64 * 1024, files: 2, fields: 20, parts: 24 },
  });

  const session: PanelContext["session"] = (request) => {
    if (!request.panelSession) throw new EdgeError(appError("UNAUTHORIZED"));
    return request.panelSession;
  };
  const csrf: PanelContext["csrf"] = (request) =>
    request.panelSession ? csrfToken(request.panelSession) : (request.panelPreToken ?? "");
  const postRedirect = makePostRedirect(app, sessions);
  const show = (reply: FastifyReply, rendered: Rendered, status: number) => {
    const s = reply.request.panelSession;
    return reply
      .code(status)
      .type("text/html; charset=utf-8")
      .send(
        page({
          ...rendered,
          user: s ? { name: s.name, email: s.email, csrf: csrfToken(s) } : undefined,
        }).text,
      );
  };
  const render: PanelContext["render"] = async (reply, rendered, status = 200) => {
    if (reply.request.method === "POST" && (await postRedirect.redirect(reply, rendered, status))) {
      return reply;
    }
    return show(reply, rendered, status);
  };
  const context: PanelContext = {
    sessions,
    settings,
    ask,
    call: async (request, contract, body) => unwrap(await ask(request, contract, body)),
    render,
    csrf,
    session,
    routes: deps.routes,
  };

  // an error page answers the request itself, a POST's too: nothing was done to show later
  const errorPage = (reply: FastifyReply, error: AppError) =>
    show(
      reply,
      {
        title: statusOf(error) === 404 ? "No encontrado" : "No se pudo completar",
        section: "public",
        body: html`${notice("error", error.message)}
          <p>
            <a href="${reply.request.panelSession ? "/panel/uso" : "/panel/ingresar"}"
              >Volver al panel</a
            >
          </p>`,
      },
      statusOf(error),
    );

  app.addHook("onRequest", async (request, reply) => {
    const config = request.routeOptions.config;
    void reply.headers(SECURITY_HEADERS);
    if (!config.panelDocument) void reply.headers(PAGE_POLICY);
    if (config.panelAsset) return;
    const raw = request.cookies[SESSION_COOKIE];
    if (looksLikeSessionId(raw)) {
      const found = await sessions.find(raw);
      if (found) {
        request.panelSession = found;
        request.panelSessionId = raw;
      }
    }
    if (config.panelPublic) {
      const pre = request.cookies[PRE_COOKIE];
      if (pre && /^[A-Za-z0-9_-]{43}$/.test(pre)) request.panelPreToken = pre;
      else {
        request.panelPreToken = randomBytes(32).toString("base64url");
        void reply.setCookie(PRE_COOKIE, request.panelPreToken, cookieOptions(settings));
      }
    } else if (!request.panelSession && request.routeOptions.url !== undefined) {
      // no session (or an API key, which never opens the panel): to the login page
      if (raw !== undefined) clearSessionCookie(reply, settings);
      return reply.redirect("/panel/ingresar", 303);
    }
    // the page a form's POST answered, shown once instead of the page's own content
    if (request.method === "GET") {
      const answered = await postRedirect.take(request);
      if (answered) return show(reply.headers(answered.headers ?? {}), answered, answered.status);
    }
  });

  // Every POST proves it came from one of our own forms: the session's token, or before login
  // the pre-login cookie's (double submit). A missing or wrong token is a 403 page.
  app.addHook("preHandler", (request, _reply, done) => {
    if (request.method !== "POST") return done();
    const given = (request.body as Record<string, unknown> | undefined)?._csrf;
    const expected = request.routeOptions.config.panelPublic
      ? request.panelPreToken && request.cookies[PRE_COOKIE] === request.panelPreToken
        ? request.panelPreToken
        : undefined
      : request.panelSession && csrfToken(request.panelSession);
    if (!expected || !sameToken(expected, given)) {
      done(new EdgeError(appError("CSRF_INVALID")));
      return;
    }
    done();
  });

  app.addHook("onSend", (request, reply, payload, done) => {
    if (!request.url.startsWith("/panel/assets/")) void reply.header("cache-control", "no-store");
    done(null, payload);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const mapped = toAppError(error, request);
    if (mapped.code === "INTERNAL") {
      request.log.error({ requestId: request.id, err: error }, "panel: unexpected error");
    }
    return errorPage(reply, mapped);
  });
  app.setNotFoundHandler((request, reply) => errorPage(reply, appError("PANEL_NOT_FOUND")));

  app.get(CSS_PATH.slice("/panel".length), { config: { panelAsset: true } }, (_request, reply) =>
    reply
      .type("text/css; charset=utf-8")
      .header("cache-control", "public, max-age=31536000, immutable")
      .send(panelCss),
  );
  app.get(JS_PATH.slice("/panel".length), { config: { panelAsset: true } }, (_request, reply) =>
    reply
      .type("text/javascript; charset=utf-8")
      .header("cache-control", "public, max-age=31536000, immutable")
      .send(panelJs),
  );
  app.get(
    FAVICON_PATH.slice("/panel".length),
    { config: { panelAsset: true } },
    (_request, reply) =>
      reply
        .type("image/svg+xml")
        .header("cache-control", "public, max-age=31536000, immutable")
        .send(faviconSvg),
  );
  app.get("/", (_request, reply) => reply.redirect("/panel/uso", 303));

  registerAuthPages(app, context);
  registerKeyPages(app, context);
  registerWebhookPages(app, context);
  registerUsoPages(app, context);
  registerRepresentadaPages(app, context);
  registerComprobantePages(app, context);
  registerEmisionPages(app, context);
  registerSoportePages(app, context);
}
