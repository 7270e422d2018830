import { makeWsfexAdapter } from "@pasarela/authority";
import { asmxAnswer, fakeFetch, fakeTickets, xml } from "@pasarela/authority/testing";
import type { AccountContext } from "@pasarela/bus";
import { wsfex } from "@pasarela/contracts";
import { capturingLogger } from "@pasarela/testing";
import { describe, expect, it } from "vitest";
import { isEnabledPointOfSale } from "../../src/domain/parametros.js";
import { makeParametrosGet } from "../../src/handlers/parametros-get.js";

const NS = "http://ar.gov.afip.dif.fexv1/";
const OK =
  "<FEXErr><ErrCode>0</ErrCode><ErrMsg>OK</ErrMsg></FEXErr><FEXEvents><EventCode>0</EventCode><EventMsg>Ok</EventMsg></FEXEvents>";
const urls = { homologacion: "http://homo.test/wsfexv1", produccion: "http://prod.test/wsfexv1" };
const ctx: AccountContext = {
  accountId: "acct-1",
  requestId: "req-1",
  subject: wsfex.parametrosGet.subject,
  deadline: undefined,
  logger: capturingLogger().logger,
};
const who = { environment: "homologacion" as const, representada: "30111111118" };
// 2026-01-16 01:00 UTC is still the 15th in Argentina
const now = () => new Date("2026-01-16T01:00:00Z");

/** The handler over the real adapter, the authority answering `inner` for any operation. */
function handlerAnswering(inner: string) {
  const { fetch, sent } = fakeFetch(({ soapAction }) => {
    const operation = soapAction.replaceAll('"', "").slice(NS.length);
    return xml(asmxAnswer(NS, operation, inner));
  });
  const adapter = makeWsfexAdapter({ urls, timeoutMs: 1_000, tickets: fakeTickets(), fetch });
  return { handler: makeParametrosGet({ wsfex: adapter, now }), sent };
}

/** A request as the bus would hand it over: parsed by the contract. */
const request = (body: Record<string, unknown>) => wsfex.parametrosGet.request.parse(body);

describe("wsfex.parametros.get", () => {
  it("answers a list table as {tabla, items} that the contract's reply takes", async () => {
    const { handler, sent } = handlerAnswering(
      `<FEXResultGet><ClsFEXResponse_Inc><Inc_Id>FOB</Inc_Id><Inc_Ds>FOB</Inc_Ds><Inc_vig_desde>20100101</Inc_vig_desde><Inc_vig_hasta>NULL</Inc_vig_hasta></ClsFEXResponse_Inc></FEXResultGet>${OK}`,
    );
    const reply = await handler(request({ ...who, tabla: "incoterms" }), ctx);
    expect(reply).toEqual({
      ok: true,
      value: {
        tabla: "incoterms",
        items: [{ id: "FOB", descripcion: "FOB", vigenciaDesde: "20100101", vigenciaHasta: null }],
      },
    });
    expect(reply.ok && wsfex.parametrosGet.reply.safeParse(reply.value).success).toBe(true);
    expect(sent[0]!.soapAction).toBe(`"${NS}FEXGetPARAM_Incoterms"`);
    expect(sent[0]!.body).toContain("<Cuit>30111111118</Cuit>");
  });

  it("lists only the points of sale enabled today in Argentina", async () => {
    const point = (nro: number, bloqueado: string, baja: string) =>
      `<ClsFEXResponse_PtoVenta><Pve_Nro>${nro}</Pve_Nro><Pve_Bloqueado>${bloqueado}</Pve_Bloqueado><Pve_FchBaja>${baja}</Pve_FchBaja></ClsFEXResponse_PtoVenta>`;
    const { handler } = handlerAnswering(
      `<FEXResultGet>${point(5, "N", "NULL")}${point(6, "S", "NULL")}${point(7, "N", "20260115")}${point(8, "N", "20260116")}</FEXResultGet>${OK}`,
    );
    const reply = await handler(request({ ...who, tabla: "puntos-de-venta" }), ctx);
    expect(reply).toEqual({
      ok: true,
      value: {
        tabla: "puntos-de-venta",
        items: [
          { id: 5, bloqueado: false, fechaBaja: null },
          { id: 8, bloqueado: false, fechaBaja: "20260116" },
        ],
      },
    });
  });

  it("answers an empty <FEXResultGet /> of puntos-de-venta as an empty list", async () => {
    const { handler } = handlerAnswering(`<FEXResultGet />${OK}`);
    expect(await handler(request({ ...who, tabla: "puntos-de-venta" }), ctx)).toEqual({
      ok: true,
      value: { tabla: "puntos-de-venta", items: [] },
    });
  });

  it("asks monedas-con-cotizacion for today in Argentina by default, or the day given", async () => {
    const { handler, sent } = handlerAnswering(
      `<FEXResultGet><ClsFEXResponse_Mon_CON_Cotizacion><Mon_Id>DOL</Mon_Id><Mon_ctz>1045.2500</Mon_ctz><Fecha_ctz>1/15/2026</Fecha_ctz></ClsFEXResponse_Mon_CON_Cotizacion></FEXResultGet>${OK}`,
    );
    const reply = await handler(request({ ...who, tabla: "monedas-con-cotizacion" }), ctx);
    expect(reply).toEqual({
      ok: true,
      value: {
        tabla: "monedas-con-cotizacion",
        items: [{ id: "DOL", descripcion: "", cotizacion: "1045.2500", fecha: "20260115" }],
      },
    });
    expect(reply.ok && wsfex.parametrosGet.reply.safeParse(reply.value).success).toBe(true);
    expect(sent[0]!.body).toContain("<Fecha_CTZ>20260115</Fecha_CTZ>");
    await handler(request({ ...who, tabla: "monedas-con-cotizacion", fecha: "20251231" }), ctx);
    expect(sent[1]!.body).toContain("<Fecha_CTZ>20251231</Fecha_CTZ>");
  });

  it("answers cotizacion as {tabla, moneda, cotizacion, fecha} with the exact decimal text", async () => {
    const { handler, sent } = handlerAnswering(
      `<FEXResultGet><Mon_ctz>101.2020</Mon_ctz><Mon_fecha>20210721</Mon_fecha></FEXResultGet>${OK}`,
    );
    const reply = await handler(
      request({ ...who, tabla: "cotizacion", monedaId: "DOL", fecha: "20210721" }),
      ctx,
    );
    expect(reply).toEqual({
      ok: true,
      value: { tabla: "cotizacion", moneda: "DOL", cotizacion: "101.2020", fecha: "20210721" },
    });
    expect(reply.ok && wsfex.parametrosGet.reply.safeParse(reply.value).success).toBe(true);
    expect(sent[0]!.body).toContain("<Mon_id>DOL</Mon_id><FchCotiz>20210721</FchCotiz>");
  });

  it("passes the authority's failure through", async () => {
    const { handler } = handlerAnswering(
      "<FEXErr><ErrCode>501</ErrCode><ErrMsg>Error interno de base de datos</ErrMsg></FEXErr>",
    );
    const reply = await handler(request({ ...who, tabla: "idiomas" }), ctx);
    expect(!reply.ok && reply.error.code).toBe("AUTHORITY_UNAVAILABLE");
  });
});

describe("wsfex.parametros.get request", () => {
  it.each([
    [{ tabla: "cotizacion" }, "monedaId", "es obligatorio con la tabla cotizacion"],
    [{ tabla: "monedas", monedaId: "DOL" }, "monedaId", "solo se acepta con la tabla cotizacion"],
    [{ tabla: "paises", fecha: "20260101" }, "fecha", "solo se acepta con las tablas"],
    [{ tabla: "cotizacion", monedaId: "DOL", fecha: "2026-01-01" }, "fecha", ""],
    [{ tabla: "aduanas" }, "tabla", ""],
  ])("refuses %j naming %s", (body, field, problem) => {
    const parsed = wsfex.parametrosGet.request.safeParse({ ...who, ...body });
    expect(parsed.success).toBe(false);
    const issue = parsed.error?.issues[0];
    expect(issue?.path).toEqual([field]);
    expect(issue?.message).toContain(problem);
  });

  it("takes fecha with both tables of rates", () => {
    for (const tabla of ["monedas-con-cotizacion", "cotizacion"]) {
      const body = {
        ...who,
        tabla,
        fecha: "20260101",
        ...(tabla === "cotizacion" ? { monedaId: "DOL" } : {}),
      };
      expect(wsfex.parametrosGet.request.safeParse(body).success).toBe(true);
    }
  });
});

describe("enabled export points of sale", () => {
  const today = "20260115";
  it.each([
    [{ id: 1, bloqueado: false, fechaBaja: null }, true],
    [{ id: 2, bloqueado: true, fechaBaja: null }, false],
    [{ id: 3, bloqueado: false, fechaBaja: "20260115" }, false],
    [{ id: 4, bloqueado: false, fechaBaja: "20260116" }, true],
    [{ id: 5, bloqueado: false, fechaBaja: "pronto" }, false],
  ])("%j enabled: %s", (item, enabled) => {
    expect(isEnabledPointOfSale(item, today)).toBe(enabled);
  });
});
