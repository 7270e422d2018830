import {
  cannotLandAnyMore,
  classifyAsmxErr,
  describeTransportFailure,
  makeAsmxService,
  xmlChild,
  xmlElement,
  xmlList,
  xmlString,
  type AccessTicketCache,
  type AsmxErr,
  type AsmxErrCodes,
  type AsmxErrContext,
  type AsmxService,
  type TicketedAttempt,
  type XmlObject,
} from "@pasarela/authority";
import type { Environment } from "@pasarela/contracts";
import {
  appError,
  authorityUnavailable,
  fail,
  ok,
  type AppError,
  type Result,
} from "@pasarela/errors";
import { amountNumber, decimalText } from "../domain/amount.js";
import {
  auth,
  detalleXml,
  intOf,
  messagesOf,
  readComprobante,
  readDetalles,
  textRow,
  unreadable,
} from "./wsfe-xml.js";

export { detalleXml } from "./wsfe-xml.js";
import type { AuthorityMessage, CaeDetalleRespuesta } from "../domain/cae-answer.js";
import type { FECAEDetRequest } from "../domain/issuance/index.js";
import type { AuthorityComprobante } from "../domain/comprobante.js";
import type { AuthorityRow } from "../domain/parametros.js";

const WSFE_NAMESPACE = "http://ar.gov.afip.dif.FEV1/";

/** Who the call is for: the account (header), the represented CUIT and the environment. */
export interface WsfeCaller {
  readonly accountId: string;
  readonly cuit: string;
  readonly environment: Environment;
  /** the API call's deadline (HandlerContext.deadline): the ticket and the call end before it */
  readonly deadline?: number | undefined;
}

export interface Cotizacion {
  readonly moneda: string;
  readonly cotizacion: number;
  readonly fecha: string;
}

export interface WsfeAdapter {
  /** FECompUltimoAutorizado: the last authorized number (0 when none yet). */
  ultimoAutorizado: (
    caller: WsfeCaller,
    query: { ptoVta: number; cbteTipo: number },
  ) => Promise<Result<number>>;
  /** FECompConsultar: the voucher, or undefined when the authority has none (602). */
  consultar: (
    caller: WsfeCaller,
    query: { ptoVta: number; cbteTipo: number; cbteNro: number },
  ) => Promise<Result<AuthorityComprobante | undefined>>;
  /** An FEParamGet* list: the rows of `row` inside ResultGet; none (602) is an empty list. */
  parametros: (
    caller: WsfeCaller,
    operation: string,
    row: string,
  ) => Promise<Result<AuthorityRow[]>>;
  /** FECompTotXRequest: the most details one FECAESolicitar may carry (RegXReq). */
  totXRequest: (caller: WsfeCaller) => Promise<Result<number>>;
  /** FEParamGetCotizacion for today. */
  cotizacion: (caller: WsfeCaller, moneda: string) => Promise<Result<Cotizacion>>;
  /**
   * FECAESolicitar: one header (the series) and its details, numbers included. Never fails:
   * what became of the request is the outcome, because after sending only the authority's
   * answer can say whether a voucher was issued. `mayStart` is asked right before the request
   * leaves (after the access ticket is at hand): false refuses it unsent.
   */
  solicitar: (
    caller: WsfeCaller,
    request: { ptoVta: number; cbteTipo: number; detalles: readonly FECAEDetRequest[] },
    options?: { mayStart?: () => boolean },
  ) => Promise<CaeOutcome>;
}

/**
 * What one FECAESolicitar came to:
 * - judged: the authority answered with its header; each detail has its own Resultado (A with
 *   a CAE, or R), `errores` are the header-level `Errors` (10016 among them);
 * - refused: the authority did not judge the request (the TA refused, Auth malformed, the
 *   ticket not obtained), or it was never sent: nothing was issued;
 * - unknown: sent without a usable answer (timeout, dropped connection, HTTP 5xx, SOAP fault,
 *   unreadable, 501/502 internal errors): it may have been authorized, only reconciliation
 *   can tell. `over` (true) says this request can no longer reach the authority: something came
 *   back from it, or the whole AUTHORITY_TIMEOUT_MS passed since it left (a request is taken
 *   to land within that time or never). A dropped connection or a wait cut short by the
 *   deadline leaves it possibly still on its way.
 */
export type CaeOutcome =
  | {
      readonly kind: "judged";
      readonly resultado: string;
      readonly detalles: readonly CaeDetalleRespuesta[];
      readonly errores: readonly AuthorityMessage[];
      readonly eventos: readonly AuthorityMessage[];
    }
  | { readonly kind: "refused"; readonly error: AppError }
  | { readonly kind: "unknown"; readonly error: AppError; readonly over?: boolean };

const WSFE_CODES: AsmxErrCodes = {
  service: "wsfe",
  // every ValidacionDeToken problem, the represented CUIT outside the relations included
  token: 600,
  // 601: the represented CUIT is not in the token, whatever the text
  notDelegated: new Set([601]),
  // 11002 (FECompUltimoAutorizado), 10005 (FECAESolicitar), 10104 (FECompConsultar)
  pointOfSale: new Set([11002, 10005, 10104]),
  // errors that name something in the request
  caller: new Set([11000, 11001, 10200, 10201, 10202, 10244, 12000, 12001, 12002, 10006, 10007]),
};
const NOT_FOUND = 602;
/**
 * The authority's own failures: internal error, database error,
 * "Transacción Activa". On FECAESolicitar they prove nothing about the voucher.
 */
const INTERNAL_ERRORS: ReadonlySet<number> = new Set([500, 501, 502]);

/** The first `Errors/Err` of a result, if any. */
function firstError(result: XmlObject): AsmxErr | undefined {
  const err = xmlList(xmlChild(result, "Errors"), "Err")[0];
  if (!err) return undefined;
  const code = Number(xmlString(err, "Code"));
  return { code: Number.isFinite(code) ? code : -1, message: xmlString(err, "Msg") ?? "" };
}

/** for WSFEv1 answers: its own codes, read as every ASMX service's are. */
export function classifyWsfeError<T>(err: AsmxErr, context: AsmxErrContext): TicketedAttempt<T> {
  return classifyAsmxErr<T>(WSFE_CODES, err, context);
}

/** A FECAESolicitar the writer no longer had the right to send (its lease ran down). */
const notStarted = appError("SERVICE_UNAVAILABLE", { reason: "series lease lost before sending" });

/** What a WSFEv1 adapter is made with: the endpoints, the time budget and the TA cache. */
export interface WsfeAdapterDeps {
  urls: Readonly<Record<Environment, string>>;
  timeoutMs: number;
  tickets: AccessTicketCache;
  fetch?: typeof fetch;
}

/** One WSFEv1 operation's answer as a value, or undefined to classify its `Errors/Err`. */
export type WsfeRead<T> = (result: XmlObject, err: AsmxErr | undefined) => Result<T> | undefined;

/**
 * One operation with the cached TA: transport failures are 502s; an `Errors/Err` is
 * classified, unless `read` makes a value of it (602 "no data" for lookups).
 */
export type WsfeRun = <T>(
  caller: WsfeCaller,
  operation: string,
  body: string,
  read: WsfeRead<T>,
  ptoVta?: number,
) => Promise<Result<T>>;

/** The WSFEv1 service every adapter of it calls through (this one, and the CAEA's). */
export function makeWsfeRun(deps: WsfeAdapterDeps): WsfeRun & { service: AsmxService } {
  const service = makeAsmxService({
    codes: WSFE_CODES,
    namespace: WSFE_NAMESPACE,
    errorOf: firstError,
    urls: deps.urls,
    timeoutMs: deps.timeoutMs,
    tickets: deps.tickets,
    fetch: deps.fetch,
  });
  const run = <T>(
    caller: WsfeCaller,
    operation: string,
    body: string,
    read: WsfeRead<T>,
    ptoVta?: number,
  ) =>
    service.call(caller, {
      operation,
      body: (ticket) => `${auth(ticket)}${body}`,
      read,
      ptoVta,
    });
  return Object.assign(run, { service });
}

export function makeWsfeAdapter(deps: WsfeAdapterDeps): WsfeAdapter {
  const run = makeWsfeRun(deps);
  const wsfe = run.service;

  return {
    ultimoAutorizado(caller, { ptoVta, cbteTipo }) {
      return run(
        caller,
        "FECompUltimoAutorizado",
        `${xmlElement("PtoVta", ptoVta)}${xmlElement("CbteTipo", cbteTipo)}`,
        (result, err) => {
          if (err) return undefined;
          const cbteNro = intOf(xmlString(result, "CbteNro"));
          return cbteNro === undefined ? fail(unreadable("CbteNro ausente")) : ok(cbteNro);
        },
        ptoVta,
      );
    },
    consultar(caller, { ptoVta, cbteTipo, cbteNro }) {
      return run<AuthorityComprobante | undefined>(
        caller,
        "FECompConsultar",
        `<FeCompConsReq>${xmlElement("CbteTipo", cbteTipo)}${xmlElement("CbteNro", cbteNro)}${xmlElement("PtoVta", ptoVta)}</FeCompConsReq>`,
        (result, err) => {
          if (err?.code === NOT_FOUND) return ok(undefined);
          if (err) return undefined;
          const resultGet = xmlChild(result, "ResultGet");
          return resultGet ? readComprobante(resultGet) : fail(unreadable("ResultGet ausente"));
        },
        ptoVta,
      );
    },
    parametros(caller, operation, row) {
      return run<AuthorityRow[]>(caller, operation, "", (result, err) => {
        if (err?.code === NOT_FOUND) return ok([]);
        if (err) return undefined;
        return ok(xmlList(xmlChild(result, "ResultGet"), row).map(textRow));
      });
    },
    totXRequest(caller) {
      return run(caller, "FECompTotXRequest", "", (result, err) => {
        if (err) return undefined;
        const regXReq = intOf(xmlString(result, "RegXReq"));
        return regXReq === undefined || regXReq < 1
          ? fail(unreadable("RegXReq ausente"))
          : ok(regXReq);
      });
    },
    cotizacion(caller, moneda) {
      return run<Cotizacion>(
        caller,
        "FEParamGetCotizacion",
        xmlElement("MonId", moneda),
        (result, err) => {
          if (err) return undefined;
          const resultGet = xmlChild(result, "ResultGet");
          const cotizacion = decimalText(xmlString(resultGet, "MonCotiz"));
          if (!resultGet || cotizacion === undefined) {
            return fail(unreadable("FEParamGetCotizacion sin MonCotiz"));
          }
          return ok({
            moneda: xmlString(resultGet, "MonId") ?? moneda,
            cotizacion: amountNumber(cotizacion),
            fecha: xmlString(resultGet, "FchCotiz") ?? "",
          });
        },
      );
    },
    async solicitar(caller, { ptoVta, cbteTipo, detalles }, options) {
      const { cuit, environment } = caller;
      const body =
        `<FeCAEReq><FeCabReq>${xmlElement("CantReg", detalles.length)}${xmlElement("PtoVta", ptoVta)}` +
        `${xmlElement("CbteTipo", cbteTipo)}</FeCabReq>` +
        `<FeDetReq>${detalles.map(detalleXml).join("")}</FeDetReq></FeCAEReq>`;
      const unknown = (error: AppError, over = true): TicketedAttempt<CaeOutcome> => ({
        kind: "done",
        result: ok({ kind: "unknown", error, over }),
      });
      const outcome = await wsfe.run(
        caller,
        async ({ client, ticket, timeoutMs }): Promise<TicketedAttempt<CaeOutcome>> => {
          if (options?.mayStart && !options.mayStart()) {
            return { kind: "done", result: ok({ kind: "refused", error: notStarted }) };
          }
          const answer = await client.call("FECAESolicitar", `${auth(ticket)}${body}`, timeoutMs);
          if (!answer.ok) {
            return unknown(
              describeTransportFailure("WSFE", answer.failure),
              cannotLandAnyMore(answer.failure, deps.timeoutMs),
            );
          }
          const result = answer.result;
          const errores = messagesOf(result, "Errors", "Err");
          const eventos = messagesOf(result, "Events", "Evt");
          const internal = errores.find((e) => INTERNAL_ERRORS.has(e.code));
          const header = xmlChild(result, "FeCabResp");
          if (!header) {
            const err = firstError(result);
            // without a header the request was not judged: a refused TA or Auth says nothing
            // was issued, the authority's own failure says nothing at all
            if (!err) return unknown(unreadable("FECAESolicitar sin FeCabResp ni Errors"));
            const classified = classifyWsfeError<CaeOutcome>(err, {
              cuit,
              environment,
              ptoVta,
              token: ticket.token,
            });
            if (classified.kind === "stale-ticket") return classified;
            if (classified.result.ok) return classified;
            const error = classified.result.error;
            if (
              internal ||
              (error.code === "AUTHORITY_UNAVAILABLE" && err.code !== WSFE_CODES.token)
            ) {
              return unknown(error);
            }
            return { kind: "done", result: ok({ kind: "refused", error }) };
          }
          if (internal) {
            return unknown(
              authorityUnavailable(`WSFE ${internal.code}: ${internal.msg}`, {
                authorityCode: internal.code,
              }),
            );
          }
          const resultado = xmlString(header, "Resultado");
          const read = readDetalles(result);
          if (!resultado || !read || read.length !== detalles.length) {
            return unknown(unreadable("FECAESolicitar con detalles ilegibles o incompletos"));
          }
          return {
            kind: "done",
            result: ok({ kind: "judged", resultado, detalles: read, errores, eventos }),
          };
        },
      );
      // no TA, or the authority refused the fresh one as well: nothing was judged
      return outcome.ok ? outcome.value : { kind: "refused", error: outcome.error };
    },
  };
}
