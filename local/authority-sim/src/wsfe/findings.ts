import type {
  AlicIva,
  CbteAsoc,
  Comprador,
  FeDetailFields,
  FeVoucher,
  Opcional,
  Pair,
  PeriodoAsoc,
  Person,
  Tributo,
} from "../state.js";

/** A FECAEDetRequest as read: these fields are undefined when the request left them out. */
export interface DetailInput extends FeDetailFields {
  cbteFch: string | undefined;
  monCotiz: number | undefined;
  condicionIvaReceptorId: number | undefined;
  cbtesAsoc: CbteAsoc[] | undefined;
  tributos: Tributo[] | undefined;
  iva: AlicIva[] | undefined;
  opcionales: Opcional[] | undefined;
  compradores: Comprador[] | undefined;
  periodoAsoc: PeriodoAsoc | undefined;
  actividades: number[] | undefined;
}

/** What the authority knows besides the request: its registry, rates and earlier vouchers. */
export interface Knowledge {
  person(cuit: string): Person | undefined;
  /** The rate FEParamGetCotizacion publishes; undefined for a currency without one. */
  officialRate(monId: string): number | undefined;
  voucher(cuit: string, ptoVta: number, cbteTipo: number, nro: number): FeVoucher | undefined;
  /** The point of sale is declared for web-service (electronic) issuance. */
  electronicPos(cuit: string, ptoVta: number): boolean;
}

/** One detail under judgement: the issuer, the series' type, the dates and what is known. */
export interface DetailCheck {
  cuit: string;
  cbteTipo: number;
  /** yyyymmdd in Argentina when the request arrived (N in the manual's windows). */
  today: string;
  /** The voucher date: CbteFch, or today when it was left out. */
  fch: string;
  detail: DetailInput;
  known: Knowledge;
}

/** One Obs of the detail's answer; `rejects` false is an observation that comes with the CAE. */
export interface Finding extends Pair {
  rejects: boolean;
}

/** Collects a detail's Obs in the order the rules run, as the answer lists them. */
export interface Findings {
  reject(code: number, msg: string): void;
  observe(code: number, msg: string): void;
  readonly list: readonly Finding[];
}

export function findings(): Findings {
  const list: Finding[] = [];
  return {
    reject: (code, msg) => list.push({ code, msg, rejects: true }),
    observe: (code, msg) => list.push({ code, msg, rejects: false }),
    list,
  };
}
