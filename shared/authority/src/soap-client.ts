import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as soap from "soap";
import { AUTHORITY_MAX_BODY_BYTES } from "./http-post.js";
import { localName, socketFailure, type SoapFailure } from "./soap-failure.js";
import { traceAuthorityCall } from "./tracing.js";

/**
 * The package folder, found by walking up to its package.json: the code runs from `src/`
 * under vitest and from `dist/src/` under node, and the WSDL files sit beside both.
 */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("@pasarela/authority: package.json not found");
    dir = parent;
  }
  return dir;
}

/** Absolute path of one of the project's own WSDL files shipped in `wsdl/`. */
function wsdlPath(name: string): string {
  return join(packageRoot(), "wsdl", name);
}

export type SoapOutcome =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly failure: SoapFailure };

export interface SoapClientOptions {
  /** a file name in this package's `wsdl/` folder */
  wsdl: string;
  /** the configured URL of the service; the WSDL's own address is never used */
  endpoint: string;
  timeoutMs: number;
  /** the web service's name for traces (wsaa) */
  service: string;
  /** the environment this endpoint belongs to, for traces */
  environment?: string | undefined;
  /** extra request options for every call (axios: agents with trusted CAs, body cap) */
  transport?: () => Readonly<Record<string, unknown>>;
}

export interface SoapClient {
  readonly endpoint: string;
  /** Calls one operation; every failure comes back as a value, never as a throw. */
  call: (operation: string, args: Record<string, unknown>) => Promise<SoapOutcome>;
}

type AsyncOperation = (
  args: Record<string, unknown>,
  options: Record<string, unknown>,
) => Promise<[unknown, ...unknown[]]>;

interface SoapErrorShape {
  code?: unknown;
  message?: unknown;
  root?: { Envelope?: { Body?: { Fault?: Record<string, unknown> } } };
  response?: { status?: unknown };
}

/** `<faultcode xmlns:ns1="…">ns1:coe.notAuthorized</faultcode>` → `coe.notAuthorized`. */
function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "object" && value !== null && "$value" in value) {
    return String(value.$value);
  }
  return "";
}

function describeSoapError(error: unknown, timeoutMs: number): SoapFailure {
  const e = (typeof error === "object" && error !== null ? error : {}) as SoapErrorShape;
  const status = typeof e.response?.status === "number" ? e.response.status : undefined;
  const fault = e.root?.Envelope?.Body?.Fault;
  if (fault) {
    const rawCode = textOf(fault.faultcode);
    return {
      kind: "fault",
      code: localName(rawCode),
      message: textOf(fault.faultstring).trim(),
      status: status ?? 500,
    };
  }
  if (status !== undefined && status >= 300) return { kind: "http", status };
  const code = typeof e.code === "string" ? e.code : "";
  const message = typeof e.message === "string" ? e.message : String(error);
  if (code === "ECONNABORTED" || code === "ETIMEDOUT" || /timeout/i.test(message)) {
    return { kind: "timeout", timeoutMs };
  }
  if (status !== undefined && !/maxContentLength/.test(message)) {
    return { kind: "unreadable", message };
  }
  return socketFailure(error, AUTHORITY_MAX_BODY_BYTES);
}

/**
 * A `soap` client for one of the project's WSDLs at a configured endpoint. The WSDL is parsed
 * once, on the first call; a failed parse is retried on the next call rather than cached.
 */
export function createSoapClient(options: SoapClientOptions): SoapClient {
  let client: Promise<soap.Client> | undefined;
  const load = (): Promise<soap.Client> => {
    client ??= soap
      .createClientAsync(wsdlPath(options.wsdl), {
        endpoint: options.endpoint,
        returnFault: false,
      })
      .catch((error: unknown) => {
        client = undefined;
        throw error;
      });
    return client;
  };
  const target = {
    service: options.service,
    endpoint: options.endpoint,
    environment: options.environment,
  };
  return {
    endpoint: options.endpoint,
    call: (operation, args) =>
      traceAuthorityCall(
        target,
        operation,
        () => send(operation, args),
        (outcome) => (outcome.ok ? { ok: true } : outcome),
      ),
  };

  async function send(operation: string, args: Record<string, unknown>): Promise<SoapOutcome> {
    const loaded = await load();
    const method = (loaded as unknown as Record<string, AsyncOperation | undefined>)[
      `${operation}Async`
    ];
    if (typeof method !== "function")
      throw new Error(`no operation ${operation} in ${options.wsdl}`);
    try {
      const [result] = await method.call(loaded, args, {
        ...options.transport?.(),
        timeout: options.timeoutMs,
      });
      return { ok: true, result };
    } catch (error) {
      return { ok: false, failure: describeSoapError(error, options.timeoutMs) };
    }
  }
}
