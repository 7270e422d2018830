import { randomUUID } from "node:crypto";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { Tracer } from "@opentelemetry/api";
import type { Bus } from "@pasarela/bus";
import {
  AUTHORITY_QUERY_TIMEOUT_MS,
  billing,
  configureZodMessages,
  DEADLINE_SLACK_MS,
} from "@pasarela/contracts";
import type { Logger } from "@pasarela/telemetry";
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from "fastify";
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { makeAuthenticate } from "./auth/authenticate.js";
import { makeKeyCache } from "./auth/key-cache.js";
import { unwrap } from "./http/edge-error.js";
import { registerErrorHandling } from "./http/error-handler.js";
import { registerJsonBody } from "./http/json-body.js";
import { protocolOptions, registerHostCheck } from "./http/protocol.js";
import { registerTextGuard } from "./http/text-guard.js";
import { registerMetrics } from "./http/metrics.js";
import { inRequestContext, registerTracing } from "./http/tracing.js";
import { makeUsageRecorder, registerUsageRecording, type UsageRecorder } from "./http/usage.js";
import { registerHealthRoutes } from "./routes/health.js";
import {
  routeModules,
  type Asker,
  type Caller,
  type Publisher,
  type RouteModule,
} from "./routes/index.js";
import type { PanelSettings } from "./panel/context.js";
import { panelPlugin } from "./panel/plugin.js";
import type { SessionStore } from "./panel/sessions.js";

export interface AppDeps {
  bus: Bus;
  logger: Logger;
  tracer: Tracer;
  bodyLimit?: number;
  keyCacheTtlMs?: number;
  /** how long headers and body may take to arrive (408 after) */
  requestTimeoutMs?: number;
  /** how long a connection may stay silent before it is closed */
  connectionTimeoutMs?: number;
  /** the longest an API call waits (API_TIMEOUT_MS) */
  apiTimeoutMs?: number;
  /** publish every authenticated call to the usage history (on by default) */
  recordUsage?: boolean;
  /** route groups to serve; all of them by default (tests add their own) */
  routes?: readonly RouteModule[];
  /** the dashboard under /panel, with its session store; not served without one */
  panel?: { sessions: SessionStore; settings: PanelSettings };
}

export interface EdgeApp {
  app: FastifyInstance;
  /**
   * After `delayMs` of serving on with /readyz answering 503, stops listening (a new
   * connection is refused), closes idle keep-alive connections, lets the requests in flight be
   * answered (each answer closes its connection), then flushes the usage history. After
   * `drainMs` the connections still open are cut.
   */
  close: (drainMs?: number, delayMs?: number) => Promise<void>;
}

/**
 * The OpenAPI document describes the JSON API only: the dashboard's pages under /panel are HTML
 * forms behind a session cookie and a form token, which no client generated from it could call.
 */
const documentedRoute: typeof jsonSchemaTransform = (input) =>
  input.url === "/panel" || input.url.startsWith("/panel/")
    ? { schema: { hide: true }, url: input.url }
    : jsonSchemaTransform(input);

/**
 * Plugin order: error handling, tracing, the Host check, the JSON body parser and the text
 * guard first (they see everything), then the OpenAPI document, health, the dashboard under
 * /panel (its own session credential) and the /api routes behind authentication (API keys
 * only).
 */
export async function buildApp(deps: AppDeps): Promise<EdgeApp> {
  configureZodMessages();
  const routes = deps.routes ?? routeModules;
  const app = Fastify({
    // pino's Logger is a FastifyBaseLogger at run time; the declared generics differ
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    loggerInstance: deps.logger as FastifyBaseLogger,
    // one line per request is written by the tracing hook, with trace ids and status
    logController: new LogController({ disableRequestLogging: true }),
    // request lines carry the request and trace ids themselves; no child logger per request
    childLoggerFactory: (logger) => logger,
    bodyLimit: deps.bodyLimit ?? 1_048_576,
    ...protocolOptions(
      {
        requestTimeoutMs: deps.requestTimeoutMs ?? 30_000,
        connectionTimeoutMs: deps.connectionTimeoutMs ?? 120_000,
      },
      deps.logger,
    ),
    requestIdHeader: false,
    // random, so a request id tells nothing of how many requests the edge served, nor when
    genReqId: () => randomUUID(),
    // a request on a connection taken before the stop is served like any other (the stop
    // waits for it): a bare 503 would be a failure for its caller, whereas a new connection,
    // refused once the edge stops listening, goes to another edge
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();
  // once closing, every answer closes its connection: a kept-alive one would hold the close
  let closing = false;
  app.addHook("onSend", async (_request, reply, payload) => {
    if (closing) reply.header("connection", "close");
    return payload;
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerTracing(app, deps.tracer, deps.logger);
  registerMetrics(app);
  let usage: UsageRecorder | undefined;
  if (deps.recordUsage ?? true) {
    usage = makeUsageRecorder(deps.bus, deps.logger);
    registerUsageRecording(app, usage);
  }
  registerHostCheck(app);
  registerJsonBody(app);
  registerTextGuard(app);

  await app.register(swagger, {
    openapi: {
      // 3.1: request schemas are JSON Schema 2020-12, so conditional rules (if/then, const,
      // dependentRequired) are stated in the document rather than only in descriptions
      openapi: "3.1.0",
      info: {
        title: "pasarela",
        description:
          'API JSON frente a los web services de factura electrónica de AFIP/ARCA. Cuerpos: `application/json` en UTF-8 (otro charset: 415); un número JSON que no se lee sin redondear (1e-400, 1.000000000000000000001) es un 400 que nombra el campo. Errores: `{error, code, details?}`; un 400 que se refiere a un campo lo nombra en `details.field` (p. ej. `items.0.descripcion`); 401 siempre `{"error":"No autorizado"}`. `format: cuit`: 11 dígitos sin guiones, el primero distinto de 0, con dígito verificador válido (módulo 11).',
        version: "0.1.0",
      },
      components: {
        securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "API key" } },
      },
      security: [{ apiKey: [] }],
    },
    transform: documentedRoute,
  });
  await app.register(swaggerUi, { routePrefix: "/docs" });

  const keyCache = makeKeyCache(deps.keyCacheTtlMs ?? 300_000);
  const revoked = deps.bus.listen(billing.keyRevoked, (event) => keyCache.revoke(event.keyId));
  // Events sent while disconnected are lost to a core subscription: forget everything instead.
  deps.bus.onReconnect(() => keyCache.clear());

  const services = [...new Set(["billing", ...routes.flatMap((r) => r.services)])];
  registerHealthRoutes(app, deps.bus, services, () => closing);

  const apiTimeoutMs = deps.apiTimeoutMs ?? AUTHORITY_QUERY_TIMEOUT_MS;
  // Each API call gets one deadline, which every hop behind it shares: whatever waits on the
  // authority ends before it with a 502, and the edge waits DEADLINE_SLACK_MS longer, so only
  // a service of ours that does not answer becomes a 503 (budget in authority-query.ts).
  // The caller is the API key's account, or under /panel the dashboard session's.
  const ask: Asker = (request, contract, body) => {
    const waitMs = Math.min(contract.timeoutMs ?? apiTimeoutMs, apiTimeoutMs);
    return inRequestContext(request, () =>
      deps.bus.request(contract, body, {
        accountId: request.principal?.accountId ?? request.panelSession?.accountId,
        requestId: request.id,
        deadline: Date.now() + waitMs - DEADLINE_SLACK_MS,
      }),
    );
  };
  const call: Caller = async (request, contract, body) =>
    unwrap(await ask(request, contract, body));
  const publish: Publisher = (request, event, body) =>
    inRequestContext(request, () =>
      deps.bus.publish(event, body, {
        accountId: request.principal?.accountId ?? request.panelSession?.accountId,
        requestId: request.id,
      }),
    );
  // routes outside /api that take no API key (their own token is the credential)
  for (const module of routes) {
    if (module.publicPlugin) await app.register(module.publicPlugin, { call, publish });
  }
  // the API's routes as their templates, for the panel's usage filter (registered below)
  const apiRoutes = new Set<string>();
  app.addHook("onRoute", (route) => {
    if (route.url.startsWith("/api/")) apiRoutes.add(route.url);
  });
  // the dashboard's own credential (a session cookie scoped to /panel) never reaches /api
  if (deps.panel) {
    const { sessions, settings } = deps.panel;
    const routes = () => [...apiRoutes].sort();
    await app.register(async (panel) => panelPlugin(panel, { ask, sessions, settings, routes }), {
      prefix: "/panel",
    });
  }
  const authenticate = makeAuthenticate(deps.bus, keyCache);
  await app.register(
    async (api) => {
      api.addHook("onRequest", (request) => inRequestContext(request, () => authenticate(request)));
      for (const module of routes) await api.register(module.plugin, { call, publish });
    },
    { prefix: "/api" },
  );
  await app.ready();
  return {
    app,
    close: async (drainMs, delayMs = 0) => {
      closing = true;
      // still listening and serving, /readyz answering 503: a load balancer stops sending new
      // connections here before the listening socket closes (which would reset those not yet
      // accepted)
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      revoked.unsubscribe();
      const cut =
        drainMs === undefined
          ? undefined
          : setTimeout(() => {
              deps.logger.warn({ drainMs }, "drain bound reached: open connections cut");
              app.server.closeAllConnections();
            }, drainMs);
      await app.close().finally(() => clearTimeout(cut));
      // the calls answered last go to the usage history before the bus closes
      await usage?.flush();
    },
  };
}
