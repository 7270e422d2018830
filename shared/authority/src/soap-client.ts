import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as soap from "soap";
import type { SoapRequest } from "./authority-client.js";

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

export interface SoapEnvelopeWriter {
  /**
   * The envelope `soap` writes for `operation` with `args` from the WSDL: its SOAPAction and
   * content type, and its text. Throws when the WSDL cannot be loaded or lacks the operation.
   */
  envelope: (operation: string, args: Record<string, unknown>) => Promise<SoapRequest>;
}

type AsyncOperation = (
  args: Record<string, unknown>,
  options: Record<string, unknown>,
) => Promise<unknown>;

/** How `soap` ends a call whose envelope was handed over: the client layer sends it. */
class EnvelopeHandedOver extends Error {
  override readonly name = "EnvelopeHandedOver";
}

/** What the writer passes itself through `soap`'s call options, to get the envelope back. */
interface HandOver {
  readonly handOver: (request: SoapRequest) => void;
}

/**
 * `soap`'s HTTP client hook, used to take the envelope rather than to send it: `soap` writes
 * the request from the WSDL and hands it here; the call then ends, and the authority client
 * layer sends it, reads the answer and classifies what went wrong, as for every other call.
 */
const takeEnvelope: soap.IHttpClient = {
  request(_url, data, callback, headers, options) {
    const handOver = (options as Partial<HandOver> | undefined)?.handOver;
    const named: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers ?? {})) {
      named[name.toLowerCase()] = String(value);
    }
    handOver?.({ headers: named, body: String(data) });
    callback(new EnvelopeHandedOver("envelope handed to the authority client"));
    return undefined as unknown as ReturnType<soap.IHttpClient["request"]>;
  },
};

/**
 * `soap`'s writer for one of the project's WSDLs at a configured endpoint. The WSDL is parsed
 * once, on the first call; a failed parse is retried on the next call rather than cached.
 */
export function makeSoapEnvelopeWriter(options: {
  /** a file name in this package's `wsdl/` folder */
  wsdl: string;
  /** the configured URL of the service; the WSDL's own address is never used */
  endpoint: string;
}): SoapEnvelopeWriter {
  let client: Promise<soap.Client> | undefined;
  const load = (): Promise<soap.Client> => {
    client ??= soap
      .createClientAsync(wsdlPath(options.wsdl), {
        endpoint: options.endpoint,
        httpClient: takeEnvelope,
      })
      .catch((error: unknown) => {
        client = undefined;
        throw error;
      });
    return client;
  };
  return {
    async envelope(operation, args) {
      const loaded = await load();
      const method = (loaded as unknown as Record<string, AsyncOperation | undefined>)[
        `${operation}Async`
      ];
      if (typeof method !== "function") {
        throw new Error(`no operation ${operation} in ${options.wsdl}`);
      }
      let request: SoapRequest | undefined;
      const handOver: HandOver = { handOver: (written) => (request = written) };
      await method.call(loaded, args, { ...handOver }).catch((error: unknown) => {
        if (!(error instanceof EnvelopeHandedOver)) throw error;
      });
      if (!request) throw new Error(`soap wrote no envelope for ${operation}`);
      return request;
    },
  };
}
