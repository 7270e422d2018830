/**
 * What every SOAP dialect's client answers when a call produced no result, before any business
 * meaning is given to it. Its own module so the Axis client (soap-client.ts), the ASMX client
 * (asmx-client.ts) and the classifiers share it without importing one another.
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
  | { readonly kind: "unreadable"; readonly message: string };

/** A fault code without its namespace prefix: `soap:Client` → `Client`, `ns1:coe.x` → `coe.x`. */
export function localName(code: string): string {
  return code.slice(code.lastIndexOf(":") + 1);
}
