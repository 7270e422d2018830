import {
  describeTransportFailure,
  xmlChild,
  xmlElement,
  xmlList,
  xmlString,
  type TicketedAttempt,
} from "@pasarela/authority";
import { fail, ok, type AppError, type Result } from "@pasarela/errors";
import type { AuthorityMessage } from "../domain/cae-answer.js";
import type { FECAEDetRequest } from "../domain/issuance/index.js";
import { auth, detalleXml, intOf, messagesOf, unreadable } from "./wsfe-xml.js";
import { classifyWsfeError, makeWsfeRun, type WsfeAdapterDeps, type WsfeCaller } from "./wsfe.js";

/** One voucher to inform: what was handed to the customer, its CAEA and when it was generated. */
export interface CaeaDetalle {
  readonly sent: FECAEDetRequest;
  readonly caea: string;
  /** yyyymmddhhmmss, Argentina */
  readonly cbteFchHsGen: string;
}

/** One `FECAEADetResponse`: the authority's verdict on one informed voucher. */
export interface CaeaDetalleRespuesta {
  readonly cbteDesde: number;
  /** A or R */
  readonly resultado: string;
  readonly observaciones: readonly AuthorityMessage[];
}

/**
 * What one FECAEARegInformativo came to, as FECAESolicitar's (see CaeOutcome): judged (each
 * detail with its Resultado, the header's `Errors`), refused unjudged (nothing was informed), or
 * unknown (sent without a usable answer: only FECompUltimoAutorizado and FECompConsultar can
 * tell what was informed).
 */
export type InformeOutcome =
  | {
      readonly kind: "judged";
      readonly resultado: string;
      readonly detalles: readonly CaeaDetalleRespuesta[];
      readonly errores: readonly AuthorityMessage[];
      readonly eventos: readonly AuthorityMessage[];
    }
  | { readonly kind: "refused"; readonly error: AppError }
  | { readonly kind: "unknown"; readonly error: AppError };

/** What FECAEASinMovimientoInformar answered: Resultado A (declared) or R with its errors. */
export interface SinMovimientoRespuesta {
  readonly resultado: string;
  readonly fchProceso: string;
  readonly errores: readonly AuthorityMessage[];
}

/**
 * What FECAEASinMovimientoConsultar says of a CAEA and point of sale: declared without
 * movement, not declared (10102), or with vouchers informed under it (10105).
 */
export type SinMovimientoEstado = "declarado" | "no_declarado" | "con_comprobantes";

export interface WsfeCaeaInformeAdapter {
  /** FECAEARegInformativo: one series' vouchers, in numbering order. Never fails. */
  informar: (
    caller: WsfeCaller,
    request: { ptoVta: number; cbteTipo: number; detalles: readonly CaeaDetalle[] },
    options?: { mayStart?: () => boolean },
  ) => Promise<InformeOutcome>;
  sinMovimientoInformar: (
    caller: WsfeCaller,
    request: { ptoVta: number; caea: string },
  ) => Promise<Result<SinMovimientoRespuesta>>;
  sinMovimientoConsultar: (
    caller: WsfeCaller,
    request: { ptoVta: number; caea: string },
  ) => Promise<Result<SinMovimientoEstado>>;
}

/** The authority's own failures: they prove nothing about what was informed. */
const INTERNAL_ERRORS: ReadonlySet<number> = new Set([500, 501, 502]);
const NO_DECLARADO = 10102;
const CON_COMPROBANTES = 10105;

/** FECAEADetRequest: FECAEDetRequest's elements in their order, then CAEA and CbteFchHsGen. */
export function caeaDetalleXml(d: CaeaDetalle): string {
  const inner = detalleXml(d.sent).slice("<FECAEDetRequest>".length, -"</FECAEDetRequest>".length);
  return (
    `<FECAEADetRequest>${inner}${xmlElement("CAEA", d.caea)}` +
    `${xmlElement("CbteFchHsGen", d.cbteFchHsGen)}</FECAEADetRequest>`
  );
}

/** The details of a FECAEARegInformativo answer, or undefined when one is unreadable. */
function readDetalles(result: Parameters<typeof xmlChild>[0]): CaeaDetalleRespuesta[] | undefined {
  const out: CaeaDetalleRespuesta[] = [];
  for (const d of xmlList(xmlChild(result, "FeDetResp"), "FECAEADetResponse")) {
    const cbteDesde = intOf(xmlString(d, "CbteDesde"));
    const resultado = xmlString(d, "Resultado")?.trim();
    if (cbteDesde === undefined || !resultado) return undefined;
    out.push({ cbteDesde, resultado, observaciones: messagesOf(d, "Observaciones", "Obs") });
  }
  return out;
}

/** WSFEv1's operations that inform what a CAEA point of sale issued, or that it issued nothing. */
export function makeWsfeCaeaInformeAdapter(deps: WsfeAdapterDeps): WsfeCaeaInformeAdapter {
  const run = makeWsfeRun(deps);
  const wsfe = run.service;
  return {
    async informar(caller, { ptoVta, cbteTipo, detalles }, options) {
      const body =
        `<FeCAEARegInfReq><FeCabReq>${xmlElement("CantReg", detalles.length)}` +
        `${xmlElement("PtoVta", ptoVta)}${xmlElement("CbteTipo", cbteTipo)}</FeCabReq>` +
        `<FeDetReq>${detalles.map(caeaDetalleXml).join("")}</FeDetReq></FeCAEARegInfReq>`;
      const unknown = (error: AppError): TicketedAttempt<InformeOutcome> => ({
        kind: "done",
        result: ok({ kind: "unknown", error }),
      });
      const outcome = await wsfe.run(
        caller,
        async ({ client, ticket, timeoutMs }): Promise<TicketedAttempt<InformeOutcome>> => {
          if (options?.mayStart && !options.mayStart()) {
            return {
              kind: "done",
              result: ok({
                kind: "refused",
                error: unreadable("el lease de la serie se perdió antes de informar"),
              }),
            };
          }
          const answer = await client.call(
            "FECAEARegInformativo",
            `${auth(ticket)}${body}`,
            timeoutMs,
          );
          // whether it could still land makes no difference here: informing a voucher twice is
          // refused (its number is no longer the next), so the next attempt reconciles
          if (!answer.ok) return unknown(describeTransportFailure("WSFE", answer.failure));
          const result = answer.result;
          const errores = messagesOf(result, "Errors", "Err");
          const eventos = messagesOf(result, "Events", "Evt");
          const internal = errores.find((e) => INTERNAL_ERRORS.has(e.code));
          const header = xmlChild(result, "FeCabResp");
          if (!header) {
            const first = errores[0];
            if (!first) return unknown(unreadable("FECAEARegInformativo sin FeCabResp ni Errors"));
            if (internal) return unknown(unreadable(`WSFE ${internal.code}: ${internal.msg}`));
            const classified = classifyWsfeError<InformeOutcome>(
              { code: first.code, message: first.msg },
              { cuit: caller.cuit, environment: caller.environment, ptoVta, token: ticket.token },
            );
            if (classified.kind === "stale-ticket") return classified;
            if (classified.result.ok) return classified;
            return {
              kind: "done",
              result: ok({ kind: "refused", error: classified.result.error }),
            };
          }
          if (internal) return unknown(unreadable(`WSFE ${internal.code}: ${internal.msg}`));
          const resultado = xmlString(header, "Resultado")?.trim();
          const read = readDetalles(result);
          if (!resultado || !read || read.length !== detalles.length) {
            return unknown(unreadable("FECAEARegInformativo con detalles ilegibles o incompletos"));
          }
          return {
            kind: "done",
            result: ok({ kind: "judged", resultado, detalles: read, errores, eventos }),
          };
        },
      );
      return outcome.ok ? outcome.value : { kind: "refused", error: outcome.error };
    },

    sinMovimientoInformar(caller, { ptoVta, caea }) {
      return run<SinMovimientoRespuesta>(
        caller,
        "FECAEASinMovimientoInformar",
        `${xmlElement("PtoVta", ptoVta)}${xmlElement("CAEA", caea)}`,
        (result, err) => {
          const resultado = xmlString(result, "Resultado")?.trim();
          if (!resultado) return err ? undefined : fail(unreadable("Resultado ausente"));
          if (err && INTERNAL_ERRORS.has(err.code)) return undefined;
          return ok({
            resultado,
            fchProceso: xmlString(result, "FchProceso")?.trim() ?? "",
            errores: messagesOf(result, "Errors", "Err"),
          });
        },
        ptoVta,
      );
    },

    sinMovimientoConsultar(caller, { ptoVta, caea }) {
      return run<SinMovimientoEstado>(
        caller,
        "FECAEASinMovimientoConsultar",
        `${xmlElement("CAEA", caea)}${xmlElement("PtoVta", ptoVta)}`,
        (result, err) => {
          if (err?.code === NO_DECLARADO) return ok("no_declarado");
          if (err?.code === CON_COMPROBANTES) return ok("con_comprobantes");
          if (err) return undefined;
          const found = xmlList(xmlChild(result, "ResultGet"), "FECAEASinMov").some(
            (s) => intOf(xmlString(s, "PtoVta")) === ptoVta,
          );
          return ok(found ? "declarado" : "no_declarado");
        },
        ptoVta,
      );
    },
  };
}
