import { FE_NS, arToday, asmx, authXml, resultOf } from "./helpers.js";
import type { Ta } from "./helpers.js";

/** FECAEDetRequest fields by name; undefined in an override drops the field. */
export interface Det {
  [k: string]: string | undefined;
}

/** FECAEDetRequest's WSDL order. */
const DET_ORDER = [
  "Concepto",
  "DocTipo",
  "DocNro",
  "CbteDesde",
  "CbteHasta",
  "CbteFch",
  "ImpTotal",
  "ImpTotConc",
  "ImpNeto",
  "ImpOpEx",
  "ImpTrib",
  "ImpIVA",
  "FchServDesde",
  "FchServHasta",
  "FchVtoPago",
  "MonId",
  "MonCotiz",
  "CanMisMonExt",
  "CondicionIVAReceptorId",
  "CbtesAsoc",
  "Tributos",
  "Iva",
  "Opcionales",
  "Compradores",
  "PeriodoAsoc",
  "Actividades",
];

export const RECORDED_RECEIVER = "30000000007";

/** A recorded valid request, with today's date; override or drop (undefined) fields. */
export function detail(nro: number, over: Det = {}): string {
  const base: Det = {
    Concepto: "1",
    DocTipo: "80",
    DocNro: RECORDED_RECEIVER,
    CbteDesde: String(nro),
    CbteHasta: String(nro),
    CbteFch: arToday(),
    ImpTotal: "122.00",
    ImpTotConc: "0",
    ImpNeto: "100",
    ImpOpEx: "0",
    ImpTrib: "1",
    ImpIVA: "21",
    MonId: "PES",
    MonCotiz: "1.000",
    CondicionIVAReceptorId: "1",
    Tributos:
      "<Tributo><Id>99</Id><Desc>Impuesto Municipal Matanza</Desc><BaseImp>100</BaseImp><Alic>1</Alic><Importe>1</Importe></Tributo>",
    Iva: "<AlicIva><Id>5</Id><BaseImp>100</BaseImp><Importe>21</Importe></AlicIva>",
  };
  const merged: Det = { ...base, ...over };
  for (const k of Object.keys(over)) if (over[k] === undefined) delete merged[k];
  return `<FECAEDetRequest>${DET_ORDER.filter((k) => merged[k] !== undefined)
    .map((k) => `<${k}>${merged[k]}</${k}>`)
    .join("")}</FECAEDetRequest>`;
}

export function errXml(code: number, msg: string): string {
  return `<Errors><Err><Code>${code}</Code><Msg>${msg}</Msg></Err></Errors>`;
}

/** The Obs codes of an answer, in order. */
export function obsCodes(text: string): number[] {
  return [...text.matchAll(/<Obs><Code>(\d+)<\/Code>/g)].map((m) => Number(m[1]));
}

export function plusDays(yyyymmdd: string, days: number): string {
  const d = new Date(
    Date.UTC(
      Number(yyyymmdd.slice(0, 4)),
      Number(yyyymmdd.slice(4, 6)) - 1,
      Number(yyyymmdd.slice(6)),
    ),
  );
  return new Date(d.getTime() + days * 86_400_000).toISOString().slice(0, 10).replace(/-/g, "");
}

/** FECAESolicitar, FECompUltimoAutorizado and FECompConsultar for one issuer and its TA. */
export interface FeCalls {
  solicitar(ptoVta: number, cbteTipo: number, dets: string[], cantReg?: number): Promise<string>;
  ultimo(ptoVta: number, cbteTipo: number): Promise<string>;
  consultar(ptoVta: number, cbteTipo: number, nro: number): Promise<string>;
  call(op: string, inner?: string): Promise<string>;
}

export function feCalls(url: string, ta: Ta, cuit: string): FeCalls {
  const call = async (op: string, inner = ""): Promise<string> =>
    resultOf((await asmx(url, FE_NS, op, `${authXml(ta, cuit)}${inner}`)).text, op);
  return {
    call,
    solicitar: (ptoVta, cbteTipo, dets, cantReg = dets.length) =>
      call(
        "FECAESolicitar",
        `<FeCAEReq><FeCabReq><CantReg>${cantReg}</CantReg><PtoVta>${ptoVta}</PtoVta>` +
          `<CbteTipo>${cbteTipo}</CbteTipo></FeCabReq><FeDetReq>${dets.join("")}</FeDetReq></FeCAEReq>`,
      ),
    ultimo: (ptoVta, cbteTipo) =>
      call("FECompUltimoAutorizado", `<PtoVta>${ptoVta}</PtoVta><CbteTipo>${cbteTipo}</CbteTipo>`),
    consultar: (ptoVta, cbteTipo, nro) =>
      call(
        "FECompConsultar",
        `<FeCompConsReq><CbteTipo>${cbteTipo}</CbteTipo><CbteNro>${nro}</CbteNro><PtoVta>${ptoVta}</PtoVta></FeCompConsReq>`,
      ),
  };
}
