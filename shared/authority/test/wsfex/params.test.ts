import { describe, expect, it } from "vitest";
import { makeWsfexAdapter } from "../../src/wsfex/adapter.js";
import { argentinaDate, fexDate, type FexListTabla } from "../../src/wsfex/params.js";
import { asmxAnswer, fakeFetch, fakeTickets, xml } from "../../src/testing.js";

const NS = "http://ar.gov.afip.dif.fexv1/";
const caller = { accountId: "a", cuit: "30111111118", environment: "homologacion" as const };
const urls = { homologacion: "http://homo.test/wsfexv1", produccion: "http://prod.test/wsfexv1" };
const OK =
  "<FEXErr><ErrCode>0</ErrCode><ErrMsg>OK</ErrMsg></FEXErr><FEXEvents><EventCode>0</EventCode><EventMsg>Ok</EventMsg></FEXEvents>";
const fexErr = (code: number, msg: string) =>
  `<FEXErr><ErrCode>${code}</ErrCode><ErrMsg>${msg}</ErrMsg></FEXErr>`;
const AUTH = "<Auth><Token>token-1</Token><Sign>sign</Sign><Cuit>30111111118</Cuit></Auth>";

/** An adapter whose authority answers `operation` with `inner` inside its Result. */
function scripted(operation: string, inner: string) {
  const { fetch, sent } = fakeFetch(() => xml(asmxAnswer(NS, operation, inner)));
  const adapter = makeWsfexAdapter({ urls, timeoutMs: 1_000, tickets: fakeTickets(), fetch });
  return { adapter, sent };
}

const row = (cls: string, fields: Record<string, string>) =>
  `<${cls}>${Object.entries(fields)
    .map(([k, v]) => `<${k}>${v}</${k}>`)
    .join("")}</${cls}>`;

describe("WSFEXv1 parameter dates", () => {
  it.each([
    ["20210721", "20210721"],
    ["7/21/2021", "20210721"],
    ["12/1/2025 12:00:00 AM", "20251201"],
    ["2021-07-21T00:00:00", "20210721"],
    [" 2021-07-21 ", "20210721"],
  ])("%s reads as %s", (text, day) => {
    expect(fexDate(text)).toBe(day);
  });

  it("reads NULL and an empty element as no date, and a day that does not exist as unreadable", () => {
    expect(fexDate("NULL")).toBeNull();
    expect(fexDate("")).toBeNull();
    expect(fexDate(undefined)).toBeNull();
    expect(fexDate("2/30/2021")).toBeUndefined();
    expect(fexDate("20211301")).toBeUndefined();
    expect(fexDate("ayer")).toBeUndefined();
  });

  it("takes today in Argentina, three hours behind UTC", () => {
    expect(argentinaDate(new Date("2026-01-16T02:59:00Z"))).toBe("20260115");
    expect(argentinaDate(new Date("2026-01-16T03:00:00Z"))).toBe("20260116");
  });
});

describe("WSFEXv1 parameter tables against a scripted authority", () => {
  it.each<[FexListTabla, string, string, unknown]>([
    [
      "tipos-comprobante",
      "FEXGetPARAM_Cbte_Tipo",
      row("ClsFEXResponse_Cbte_Tipo", {
        Cbte_Id: "19",
        Cbte_Ds: "Facturas de Exportación",
        Cbte_vig_desde: "20100101",
        Cbte_vig_hasta: "NULL",
      }),
      {
        id: 19,
        descripcion: "Facturas de Exportación",
        vigenciaDesde: "20100101",
        vigenciaHasta: null,
      },
    ],
    [
      "tipos-exportacion",
      "FEXGetPARAM_Tipo_Expo",
      row("ClsFEXResponse_Tex", {
        Tex_Id: "2",
        Tex_Ds: "Servicios",
        Tex_vig_desde: "20100101",
        Tex_vig_hasta: "20301231",
      }),
      { id: 2, descripcion: "Servicios", vigenciaDesde: "20100101", vigenciaHasta: "20301231" },
    ],
    [
      "incoterms",
      "FEXGetPARAM_Incoterms",
      row("ClsFEXResponse_Inc", {
        Inc_Id: "FOB",
        Inc_Ds: "FOB",
        Inc_vig_desde: "20100101",
        Inc_vig_hasta: "NULL",
      }),
      { id: "FOB", descripcion: "FOB", vigenciaDesde: "20100101", vigenciaHasta: null },
    ],
    [
      "idiomas",
      "FEXGetPARAM_Idiomas",
      row("ClsFEXResponse_Idi", {
        Idi_Id: "2",
        Idi_Ds: "Inglés",
        Idi_vig_desde: "20091228",
        Idi_vig_hasta: "NULL",
      }),
      { id: 2, descripcion: "Inglés", vigenciaDesde: "20091228", vigenciaHasta: null },
    ],
    [
      "unidades-medida",
      "FEXGetPARAM_UMed",
      row("ClsFEXResponse_UMed", {
        Umed_Id: "99",
        Umed_Ds: "bonificación",
        Umed_vig_desde: "20101022",
        Umed_vig_hasta: "NULL",
      }),
      { id: 99, descripcion: "bonificación", vigenciaDesde: "20101022", vigenciaHasta: null },
    ],
    [
      "paises",
      "FEXGetPARAM_DST_pais",
      row("ClsFEXResponse_DST_pais", { DST_Codigo: "203", DST_Ds: "BRASIL" }),
      { id: 203, descripcion: "BRASIL" },
    ],
    [
      "cuit-paises",
      "FEXGetPARAM_DST_CUIT",
      row("ClsFEXResponse_DST_cuit", {
        DST_CUIT: "50000000016",
        DST_Ds: "URUGUAY - Persona Física",
      }),
      { id: "50000000016", descripcion: "URUGUAY - Persona Física" },
    ],
    [
      "monedas",
      "FEXGetPARAM_MON",
      row("ClsFEXResponse_Mon", {
        Mon_Id: "DOL",
        Mon_Ds: "Dólar Estadounidense",
        Mon_vig_desde: "20090403",
        Mon_vig_hasta: "NULL",
      }),
      {
        id: "DOL",
        descripcion: "Dólar Estadounidense",
        vigenciaDesde: "20090403",
        vigenciaHasta: null,
      },
    ],
    [
      "opcionales",
      "FEXGetPARAM_Opcionales",
      row("ClsFEXResponse_Opc", {
        Opc_Id: "2401",
        Opc_Ds: "Documento del comprador",
        Opc_vig_desde: "20210101",
        Opc_vig_hasta: "NULL",
      }),
      {
        id: "2401",
        descripcion: "Documento del comprador",
        vigenciaDesde: "20210101",
        vigenciaHasta: null,
      },
    ],
    [
      "actividades",
      "FEXGetPARAM_Actividades",
      row("ClsFEXResponse_ActividadTipo", {
        Id: "620100",
        Orden: "1",
        Desc: "SERVICIOS DE CONSULTORES EN INFORMÁTICA",
      }),
      { id: 620100, orden: 1, descripcion: "SERVICIOS DE CONSULTORES EN INFORMÁTICA" },
    ],
  ])("%s asks %s with Auth alone and reads its row", async (tabla, operation, rowXml, item) => {
    const { adapter, sent } = scripted(operation, `<FEXResultGet>${rowXml}</FEXResultGet>${OK}`);
    expect(await adapter.parametros(caller, tabla)).toEqual({ ok: true, value: [item] });
    expect(sent[0]!.soapAction).toBe(`"${NS}${operation}"`);
    expect(sent[0]!.body).toContain(`<${operation} xmlns="${NS}">${AUTH}</${operation}>`);
  });

  it("keeps every row of a list, in the authority's order, and skips one without a readable id", async () => {
    const rows = [
      ["19", "Facturas de Exportación"],
      ["x", "ilegible"],
      ["20", "Nota de Débito por Operaciones con el Exterior"],
      ["21", "Nota de Crédito por Operaciones con el Exterior"],
    ]
      .map(([id, ds]) =>
        row("ClsFEXResponse_Cbte_Tipo", {
          Cbte_Id: id!,
          Cbte_Ds: ds!,
          Cbte_vig_desde: "20100101",
          Cbte_vig_hasta: "NULL",
        }),
      )
      .join("");
    const { adapter } = scripted(
      "FEXGetPARAM_Cbte_Tipo",
      `<FEXResultGet>${rows}</FEXResultGet>${OK}`,
    );
    const result = await adapter.parametros(caller, "tipos-comprobante");
    expect(result.ok && result.value.map((i) => i.id)).toEqual([19, 20, 21]);
  });

  it("reads monedas-con-cotizacion's M/d/yyyy dates as yyyymmdd and keeps the rate's exact text", async () => {
    const { adapter, sent } = scripted(
      "FEXGetPARAM_MON_CON_COTIZACION",
      `<FEXResultGet>${row("ClsFEXResponse_Mon_CON_Cotizacion", {
        Mon_Id: "DOL",
        Mon_Ds: "Dólar Estadounidense",
        Mon_ctz: "101.2020",
        Fecha_ctz: "7/21/2021",
      })}${row("ClsFEXResponse_Mon_CON_Cotizacion", {
        Mon_Id: "060",
        Mon_ctz: "0.1000000000000000055511151231257827",
        Fecha_ctz: "12/3/2021",
      })}</FEXResultGet>${OK}`,
    );
    expect(
      await adapter.parametros(caller, "monedas-con-cotizacion", { fecha: "20210721" }),
    ).toEqual({
      ok: true,
      value: [
        {
          id: "DOL",
          descripcion: "Dólar Estadounidense",
          cotizacion: "101.2020",
          fecha: "20210721",
        },
        {
          id: "060",
          descripcion: "",
          cotizacion: "0.1000000000000000055511151231257827",
          fecha: "20211203",
        },
      ],
    });
    expect(sent[0]!.body).toContain(`${AUTH}<Fecha_CTZ>20210721</Fecha_CTZ>`);
  });

  it("asks monedas-con-cotizacion for today in Argentina when no day is given", async () => {
    const { adapter, sent } = scripted("FEXGetPARAM_MON_CON_COTIZACION", `<FEXResultGet />${OK}`);
    const before = argentinaDate(new Date());
    expect(await adapter.parametros(caller, "monedas-con-cotizacion")).toEqual({
      ok: true,
      value: [],
    });
    const asked = /<Fecha_CTZ>(\d{8})<\/Fecha_CTZ>/.exec(sent[0]!.body)?.[1];
    expect([before, argentinaDate(new Date())]).toContain(asked);
  });

  it("reads an empty <FEXResultGet /> of puntos-de-venta as none", async () => {
    const { adapter } = scripted("FEXGetPARAM_PtoVenta", `<FEXResultGet />${OK}`);
    expect(await adapter.parametros(caller, "puntos-de-venta")).toEqual({ ok: true, value: [] });
  });

  it("reads each point of sale with whether it is blocked and its withdrawal date", async () => {
    const { adapter } = scripted(
      "FEXGetPARAM_PtoVenta",
      `<FEXResultGet>${row("ClsFEXResponse_PtoVenta", {
        Pve_Nro: "5",
        Pve_Bloqueado: "N",
        Pve_FchBaja: "NULL",
      })}${row("ClsFEXResponse_PtoVenta", {
        Pve_Nro: "6",
        Pve_Bloqueado: "S",
        Pve_FchBaja: "20250301",
      })}</FEXResultGet>${OK}`,
    );
    expect(await adapter.parametros(caller, "puntos-de-venta")).toEqual({
      ok: true,
      value: [
        { id: 5, bloqueado: false, fechaBaja: null },
        { id: 6, bloqueado: true, fechaBaja: "20250301" },
      ],
    });
  });

  it("passes a token refusal to the usual classification (403 for a CUIT outside the relations)", async () => {
    const { adapter } = scripted(
      "FEXGetPARAM_Incoterms",
      fexErr(
        1000,
        "Usuario no autorizado a realizar esta operacion. ValidacionDeToken: No apareció CUIT en lista de relaciones: 30111111118",
      ),
    );
    const result = await adapter.parametros(caller, "incoterms");
    expect(!result.ok && result.error.code).toBe("REPRESENTADA_NOT_DELEGATED");
  });
});

describe("WSFEXv1 cotizacion (FEXGetPARAM_Ctz)", () => {
  it("answers the authority's exact decimal text and the day as yyyymmdd", async () => {
    const { adapter, sent } = scripted(
      "FEXGetPARAM_Ctz",
      `<FEXResultGet><Mon_ctz>101.2020</Mon_ctz><Mon_fecha>20210721</Mon_fecha></FEXResultGet>${OK}`,
    );
    expect(await adapter.cotizacion(caller, { monedaId: "DOL", fecha: "20210721" })).toEqual({
      ok: true,
      value: { cotizacion: "101.2020", fecha: "20210721" },
    });
    expect(sent[0]!.body).toContain(`${AUTH}<Mon_id>DOL</Mon_id><FchCotiz>20210721</FchCotiz>`);
  });

  it("sends no FchCotiz without a day, and reads an M/d/yyyy Mon_fecha", async () => {
    const { adapter, sent } = scripted(
      "FEXGetPARAM_Ctz",
      `<FEXResultGet><Mon_ctz>1045.25</Mon_ctz><Mon_fecha>1/5/2026</Mon_fecha></FEXResultGet>${OK}`,
    );
    expect(await adapter.cotizacion(caller, { monedaId: "DOL" })).toEqual({
      ok: true,
      value: { cotizacion: "1045.25", fecha: "20260105" },
    });
    expect(sent[0]!.body).not.toContain("FchCotiz");
  });

  it("answers a currency the authority refuses (1014) as its refusal, with its words", async () => {
    const { adapter } = scripted(
      "FEXGetPARAM_Ctz",
      fexErr(1014, "El campo Mon_id (XYZ) no es una moneda con cotizacion."),
    );
    const result = await adapter.cotizacion(caller, { monedaId: "XYZ" });
    expect(!result.ok && result.error).toMatchObject({
      code: "AUTHORITY_QUERY_REFUSED",
      details: { authorityCode: 1014 },
    });
    expect(!result.ok && result.error.message).toContain("Mon_id (XYZ)");
  });

  it("answers 502 for the authority's own failure and for a rate it cannot read", async () => {
    const failing = scripted("FEXGetPARAM_Ctz", fexErr(501, "Error interno de base de datos"));
    const failed = await failing.adapter.cotizacion(caller, { monedaId: "DOL" });
    expect(!failed.ok && failed.error.code).toBe("AUTHORITY_UNAVAILABLE");
    const garbled = scripted(
      "FEXGetPARAM_Ctz",
      `<FEXResultGet><Mon_ctz>1,5</Mon_ctz><Mon_fecha>20260105</Mon_fecha></FEXResultGet>${OK}`,
    );
    const unreadable = await garbled.adapter.cotizacion(caller, { monedaId: "DOL" });
    expect(!unreadable.ok && unreadable.error.code).toBe("AUTHORITY_UNAVAILABLE");
  });
});
