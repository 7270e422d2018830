import { makeControlClient, startSimulator, type Simulator } from "@pasarela/authority-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  classifyAsmxErr,
  makeAsmxClient,
  makeWsaaClient,
  xmlChild,
  xmlList,
  xmlString,
  type AsmxErr,
  type AsmxErrCodes,
  type LoginTicket,
} from "../src/index.js";
import { certificateFrom, signedTra } from "./sim-login.js";

const CUIT = "20111111112";
const NS = "http://ar.gov.afip.dif.FEV1/";
// WSFEv1's token code; the other sets play no part in these answers
const WSFE: AsmxErrCodes = {
  service: "wsfe",
  token: 600,
  notDelegated: new Set([601]),
  pointOfSale: new Set(),
  caller: new Set(),
};

/**
 * The authority's own refusals of a token, as the simulator words them over real HTTP, read by
 * the classifier: which ones are the test/production mix-up, which are worth a fresh TA and
 * which are nobody's to fix but the authority's or the gateway's.
 */
describe("WSFE token refusals from the simulator, classified", () => {
  let sim: Simulator;
  let ta: LoginTicket;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, timeoutHoldMs: 3_000 });
    const control = makeControlClient(sim.url);
    const { keyPem, certPem } = await certificateFrom(control, "homologacion", CUIT, "refusals");
    await control.delegate("homologacion", { cuit: CUIT, alias: "refusals", service: "wsfe" });
    const wsaa = makeWsaaClient({ endpoint: sim.endpoints("homologacion").wsaa, timeoutMs: 5_000 });
    const login = await wsaa.loginCms(signedTra(keyPem, certPem, "wsfe"));
    if (!login.ok) throw new Error(JSON.stringify(login.failure));
    ta = login.ticket;
  });

  afterAll(async () => {
    await sim?.close();
  });

  /** FECompUltimoAutorizado at `environment` with this token and sign; its first Err. */
  async function refusal(
    environment: "homologacion" | "produccion",
    token: string,
    sign: string,
  ): Promise<AsmxErr> {
    const client = makeAsmxClient({
      service: "wsfe",
      endpoint: sim.endpoints(environment).wsfe,
      namespace: NS,
      timeoutMs: 5_000,
    });
    const outcome = await client.call(
      "FECompUltimoAutorizado",
      `<Auth><Token>${token}</Token><Sign>${sign}</Sign><Cuit>${CUIT}</Cuit></Auth><PtoVta>1</PtoVta><CbteTipo>11</CbteTipo>`,
    );
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.failure));
    const err = xmlList(xmlChild(outcome.result, "Errors"), "Err")[0];
    return { code: Number(xmlString(err, "Code")), message: xmlString(err, "Msg") ?? "" };
  }

  const classify = (environment: "homologacion" | "produccion", err: AsmxErr, token: string) =>
    classifyAsmxErr<never>(WSFE, err, { cuit: CUIT, environment, token });

  it("a homologation TA sent to production WSFE is the mix-up, with the product's message", async () => {
    const err = await refusal("produccion", ta.token, ta.sign);
    expect(err.code).toBe(600);
    expect(err.message).toContain("verificar hash");
    const outcome = classify("produccion", err, ta.token);
    expect(outcome.kind === "done" && !outcome.result.ok && outcome.result.error).toEqual({
      code: "CERTIFICATE_ENVIRONMENT_MISMATCH",
      message: "Certificado no emitido por AC de confianza",
      details: { environment: "produccion", authorityCode: 600, authorityMessage: err.message },
    });
  });

  it("a garbled token is a 502, not the mix-up, though the authority also says 'verificar hash'", async () => {
    const garbled = "esto-no-es-un-token";
    const err = await refusal("homologacion", garbled, ta.sign);
    expect(err.message).toContain("verificar hash");
    const outcome = classify("homologacion", err, garbled);
    expect(outcome.kind === "done" && !outcome.result.ok && outcome.result.error.code).toBe(
      "AUTHORITY_UNAVAILABLE",
    );
  });

  it("an empty token (Parametro nulo o vacio) is a 502", async () => {
    const err = await refusal("homologacion", "", ta.sign);
    expect(err.message).toContain("Parametro nulo o vacio");
    const outcome = classify("homologacion", err, "");
    expect(outcome.kind === "done" && !outcome.result.ok && outcome.result.error.code).toBe(
      "AUTHORITY_UNAVAILABLE",
    );
  });

  it("a sign that does not verify for a token of the same environment is worth one fresh TA", async () => {
    const otherSign = Buffer.from("otra firma cualquiera de 32 bytes!").toString("base64");
    const err = await refusal("homologacion", ta.token, otherSign);
    expect(err.message).toContain("verificar hash");
    expect(classify("homologacion", err, ta.token).kind).toBe("stale-ticket");
  });

  it("the same TA where it belongs is accepted", async () => {
    const err = await refusal("homologacion", ta.token, ta.sign);
    // point of sale 1 is not enabled: past every token check
    expect(err.code).toBe(11002);
  });
});
