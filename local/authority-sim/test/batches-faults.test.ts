import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../src/index.js";
import type { ControlClient, Simulator } from "../src/index.js";
import { detail } from "./fe-helpers.js";
import {
  FE_NS,
  asmx,
  authXml,
  login,
  makeControlClient,
  makeIdentity,
  resultOf,
} from "./helpers.js";
import type { Ta } from "./helpers.js";

const CUIT = "20111111112";
const PTO_VTA = 5;

let sim: Simulator;
let control: ControlClient;
let ta: Ta;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, timeoutHoldMs: 1_000 });
  control = makeControlClient(sim.url);
  const id = await makeIdentity(control, "homologacion", CUIT, "op-batches");
  await control.enablePointOfSale("homologacion", { cuit: CUIT, ptoVta: PTO_VTA });
  ta = await login(sim, "homologacion", id, "wsfe");
});

afterAll(async () => {
  await sim.close();
});

const fe = (op: string, inner: string) =>
  asmx(sim.endpoints("homologacion").wsfe, FE_NS, op, inner);
const b = (n: number, total = "122.00") =>
  detail(n, { DocTipo: "99", DocNro: "0", CondicionIVAReceptorId: "5", ImpTotal: total });
const solicitar = async (details: string[]) =>
  resultOf(
    (
      await fe(
        "FECAESolicitar",
        `${authXml(ta, CUIT)}<FeCAEReq><FeCabReq><CantReg>${details.length}</CantReg><PtoVta>${PTO_VTA}</PtoVta>` +
          `<CbteTipo>6</CbteTipo></FeCabReq><FeDetReq>${details.join("")}</FeDetReq></FeCAEReq>`,
      )
    ).text,
    "FECAESolicitar",
  );
const detalles = (result: string) =>
  [...result.matchAll(/<FECAEDetResponse>(.*?)<\/FECAEDetResponse>/g)].map((m) => m[1] ?? "");

describe("a batch with a rejected detail in the middle", () => {
  it("authorizes the ones before it, rejects it on its merits, and the later ones with 10016", async () => {
    const result = await solicitar([b(1), b(2, "500"), b(3), b(4)]);
    expect(result).toContain("<Resultado>P</Resultado>");
    const [first, bad, third, fourth] = detalles(result);
    expect(first).toMatch(/<Resultado>A<\/Resultado>.*<CAE>\d{14}<\/CAE>/);
    // rejected for its own amounts, with its observations
    expect(bad).toContain("<Resultado>R</Resultado><Observaciones>");
    // numbering did not move: the following numbers are not the next one
    for (const later of [third, fourth]) {
      expect(later).toContain("<Resultado>R</Resultado>");
      expect(later).not.toContain("<Observaciones>");
    }
    expect(result).toContain("<Err><Code>10016</Code>");
    const ultimo = resultOf(
      (
        await fe(
          "FECompUltimoAutorizado",
          `${authXml(ta, CUIT)}<PtoVta>${PTO_VTA}</PtoVta><CbteTipo>6</CbteTipo>`,
        )
      ).text,
      "FECompUltimoAutorizado",
    );
    expect(ultimo).toContain("<CbteNro>1</CbteNro>");
    // re-sent with the next numbers, they are authorized
    expect(await solicitar([b(2), b(3)])).toContain("<Resultado>A</Resultado>");
    const stats = await control.stats("homologacion");
    expect(stats.details).toEqual({ sent: 6, authorized: 3, rejected: 3, largestBatch: 4 });
    const held = (await control.vouchers("homologacion")).series[`${CUIT}|${PTO_VTA}|6`];
    expect(held?.last).toBe(3);
    expect(held?.vouchers.map((v) => v.cbteNro).sort()).toEqual([1, 2, 3]);
    expect(held?.vouchers.every((v) => /^\d{14}$/.test(v.cae))).toBe(true);
  });
});

describe("faults drawn together, with random latencies", () => {
  it("each mode of the mix hits about its share, and the stats count what was injected", async () => {
    await control.setFault("homologacion", {
      service: "wsfe",
      mode: "error-501",
      rate: 0.3,
      mix: [{ mode: "unavailable", rate: 0.3 }],
      latencyMs: 0,
      latencyMaxMs: 5,
      operation: "FEDummy",
    });
    const answers: string[] = [];
    try {
      for (let i = 0; i < 200; i++) {
        const res = await fe("FEDummy", "");
        answers.push(
          res.status === 503 ? "unavailable" : res.text.includes("ERROR") ? "501" : "ok",
        );
      }
    } finally {
      await control.setFault("homologacion", { service: "wsfe", mode: "none" });
    }
    const count = (what: string) => answers.filter((a) => a === what).length;
    // 30% for each fault and 40% answered: a count outside 10%–50% of its own (20%–60% for
    // the answers) takes a broken draw, at odds below 1e-8. Comparing two counts with each other
    // would not: with 200 calls, 40% falls under 30% in about one run of twenty.
    for (const what of ["501", "unavailable"]) {
      expect(count(what)).toBeGreaterThan(20);
      expect(count(what)).toBeLessThan(100);
    }
    expect(count("ok")).toBeGreaterThan(40);
    expect(count("ok")).toBeLessThan(120);
    const faults = (await control.stats("homologacion")).faults ?? {};
    expect(faults["FEDummy error-501"]).toBe(count("501"));
    expect(faults["FEDummy unavailable"]).toBe(count("unavailable"));
  });

  it("refuses rates that add up to more than 1", async () => {
    await expect(
      control.setFault("homologacion", {
        service: "wsfe",
        mode: "error-501",
        rate: 0.6,
        mix: [{ mode: "timeout", rate: 0.6 }],
      }),
    ).rejects.toThrow(/add up to over 1/);
  });
});
