import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { Server as HttpsServer } from "node:https";
import type { TLSSocket } from "node:tls";
import type { Logger } from "pino";
import { createCa, loadCa } from "./ca.js";
import { handleControl } from "./control/routes.js";
import { drawFault, readBody, send, sendJson } from "./http.js";
import { readAsmxRequest } from "./soap/asmx.js";
import { asmxFaultResult, asmxOk, runAsmx } from "./soap/service.js";
import type { AsmxService } from "./soap/service.js";
import { ENVIRONMENTS, loadState, newEnvState, saveState } from "./state.js";
import type { Environment, FaultMode, FaultService, SimState } from "./state.js";
import { A10, A13, CONSTANCIA, type JaxwsServiceSpec } from "./padron/schema.js";
import { padronDatabaseDown, padronFaultResult, runPadron } from "./padron/service.js";
import { readJaxwsRequest } from "./soap/jaxws.js";
import { ensureTls } from "./tls.js";
import { jaxwsWsdl } from "./wsdl/jaxws.js";
import { handleLoginCms, wsaaFault } from "./wsaa/login.js";
import { asmxWsdl, wsaaWsdl } from "./wsdl/build.js";
import type { AsmxWsdlSpec } from "./wsdl/build.js";
import { WSFE_WSDL } from "./wsdl/wsfe.js";
import { WSFEX_WSDL } from "./wsdl/wsfex.js";
import { wsfeService } from "./wsfe/service.js";
import { wsfexService } from "./wsfex/service.js";
import type { HandlerResult, World } from "./world.js";

export const PATHS = {
  wsaa: "/ws/services/LoginCms",
  wsfe: "/wsfev1/service.asmx",
  wsfex: "/wsfexv1/service.asmx",
  padronA13: A13.path,
  padronA10: A10.path,
  constancia: CONSTANCIA.path,
} as const;

/** The registry services, by their key in PATHS. */
const JAXWS: Record<"padronA13" | "padronA10" | "constancia", JaxwsServiceSpec> = {
  padronA13: A13,
  padronA10: A10,
  constancia: CONSTANCIA,
};

export interface SimulatorServerOptions {
  stateFile?: string | undefined;
  logger?: Logger | undefined;
  /** Upper bound for fault mode `timeout` (default 120 s); released early on close. */
  timeoutHoldMs?: number | undefined;
  /** Also serve HTTPS, with a certificate for these names (besides localhost and loopback). */
  tls?: { names: readonly string[] } | undefined;
}

export interface SimulatorServer {
  server: Server;
  /** The same app over TLS, when asked for; listening is the caller's. */
  httpsServer: HttpsServer | undefined;
  /** PEM of the CA that signed the HTTPS certificate, when HTTPS is served. */
  tlsCa: string | undefined;
  worlds: Record<Environment, World>;
  /** Releases held (timeout-mode) requests and closes every connection. */
  shutdown(): Promise<void>;
}

function initialState(stateFile: string | undefined): SimState {
  const loaded = stateFile === undefined ? undefined : loadState(stateFile);
  if (loaded !== undefined) return loaded;
  const now = Date.now();
  return {
    version: 1,
    envs: {
      homologacion: newEnvState(createCa("homologacion", now)),
      produccion: newEnvState(createCa("produccion", now)),
    },
  };
}

/** What the authority's front end answers while a service is down, whatever its dialect. */
const SERVICE_UNAVAILABLE: HandlerResult = {
  status: 503,
  contentType: "text/html; charset=us-ascii",
  body: "<HTML><HEAD><TITLE>Service Unavailable</TITLE></HEAD><BODY><h2>Service Unavailable</h2></BODY></HTML>",
};

const ASMX: Record<"wsfe" | "wsfex", { service: AsmxService; wsdl: AsmxWsdlSpec }> = {
  wsfe: { service: wsfeService, wsdl: WSFE_WSDL },
  wsfex: { service: wsfexService, wsdl: WSFEX_WSDL },
};

export function createSimulatorServer(options: SimulatorServerOptions): SimulatorServer {
  const state = initialState(options.stateFile);
  if (options.tls !== undefined) state.tls = ensureTls(state.tls, options.tls.names, Date.now());
  const tls = options.tls === undefined ? undefined : state.tls;
  const log = options.logger;
  const persist = (): void => {
    if (options.stateFile !== undefined) saveState(options.stateFile, state);
  };
  persist();
  const worlds = {} as Record<Environment, World>;
  for (const environment of ENVIRONMENTS) {
    const envState = state.envs[environment];
    worlds[environment] = {
      environment,
      state: envState,
      ca: loadCa(envState.ca),
      now: () => Date.now() + envState.settings.clockOffsetMs,
      commit: persist,
      count(operation) {
        envState.stats.requests[operation] = (envState.stats.requests[operation] ?? 0) + 1;
      },
      countFault(what) {
        const faults = (envState.stats.faults ??= {});
        faults[what] = (faults[what] ?? 0) + 1;
      },
    };
  }

  const held = new Set<() => void>();
  const holdMs = options.timeoutHoldMs ?? 120_000;
  let closing = false;

  function hold(req: IncomingMessage): Promise<void> {
    return new Promise((resolve) => {
      const release = (): void => {
        clearTimeout(timer);
        held.delete(release);
        resolve();
      };
      const timer = setTimeout(release, holdMs);
      held.add(release);
      req.socket.once("close", release);
    });
  }

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      t.unref();
    });

  /**
   * Applies the service's configured fault around the real handler. `handle` runs the
   * operation (and commits its effects); `error501` renders the dialect's infrastructure error.
   */
  async function withFaults(
    world: World,
    service: FaultService,
    req: IncomingMessage,
    res: ServerResponse,
    handle: () => HandlerResult,
    error501: () => HandlerResult,
    unavailable: () => HandlerResult,
    operation?: string,
  ): Promise<void> {
    const fault = world.state.faults[service];
    const slowed = fault.latencyOperation === undefined || fault.latencyOperation === operation;
    const latency = !slowed
      ? 0
      : fault.latencyMaxMs !== undefined && fault.latencyMaxMs > fault.latencyMs
        ? fault.latencyMs + Math.random() * (fault.latencyMaxMs - fault.latencyMs)
        : fault.latencyMs;
    if (latency > 0) await sleep(latency);
    // dated as it answers, as a real server does, however long it made the caller wait
    res.setHeader("date", new Date(world.now()).toUTCString());
    const targeted = fault.operation === undefined || fault.operation === operation;
    const mode: FaultMode = targeted ? drawFault(fault) : "none";
    if (mode !== "none") world.countFault(`${operation ?? service} ${mode}`);
    switch (mode) {
      case "none":
        send(res, handle());
        return;
      case "error-501":
        send(res, error501());
        return;
      case "unavailable":
        send(res, unavailable());
        return;
      case "timeout":
        await hold(req);
        req.socket.destroy();
        return;
      case "drop-after-commit":
        handle();
        req.socket.destroy();
        return;
    }
  }

  async function serveWsaa(world: World, req: IncomingMessage, res: ServerResponse, body: string) {
    world.count("loginCms");
    await withFaults(
      world,
      "wsaa",
      req,
      res,
      () => handleLoginCms(world, body),
      () => wsaaFault(world, "wsaa.internalError"),
      () => wsaaFault(world, "wsaa.unavailable"),
      "loginCms",
    );
  }

  async function serveAsmx(
    world: World,
    kind: "wsfe" | "wsfex",
    req: IncomingMessage,
    res: ServerResponse,
    body: string,
  ) {
    const { service } = ASMX[kind];
    const parsed = readAsmxRequest(
      req.headers,
      body,
      service.ns,
      new Set(Object.keys(service.operations)),
    );
    if (parsed.kind === "fault") {
      send(res, asmxFaultResult(parsed.version, parsed.message));
      return;
    }
    world.count(parsed.op);
    const admission = service.admit?.(world, parsed.op, parsed.body);
    try {
      await withFaults(
        world,
        kind,
        req,
        res,
        () =>
          admission?.kind === "refused"
            ? asmxOk(world, service, parsed.version, parsed.op, admission.inner)
            : runAsmx(world, service, parsed.version, parsed.op, parsed.body),
        () =>
          asmxOk(
            world,
            service,
            parsed.version,
            parsed.op,
            service.errorResult(parsed.op, 501, "Error interno de base de datos"),
          ),
        () => SERVICE_UNAVAILABLE,
        parsed.op,
      );
    } finally {
      if (admission?.kind === "admitted") admission.release();
    }
  }

  /** A registry service: JAX-WS, routed by the body element (soapAction is ""). */
  async function serveJaxws(
    world: World,
    spec: JaxwsServiceSpec,
    req: IncomingMessage,
    res: ServerResponse,
    body: string,
  ) {
    const parsed = readJaxwsRequest(body, spec.ns, new Set(Object.keys(spec.operations)));
    if (parsed.kind === "fault") {
      send(res, padronFaultResult(spec, parsed.fault));
      return;
    }
    world.count(`${spec.service}.${parsed.op}`);
    await withFaults(
      world,
      spec.service,
      req,
      res,
      () => runPadron(world, spec, parsed.op, parsed.body),
      () => padronDatabaseDown(spec, parsed.op),
      () => SERVICE_UNAVAILABLE,
      parsed.op,
    );
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://sim.invalid");
    const method = req.method ?? "GET";
    if (url.pathname.startsWith("/_control/")) {
      const raw = method === "GET" ? "" : await readBody(req);
      let body: unknown = undefined;
      if (raw !== undefined && raw !== "") {
        try {
          body = JSON.parse(raw);
        } catch {
          sendJson(res, 400, { error: "body is not JSON" });
          return;
        }
      }
      const out = handleControl(method, url.pathname, body, worlds, tls?.ca.certPem);
      sendJson(res, out.status, out.body);
      return;
    }
    const m = /^\/([^/]+)(\/.*)$/.exec(url.pathname);
    const envName = m?.[1] ?? "";
    const rest = m?.[2] ?? "";
    if (!(ENVIRONMENTS as readonly string[]).includes(envName)) {
      sendJson(res, 404, { error: "not found" });
      return;
    }
    const world = worlds[envName as Environment];
    // the environment's own clock (settings' clock offset included), as a real server's Date
    res.setHeader("date", new Date(world.now()).toUTCString());
    const service = (Object.keys(PATHS) as (keyof typeof PATHS)[]).find(
      (k) => PATHS[k].toLowerCase() === rest.toLowerCase(),
    );
    if (service === undefined) {
      sendJson(res, 404, { error: "not found" });
      return;
    }
    const wantsWsdl = url.search.toLowerCase() === "?wsdl";
    if (method === "GET" && wantsWsdl) {
      // The address the client used, scheme included: a WSDL read over HTTPS points at HTTPS.
      const scheme = (req.socket as Partial<TLSSocket>).encrypted === true ? "https" : "http";
      const address = `${scheme}://${req.headers.host ?? "127.0.0.1"}/${envName}${PATHS[service]}`;
      const xml =
        service === "wsaa"
          ? wsaaWsdl(address)
          : service === "wsfe" || service === "wsfex"
            ? asmxWsdl(ASMX[service].wsdl, address)
            : jaxwsWsdl(JAXWS[service], address);
      send(res, { status: 200, contentType: "text/xml; charset=utf-8", body: xml });
      return;
    }
    if (method !== "POST") {
      send(res, { status: 405, contentType: "text/plain", body: "Method not allowed" });
      return;
    }
    const body = await readBody(req);
    if (body === undefined) {
      send(res, { status: 413, contentType: "text/plain", body: "Request entity too large" });
      return;
    }
    if (service === "wsaa") await serveWsaa(world, req, res, body);
    else if (service === "wsfe" || service === "wsfex") {
      await serveAsmx(world, service, req, res, body);
    } else await serveJaxws(world, JAXWS[service], req, res, body);
  }

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const started = Date.now();
    route(req, res)
      .catch((error: unknown) => {
        log?.error({ err: error, url: req.url }, "request failed");
        if (!res.headersSent) {
          send(res, { status: 500, contentType: "text/plain", body: "internal error" });
        } else {
          res.destroy();
        }
      })
      .finally(() => {
        log?.debug(
          { method: req.method, url: req.url, status: res.statusCode, ms: Date.now() - started },
          "request",
        );
      });
  };
  const server = createServer(handler);
  const httpsServer =
    tls === undefined
      ? undefined
      : createHttpsServer({ key: tls.server.keyPem, cert: tls.server.certPem }, handler);
  for (const s of [server, httpsServer]) {
    s?.on("clientError", (_err, socket) => {
      socket.destroy();
    });
  }

  const closeOne = (s: Server | HttpsServer): Promise<void> =>
    new Promise((resolve) => {
      if (!s.listening) {
        resolve();
        return;
      }
      s.close(() => {
        resolve();
      });
      s.closeAllConnections();
    });

  return {
    server,
    httpsServer,
    tlsCa: httpsServer === undefined ? undefined : tls?.ca.certPem,
    worlds,
    shutdown: async () => {
      if (closing) return;
      closing = true;
      for (const release of [...held]) release();
      await Promise.all(
        [server, httpsServer].flatMap((s) => (s === undefined ? [] : [closeOne(s)])),
      );
    },
  };
}
