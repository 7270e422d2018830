import type { AccessTicket, AccessTicketCache } from "../access-ticket-cache.js";
import { xmlChild, xmlElement, xmlString } from "../asmx-client.js";
import {
  classifyAsmxErr,
  type AsmxErr,
  type AsmxErrCodes,
  type AsmxErrContext,
} from "../asmx-errors.js";
import type { TicketedAttempt } from "../ticketed-call.js";
import { makeAsmxService } from "../ticketed-service.js";
import { describeTransportFailure } from "../transport-failure.js";
import type { XmlObject } from "../xml-reader.js";
import {
  authorizeTransportFailure,
  fexCmpXml,
  notStarted,
  readAuthorizeAnswer,
  type FexAuthorizeOutcome,
} from "./authorize.js";
import { makeWsfexParams, type WsfexParams } from "./params.js";
import type { Environment, wsfex } from "@pasarela/contracts";
import { fail, ok, type AppError, type Result } from "@pasarela/errors";

// lower-case "fexv1": the namespace differs from WSFEv1's in more than the name
const WSFEX_NAMESPACE = "http://ar.gov.afip.dif.fexv1/";

export interface WsfexCaller {
  readonly accountId: string;
  readonly cuit: string;
  readonly environment: Environment;
  /** the API call's deadline (HandlerContext.deadline): the ticket and the call end before it */
  readonly deadline?: number | undefined;
}

/** The queries, and the parameter tables (params.ts). */
export interface WsfexAdapter extends WsfexParams {
  /** FEXGetLast_CMP: the last authorized number (0 when none yet). */
  ultimoComprobante: (
    caller: WsfexCaller,
    query: { ptoVta: number; cbteTipo: number },
  ) => Promise<Result<number>>;
  /** FEXGetCMP: the `FEXGetCMPResult` as the authority sent it, or undefined (1020). */
  comprobante: (
    caller: WsfexCaller,
    query: { ptoVta: number; cbteTipo: number; cbteNro: number },
  ) => Promise<Result<XmlObject | undefined>>;
  /** FEXCheck_Permiso: the authority's `Status` text. */
  permiso: (
    caller: WsfexCaller,
    query: { idPermiso: string; dstMerc: number },
  ) => Promise<Result<string>>;
  /** FEXGetLast_ID: the highest request `Id` the authority received for the CUIT. */
  ultimoId: (caller: WsfexCaller) => Promise<Result<number>>;
  /**
   * FEXAuthorize: one export voucher, its `Id` and number included. Never fails: what became
   * of the request is the outcome, because after sending only the authority's answer can say
   * whether the voucher was issued. `mayStart` is asked right before the request leaves
   * (after the access ticket is at hand): false refuses it unsent.
   */
  authorize: (
    caller: WsfexCaller,
    cmp: wsfex.FexCmp,
    options?: { mayStart?: () => boolean },
  ) => Promise<FexAuthorizeOutcome>;
}

const WSFEX_CODES: AsmxErrCodes = {
  service: "wsfex",
  // 1000 "Usuario no autorizado ... ValidacionDeToken: ..." wraps every token problem
  token: 1000,
  // a CUIT outside the token's relations
  notDelegated: new Set([1001]),
  // not of kind FEEWS: 1607 (FEXGetLast_CMP), 1510 (FEXAuthorize)
  pointOfSale: new Set([1607, 1510]),
  // CUIT 0, types and numbers out of range
  caller: new Set([1002, 1520, 1530, 1606]),
};
const NOT_FOUND = 1020;

/** WSFEX sends one `FEXErr` per answer; ErrCode 0 is success. */
function errorOf(result: XmlObject): AsmxErr | undefined {
  const err = xmlChild(result, "FEXErr");
  if (!err) return undefined;
  const code = Number(xmlString(err, "ErrCode"));
  if (code === 0) return undefined;
  return { code: Number.isFinite(code) ? code : -1, message: xmlString(err, "ErrMsg") ?? "" };
}

/** WSFEXv1 answers to catalogue codes: its own codes, read as every ASMX service's are. */
export function classifyWsfexError<T>(err: AsmxErr, context: AsmxErrContext): TicketedAttempt<T> {
  return classifyAsmxErr<T>(WSFEX_CODES, err, context);
}

const credentials = (ticket: AccessTicket) =>
  `${xmlElement("Token", ticket.token)}${xmlElement("Sign", ticket.sign)}${xmlElement("Cuit", ticket.cuit)}`;

const unreadable = (what: string): AppError =>
  describeTransportFailure("WSFEX", { kind: "unreadable", message: what });

export function makeWsfexAdapter(deps: {
  urls: Readonly<Record<Environment, string>>;
  timeoutMs: number;
  tickets: AccessTicketCache;
  fetch?: typeof fetch;
}): WsfexAdapter {
  const wsfex = makeAsmxService({
    codes: WSFEX_CODES,
    namespace: WSFEX_NAMESPACE,
    errorOf,
    urls: deps.urls,
    timeoutMs: deps.timeoutMs,
    tickets: deps.tickets,
    fetch: deps.fetch,
  });

  function run<T>(
    caller: WsfexCaller,
    operation: string,
    body: (ticket: AccessTicket) => string,
    read: (result: XmlObject, err: AsmxErr | undefined) => Result<T> | undefined,
    ptoVta?: number,
  ): Promise<Result<T>> {
    return wsfex.call(caller, { operation, body, read, ptoVta });
  }

  return {
    ...makeWsfexParams(run, (ticket) => `<Auth>${credentials(ticket)}</Auth>`),
    ultimoComprobante(caller, { ptoVta, cbteTipo }) {
      return run(
        caller,
        "FEXGetLast_CMP",
        // ClsFEX_LastCMP: the point of sale and type travel inside Auth
        (ticket) =>
          `<Auth>${credentials(ticket)}${xmlElement("Pto_venta", ptoVta)}${xmlElement("Cbte_Tipo", cbteTipo)}</Auth>`,
        (result, err) => {
          if (err) return undefined;
          const nro = xmlString(xmlChild(result, "FEXResult_LastCMP"), "Cbte_nro");
          return nro !== undefined && /^\d+$/.test(nro.trim())
            ? ok(Number(nro))
            : fail(unreadable("FEXResult_LastCMP sin Cbte_nro"));
        },
        ptoVta,
      );
    },
    comprobante(caller, { ptoVta, cbteTipo, cbteNro }) {
      return run<XmlObject | undefined>(
        caller,
        "FEXGetCMP",
        // `Cbte_tipo` with a lower-case t in FEXGetCMP, unlike FEXAuthorize (ASMX ignores an
        // element cased otherwise)
        (ticket) =>
          `<Auth>${credentials(ticket)}</Auth><Cmp>${xmlElement("Cbte_tipo", cbteTipo)}${xmlElement("Punto_vta", ptoVta)}${xmlElement("Cbte_nro", cbteNro)}</Cmp>`,
        (result, err) => {
          if (err?.code === NOT_FOUND) return ok(undefined);
          if (err) return undefined;
          return xmlChild(result, "FEXResultGet")
            ? ok(result)
            : fail(unreadable("FEXGetCMP sin FEXResultGet"));
        },
        ptoVta,
      );
    },
    ultimoId(caller) {
      return run(
        caller,
        "FEXGetLast_ID",
        (ticket) => `<Auth>${credentials(ticket)}</Auth>`,
        (result, err) => {
          if (err) return undefined;
          const id = xmlString(xmlChild(result, "FEXResultGet"), "Id")?.trim();
          return id !== undefined && /^\d+$/.test(id)
            ? ok(Number(id))
            : fail(unreadable("FEXGetLast_ID sin Id"));
        },
      );
    },
    async authorize(caller, cmp, options) {
      const { cuit, environment } = caller;
      const outcome = await wsfex.run(
        caller,
        async ({ client, ticket, timeoutMs }): Promise<TicketedAttempt<FexAuthorizeOutcome>> => {
          if (options?.mayStart && !options.mayStart()) {
            return { kind: "done", result: ok({ kind: "refused", error: notStarted }) };
          }
          const body = `<Auth>${credentials(ticket)}</Auth>${fexCmpXml(cmp)}`;
          const answer = await client.call("FEXAuthorize", body, timeoutMs);
          if (!answer.ok) return authorizeTransportFailure(answer.failure, deps.timeoutMs);
          const err = errorOf(answer.result);
          if (err && (err.code === WSFEX_CODES.token || WSFEX_CODES.notDelegated.has(err.code))) {
            // not judged: a refused ticket is taken again once, anything else issued nothing
            const classified = classifyWsfexError<FexAuthorizeOutcome>(err, {
              cuit,
              environment,
              ptoVta: cmp.Punto_vta,
              token: ticket.token,
            });
            if (classified.kind === "stale-ticket" || classified.result.ok) return classified;
            return {
              kind: "done",
              result: ok({ kind: "refused", error: classified.result.error }),
            };
          }
          const read = readAuthorizeAnswer(answer.result, err, cmp);
          return {
            kind: "done",
            result: ok(
              read ?? {
                kind: "unknown",
                error: unreadable("FEXAuthorize sin FEXResultAuth ni FEXErr"),
                over: true,
              },
            ),
          };
        },
      );
      // no TA, or the authority refused the fresh one as well: nothing was judged
      return outcome.ok ? outcome.value : { kind: "refused", error: outcome.error };
    },
    permiso(caller, { idPermiso, dstMerc }) {
      return run(
        caller,
        "FEXCheck_Permiso",
        (ticket) =>
          `<Auth>${credentials(ticket)}</Auth>${xmlElement("ID_Permiso", idPermiso)}${xmlElement("Dst_merc", dstMerc)}`,
        (result, err) => {
          if (err) return undefined;
          const status = xmlString(xmlChild(result, "FEXResultGet"), "Status");
          return status === undefined || status === ""
            ? fail(unreadable("FEXCheck_Permiso sin Status"))
            : ok(status);
        },
      );
    },
  };
}
