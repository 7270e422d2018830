import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../src/index.js";
import type { ControlClient, Simulator } from "../src/index.js";
import { arToday, login, makeControlClient, makeIdentity } from "./helpers.js";
import {
  OK_TAIL,
  actividad,
  caeOf,
  cmpAsoc,
  fexCalls,
  fexErrXml,
  item,
  opcional,
  permiso,
} from "./fex-helpers.js";
import type { FexCalls, FexFields } from "./fex-helpers.js";
import { plusDays } from "./fe-helpers.js";

/** The seeded issuer: activities 620100 and 702092 on record. */
const CUIT = "20111111112";
const ENV = "homologacion";
const PERMIT = "09052EC01006154G";

let sim: Simulator;
let control: ControlClient;
let fex: FexCalls;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  control = makeControlClient(sim.url);
  const id = await makeIdentity(control, ENV, CUIT, "reglas", ["wsfex"]);
  await control.enablePointOfSale(ENV, { cuit: CUIT, ptoVta: 7, service: "wsfex" });
  fex = fexCalls(sim.endpoints(ENV).wsfex, await login(sim, ENV, id, "wsfex"), CUIT);
});

afterAll(async () => {
  await sim.close();
});

const today = arToday();
const services: FexFields = {
  Tipo_expo: "2",
  Permiso_existente: undefined,
  Incoterms: undefined,
  Fecha_pago: plusDays(today, 30),
};
/** A note (20, 21) names no permit, no payment terms of its own. */
const note = (tipo: string, asoc: string): FexFields => ({
  Cbte_Tipo: tipo,
  Permiso_existente: undefined,
  Incoterms: undefined,
  Forma_pago: undefined,
  Cmps_asoc: asoc,
});

/** Each case: the code, one plausible message fragment, the overrides that break it. */
type Case = [number, string, FexFields];

async function expectRejected(cases: readonly Case[], nro = 1): Promise<void> {
  for (const [i, [code, fragment, over]] of cases.entries()) {
    const out = await fex.authorize(50_000 + code * 10 + i, nro, over);
    expect(out, `${code} ${JSON.stringify(over)}`).toMatch(
      new RegExp(
        `^<FEXErr><ErrCode>${code}</ErrCode><ErrMsg>[^<]*${fragment}[^<]*</ErrMsg></FEXErr>`,
      ),
    );
    expect(out).not.toContain("FEXResultAuth");
    expect(
      out.endsWith("<FEXEvents><EventCode>0</EventCode><EventMsg>Ok</EventMsg></FEXEvents>"),
    ).toBe(true);
  }
}

describe("FEXAuthorize rules: the first rule broken is the one FEXErr, with no FEXResultAuth", () => {
  it("the voucher's identity: Id, date window, point of sale, number, type, sequence, Tipo_expo", async () => {
    await expectRejected([
      [1014, "Id debe ser mayor o igual a 0", { Id: "-1" }],
      [1500, "N-5 y N\\+5", { Fecha_cbte: plusDays(today, 6) }],
      [1500, "N-5 y N\\+5", { Fecha_cbte: plusDays(today, -6) }],
      [1500, "N-5 y N\\+5", { Fecha_cbte: "20261340" }],
      [1510, "FEEWS", { Punto_vta: "8" }],
      [1520, "Cbte_nro", { Cbte_nro: "0" }],
      [1530, "19, 20 o 21", { Cbte_Tipo: "6" }],
      [1535, "FEXGetLast_CMP", { Cbte_nro: "2" }],
      [1540, "Tipo_expo", { Tipo_expo: "3" }],
    ]);
    // five days either way are within the window (and Fecha_cbte may be left out)
    expect(await fex.authorize(10, 1, { Fecha_cbte: plusDays(today, -5) })).toContain(
      "<Resultado>A</Resultado>",
    );
    expect(await fex.authorize(11, 2, { Fecha_cbte: undefined })).toContain(
      `<Fch_cbte>${today}</Fch_cbte>`,
    );
  });

  it("Permiso_existente (1550) and the permits (1720-1740)", async () => {
    await control.setPermit(ENV, { idPermiso: "12345AB01234567Z", dstMerc: 203, status: "NO" });
    await expectRejected(
      [
        [1550, "S, N o vacio", { Permiso_existente: "X" }],
        [1550, "es obligatorio", { Permiso_existente: undefined }],
        [1550, "solo debe informarse", { ...services, Permiso_existente: "N" }],
        [1550, "al menos un Permiso", { Permiso_existente: "S" }],
        [1550, "no deben informarse Permisos", { Permisos: permiso(PERMIT, "203") }],
        [1720, "99999AAXX999999A", { Permiso_existente: "S", Permisos: permiso("1/A", "203") }],
        [1730, "Dst_merc", { Permiso_existente: "S", Permisos: permiso(PERMIT, "999") }],
        [
          1736,
          "repetir un Id_permiso",
          { Permiso_existente: "S", Permisos: permiso(PERMIT, "203") + permiso(PERMIT, "225") },
        ],
        [
          1740,
          "FEXCheck_Permiso",
          { Permiso_existente: "S", Permisos: permiso("12345AB01234567Z", "203") },
        ],
      ],
      3,
    );
  });

  it("destination and customer: 1560, 1570, 1580, 1650/1651, 1660/1661", async () => {
    await expectRejected(
      [
        [1560, "FEXGetPARAM_DST_pais", { Dst_cmp: "999" }],
        [1570, "FEXGetPARAM_DST_CUIT", { Cuit_pais_cliente: "20111111112" }],
        [
          1580,
          "Cuit_pais_cliente o el campo Id_impositivo",
          { Cuit_pais_cliente: undefined, Id_impositivo: undefined },
        ],
        [1650, "Cliente es obligatorio", { Cliente: undefined }],
        [1651, "200 caracteres", { Cliente: "x".repeat(201) }],
        [1660, "Domicilio_cliente es obligatorio", { Domicilio_cliente: "" }],
        [1661, "300 caracteres", { Domicilio_cliente: "x".repeat(301) }],
      ],
      3,
    );
  });

  it("currency and quote: 1590, 1600-1605", async () => {
    await expectRejected(
      [
        [1590, "FEXGetPARAM_MON", { Moneda_Id: "XXX" }],
        [1602, "Moneda_ctz es obligatorio", { Moneda_ctz: undefined }],
        [1600, "mayor a 0", { Moneda_ctz: "0" }],
        [1601, "igual a 1", { Moneda_Id: "PES", Moneda_ctz: "2" }],
        [1603, "S o N", { CanMisMonExt: "X" }],
        [1604, "moneda extranjera", { Moneda_Id: "PES", Moneda_ctz: "1", CanMisMonExt: "N" }],
        [1605, "cotizacion oficial", { CanMisMonExt: "S", Moneda_ctz: "101.202" }],
      ],
      3,
    );
  });

  it("items and their total: 1666, 1760-1817, 1610", async () => {
    await expectRejected(
      [
        [1666, "al menos 1 y como maximo 9999 items", { Items: "" }],
        [1760, "Pro_ds", { Items: item("2", "7", "50", "100", { ds: "" }) }],
        [1770, "FEXGetPARAM_UMed", { Items: item("2", "12", "50", "100") }],
        [1780, "Pro_qty", { Items: item("-2", "7", "50", "-100"), Imp_total: "-100" }],
        [1790, "Pro_precio_uni", { Items: item("2", "7", "-50", "-100"), Imp_total: "-100" }],
        [1810, "menos Pro_bonificacion", { Items: item("2", "7", "50", "90"), Imp_total: "90" }],
        [
          1815,
          "debe ser negativo",
          { Items: item("2", "7", "50", "100") + item("0", "99", "0", "10"), Imp_total: "110" },
        ],
        [
          1817,
          "solo puede ser negativo",
          { Items: item("1", "7", "0", "-10", { bonif: "10" }), Imp_total: "-10" },
        ],
        [1610, "suma de los Pro_total_item", { Imp_total: "100.02" }],
      ],
      3,
    );
    // within a cent, a discount line and a line in unit 0 (no quantity nor price) are fine
    const ok = await fex.authorize(12, 3, {
      Items:
        item("3", "1", "33.333", "100") +
        item("0", "0", "0", "20") +
        item("0", "99", "0", "-10", { ds: "Bonificacion" }),
      Imp_total: "110.005",
    });
    expect(ok).toContain("<Resultado>A</Resultado>");
  });

  it("payment, language and Incoterms: 1620, 1630, 1640-1642, 1671-1674", async () => {
    await expectRejected(
      [
        [1620, "Forma_pago", { Forma_pago: undefined }],
        [1630, "FEXGetPARAM_Idiomas", { Idioma_cbte: "4" }],
        [1640, "Incoterms es obligatorio", { Incoterms: undefined }],
        [1641, "FEXGetPARAM_Incoterms", { Incoterms: "XYZ" }],
        [1642, "20 caracteres", { Incoterms_Ds: "x".repeat(21) }],
        [1671, "yyyymmdd", { ...services, Fecha_pago: "2026-12-01" }],
        [1672, "Fecha_pago es obligatorio", { ...services, Fecha_pago: undefined }],
        [1673, "solo debe informarse", { Fecha_pago: plusDays(today, 30) }],
        [1674, "posterior a Fecha_cbte", { ...services, Fecha_pago: plusDays(today, -1) }],
      ],
      4,
    );
  });

  it("associated vouchers: 1680-1700 (a 19 names none, a note at least one of the issuer's)", async () => {
    await expectRejected([
      [
        1680,
        "no deben informarse comprobantes asociados",
        { Cbte_nro: "4", Cmps_asoc: cmpAsoc("19", "7", "1") },
      ],
      [1681, "al menos un comprobante asociado", note("21", "")],
      [1685, "19, 20 o 21", note("21", cmpAsoc("1", "7", "1", CUIT))],
      [1690, "Cbte_punto_vta", note("20", cmpAsoc("19", "0", "1", CUIT))],
      [1695, "Cbte_nro del comprobante asociado", note("21", cmpAsoc("19", "7", "0", CUIT))],
      [1700, "CUIT del emisor", note("21", cmpAsoc("19", "7", "1", "20333333334"))],
    ]);
    const credit = await fex.authorize(13, 1, note("21", cmpAsoc("19", "7", "1", CUIT)));
    expect(credit).toMatch(
      /<Cbte_tipo>21<\/Cbte_tipo><Punto_vta>7<\/Punto_vta><Cbte_nro>1<\/Cbte_nro>/,
    );
    expect(credit).toContain("<Resultado>A</Resultado>");
  });

  it("opcionales (2001-2011) and activities (2101-2103)", async () => {
    await expectRejected(
      [
        [2001, "FEXGetPARAM_Opcionales", { Opcionales: opcional("9999", "x") }],
        [2002, "Valor del Opcional es obligatorio", { Opcionales: opcional("2401", "") }],
        [
          2003,
          "repetir el Id de un Opcional",
          { Opcionales: opcional("2401", "A") + opcional("2401", "B") },
        ],
        [
          2010,
          "Moneda_Id DOL",
          { Moneda_Id: "060", Opcionales: opcional("2401", "26001EC01000123X") },
        ],
        [2011, "2402", { Opcionales: opcional("2402", "mucho") }],
        [2101, "Id de Actividad es invalido", { Actividades: actividad("0") }],
        [2102, "FEXGetPARAM_Actividades", { Actividades: actividad("471100") }],
        [
          2103,
          "repetir el Id de Actividad",
          { Actividades: actividad("620100") + actividad("620100") },
        ],
      ],
      4,
    );
  });

  it("authorizes a full export of goods with a permit, a simplified export's opcionales and an activity", async () => {
    const out = await fex.authorize(14, 4, {
      Permiso_existente: "S",
      Permisos: permiso(PERMIT, "203") + permiso("09052EC01006155H", "225"),
      CanMisMonExt: "S",
      Moneda_ctz: "1050.5",
      Opcionales: opcional("2401", "26001EC01000123X") + opcional("2402", "100.00"),
      Actividades: actividad("702092"),
    });
    expect(out).toMatch(
      new RegExp(
        `^<FEXResultAuth><Id>14</Id><Cuit>${CUIT}</Cuit><Cbte_tipo>19</Cbte_tipo><Punto_vta>7</Punto_vta>` +
          `<Cbte_nro>4</Cbte_nro><Cae>\\d{14}</Cae><Fch_venc_Cae>${today}</Fch_venc_Cae><Fch_cbte>${today}</Fch_cbte>` +
          `<Resultado>A</Resultado><Reproceso>N</Reproceso><Motivos_Obs /></FEXResultAuth>${OK_TAIL}$`,
      ),
    );
    // a services export, the customer known by its tax id only, the official quote left out
    const svc = await fex.authorize(15, 5, {
      ...services,
      Cuit_pais_cliente: undefined,
      CanMisMonExt: "S",
      Moneda_ctz: undefined,
    });
    expect(caeOf(svc)).toBeDefined();
    const cmp = await fex.call(
      "FEXGetCMP",
      "<Cmp><Cbte_tipo>19</Cbte_tipo><Punto_vta>7</Punto_vta><Cbte_nro>5</Cbte_nro></Cmp>",
    );
    expect(cmp).toContain("<Moneda_ctz>1050.5</Moneda_ctz>");
    expect(cmp).toContain(`<Fecha_pago>${plusDays(today, 30)}</Fecha_pago>`);
  });
});

describe("FEXAuthorize idempotency by Id", () => {
  it("a re-sent authorized Id answers the same CAE with Reproceso S; a rejected Id is not remembered", async () => {
    const first = await fex.authorize(20, 6);
    const cae = caeOf(first);
    expect(cae).toBeDefined();
    // whatever the re-sent request says, the answer is the voucher that Id got
    const again = await fex.authorize(20, 99, { Imp_total: "1" });
    expect(again).toBe(first.replace("<Reproceso>N</Reproceso>", "<Reproceso>S</Reproceso>"));
    expect(await fex.lastCmp(7, 19)).toContain("<Cbte_nro>6</Cbte_nro>");

    expect(await fex.authorize(21, 7, { Imp_total: "1" })).toBe(
      fexErrXml(
        1610,
        "El campo Imp_total debe ser igual a la suma de los Pro_total_item de los items.",
      ),
    );
    const corrected = await fex.authorize(21, 7);
    expect(corrected).toContain("<Reproceso>N</Reproceso>");
    expect(caeOf(corrected)).not.toBe(cae);
  });

  it("FEXGetLast_ID answers the highest Id received, rejected ones included", async () => {
    expect(await fex.authorize(999_999, 1, { Cbte_Tipo: "6" })).toContain(
      "<ErrCode>1530</ErrCode>",
    );
    expect(await fex.lastId()).toBe(`<FEXResultGet><Id>999999</Id></FEXResultGet>${OK_TAIL}`);
    await fex.authorize(22, 8);
    expect(await fex.lastId()).toBe(`<FEXResultGet><Id>999999</Id></FEXResultGet>${OK_TAIL}`);
  });

  it("the control API reads back the export vouchers per series", async () => {
    const { series } = await control.exportVouchers(ENV);
    const facturas = series[`${CUIT}|7|19`];
    expect(facturas?.last).toBe(8);
    expect(facturas?.vouchers.map((v) => [v.cbteNro, v.id])).toEqual([
      [1, 10],
      [2, 11],
      [3, 12],
      [4, 14],
      [5, 15],
      [6, 20],
      [7, 21],
      [8, 22],
    ]);
    expect(facturas?.vouchers[0]).toMatchObject({
      monedaId: "DOL",
      impTotal: 100,
      fechaCbte: plusDays(today, -5),
    });
    expect(series[`${CUIT}|7|21`]?.vouchers.map((v) => v.id)).toEqual([13]);
  });
});
