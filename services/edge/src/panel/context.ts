import type { Contract, ReplyOf, RequestOf } from "@pasarela/contracts";
import type { Result } from "@pasarela/errors";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Interpolation } from "./html.js";
import type { Section } from "./layout.js";
import type { Session, SessionStore } from "./sessions.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** a /panel page that needs no session (ingresar, registrarse, restablecer, ...) */
    panelPublic?: boolean;
    /** the panel's stylesheet and script: no session, no cookie */
    panelAsset?: boolean;
    /**
     * a document the browser shows in its own viewer (a PDF): the pages' content policy
     * (object-src 'none') would keep the viewer from showing it, and a PDF runs no page script
     */
    panelDocument?: boolean;
  }
  interface FastifyRequest {
    /** the dashboard session of the cookie, when it is live (only ever set under /panel) */
    panelSession?: Session;
    /** the cookie's raw session id, kept only for the flash key; never logged */
    panelSessionId?: string;
  }
}

export interface PanelSettings {
  /** the session cookie's Secure flag */
  cookieSecure: boolean;
  idleMs: number;
  absoluteMs: number;
  /** the dashboard's public origin, for links sent by e-mail */
  publicUrl: () => string;
}

export interface Rendered {
  title: string;
  section: Section;
  body: Interpolation;
  script?: boolean;
}

/** What every page handler gets: requests on the session's behalf, the store and the renderer. */
export interface PanelContext {
  readonly sessions: SessionStore;
  readonly settings: PanelSettings;
  /** a contract's request for the session's account, answered as a Result */
  ask<C extends Contract>(
    request: FastifyRequest,
    contract: C,
    body: RequestOf<C>,
  ): Promise<Result<ReplyOf<C>>>;
  /** the same, throwing the error (its page is the error page) */
  call<C extends Contract>(
    request: FastifyRequest,
    contract: C,
    body: RequestOf<C>,
  ): Promise<ReplyOf<C>>;
  /**
   * the page in the panel's layout, with the session's user and form token; for a form's POST,
   * the page is kept and the browser sent to see it (Post/Redirect/Get: post-redirect.ts)
   */
  render(
    reply: FastifyReply,
    page: Rendered,
    status?: number,
  ): FastifyReply | Promise<FastifyReply>;
  /** the form token of this request (the session's, or the pre-login cookie's) */
  csrf(request: FastifyRequest): string;
  /** the session id of the request's session; a page handler under login always has one */
  session(request: FastifyRequest): Session;
  /** the API's route templates (/api/clientes/:id), sorted: the usage history's routes */
  routes(): readonly string[];
}
