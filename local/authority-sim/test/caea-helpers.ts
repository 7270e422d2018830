import * as soap from "soap";
import { startSimulator } from "../src/index.js";
import type { ControlClient, Simulator } from "../src/index.js";
import {
  makeControlClient,
  makeIdentity,
  makeTra,
  parseTa,
  postLogin,
  signCms,
  soapCall,
} from "./helpers.js";
import type { Identity, Ta } from "./helpers.js";
import { RECORDED_RECEIVER } from "./fe-helpers.js";

/** A simulator for the CAEA tests: two issuers, their points of sale, a `soap` client on its WSDL. */

export const ENV = "homologacion";
export const ISSUER = "20111111112";
export const OTHER = "20222222223";
export const CAEA_POS = 10;
export const QUIET_POS = 11;
export const CAE_POS = 3;

export type Obj = Record<string, unknown>;

export const errCodes = (result: Obj): number[] => {
  const errs = (result["Errors"] as { Err?: { Code: number }[] } | undefined)?.Err ?? [];
  return errs.map((e) => Number(e.Code));
};

/** A class A voucher of the recorded request's receiver, in FECAEADetRequest's WSDL order. */
export function caeaDet(nro: number, caea: string | undefined, over: Obj = {}): Obj {
  const base: Obj = {
    Concepto: 1,
    DocTipo: 80,
    DocNro: RECORDED_RECEIVER,
    CbteDesde: nro,
    CbteHasta: nro,
    CbteFch: "20270305",
    ImpTotal: 121,
    ImpTotConc: 0,
    ImpNeto: 100,
    ImpOpEx: 0,
    ImpTrib: 0,
    ImpIVA: 21,
    MonId: "PES",
    MonCotiz: 1,
    CondicionIVAReceptorId: 1,
    Iva: { AlicIva: [{ Id: 5, BaseImp: 100, Importe: 21 }] },
    CAEA: caea,
    CbteFchHsGen: "20270305101500",
  };
  const merged: Obj = { ...base, ...over };
  for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k];
  return merged;
}

export function detOf(result: Obj, i = 0): Obj {
  const list = (result["FeDetResp"] as { FECAEADetResponse: Obj[] }).FECAEADetResponse;
  return list[i] as Obj;
}

export const obsCodes = (det: Obj): number[] =>
  ((det["Observaciones"] as { Obs?: { Code: number }[] } | undefined)?.Obs ?? []).map((o) =>
    Number(o.Code),
  );

export class CaeaSim {
  ta!: Ta;
  otherTa!: Ta;

  private constructor(
    readonly sim: Simulator,
    readonly control: ControlClient,
    readonly client: soap.Client,
    private readonly issuer: Identity,
    private readonly other: Identity,
  ) {}

  /** ISSUER with CAEA points 10 and 11 and CAE point 3; OTHER with CAEA point 1. */
  static async start(): Promise<CaeaSim> {
    const sim = await startSimulator({ port: 0 });
    const control = makeControlClient(sim.url);
    await control.settings(ENV, { enforceSingleTa: false });
    const issuer = await makeIdentity(control, ENV, ISSUER, "caea", ["wsfe"]);
    const other = await makeIdentity(control, ENV, OTHER, "caea-otro", ["wsfe"]);
    await control.enablePointOfSale(ENV, { cuit: ISSUER, ptoVta: CAEA_POS, emisionTipo: "CAEA" });
    await control.enablePointOfSale(ENV, { cuit: ISSUER, ptoVta: QUIET_POS, emisionTipo: "CAEA" });
    await control.enablePointOfSale(ENV, { cuit: ISSUER, ptoVta: CAE_POS });
    await control.enablePointOfSale(ENV, { cuit: OTHER, ptoVta: 1, emisionTipo: "CAEA" });
    const client = await soap.createClientAsync(`${sim.endpoints(ENV).wsfe}?WSDL`);
    return new CaeaSim(sim, control, client, issuer, other);
  }

  /** Noon in Argentina on a yyyy-mm-dd, as the simulated clock; fresh TAs for that moment. */
  async at(day: string): Promise<void> {
    const target = Date.parse(`${day}T12:00:00-03:00`);
    await this.control.settings(ENV, { clockOffsetMs: target - Date.now() });
    const tra = makeTra("wsfe", { genMs: target - 600_000, expMs: target + 600_000 });
    this.ta = parseTa((await postLogin(this.sim, ENV, signCms(this.issuer, tra))).text);
    this.otherTa = parseTa((await postLogin(this.sim, ENV, signCms(this.other, tra))).text);
  }

  /** An operation's Result, by default ISSUER's. */
  async op(name: string, args: Obj, t: Ta = this.ta, cuit = ISSUER): Promise<Obj> {
    const auth = { Token: t.token, Sign: t.sign, Cuit: cuit };
    const out = (await soapCall(this.client, name, { Auth: auth, ...args })) as Obj;
    return out[`${name}Result`] as Obj;
  }

  informar(dets: Obj[], pto = CAEA_POS, tipo = 1, t: Ta = this.ta, cuit = ISSUER): Promise<Obj> {
    return this.op(
      "FECAEARegInformativo",
      {
        FeCAEARegInfReq: {
          FeCabReq: { CantReg: dets.length, PtoVta: pto, CbteTipo: tipo },
          FeDetReq: { FECAEADetRequest: dets },
        },
      },
      t,
      cuit,
    );
  }

  close(): Promise<void> {
    return this.sim.close();
  }
}
