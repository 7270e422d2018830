import {
  classifyAsmxErr,
  describeTransportFailure,
  makeAsmxClient,
  withAccessTicket,
  xmlChild,
  xmlElement,
  xmlList,
  xmlString,
  type AccessTicket,
  type AccessTicketCache,
  type AsmxClient,
  type AsmxErr,
  type AsmxErrCodes,
  type AsmxErrContext,
  type TicketedAttempt,
  type XmlObject,
} from "@pasarela/authority";
import type { Environment } from "@pasarela/contracts";
import { fail, ok, type AppError, type Result } from "@pasarela/errors";
import { amountNumber, decimalText } from "../domain/amount.js";
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
  /** FEParamGetCotizacion for today. */
  cotizacion: (caller: WsfeCaller, moneda: string) => Promise<Result<Cotizacion>>;
}

const WSFE_CODES: AsmxErrCodes = {
  service: "wsfe",
  // every ValidacionDeToken problem, the represented CUIT outside the relations included
  token: 600,
  // 601: the represented CUIT is not in the token (authority-ws.md §3.8), whatever the text
  notDelegated: new Set([601]),
  // 11002 (FECompUltimoAutorizado), 10005 (FECAESolicitar), 10104 (FECompConsultar)
  pointOfSale: new Set([11002, 10005, 10104]),
  // errors that name something in the request
  caller: new Set([11000, 11001, 10200, 10201, 10202, 10244, 12000, 12001, 12002, 10006, 10007]),
};
const NOT_FOUND = 602;

/** The first `Errors/Err` of a result, if any. */
function firstError(result: XmlObject): AsmxErr | undefined {
  const err = xmlList(xmlChild(result, "Errors"), "Err")[0];
  if (!err) return undefined;
  const code = Number(xmlString(err, "Code"));
  return { code: Number.isFinite(code) ? code : -1, message: xmlString(err, "Msg") ?? "" };
}

/** Spec §7.2 for WSFEv1 answers: its own codes, read as every ASMX service's are. */
export function classifyWsfeError<T>(err: AsmxErr, context: AsmxErrContext): TicketedAttempt<T> {
  return classifyAsmxErr<T>(WSFE_CODES, err, context);
}

const auth = (ticket: AccessTicket) =>
  `<Auth>${xmlElement("Token", ticket.token)}${xmlElement("Sign", ticket.sign)}${xmlElement("Cuit", ticket.cuit)}</Auth>`;

function intOf(value: string | undefined): number | undefined {
  return value !== undefined && /^\s*-?\d+\s*$/.test(value) ? Number(value) : undefined;
}

const unreadable = (what: string): AppError =>
  describeTransportFailure("WSFE", { kind: "unreadable", message: what });

function readComprobante(resultGet: XmlObject): Result<AuthorityComprobante> {
  const cbteDesde = intOf(xmlString(resultGet, "CbteDesde"));
  const cbteHasta = intOf(xmlString(resultGet, "CbteHasta"));
  const impTotal = decimalText(xmlString(resultGet, "ImpTotal"));
  const impNeto = decimalText(xmlString(resultGet, "ImpNeto"));
  const impIVA = decimalText(xmlString(resultGet, "ImpIVA"));
  if (
    cbteDesde === undefined ||
    cbteHasta === undefined ||
    impTotal === undefined ||
    impNeto === undefined ||
    impIVA === undefined
  ) {
    return fail(unreadable("FECompConsultar sin números de comprobante o importes"));
  }
  return ok({
    codAutorizacion: xmlString(resultGet, "CodAutorizacion") ?? "",
    resultado: xmlString(resultGet, "Resultado") ?? "",
    cbteDesde,
    cbteHasta,
    cbteFch: xmlString(resultGet, "CbteFch") ?? "",
    impTotal,
    impNeto,
    impIVA,
  });
}

function textRow(row: XmlObject): AuthorityRow {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(row)) if (typeof value === "string") out[name] = value;
  return out;
}

export function makeWsfeAdapter(deps: {
  urls: Readonly<Record<Environment, string>>;
  timeoutMs: number;
  tickets: AccessTicketCache;
  fetch?: typeof fetch;
}): WsfeAdapter {
  const client = (endpoint: string): AsmxClient =>
    makeAsmxClient({
      endpoint,
      namespace: WSFE_NAMESPACE,
      timeoutMs: deps.timeoutMs,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
  const clients: Record<Environment, AsmxClient> = {
    homologacion: client(deps.urls.homologacion),
    produccion: client(deps.urls.produccion),
  };

  /**
   * One operation with the cached TA: transport failures are 502s; an `Errors/Err` is
   * classified, unless `read` makes a value of it (602 "no data" for lookups).
   */
  function run<T>(
    caller: WsfeCaller,
    operation: string,
    body: string,
    read: (result: XmlObject, err: AsmxErr | undefined) => Result<T> | undefined,
    ptoVta?: number,
  ): Promise<Result<T>> {
    const { accountId, cuit, environment, deadline } = caller;
    return withAccessTicket(
      deps.tickets,
      { accountId, cuit, environment, service: "wsfe", deadline },
      async (ticket, timeoutMs): Promise<TicketedAttempt<T>> => {
        const outcome = await clients[environment].call(
          operation,
          `${auth(ticket)}${body}`,
          timeoutMs,
        );
        if (!outcome.ok) {
          return { kind: "done", result: fail(describeTransportFailure("WSFE", outcome.failure)) };
        }
        const err = firstError(outcome.result);
        const value = read(outcome.result, err);
        if (value !== undefined) return { kind: "done", result: value };
        return classifyWsfeError<T>(err ?? { code: -1, message: "respuesta sin resultado" }, {
          cuit,
          environment,
          ptoVta,
          token: ticket.token,
        });
      },
    );
  }

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
  };
}
