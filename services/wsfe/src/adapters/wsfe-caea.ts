import { xmlChild, xmlElement, xmlString, type XmlObject } from "@pasarela/authority";
import { fail, ok, type Result } from "@pasarela/errors";
import { intOf, unreadable } from "./wsfe-xml.js";
import { makeWsfeRun, type WsfeAdapterDeps, type WsfeCaller } from "./wsfe.js";

/** A CAEA as the authority granted it for one fortnight. */
export interface CaeaOtorgado {
  readonly caea: string;
  /** yyyymm */
  readonly periodo: number;
  readonly orden: 1 | 2;
  /** yyyymmdd: the fortnight it covers */
  readonly fchVigDesde: string;
  readonly fchVigHasta: string;
  /** yyyymmdd: the last day to inform the vouchers issued under it */
  readonly fchTopeInf: string;
  readonly fchProceso: string;
}

/**
 * What asking for a fortnight's CAEA came to: granted now, already granted before (15008:
 * FECAEAConsultar answers it), or asked outside the fortnight's window (15006, with the
 * authority's text naming the window).
 */
export type CaeaPedido =
  | { readonly kind: "otorgado"; readonly caea: CaeaOtorgado }
  | { readonly kind: "ya_otorgado" }
  | { readonly kind: "fuera_de_ventana"; readonly mensaje: string };

export interface WsfeCaeaAdapter {
  /** FECAEASolicitar for a fortnight. */
  solicitar: (
    caller: WsfeCaller,
    quincena: { periodo: number; orden: 1 | 2 },
  ) => Promise<Result<CaeaPedido>>;
  /** FECAEAConsultar: the fortnight's CAEA, or undefined when none was granted (602). */
  consultar: (
    caller: WsfeCaller,
    quincena: { periodo: number; orden: 1 | 2 },
  ) => Promise<Result<CaeaOtorgado | undefined>>;
}

const NOT_FOUND = 602;
/** "Fecha de envío podrá ser desde 5 días corridos anteriores al inicio …" */
const FUERA_DE_VENTANA = 15006;
/** a CAEA was already granted to the CUIT for that period and order */
const YA_OTORGADO = 15008;

const DAY = /^\d{8}$/;

/** A `ResultGet` (FECAEAGet) as a granted CAEA; undefined when a field is missing or malformed. */
function readCaea(resultGet: XmlObject | undefined): CaeaOtorgado | undefined {
  if (!resultGet) return undefined;
  const caea = xmlString(resultGet, "CAEA")?.trim() ?? "";
  const periodo = intOf(xmlString(resultGet, "Periodo"));
  const orden = intOf(xmlString(resultGet, "Orden"));
  const fchVigDesde = xmlString(resultGet, "FchVigDesde")?.trim() ?? "";
  const fchVigHasta = xmlString(resultGet, "FchVigHasta")?.trim() ?? "";
  const fchTopeInf = xmlString(resultGet, "FchTopeInf")?.trim() ?? "";
  const fchProceso = xmlString(resultGet, "FchProceso")?.trim() ?? "";
  if (
    !/^\d{14}$/.test(caea) ||
    periodo === undefined ||
    (orden !== 1 && orden !== 2) ||
    ![fchVigDesde, fchVigHasta, fchTopeInf].every((day) => DAY.test(day))
  ) {
    return undefined;
  }
  return { caea, periodo, orden, fchVigDesde, fchVigHasta, fchTopeInf, fchProceso };
}

const body = ({ periodo, orden }: { periodo: number; orden: 1 | 2 }) =>
  `${xmlElement("Periodo", periodo)}${xmlElement("Orden", orden)}`;

/** WSFEv1's CAEA operations, over the same service, TA cache and classification as the rest. */
export function makeWsfeCaeaAdapter(deps: WsfeAdapterDeps): WsfeCaeaAdapter {
  const run = makeWsfeRun(deps);
  return {
    solicitar(caller, quincena) {
      return run<CaeaPedido>(caller, "FECAEASolicitar", body(quincena), (result, err) => {
        if (err?.code === YA_OTORGADO) return ok({ kind: "ya_otorgado" });
        if (err?.code === FUERA_DE_VENTANA) {
          return ok({ kind: "fuera_de_ventana", mensaje: err.message });
        }
        if (err) return undefined;
        const caea = readCaea(xmlChild(result, "ResultGet"));
        return caea
          ? ok({ kind: "otorgado", caea })
          : fail(unreadable("FECAEASolicitar sin un CAEA legible"));
      });
    },
    consultar(caller, quincena) {
      return run<CaeaOtorgado | undefined>(
        caller,
        "FECAEAConsultar",
        body(quincena),
        (result, err) => {
          if (err?.code === NOT_FOUND) return ok(undefined);
          if (err) return undefined;
          const caea = readCaea(xmlChild(result, "ResultGet"));
          return caea ? ok(caea) : fail(unreadable("FECAEAConsultar sin un CAEA legible"));
        },
      );
    },
  };
}
