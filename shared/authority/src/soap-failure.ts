/**
 * What every call to the authority answers when it produced no result, before any business
 * meaning is given to it. Its own module so the client layer (authority-client.ts), the
 * dialects' clients and the classifiers share it without importing one another.
 */
export type SoapFailure =
  | {
      readonly kind: "fault";
      readonly code: string;
      readonly message: string;
      readonly status: number;
    }
  | { readonly kind: "timeout"; readonly timeoutMs: number }
  | { readonly kind: "http"; readonly status: number }
  | { readonly kind: "network"; readonly message: string }
  /** the TLS handshake failed: the authority's certificate is not trusted or not valid */
  | { readonly kind: "tls"; readonly message: string }
  /** the answer outgrew the transport's cap and was not read */
  | { readonly kind: "too-large"; readonly limitBytes: number }
  | { readonly kind: "unreadable"; readonly message: string };

// OpenSSL's verification codes as Node names them, and Node's own TLS errors
const TLS_CODE = /^(CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_TLS_|ERR_SSL_|HOSTNAME_MISMATCH)/;

/**
 * A socket-level failure (neither a timeout nor an answer) of any client, told apart so the
 * caller reads "certificate not trusted" or "answer too large" rather than "unreachable".
 * `limitBytes` is the transport's body cap; `error` is what the transport (undici) or an injected fetch threw.
 */
export function socketFailure(error: unknown, limitBytes: number): SoapFailure {
  // fetch wraps the socket error in `cause`; undici's dispatcher throws it as is
  type Thrown = { name?: unknown; code?: unknown; message?: unknown; cause?: Thrown } | null;
  const e = error as Thrown;
  const cause: Thrown = e?.cause ?? e;
  const code = typeof cause?.code === "string" ? cause.code : "";
  const message =
    typeof cause?.message === "string"
      ? cause.message
      : error instanceof Error
        ? error.message
        : String(error);
  if (e?.name === "ResponseTooLargeError" || /maxContentLength size of/.test(message)) {
    return { kind: "too-large", limitBytes };
  }
  if (TLS_CODE.test(code)) return { kind: "tls", message: `${code}: ${message}` };
  return { kind: "network", message: code ? `${code}: ${message}` : message };
}

/** A fault code without its namespace prefix: `soap:Client` → `Client`, `ns1:coe.x` → `coe.x`. */
export function localName(code: string): string {
  return code.slice(code.lastIndexOf(":") + 1);
}
