import {
  makeAsmxClient,
  xmlChild,
  xmlElement,
  xmlList,
  xmlString,
  type AsmxClient,
  type XmlObject,
} from "@pasarela/authority";
import {
  makeControlClient,
  startSimulator,
  type ControlClient,
  type Simulator,
} from "@pasarela/authority-sim";
import { wsfe } from "@pasarela/contracts";
import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  argentinaToday,
  authorizedReply,
  FE_ARRAY_ITEMS,
  feCaeDetRequest,
  prepareIssuance,
  type FECAEDetRequest,
  type PreparedVoucher,
} from "../src/domain/issuance/index.js";
import {
  asSent,
  propertySeed,
  randomCuit,
  randomItems,
  randomTributos,
  seededRng,
  type Rng,
} from "./issuance-generator.js";
import { simTicket } from "./sim-ticket.js";

/**
 * The property end to end at the authority's door: thousands of random vouchers prepared by
 * the domain are sent as FECAESolicitar to the authority simulator over real HTTP/SOAP, in
 * batches per series, and every one must come back `A`. The simulator judges amounts with the
 * authority's rules, so this is the domain's totals, receivers,
 * associations, FCE opcionales, dates and currency against an independent implementation.
 */

const ENV = "homologacion";
const NS = "http://ar.gov.afip.dif.FEV1/";
const ISSUER = "20111111112";
const PTO_VTA = 7;
const BATCH = 250;

let sim: Simulator;
let control: ControlClient;
let client: AsmxClient;
let auth: string;
let dolar: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  control = makeControlClient(sim.url);
  await control.enablePointOfSale(ENV, { cuit: ISSUER, ptoVta: PTO_VTA });
  const ticket = await simTicket(sim, control, ENV, ISSUER, "propiedad");
  auth = `<Auth>${xmlElement("Token", ticket.token)}${xmlElement("Sign", ticket.sign)}${xmlElement("Cuit", ISSUER)}</Auth>`;
  client = makeAsmxClient({
    service: "wsfe",
    endpoint: sim.endpoints(ENV).wsfe,
    namespace: NS,
    timeoutMs: 60_000,
  });
  const cotizacion = await client.call(
    "FEParamGetCotizacion",
    `${auth}${xmlElement("MonId", "DOL")}`,
  );
  if (!cotizacion.ok) throw new Error(JSON.stringify(cotizacion.failure));
  dolar = wsfe.canonicalDecimal(
    xmlString(xmlChild(cotizacion.result, "ResultGet"), "MonCotiz") ?? "",
  ) as string;
});

afterAll(async () => {
  await sim.close();
});

/** The detail as the authority's XML: elements in the data's order, arrays in their wrappers. */
function detailXml(detail: FECAEDetRequest): string {
  let xml = "";
  for (const [name, value] of Object.entries(detail) as [string, unknown][]) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      const item = FE_ARRAY_ITEMS[name as keyof typeof FE_ARRAY_ITEMS];
      const entries = (value as Record<string, string | number>[])
        .map(
          (entry) =>
            `<${item}>${Object.entries(entry)
              .map(([k, v]) => xmlElement(k, v))
              .join("")}</${item}>`,
        )
        .join("");
      xml += `<${name}>${entries}</${name}>`;
    } else {
      xml += xmlElement(name, value as string | number);
    }
  }
  return `<FECAEDetRequest>${xml}</FECAEDetRequest>`;
}

interface Answer {
  readonly resultado: string;
  readonly cae: string;
  readonly caeFchVto: string;
  readonly observaciones: { code: string; msg: string }[];
}

async function solicitar(
  cbteTipo: number,
  details: readonly FECAEDetRequest[],
): Promise<{ answers: Answer[]; errors: string[] }> {
  const outcome = await client.call(
    "FECAESolicitar",
    `${auth}<FeCAEReq><FeCabReq>${xmlElement("CantReg", details.length)}${xmlElement("PtoVta", PTO_VTA)}` +
      `${xmlElement("CbteTipo", cbteTipo)}</FeCabReq><FeDetReq>${details.map(detailXml).join("")}</FeDetReq></FeCAEReq>`,
  );
  if (!outcome.ok) throw new Error(`FECAESolicitar failed: ${JSON.stringify(outcome.failure)}`);
  const pairs = (parent: XmlObject | undefined, wrapper: string, tag: string) =>
    xmlList(xmlChild(parent, wrapper), tag).map((p) => ({
      code: xmlString(p, "Code") ?? "",
      msg: xmlString(p, "Msg") ?? "",
    }));
  return {
    answers: xmlList(xmlChild(outcome.result, "FeDetResp"), "FECAEDetResponse").map((d) => ({
      resultado: xmlString(d, "Resultado") ?? "",
      cae: xmlString(d, "CAE") ?? "",
      caeFchVto: xmlString(d, "CAEFchVto") ?? "",
      observaciones: pairs(d, "Observaciones", "Obs"),
    })),
    errors: pairs(outcome.result, "Errors", "Err").map((e) => `${e.code} ${e.msg}`),
  };
}

interface Issued {
  readonly cbteTipo: number;
  readonly cbteNro: number;
  readonly cbteFch: string;
  readonly voucher: PreparedVoucher;
}

/** The receiver of an issued voucher, for a note that adjusts it. */
const receiverOf = ({ voucher: { receptor } }: Issued) => ({
  docTipo: receptor.docTipo,
  docNro: receptor.docNro,
  condicionIvaReceptorId: receptor.condicionIvaReceptorId,
});

const firstOfMonth = (today: string) => `${today.slice(0, 6)}01`;

/** A date in [today − back, today], never before this month (the window of concepto 1). */
function recentDate(rng: Rng, today: string, back: number): string {
  const day = new Date(
    Date.UTC(Number(today.slice(0, 4)), Number(today.slice(4, 6)) - 1, Number(today.slice(6))),
  );
  day.setUTCDate(day.getUTCDate() - rng.int(0, back));
  const date = day.toISOString().slice(0, 10).replaceAll("-", "");
  return date < firstOfMonth(today) ? today : date;
}

const plusDays = (yyyymmdd: string, days: number) => {
  const day = new Date(
    Date.UTC(
      Number(yyyymmdd.slice(0, 4)),
      Number(yyyymmdd.slice(4, 6)) - 1,
      Number(yyyymmdd.slice(6)),
    ),
  );
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10).replaceAll("-", "");
};

/** A receiver the class admits: its document type and VAT condition. */
function receptor(rng: Rng, cbteTipo: number): Record<string, unknown> {
  const clase =
    cbteTipo >= 200
      ? "FCE"
      : [1, 2, 3, 51, 52, 53].includes(cbteTipo)
        ? "A"
        : [6, 7, 8].includes(cbteTipo)
          ? "B"
          : "C";
  if (clase === "FCE") {
    // FCE goes to a company in the registry (the simulator's default one): a class B
    // receiver the registry does not know is rejected (10015)
    const condicion = [206, 207, 208].includes(cbteTipo) ? 4 : 1;
    return { docTipo: 80, docNro: "30000000007", condicionIvaReceptorId: condicion };
  }
  if (clase === "A") {
    return { docTipo: 80, docNro: randomCuit(rng), condicionIvaReceptorId: rng.pick([1, 1, 6]) };
  }
  if (clase === "B") {
    return rng.chance(0.5)
      ? { docTipo: 99, docNro: 0, condicionIvaReceptorId: 5 }
      : { docTipo: 96, docNro: String(rng.int(5_000_000, 45_000_000)), condicionIvaReceptorId: 5 };
  }
  return rng.chance(0.6)
    ? { docTipo: 99, docNro: 0, condicionIvaReceptorId: 5 }
    : { docTipo: 80, docNro: randomCuit(rng), condicionIvaReceptorId: rng.pick([1, 6]) };
}

function cbu(rng: Rng): string {
  // bank and branch (7) + check, account (13) + check: the BCRA's two check digits
  const block = (length: number) => Array.from({ length }, () => String(rng.int(0, 9))).join("");
  const check = (digits: string, weights: readonly number[]) =>
    String(
      (10 - ([...digits].reduce((s, d, i) => s + Number(d) * (weights[i] ?? 0), 0) % 10)) % 10,
    );
  const first = block(7);
  const second = block(13);
  return `${first}${check(first, [7, 1, 3, 9, 7, 1, 3])}${second}${check(second, [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3])}`;
}

function body(rng: Rng, cbteTipo: number, today: string, extra: Record<string, unknown> = {}) {
  const classC = [11, 12, 13, 211, 212, 213].includes(cbteTipo);
  const fce = cbteTipo >= 200;
  const fceNote = [202, 203, 207, 208, 212, 213].includes(cbteTipo);
  // FCE notes of services stay out: whether they need FchVtoPago (10049) or may not carry it
  // unless they annul is where the two readings of the manual part
  const concepto = fce ? (fceNote ? 1 : rng.pick([1, 1, 2])) : rng.pick([1, 1, 2, 3]);
  const receiver = receptor(rng, cbteTipo);
  const anonymous = receiver.docTipo === 99;
  // FCE dates stay today (N−5..N+1, notes N−5..N); an FCE note's payment date only annuls
  const cbteFch = fce ? today : recentDate(rng, today, concepto === 1 ? 5 : 10);
  const dates =
    concepto === 1
      ? { cbteFch }
      : {
          cbteFch,
          fchServDesde: recentDate(rng, cbteFch, 20),
          fchServHasta: cbteFch,
          ...(fce ? {} : { fchVtoPago: plusDays(cbteFch, rng.int(0, 30)) }),
        };
  const dollars = !fce && rng.chance(0.15);
  return {
    environment: ENV,
    representada: ISSUER,
    cbteTipo,
    ptoVta: PTO_VTA,
    concepto,
    ...receiver,
    ...dates,
    items: randomItems(rng, {
      classC,
      maxPrice: anonymous ? 500 : rng.pick([100, 10_000, 1_000_000]),
      maxItems: anonymous ? 5 : 25,
    }),
    tributos: randomTributos(rng, anonymous ? 0 : 2),
    ...(dollars
      ? {
          moneda: rng.pick([
            { id: "DOL" },
            { id: "dol", cotizacion: asSent(rng, dolar) },
            { id: "DOL", cotizacion: dolar, mismaMonedaExtranjera: true },
          ]),
        }
      : {}),
    ...(rng.chance(0.1) ? { opcionales: [{ id: "23", valor: `OC-${rng.int(1, 99_999)}` }] } : {}),
    ...extra,
  };
}

describe("issuance, property at the authority simulator", () => {
  it(
    "every prepared voucher of thousands of random ones is authorized",
    { timeout: 600_000 },
    async () => {
      const rng = seededRng(propertySeed());
      const today = argentinaToday(new Date());
      const last = new Map<number, number>();
      const issued: Issued[] = [];
      const failures: string[] = [];
      let vatToZero = 0;

      const prepare = (raw: Record<string, unknown>): PreparedVoucher | undefined => {
        const result = prepareIssuance(
          wsfe.facturaIssueRequestSchema.parse(raw),
          { productos: new Map() },
          new Date(),
        );
        if (result.ok) return result.value;
        // the one refusal a valid random body may meet; anything else is a domain bug
        if (result.error.message.includes("IVA total de 0")) {
          vatToZero++;
          return undefined;
        }
        failures.push(`refused ${JSON.stringify(raw)}: ${result.error.message}`);
        return undefined;
      };

      /** Numbers a series' vouchers in date order and sends them, `batch` per request. */
      const issue = async (cbteTipo: number, raws: Record<string, unknown>[], batch: number) => {
        const vouchers = raws
          .map((raw) => ({ raw, voucher: prepare(raw) }))
          .filter(
            (v): v is { raw: Record<string, unknown>; voucher: PreparedVoucher } =>
              v.voucher !== undefined,
          )
          .sort((a, b) =>
            a.voucher.cbteFch < b.voucher.cbteFch
              ? -1
              : a.voucher.cbteFch > b.voucher.cbteFch
                ? 1
                : 0,
          );
        for (let start = 0; start < vouchers.length; start += batch) {
          const chunk = vouchers.slice(start, start + batch);
          const first = (last.get(cbteTipo) ?? 0) + 1;
          const details = chunk.map(({ voucher }, i) =>
            feCaeDetRequest(voucher, {
              cbteNro: first + i,
              cotizacion: voucher.moneda.cotizacion ?? dolar,
            }),
          );
          const { answers, errors } = await solicitar(cbteTipo, details);
          if (errors.length > 0) failures.push(`tipo ${cbteTipo}: ${errors.join("; ")}`);
          for (const [i, answer] of answers.entries()) {
            const sent = chunk[i];
            if (sent === undefined) continue;
            if (answer.resultado !== "A") {
              failures.push(
                `tipo ${cbteTipo} nro ${first + i}: ${JSON.stringify(answer.observaciones)} for ${JSON.stringify(sent.raw)}`,
              );
              continue;
            }
            const reply = authorizedReply(sent.voucher, {
              cuit: ISSUER,
              ptoVta: PTO_VTA,
              cbteNro: first + i,
              cotizacion: sent.voucher.moneda.cotizacion ?? dolar,
              cae: answer.cae,
              caeVencimiento: answer.caeFchVto,
              observaciones: [],
            });
            expect(wsfe.facturaIssueReplySchema.safeParse(reply).success).toBe(true);
            issued.push({
              cbteTipo,
              cbteNro: first + i,
              cbteFch: sent.voucher.cbteFch,
              voucher: sent.voucher,
            });
          }
          // a rejection stops the series' numbering where the authority stopped it
          last.set(cbteTipo, first + answers.filter((a) => a.resultado === "A").length - 1);
          if (failures.length > 0) return;
        }
      };

      const counts: Record<number, number> = { 1: 700, 6: 700, 11: 700, 51: 150 };
      for (const [tipo, count] of Object.entries(counts)) {
        const cbteTipo = Number(tipo);
        await issue(
          cbteTipo,
          Array.from({ length: count }, () => body(rng, cbteTipo, today)),
          BATCH,
        );
      }

      // notes adjust invoices the authority has authorized, of a type they may associate
      const invoicesOf = (tipo: number) => issued.filter((v) => v.cbteTipo === tipo);
      const asociado = (invoice: Issued) => ({
        cbteTipo: invoice.cbteTipo,
        ptoVta: PTO_VTA,
        cbteNro: invoice.cbteNro,
        cuit: ISSUER,
        cbteFch: invoice.cbteFch,
      });
      for (const [note, invoice] of [
        [2, 1],
        [3, 1],
        [8, 6],
        [13, 11],
        [53, 51],
      ] as const) {
        const pool = invoicesOf(invoice);
        const notes = Array.from({ length: 120 }, () => {
          const target = rng.pick(pool);
          return body(rng, note, today, {
            ...receiverOf(target),
            comprobantesAsociados: [asociado(target)],
          });
        });
        await issue(note, notes, BATCH);
      }

      // FCE: one voucher per request, a CBU and a transfer option; notes carry the annulment flag
      for (const tipo of [201, 206, 211]) {
        const fce = Array.from({ length: 12 }, () =>
          body(rng, tipo, today, {
            fchVtoPago: plusDays(today, rng.int(0, 30)),
            fce: {
              cbu: cbu(rng),
              ...(rng.chance(0.5) ? { alias: `cobro.${rng.int(100, 999)}` } : {}),
              opcionTransferencia: rng.pick(["SCA", "ADC"]),
            },
          }),
        );
        await issue(tipo, fce, 1);
      }
      for (const [note, invoice] of [
        [203, 201],
        [208, 206],
        [213, 211],
      ] as const) {
        const pool = invoicesOf(invoice);
        const notes = Array.from({ length: 6 }, () => {
          const target = rng.pick(pool);
          return body(rng, note, today, {
            ...receiverOf(target),
            comprobantesAsociados: [asociado(target)],
            fce: { anulacion: false },
          });
        });
        await issue(note, notes, 1);
      }

      expect(failures.slice(0, 3), `seed ${rng.seed}`).toEqual([]);
      expect(issued.length).toBeGreaterThan(2_500);

      // what the authority stored is what the domain computed, to the cent
      for (const sample of Array.from({ length: 40 }, () => rng.pick(issued))) {
        const found = await client.call(
          "FECompConsultar",
          `${auth}<FeCompConsReq>${xmlElement("CbteTipo", sample.cbteTipo)}${xmlElement("CbteNro", sample.cbteNro)}${xmlElement("PtoVta", PTO_VTA)}</FeCompConsReq>`,
        );
        if (!found.ok) throw new Error(JSON.stringify(found.failure));
        const stored = xmlChild(found.result, "ResultGet");
        const { totals } = sample.voucher;
        for (const [element, ours] of [
          ["ImpTotal", totals.impTotal],
          ["ImpNeto", totals.impNeto],
          ["ImpIVA", totals.impIVA],
          ["ImpTrib", totals.impTrib],
          ["ImpTotConc", totals.impTotConc],
          ["ImpOpEx", totals.impOpEx],
        ] as const) {
          expect(
            new Big(xmlString(stored, element) ?? "NaN").eq(ours),
            `${element} ${sample.cbteTipo}/${sample.cbteNro}`,
          ).toBe(true);
        }
      }
      console.info(
        `issuance property (seed ${rng.seed}): ${issued.length} vouchers authorized by the simulator, ${vatToZero} refused for VAT rounding to 0`,
      );
    },
  );
});
