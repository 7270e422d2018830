import * as soap from "soap";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isValidCuit, startSimulator } from "../src/index.js";
import type { ControlClient, Simulator } from "../src/index.js";
import {
  FE_NS,
  FEX_NS,
  arToday,
  asmx,
  authXml,
  login,
  makeControlClient,
  makeIdentity,
  resultOf,
  soapCall,
} from "./helpers.js";
import type { Ta } from "./helpers.js";

const CUIT = "20111111112";
/** delegated wsfex too, but with no export point of sale (only a domestic one) */
const NO_POS = "27222222228";
const OK =
  "<FEXErr><ErrCode>0</ErrCode><ErrMsg>OK</ErrMsg></FEXErr><FEXEvents><EventCode>0</EventCode><EventMsg>Ok</EventMsg></FEXEvents>";

let sim: Simulator;
let control: ControlClient;
let url: string;
let ta: Ta;
let feTa: Ta;
let noPosTa: Ta;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  control = makeControlClient(sim.url);
  url = sim.endpoints("homologacion").wsfex;
  const id = await makeIdentity(control, "homologacion", CUIT, "params", ["wsfe", "wsfex"]);
  const other = await makeIdentity(control, "homologacion", NO_POS, "nopos", ["wsfe", "wsfex"]);
  await control.enablePointOfSale("homologacion", { cuit: CUIT, ptoVta: 7, service: "wsfex" });
  await control.enablePointOfSale("homologacion", { cuit: CUIT, ptoVta: 2, service: "wsfex" });
  await control.enablePointOfSale("homologacion", { cuit: CUIT, ptoVta: 3, service: "wsfe" });
  await control.enablePointOfSale("homologacion", { cuit: NO_POS, ptoVta: 4, service: "wsfe" });
  ta = await login(sim, "homologacion", id, "wsfex");
  feTa = await login(sim, "homologacion", id, "wsfe");
  noPosTa = await login(sim, "homologacion", other, "wsfex");
});

afterAll(async () => {
  await sim.close();
});

/** The operation's Result element over real HTTP/SOAP 1.1, with this CUIT's wsfex ticket. */
async function param(op: string, extra = "", who: { ta: Ta; cuit: string } = { ta, cuit: CUIT }) {
  const res = await asmx(url, FEX_NS, op, `${authXml(who.ta, who.cuit)}${extra}`);
  expect(res.status).toBe(200);
  return resultOf(res.text, op);
}

/** The rows of a FEXResultGet list, each as a record of its child elements. */
function rows(result: string, cls: string): Record<string, string>[] {
  return [...result.matchAll(new RegExp(`<${cls}>(.*?)</${cls}>`, "g"))].map((m) =>
    Object.fromEntries(
      [...(m[1] ?? "").matchAll(/<(\w+)(?: \/>|>([^<]*)<\/\1>)/g)].map((f) => [
        f[1] ?? "",
        f[2] ?? "",
      ]),
    ),
  );
}

const monthDayYear = (yyyymmdd: string) =>
  `${Number(yyyymmdd.slice(4, 6))}/${Number(yyyymmdd.slice(6, 8))}/${yyyymmdd.slice(0, 4)}`;

describe("WSFEXv1 FEXGetPARAM_*", () => {
  it("Cbte_Tipo lists the export voucher types in the authority's element names and order", async () => {
    const result = await param("FEXGetPARAM_Cbte_Tipo");
    expect(
      result.startsWith(
        "<FEXResultGet><ClsFEXResponse_Cbte_Tipo><Cbte_Id>19</Cbte_Id><Cbte_Ds>Facturas de Exportación</Cbte_Ds>" +
          "<Cbte_vig_desde>20100101</Cbte_vig_desde><Cbte_vig_hasta>NULL</Cbte_vig_hasta></ClsFEXResponse_Cbte_Tipo>",
      ),
    ).toBe(true);
    expect(result.endsWith(`</FEXResultGet>${OK}`)).toBe(true);
    expect(rows(result, "ClsFEXResponse_Cbte_Tipo").map((r) => r["Cbte_Id"])).toEqual([
      "19",
      "20",
      "21",
      "88",
      "89",
    ]);
  });

  it("Tipo_Expo, Incoterms, Idiomas and UMed answer their vigencia tables", async () => {
    const tex = rows(await param("FEXGetPARAM_Tipo_Expo"), "ClsFEXResponse_Tex");
    expect(tex.map((r) => [r["Tex_Id"], r["Tex_Ds"]])).toEqual([
      ["1", "Exportación definitiva de Bienes"],
      ["2", "Servicios"],
      ["4", "Otros"],
    ]);
    expect(Object.keys(tex[0] ?? {})).toEqual([
      "Tex_Id",
      "Tex_Ds",
      "Tex_vig_desde",
      "Tex_vig_hasta",
    ]);

    const inc = rows(await param("FEXGetPARAM_Incoterms"), "ClsFEXResponse_Inc");
    expect(inc.map((r) => r["Inc_Id"])).toEqual([
      "EXW",
      "FCA",
      "FAS",
      "FOB",
      "CFR",
      "CIF",
      "CPT",
      "CIP",
      "DDP",
      "DAP",
      "DPU",
    ]);
    expect(inc.find((r) => r["Inc_Id"] === "DPU")).toEqual({
      Inc_Id: "DPU",
      Inc_Ds: "DPU",
      Inc_vig_desde: "20200311",
      Inc_vig_hasta: "NULL",
    });

    const idi = rows(await param("FEXGetPARAM_Idiomas"), "ClsFEXResponse_Idi");
    expect(idi.map((r) => `${r["Idi_Id"]} ${r["Idi_Ds"]}`)).toEqual([
      "1 Español",
      "2 Inglés",
      "3 Portugués",
    ]);

    const umed = rows(await param("FEXGetPARAM_UMed"), "ClsFEXResponse_UMed");
    const byId = new Map(umed.map((r) => [r["Umed_Id"], r["Umed_Ds"]]));
    expect(byId.get("1")).toBe("kilogramos");
    expect(byId.get("7")).toBe("unidades");
    expect(byId.get("99")).toBe("bonificación");
    expect(byId.get("0")).toBe("");
    expect(Object.keys(umed[0] ?? {})).toEqual([
      "Umed_Id",
      "Umed_Ds",
      "Umed_vig_desde",
      "Umed_vig_hasta",
    ]);
  });

  it("DST_pais and DST_CUIT list destination countries and their generic CUITs", async () => {
    const paises = rows(await param("FEXGetPARAM_DST_pais"), "ClsFEXResponse_DST_pais");
    expect(paises).toContainEqual({ DST_Codigo: "203", DST_Ds: "BRASIL" });
    expect(paises).toContainEqual({ DST_Codigo: "225", DST_Ds: "URUGUAY" });
    expect(paises.every((r) => /^\d{3}$/.test(r["DST_Codigo"] ?? ""))).toBe(true);

    const cuits = rows(await param("FEXGetPARAM_DST_CUIT"), "ClsFEXResponse_DST_cuit");
    expect(cuits).toContainEqual({
      DST_CUIT: "50000000016",
      DST_Ds: "URUGUAY - Persona Física",
    });
    expect(cuits.length).toBeGreaterThan(10);
    expect(cuits.every((r) => isValidCuit(r["DST_CUIT"] ?? ""))).toBe(true);
  });

  it("MON lists currencies; MON_CON_COTIZACION quotes them dated M/d/yyyy, never after today", async () => {
    const mon = rows(await param("FEXGetPARAM_MON"), "ClsFEXResponse_Mon");
    expect(mon.map((r) => r["Mon_Id"])).toEqual(expect.arrayContaining(["PES", "DOL", "060"]));
    expect(Object.keys(mon[0] ?? {})).toEqual([
      "Mon_Id",
      "Mon_Ds",
      "Mon_vig_desde",
      "Mon_vig_hasta",
    ]);

    await control.setCotizacion("homologacion", { monId: "DOL", cotiz: 1234.5 });
    // asked for tomorrow, the service answers today's quotes (recorded 2021)
    const ahead = await param(
      "FEXGetPARAM_MON_CON_COTIZACION",
      `<Fecha_CTZ>${arToday(1)}</Fecha_CTZ>`,
    );
    const quotes = rows(ahead, "ClsFEXResponse_Mon_CON_Cotizacion");
    expect(quotes.find((q) => q["Mon_Id"] === "DOL")).toEqual({
      Mon_Id: "DOL",
      Mon_ctz: "1234.5000",
      Fecha_ctz: monthDayYear(arToday()),
    });
    expect(quotes.map((q) => q["Mon_Id"])).not.toContain("PES");
    const ids = quotes.map((q) => q["Mon_Id"] ?? "");
    expect(ids).toEqual([...ids].sort());
    expect(ahead.endsWith(`</FEXResultGet>${OK}`)).toBe(true);

    const past = await param("FEXGetPARAM_MON_CON_COTIZACION", "<Fecha_CTZ>20210721</Fecha_CTZ>");
    expect(past).toContain("<Fecha_ctz>7/21/2021</Fecha_ctz>");

    const bad = await param("FEXGetPARAM_MON_CON_COTIZACION", "<Fecha_CTZ>2021-07-21</Fecha_CTZ>");
    expect(bad).not.toContain("<FEXResultGet");
    expect(bad).toMatch(
      /^<FEXErr><ErrCode>1014<\/ErrCode><ErrMsg>[^<]*Fecha_CTZ[^<]*<\/ErrMsg><\/FEXErr>/,
    );
  });

  it("Ctz answers one currency's quote with four decimals and its date", async () => {
    await control.setCotizacion("homologacion", { monId: "060", cotiz: 1130.25 });
    expect(await param("FEXGetPARAM_Ctz", "<Mon_id>060</Mon_id>")).toBe(
      `<FEXResultGet><Mon_ctz>1130.2500</Mon_ctz><Mon_fecha>${arToday()}</Mon_fecha></FEXResultGet>${OK}`,
    );
    expect(
      await param("FEXGetPARAM_Ctz", "<Mon_id>060</Mon_id><FchCotiz>20250102</FchCotiz>"),
    ).toContain("<Mon_fecha>20250102</Mon_fecha>");
    const unknown = await param("FEXGetPARAM_Ctz", "<Mon_id>XYZ</Mon_id>");
    expect(unknown).not.toContain("<FEXResultGet");
    expect(unknown).toContain("<ErrCode>1014</ErrCode>");
  });

  it("PtoVenta lists the CUIT's enabled export points of sale, and is an empty FEXResultGet when none", async () => {
    expect(await param("FEXGetPARAM_PtoVenta")).toBe(
      "<FEXResultGet>" +
        "<ClsFEXResponse_PtoVenta><Pve_Nro>2</Pve_Nro><Pve_Bloqueado>N</Pve_Bloqueado><Pve_FchBaja>NULL</Pve_FchBaja></ClsFEXResponse_PtoVenta>" +
        "<ClsFEXResponse_PtoVenta><Pve_Nro>7</Pve_Nro><Pve_Bloqueado>N</Pve_Bloqueado><Pve_FchBaja>NULL</Pve_FchBaja></ClsFEXResponse_PtoVenta>" +
        `</FEXResultGet>${OK}`,
    );
    expect(await param("FEXGetPARAM_PtoVenta", "", { ta: noPosTa, cuit: NO_POS })).toBe(
      `<FEXResultGet />${OK}`,
    );
  });

  it("Opcionales lists the opcional ids FEXAuthorize accepts, the simplified export's among them", async () => {
    expect(await param("FEXGetPARAM_Opcionales")).toBe(
      "<FEXResultGet>" +
        "<ClsFEXResponse_Opc><Opc_Id>2401</Opc_Id><Opc_Ds>Exportación simplificada: número de documento aduanero</Opc_Ds>" +
        "<Opc_vig_desde>20190101</Opc_vig_desde><Opc_vig_hasta>NULL</Opc_vig_hasta></ClsFEXResponse_Opc>" +
        "<ClsFEXResponse_Opc><Opc_Id>2402</Opc_Id><Opc_Ds>Exportación simplificada: monto FOB en dólares</Opc_Ds>" +
        "<Opc_vig_desde>20190101</Opc_vig_desde><Opc_vig_hasta>NULL</Opc_vig_hasta></ClsFEXResponse_Opc>" +
        `</FEXResultGet>${OK}`,
    );
  });

  it("Actividades lists the issuer's registry activities in order, as WSFE's FEParamGetActividades does; none is an empty result", async () => {
    expect(await param("FEXGetPARAM_Actividades")).toBe(
      "<FEXResultGet>" +
        "<ClsFEXResponse_Act><Id>620100</Id><Orden>1</Orden><Desc>SERVICIOS DE CONSULTORES EN INFORMATICA</Desc></ClsFEXResponse_Act>" +
        "<ClsFEXResponse_Act><Id>702092</Id><Orden>2</Orden><Desc>SERVICIOS DE ASESORAMIENTO EMPRESARIAL</Desc></ClsFEXResponse_Act>" +
        `</FEXResultGet>${OK}`,
    );
    const fe = await asmx(
      sim.endpoints("homologacion").wsfe,
      FE_NS,
      "FEParamGetActividades",
      authXml(feTa, CUIT),
    );
    expect(resultOf(fe.text, "FEParamGetActividades")).toBe(
      "<ResultGet>" +
        "<ActividadesTipo><Id>620100</Id><Orden>1</Orden><Desc>SERVICIOS DE CONSULTORES EN INFORMATICA</Desc></ActividadesTipo>" +
        "<ActividadesTipo><Id>702092</Id><Orden>2</Orden><Desc>SERVICIOS DE ASESORAMIENTO EMPRESARIAL</Desc></ActividadesTipo>" +
        "</ResultGet>",
    );
    expect(await param("FEXGetPARAM_Actividades", "", { ta: noPosTa, cuit: NO_POS })).toBe(
      `<FEXResultGet />${OK}`,
    );
  });

  it("checks the token like every WSFEX operation: FEXErr 1000/1001 and no result block", async () => {
    for (const op of [
      "FEXGetPARAM_Cbte_Tipo",
      "FEXGetPARAM_Tipo_Expo",
      "FEXGetPARAM_Incoterms",
      "FEXGetPARAM_Idiomas",
      "FEXGetPARAM_UMed",
      "FEXGetPARAM_DST_pais",
      "FEXGetPARAM_DST_CUIT",
      "FEXGetPARAM_MON",
      "FEXGetPARAM_MON_CON_COTIZACION",
      "FEXGetPARAM_Ctz",
      "FEXGetPARAM_PtoVenta",
      "FEXGetPARAM_Opcionales",
      "FEXGetPARAM_Actividades",
    ]) {
      const wrongService = await param(op, "", { ta: feTa, cuit: CUIT });
      expect(wrongService, op).toMatch(
        /^<FEXErr><ErrCode>1000<\/ErrCode><ErrMsg>Usuario no autorizado a realizar esta operacion\. ValidacionDeToken: No valido Id Sistema: wsfex/,
      );
      const stranger = await param(op, "", { ta, cuit: "20333333334" });
      expect(stranger, op).toMatch(/^<FEXErr><ErrCode>1001<\/ErrCode>/);
    }
  });

  it("are in the WSDL the simulator serves, and the npm soap client reads their lists", async () => {
    const wsdl = await (await fetch(`${url}?WSDL`)).text();
    for (const op of [
      "FEXGetPARAM_Cbte_Tipo",
      "FEXGetPARAM_MON_CON_COTIZACION",
      "FEXGetPARAM_PtoVenta",
      "FEXGetPARAM_Opcionales",
      "FEXGetPARAM_Actividades",
    ]) {
      expect(wsdl).toContain(`soapAction="${FEX_NS}${op}"`);
    }
    expect(wsdl).toContain('<s:complexType name="ArrayOfClsFEXResponse_UMed">');
    expect(wsdl).toContain('<s:complexType name="ArrayOfActividad">');
    expect(wsdl).toMatch(
      /name="Moneda_ctz" type="s:decimal"\/><s:element [^>]*name="CanMisMonExt"/,
    );
    expect(wsdl).toContain(
      '<s:element minOccurs="1" maxOccurs="1" name="DST_CUIT" type="s:long"/>',
    );
    const client = await soap.createClientAsync(`${url}?WSDL`);
    const auth = { Token: ta.token, Sign: ta.sign, Cuit: CUIT };
    const tipos = (await soapCall(client, "FEXGetPARAM_Cbte_Tipo", { Auth: auth })) as {
      FEXGetPARAM_Cbte_TipoResult: {
        FEXResultGet: { ClsFEXResponse_Cbte_Tipo: { Cbte_Id: number; Cbte_Ds: string }[] };
        FEXErr: { ErrCode: number };
      };
    };
    expect(tipos.FEXGetPARAM_Cbte_TipoResult.FEXErr.ErrCode).toBe(0);
    expect(
      tipos.FEXGetPARAM_Cbte_TipoResult.FEXResultGet.ClsFEXResponse_Cbte_Tipo.map((t) => t.Cbte_Id),
    ).toEqual([19, 20, 21, 88, 89]);
    const ctz = (await soapCall(client, "FEXGetPARAM_Ctz", { Auth: auth, Mon_id: "DOL" })) as {
      FEXGetPARAM_CtzResult: { FEXResultGet: { Mon_ctz: number; Mon_fecha: string } };
    };
    expect(ctz.FEXGetPARAM_CtzResult.FEXResultGet.Mon_fecha).toBe(arToday());
    expect(ctz.FEXGetPARAM_CtzResult.FEXResultGet.Mon_ctz).toBeGreaterThan(0);
  });
});
