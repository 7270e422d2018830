import { RequestReadError, asmxContentType, asmxEnvelope, asmxFault, fieldReader } from "./asmx.js";
import type { FieldReader, HeaderInfo, SoapVersion } from "./asmx.js";
import type { XmlElement } from "./xml.js";
import type { Environment } from "../state.js";
import { arIsoMicros } from "../time.js";
import type { HandlerResult, World } from "../world.js";

export interface OpContext {
  readonly world: World;
  /** The operation element, or undefined when the body did not carry it (ASMX reads nulls). */
  readonly body: XmlElement | undefined;
  readonly r: FieldReader;
  readonly now: number;
}

/**
 * What a request holds while the service processes it, from arrival to answer (fault latency
 * included): `refused` answers it with `inner` when another request already holds the same.
 */
export type Admission = { kind: "admitted"; release(): void } | { kind: "refused"; inner: string };

export interface AsmxService {
  readonly ns: string;
  /** FEHeaderInfo as each environment's servers write it; `fecha` is the simulated clock. */
  readonly header: {
    readonly ambiente: Readonly<Record<Environment, string>>;
    readonly id: string;
  };
  readonly operations: Readonly<Record<string, (ctx: OpContext) => string>>;
  /** The operation's result carrying one infrastructure error (fault mode error-501). */
  errorResult(op: string, code: number, message: string): string;
  /** Admits a request on arrival; undefined for requests that hold nothing. */
  admit?(world: World, op: string, body: XmlElement | undefined): Admission | undefined;
}

/** FEDummy/FEXDummy's result; fault mode error-501 reports the database as down. */
export function dummyResult(dbServer: "OK" | "ERROR"): string {
  return `<AppServer>OK</AppServer><DbServer>${dbServer}</DbServer><AuthServer>OK</AuthServer>`;
}

function wrap(ns: string, op: string, inner: string): string {
  return `<${op}Response xmlns="${ns}"><${op}Result>${inner}</${op}Result></${op}Response>`;
}

export function asmxOk(
  world: World,
  service: AsmxService,
  version: SoapVersion,
  op: string,
  inner: string,
): HandlerResult {
  const header: HeaderInfo = {
    ambiente: service.header.ambiente[world.environment],
    fecha: arIsoMicros(world.now()),
    id: service.header.id,
  };
  return {
    status: 200,
    contentType: asmxContentType(version),
    body: asmxEnvelope(version, service.ns, header, wrap(service.ns, op, inner)),
  };
}

export function asmxFaultResult(version: SoapVersion, message: string): HandlerResult {
  return { status: 500, contentType: asmxContentType(version), body: asmxFault(version, message) };
}

export function runAsmx(
  world: World,
  service: AsmxService,
  version: SoapVersion,
  op: string,
  body: XmlElement | undefined,
): HandlerResult {
  const handler = service.operations[op];
  if (handler === undefined) {
    return asmxFaultResult(
      version,
      `Server did not recognize the value of HTTP Header SOAPAction: ${service.ns}${op}.`,
    );
  }
  try {
    const inner = handler({ world, body, r: fieldReader(service.ns), now: world.now() });
    return asmxOk(world, service, version, op, inner);
  } catch (error) {
    if (error instanceof RequestReadError) return asmxFaultResult(version, error.message);
    return {
      status: 500,
      contentType: asmxContentType(version),
      body: asmxFault(
        version,
        `Server was unable to process request. ---> ${error instanceof Error ? error.message : "?"}`,
        true,
      ),
    };
  }
}
