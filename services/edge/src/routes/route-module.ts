import type { Contract, EventContract, EventOf, ReplyOf, RequestOf } from "@pasarela/contracts";
import type { Result } from "@pasarela/errors";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

/** A contract's request for an HTTP request (its trace, account, request id and deadline). */
export type Asker = <C extends Contract>(
  request: FastifyRequest,
  contract: C,
  body: RequestOf<C>,
) => Promise<Result<ReplyOf<C>>>;

/** The same, throwing the error (the error handler answers it). */
export type Caller = <C extends Contract>(
  request: FastifyRequest,
  contract: C,
  body: RequestOf<C>,
) => Promise<ReplyOf<C>>;

/** Publishes an event on JetStream for an HTTP request (its trace, account and request id). */
export type Publisher = <E extends EventContract>(
  request: FastifyRequest,
  event: E,
  body: EventOf<E>,
) => Promise<void>;

export interface RouteDeps {
  call: Caller;
  publish: Publisher;
}

/**
 * A group of /api routes and the services they need: /readyz asks exactly those services, so
 * the edge is ready when everything its routes depend on answers.
 */
export interface RouteModule {
  readonly name: string;
  readonly services: readonly string[];
  readonly plugin: FastifyPluginAsyncZod<RouteDeps>;
  /** routes outside /api that take no API key: their own token is the credential */
  readonly publicPlugin?: FastifyPluginAsyncZod<RouteDeps>;
}
