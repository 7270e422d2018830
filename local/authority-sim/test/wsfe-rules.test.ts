import * as soap from "soap";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ControlError, startSimulator } from "../src/index.js";
import type { ControlClient, Simulator } from "../src/index.js";
import {
  arToday,
  login,
  makeControlClient,
  makeIdentity,
  makeTra,
  parseTa,
  postLogin,
  signCms,
  soapCall,
} from "./helpers.js";
import type { Ta } from "./helpers.js";
import { RECORDED_RECEIVER, detail, errXml, feCalls, obsCodes, plusDays } from "./fe-helpers.js";
import type { Det, FeCalls } from "./fe-helpers.js";

/** The issuer: a VAT-registered company with two activities on record. */
const ISSUER = "30711111111";
/** Delegates wsfe to the issuer's certificate; has no activities on record. */
const DELEGATOR = "30722222225";
const MONO = "20333333334";
const EXENTO = "30777777773";
const INACTIVE = "20555555556";
const UNKNOWN = "20666666667";
const FCE_RECEIVER = "30700000008";
const CBU = "0110599520000001234567";

const MSG_10217 =
  "El credito fiscal discriminado en el presente comprobante solo podra ser computado a efectos del Procedimiento permanente de transicion al Regimen General.";

let sim: Simulator;
let control: ControlClient;
let url: string;
let ta: Ta;
let fe: FeCalls;
let nextPos = 10;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  control = makeControlClient(sim.url);
  url = sim.endpoints("homologacion").wsfe;
  const id = await makeIdentity(control, "homologacion", ISSUER, "reglas", ["wsfe"]);
  await control.delegate("homologacion", { cuit: DELEGATOR, alias: "reglas", service: "wsfe" });
  await control.setPerson("homologacion", {
    cuit: ISSUER,
    razonSocial: "EMISORA DE PRUEBA S.A.",
    condicionIva: "responsable_inscripto",
    actividades: [
      { id: 620100, desc: "SERVICIOS DE CONSULTORES EN INFORMATICA" },
      { id: 702092, desc: "SERVICIOS DE ASESORAMIENTO EMPRESARIAL" },
    ],
  });
  await control.setPerson("homologacion", {
    cuit: MONO,
    apellido: "GOMEZ",
    nombre: "ANA",
    condicionIva: "monotributo",
  });
  await control.setPerson("homologacion", {
    cuit: EXENTO,
    razonSocial: "FUNDACION DE PRUEBA",
    condicionIva: "exento",
  });
  await control.setPerson("homologacion", {
    cuit: INACTIVE,
    apellido: "PEREZ",
    condicionIva: "responsable_inscripto",
    estadoClave: "INACTIVO",
  });
  await control.setPerson("homologacion", {
    cuit: FCE_RECEIVER,
    razonSocial: "GRAN EMPRESA COMPRADORA S.A.",
    condicionIva: "responsable_inscripto",
  });
  ta = await login(sim, "homologacion", id, "wsfe");
  fe = feCalls(url, ta, ISSUER);
});

afterAll(async () => {
  await sim.close();
});

/** A point of sale of the issuer's that no other test has issued on. */
async function freshPos(): Promise<number> {
  const ptoVta = nextPos++;
  await control.enablePointOfSale("homologacion", { cuit: ISSUER, ptoVta });
  return ptoVta;
}

function resultado(res: string): string | undefined {
  return /<FECAEDetResponse>[\s\S]*?<Resultado>([ARP])<\/Resultado>/.exec(res)?.[1];
}

/** Each case alone on the same number: it must be rejected naming `code`, consuming nothing. */
async function expectRejections(
  ptoVta: number,
  cbteTipo: number,
  nro: number,
  cases: readonly (readonly [number, Det])[],
  base: Det = {},
): Promise<void> {
  for (const [code, over] of cases) {
    const res = await fe.solicitar(ptoVta, cbteTipo, [detail(nro, { ...base, ...over })]);
    const label = `${code} ${JSON.stringify(over)}`;
    expect(obsCodes(res), label).toContain(code);
    expect(resultado(res), label).toBe("R");
    expect(res, label).toContain("<CAE /><CAEFchVto />");
  }
  expect(await fe.ultimo(ptoVta, cbteTipo)).toContain(`<CbteNro>${nro - 1}</CbteNro>`);
}

const opcionales = (...pairs: [string, string][]): string =>
  pairs.map(([id, valor]) => `<Opcional><Id>${id}</Id><Valor>${valor}</Valor></Opcional>`).join("");

const cbteAsoc = (tipo: number, ptoVta: number, nro: number, extra = ""): string =>
  `<CbteAsoc><Tipo>${tipo}</Tipo><PtoVta>${ptoVta}</PtoVta><Nro>${nro}</Nro>${extra}</CbteAsoc>`;

/** A Factura C's amounts: ImpNeto is the subtotal, no VAT and no tributes. */
const FACTURA_C: Det = {
  ImpTotal: "100",
  ImpNeto: "100",
  ImpTrib: "0",
  ImpIVA: "0",
  Tributos: undefined,
  Iva: undefined,
};

describe("FECAESolicitar: the receiver against the registry", () => {
  it("authorizes a Factura A with observations: 10017 not registered, 10217 monotributista (recorded text), 10063 outside VAT", async () => {
    const pto = await freshPos();
    const cases: [string, number][] = [
      [UNKNOWN, 10017],
      [MONO, 10217],
      [EXENTO, 10063],
    ];
    for (const [i, [docNro, code]] of cases.entries()) {
      const res = await fe.solicitar(pto, 1, [detail(i + 1, { DocNro: docNro })]);
      expect(res).toContain("<Resultado>A</Resultado><Observaciones><Obs>");
      expect(obsCodes(res), docNro).toEqual([code]);
      expect(res).toMatch(/<CAE>\d{14}<\/CAE>/);
    }
    const mono = await fe.consultar(pto, 1, 2);
    expect(mono).toContain(
      `<Resultado>A</Resultado><CodAutorizacion>` +
        (/<CodAutorizacion>(\d{14})<\/CodAutorizacion>/.exec(mono)?.[1] ?? "?"),
    );
    expect(mono).toMatch(
      new RegExp(
        `<FchProceso>\\d{14}</FchProceso><Observaciones><Obs><Code>10217</Code><Msg>${MSG_10217}</Msg></Obs>` +
          `</Observaciones><PtoVta>${pto}</PtoVta><CbteTipo>1</CbteTipo></ResultGet>$`,
      ),
    );
    const registered = await fe.solicitar(pto, 1, [detail(4)]);
    expect(resultado(registered)).toBe("A");
    expect(registered).not.toContain("<Observaciones>");
  });

  it("rejects a Factura B to an unregistered CUIT (10015) but not to 23000000000, and only observes a Factura C's (10238)", async () => {
    const pto = await freshPos();
    const b: Det = { DocNro: UNKNOWN, CondicionIVAReceptorId: "4" };
    await expectRejections(pto, 6, 1, [[10015, b]]);
    const exento = await fe.solicitar(pto, 6, [
      detail(1, { DocNro: EXENTO, CondicionIVAReceptorId: "4" }),
    ]);
    expect(resultado(exento)).toBe("A");
    expect(exento).not.toContain("<Observaciones>");
    const noCategorizado = await fe.solicitar(pto, 6, [
      detail(2, { DocNro: "23000000000", CondicionIVAReceptorId: "7" }),
    ]);
    expect(resultado(noCategorizado)).toBe("A");

    const c = await fe.solicitar(pto, 11, [detail(1, { ...FACTURA_C, DocNro: UNKNOWN })]);
    expect(resultado(c)).toBe("A");
    expect(obsCodes(c)).toEqual([10238]);
  });

  it("rejects an inactive receiver (10247), but a credit note to it is only observed", async () => {
    const pto = await freshPos();
    await expectRejections(pto, 1, 1, [[10247, { DocNro: INACTIVE }]]);
    expect(resultado(await fe.solicitar(pto, 1, [detail(1)]))).toBe("A");
    const nc = await fe.solicitar(pto, 3, [
      detail(1, { DocNro: INACTIVE, CbtesAsoc: cbteAsoc(1, pto, 1) }),
    ]);
    expect(resultado(nc)).toBe("A");
    expect(obsCodes(nc)).toEqual([10247]);
  });
});

describe("FECAESolicitar: opcionales, tributes, associated vouchers, currency", () => {
  it("judges Opcionales: 10053 unknown Id, 10054 repeated, 10055 no Valor, 10169 an FCE one elsewhere", async () => {
    const pto = await freshPos();
    await expectRejections(pto, 1, 1, [
      [10053, { Opcionales: opcionales(["999", "x"]) }],
      [10054, { Opcionales: opcionales(["5", "01"], ["5", "02"]) }],
      [10054, { Opcionales: opcionales(["23", "OC-1"], ["23", "OC-1"]) }],
      [10055, { Opcionales: "<Opcional><Id>2</Id><Valor></Valor></Opcional>" }],
      [10055, { Opcionales: "<Opcional><Id>2</Id></Opcional>" }],
      [10169, { Opcionales: opcionales(["2101", CBU]) }],
      [10169, { Opcionales: opcionales(["27", "SCA"]) }],
    ]);
    // 1801/1802 may repeat, and 23 with distinct values
    const ok = await fe.solicitar(pto, 1, [
      detail(1, {
        Opcionales: opcionales(
          ["17", "1"],
          ["1801", "20111111112"],
          ["1801", "20333333334"],
          ["23", "OC-1"],
          ["23", "OC-2"],
        ),
      }),
    ]);
    expect(resultado(ok)).toBe("A");
    expect(await fe.consultar(pto, 1, 1)).toContain(
      "<Opcionales><Opcional><Id>17</Id><Valor>1</Valor></Opcional>",
    );
  });

  it("judges Tributos: 10026–10028 negative parts, 10042 Desc for Id 99", async () => {
    const pto = await freshPos();
    const tributo = (
      id: number,
      desc: string | undefined,
      base: string,
      alic: string,
      imp: string,
    ) =>
      `<Tributo><Id>${id}</Id>${desc === undefined ? "" : `<Desc>${desc}</Desc>`}` +
      `<BaseImp>${base}</BaseImp><Alic>${alic}</Alic><Importe>${imp}</Importe></Tributo>`;
    await expectRejections(pto, 1, 1, [
      [10026, { Tributos: tributo(99, "Tasa", "-100", "1", "1") }],
      [10027, { Tributos: tributo(99, "Tasa", "100", "-1", "1") }],
      [
        10028,
        { Tributos: tributo(99, "Tasa", "100", "1", "2") + tributo(1, "Ajuste", "100", "1", "-1") },
      ],
      [10042, { Tributos: tributo(99, undefined, "100", "1", "1") }],
      [10042, { Tributos: tributo(99, " ", "100", "1", "1") }],
    ]);
    expect(
      resultado(
        await fe.solicitar(pto, 1, [
          detail(1, { Tributos: tributo(2, undefined, "100", "1", "1") }),
        ]),
      ),
    ).toBe("A");
  });

  it("judges CbtesAsoc: 10057–10060 ranges and repeats, 10041 an unauthorized voucher of an electronic point of sale (observed)", async () => {
    const pto = await freshPos();
    expect(resultado(await fe.solicitar(pto, 1, [detail(1)]))).toBe("A");
    await expectRejections(pto, 3, 1, [
      [10057, { CbtesAsoc: cbteAsoc(0, pto, 1) }],
      [10058, { CbtesAsoc: cbteAsoc(1, 0, 1) }],
      [10058, { CbtesAsoc: cbteAsoc(1, 99999, 1) }],
      [10059, { CbtesAsoc: cbteAsoc(1, pto, 0) }],
      [10060, { CbtesAsoc: cbteAsoc(1, pto, 1) + cbteAsoc(1, pto, 1) }],
    ]);
    const missing = await fe.solicitar(pto, 3, [detail(1, { CbtesAsoc: cbteAsoc(1, pto, 7) })]);
    expect(resultado(missing)).toBe("A");
    expect(obsCodes(missing)).toEqual([10041]);
    // a voucher of a point of sale that is not electronic cannot be checked: no observation
    const manual = await fe.solicitar(pto, 3, [detail(2, { CbtesAsoc: cbteAsoc(1, 99990, 7) })]);
    expect(resultado(manual)).toBe("A");
    expect(manual).not.toContain("<Observaciones>");
    const asociada = await fe.solicitar(pto, 3, [detail(3, { CbtesAsoc: cbteAsoc(1, pto, 1) })]);
    expect(asociada).not.toContain("<Observaciones>");
  });

  it("judges PeriodoAsoc: only on notes (10198), both dates (10199), valid (10203), from 2006 (10205), ordered (10207), not after CbteFch (10208)", async () => {
    const pto = await freshPos();
    const today = arToday();
    const periodo = (desde: string, hasta: string | undefined) =>
      `<FchDesde>${desde}</FchDesde>${hasta === undefined ? "" : `<FchHasta>${hasta}</FchHasta>`}`;
    await expectRejections(pto, 1, 1, [
      [10198, { PeriodoAsoc: periodo(plusDays(today, -30), today) }],
    ]);
    await expectRejections(pto, 3, 1, [
      [10199, { PeriodoAsoc: periodo(plusDays(today, -30), undefined) }],
      [10203, { PeriodoAsoc: periodo("2024-01-01", today) }],
      [10205, { PeriodoAsoc: periodo("20051231", today) }],
      [10207, { PeriodoAsoc: periodo(today, plusDays(today, -1)) }],
      [10208, { PeriodoAsoc: periodo(plusDays(today, -30), plusDays(today, 1)) }],
    ]);
    const desde = plusDays(today, -30);
    const ok = await fe.solicitar(pto, 3, [detail(1, { PeriodoAsoc: periodo(desde, today) })]);
    expect(resultado(ok)).toBe("A");
    expect(await fe.consultar(pto, 3, 1)).toContain(
      `</Iva><PeriodoAsoc><FchDesde>${desde}</FchDesde><FchHasta>${today}</FchHasta></PeriodoAsoc><Resultado>A</Resultado>`,
    );
  });

  it("judges MonCotiz against the published rate: 10119 beyond −2%/+400%, 10240 with CanMisMonExt S more than 1 over it", async () => {
    const pto = await freshPos();
    await control.setCotizacion("homologacion", { monId: "DOL", cotiz: 1000 });
    const dol = (cotiz: string, canMis?: string): Det => ({
      MonId: "DOL",
      MonCotiz: cotiz,
      ...(canMis === undefined ? {} : { CanMisMonExt: canMis }),
    });
    await expectRejections(pto, 1, 1, [
      [10119, dol("979.99")],
      [10119, dol("5000.01")],
      [10240, dol("1001.01", "S")],
    ]);
    let nro = 1;
    for (const over of [dol("980"), dol("5000"), dol("1000"), dol("1001", "S"), dol("995", "N")]) {
      const res = await fe.solicitar(pto, 1, [detail(nro++, over)]);
      expect(resultado(res), JSON.stringify(over)).toBe("A");
    }
    expect(await fe.consultar(pto, 1, 3)).toContain("<MonId>DOL</MonId><MonCotiz>1000</MonCotiz>");
  });
});

describe("FECAESolicitar: FCE MiPyME vouchers", () => {
  const fceInvoice = (): Det => ({
    DocNro: FCE_RECEIVER,
    FchVtoPago: plusDays(arToday(), 30),
    Opcionales: opcionales(["2101", CBU], ["2102", "emisora.cobros"], ["27", "SCA"]),
  });

  it("authorizes an FCE invoice with CBU, transfer option and due date; refuses each missing or wrong one", async () => {
    const pto = await freshPos();
    const without = (id: string): Det => ({
      Opcionales: opcionales(
        ...(
          [
            ["2101", CBU],
            ["27", "SCA"],
          ] as [string, string][]
        ).filter(([x]) => x !== id),
      ),
    });
    await expectRejections(
      pto,
      201,
      1,
      [
        [10168, without("2101")],
        [10216, without("27")],
        [10215, { Opcionales: opcionales(["2101", CBU], ["27", "XYZ"]) }],
        [10165, { Opcionales: opcionales(["2101", "123"], ["27", "ADC"]) }],
        [10170, { Opcionales: opcionales(["2101", CBU], ["2102", "ab"], ["27", "ADC"]) }],
        [10176, { Opcionales: opcionales(["2101", CBU], ["27", "ADC"], ["22", "N"]) }],
        [10163, { FchVtoPago: undefined }],
        [10164, { FchVtoPago: plusDays(arToday(), -1) }],
        [
          10042,
          {
            Tributos:
              "<Tributo><Id>2</Id><BaseImp>100</BaseImp><Alic>1</Alic><Importe>1</Importe></Tributo>",
          },
        ],
        [10013, { DocTipo: "96", DocNro: "12345678" }],
      ],
      fceInvoice(),
    );
    await expectRejections(pto, 206, 1, [[10013, { DocTipo: "96", DocNro: "12345678" }]], {
      ...fceInvoice(),
      CondicionIVAReceptorId: "4",
    });
    const res = await fe.solicitar(pto, 201, [detail(1, fceInvoice())]);
    expect(resultado(res)).toBe("A");
    expect(res).not.toContain("<Observaciones>");
    expect(await fe.consultar(pto, 201, 1)).toContain(
      `<Opcionales><Opcional><Id>2101</Id><Valor>${CBU}</Valor></Opcional>` +
        "<Opcional><Id>2102</Id><Valor>emisora.cobros</Valor></Opcional>" +
        "<Opcional><Id>27</Id><Valor>SCA</Valor></Opcional></Opcionales>",
    );
  });

  it("authorizes FCE notes that annul or not, associated to the invoice; refuses what the FCE rules forbid", async () => {
    const pto = await freshPos();
    const today = arToday();
    expect(resultado(await fe.solicitar(pto, 201, [detail(1, fceInvoice())]))).toBe("A");
    const asoc = cbteAsoc(201, pto, 1, `<Cuit>${ISSUER}</Cuit><CbteFch>${today}</CbteFch>`);
    const note: Det = {
      DocNro: FCE_RECEIVER,
      CbtesAsoc: asoc,
      Opcionales: opcionales(["22", "N"]),
    };
    await expectRejections(
      pto,
      203,
      1,
      [
        [10173, { Opcionales: undefined }],
        [10171, { Opcionales: opcionales(["22", "N"], ["2101", CBU]) }],
        [10214, { Opcionales: opcionales(["22", "N"], ["27", "SCA"]) }],
        [10175, { Opcionales: opcionales(["22", "X"]) }],
        [10181, { FchVtoPago: plusDays(today, 30) }],
        [10153, { CbtesAsoc: undefined }],
        [10153, { CbtesAsoc: cbteAsoc(201, pto, 1) }],
        [10153, { DocNro: RECORDED_RECEIVER }],
        [
          10041,
          { CbtesAsoc: cbteAsoc(201, pto, 9, `<Cuit>${ISSUER}</Cuit><CbteFch>${today}</CbteFch>`) },
        ],
      ],
      note,
    );
    expect(resultado(await fe.solicitar(pto, 203, [detail(1, note)]))).toBe("A");
    const anula = await fe.solicitar(pto, 203, [
      detail(2, { ...note, Opcionales: opcionales(["22", "S"]), FchVtoPago: plusDays(today, 30) }),
    ]);
    expect(resultado(anula)).toBe("A");
  });
});

describe("FECompConsultar and the issuer's parameters", () => {
  it("answers a B-class range as sent, for each of its numbers", async () => {
    const pto = await freshPos();
    const res = await fe.solicitar(pto, 6, [
      detail(1, {
        DocTipo: "99",
        DocNro: "0",
        CondicionIVAReceptorId: "5",
        CbteHasta: "3",
      }),
    ]);
    expect(resultado(res)).toBe("A");
    const cae = /<CAE>(\d{14})<\/CAE>/.exec(res)?.[1];
    for (const nro of [1, 2, 3]) {
      const cons = await fe.consultar(pto, 6, nro);
      expect(cons).toContain("<CbteDesde>1</CbteDesde><CbteHasta>3</CbteHasta>");
      expect(cons).toContain(`<Resultado>A</Resultado><CodAutorizacion>${cae}</CodAutorizacion>`);
    }
    expect(await fe.ultimo(pto, 6)).toContain("<CbteNro>3</CbteNro>");
  });

  it("FEParamGetActividades lists the issuer's activities in order; 602 without any; Actividades must be the issuer's", async () => {
    expect(await fe.call("FEParamGetActividades")).toBe(
      "<ResultGet>" +
        "<ActividadesTipo><Id>620100</Id><Orden>1</Orden><Desc>SERVICIOS DE CONSULTORES EN INFORMATICA</Desc></ActividadesTipo>" +
        "<ActividadesTipo><Id>702092</Id><Orden>2</Orden><Desc>SERVICIOS DE ASESORAMIENTO EMPRESARIAL</Desc></ActividadesTipo>" +
        "</ResultGet>",
    );
    const delegator = feCalls(url, ta, DELEGATOR);
    expect(await delegator.call("FEParamGetActividades")).toBe(
      errXml(602, "No existen datos en nuestros registros para los parametros ingresados."),
    );
    const pto = await freshPos();
    const act = (...ids: number[]) =>
      ids.map((id) => `<Actividad><Id>${id}</Id></Actividad>`).join("");
    await expectRejections(pto, 1, 1, [
      [10218, { Actividades: "" }],
      [10220, { Actividades: act(620100, 471100) }],
      [10221, { Actividades: act(620100, 620100) }],
    ]);
    expect(resultado(await fe.solicitar(pto, 1, [detail(1, { Actividades: act(702092) })]))).toBe(
      "A",
    );
    expect(await fe.consultar(pto, 1, 1)).toContain(
      "<Actividades><Actividad><Id>702092</Id></Actividad></Actividades><Resultado>A</Resultado>",
    );
  });

  it("FEParamGetTiposPaises lists the countries; both new operations are in the served WSDL", async () => {
    expect(await fe.call("FEParamGetTiposPaises")).toContain(
      "<PaisTipo><Id>200</Id><Desc>ARGENTINA</Desc></PaisTipo><PaisTipo><Id>202</Id><Desc>BOLIVIA</Desc></PaisTipo>",
    );
    const client = await soap.createClientAsync(`${url}?WSDL`);
    const auth = { Auth: { Token: ta.token, Sign: ta.sign, Cuit: ISSUER } };
    const paises = (await soapCall(client, "FEParamGetTiposPaises", auth)) as {
      FEParamGetTiposPaisesResult: { ResultGet: { PaisTipo: { Id: number; Desc: string }[] } };
    };
    expect(paises.FEParamGetTiposPaisesResult.ResultGet.PaisTipo).toContainEqual({
      Id: 203,
      Desc: "BRASIL",
    });
    const actividades = (await soapCall(client, "FEParamGetActividades", auth)) as {
      FEParamGetActividadesResult: {
        ResultGet: { ActividadesTipo: { Id: string; Orden: number; Desc: string }[] };
      };
    };
    expect(actividades.FEParamGetActividadesResult.ResultGet.ActividadesTipo[0]).toMatchObject({
      Orden: 1,
      Desc: "SERVICIOS DE CONSULTORES EN INFORMATICA",
    });
  });
});

/** Polls `check` until it holds; fails after `ms`. */
async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("FECAESolicitar: concurrent requests on one series", () => {
  it("answers Err 502 Transaccion Activa to the later of two overlapping requests on a series, not to another series", async () => {
    const pto = await freshPos();
    const otherPto = await freshPos();
    const arrived = async () =>
      (await control.stats("homologacion")).requests["FECAESolicitar"] ?? 0;
    await control.setFault("homologacion", { service: "wsfe", mode: "none", latencyMs: 1500 });
    try {
      const before = await arrived();
      const first = fe.solicitar(pto, 1, [detail(1)]);
      // the first one is being processed (held by the latency) once the simulator counted it
      await until(async () => (await arrived()) > before);
      const [later, otherSeries] = await Promise.all([
        fe.solicitar(pto, 1, [detail(1)]),
        fe.solicitar(otherPto, 1, [detail(1)]),
      ]);
      expect(later).toBe(errXml(502, "Transaccion Activa"));
      expect(resultado(otherSeries)).toBe("A");
      expect(resultado(await first)).toBe("A");
    } finally {
      await control.setFault("homologacion", { service: "wsfe", mode: "none" });
    }
    // the series is free again once answered; the refused request consumed nothing
    expect(await fe.ultimo(pto, 1)).toContain("<CbteNro>1</CbteNro>");
    expect(resultado(await fe.solicitar(pto, 1, [detail(2)]))).toBe("A");
  });
});

describe("FECAESolicitar: the Concepto 1 date window", () => {
  it("refuses a Concepto 1 CbteFch past the current month even within N+5; Concepto 2 may cross it", async () => {
    // The simulated clock on the last day of next month, noon in Argentina (UTC-3).
    const ar = new Date(Date.now() - 3 * 3600_000);
    const target = Date.UTC(ar.getUTCFullYear(), ar.getUTCMonth() + 2, 0, 15, 0, 0);
    const other = await startSimulator({ port: 0 });
    try {
      const c = makeControlClient(other.url);
      await c.settings("homologacion", { clockOffsetMs: target - Date.now() });
      const id = await makeIdentity(c, "homologacion", ISSUER, "mes", ["wsfe"]);
      await c.enablePointOfSale("homologacion", { cuit: ISSUER, ptoVta: 1 });
      const tra = makeTra("wsfe", { genMs: target - 600_000, expMs: target + 600_000 });
      const res = await postLogin(other, "homologacion", signCms(id, tra));
      const calls = feCalls(other.endpoints("homologacion").wsfe, parseTa(res.text), ISSUER);
      const lastDay = new Date(target).toISOString().slice(0, 10).replace(/-/g, "");
      const nextMonth = plusDays(lastDay, 1);

      const refused = await calls.solicitar(1, 1, [detail(1, { CbteFch: nextMonth })]);
      expect(refused).toContain(
        "<Resultado>R</Resultado><Observaciones><Obs><Code>10016</Code><Msg>Campo CbteFch Debe estar comprendido  en el  rango  " +
          "N-5 y N+5 siendo N la fecha de envio del pedido  de autorizacion para 1 - Productos</Msg></Obs></Observaciones>",
      );
      expect(resultado(await calls.solicitar(1, 1, [detail(1, { CbteFch: lastDay })]))).toBe("A");
      const servicios = await calls.solicitar(1, 1, [
        detail(2, {
          Concepto: "2",
          CbteFch: nextMonth,
          FchServDesde: plusDays(lastDay, -29),
          FchServHasta: lastDay,
          FchVtoPago: plusDays(nextMonth, 10),
        }),
      ]);
      expect(resultado(servicios)).toBe("A");
    } finally {
      await other.close();
    }
  });
});

describe("registry control API", () => {
  it("registers, replaces and forgets persons; refuses incomplete ones", async () => {
    const cuit = "20888888889";
    await expect(
      control.setPerson("homologacion", { cuit, condicionIva: "monotributo" }),
    ).rejects.toThrow(/apellido: required/);
    await expect(
      control.setPerson("homologacion", {
        cuit: "30711111112",
        razonSocial: "X",
        condicionIva: "exento",
      }),
    ).rejects.toThrow(/check digit/);
    await expect(
      control.setPerson("homologacion", {
        cuit,
        apellido: "X",
        condicionIva: "inscripto" as "exento",
      }),
    ).rejects.toBeInstanceOf(ControlError);
    await control.setPerson("homologacion", { cuit, apellido: "ROJAS", condicionIva: "exento" });
    const pto = await freshPos();
    expect(obsCodes(await fe.solicitar(pto, 1, [detail(1, { DocNro: cuit })]))).toEqual([10063]);
    await control.setPerson("homologacion", {
      cuit,
      apellido: "ROJAS",
      condicionIva: "responsable_inscripto",
    });
    expect(obsCodes(await fe.solicitar(pto, 1, [detail(2, { DocNro: cuit })]))).toEqual([]);
    expect(await control.forgetPerson("homologacion", { cuit })).toEqual({
      ok: true,
      removed: true,
    });
    expect(await control.forgetPerson("homologacion", { cuit })).toEqual({
      ok: true,
      removed: false,
    });
    expect(obsCodes(await fe.solicitar(pto, 1, [detail(3, { DocNro: cuit })]))).toEqual([10017]);
  });
});
