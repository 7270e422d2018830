import type { SoapFailure } from "@pasarela/authority";
import { describe, expect, it } from "vitest";
import { classifyPadronFailure, redact, type FaultContext } from "../../src/adapters/padron.js";
import { readJaxwsAnswer } from "../../src/adapters/jaxws-client.js";
import { constancia, personaA13 } from "../../src/adapters/records.js";

const NS = "http://a13.soap.ws.server.puc.sr/";
const envelope = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${body}</soap:Body></soap:Envelope>`;
const fault = (message: string, validation = true) =>
  envelope(
    `<soap:Fault><faultcode>soap:Server</faultcode><faultstring>${message}</faultstring>${validation ? `<detail><ns1:SRValidationException xmlns:ns1="${NS}"/></detail>` : ""}</soap:Fault>`,
  );

/** A token as WSAA issues it: `src` names the WSAA of one environment. */
const token = (cn: "wsaahomo" | "wsaa") =>
  Buffer.from(
    `<sso version="2.0"><id src="CN=${cn}, O=AFIP, C=AR, SERIALNUMBER=CUIT 33693450239" dst="CN=ws_sr_padron_a13, O=AFIP, C=AR"/><operation/></sso>`,
  ).toString("base64");

const context = (over: Partial<FaultContext> = {}): FaultContext => ({
  registry: "a13",
  cuit: "20111111112",
  environment: "homologacion",
  idPersona: "30712345671",
  ticket: { token: token("wsaahomo"), sign: "c2lnbg==" },
  ...over,
});

function classify(answer: { status: number; text: string }, ctx = context()) {
  const outcome = readJaxwsAnswer("getPersona", answer);
  if (outcome.ok) throw new Error("expected a failure");
  const attempt = classifyPadronFailure<never>(outcome, ctx);
  return attempt.kind === "stale-ticket"
    ? { kind: "stale-ticket", error: attempt.error }
    : { kind: "done", error: attempt.result.ok ? undefined : attempt.result.error };
}

describe("reading a JAX-WS answer", () => {
  it("finds the response element whatever the prefix, and a fault's SRValidationException", () => {
    const good = readJaxwsAnswer("getPersona", {
      status: 200,
      text: envelope(
        `<ns2:getPersonaResponse xmlns:ns2="${NS}"><personaReturn><persona><idPersona>1</idPersona></persona></personaReturn></ns2:getPersonaResponse>`,
      ),
    });
    expect(good).toEqual({
      ok: true,
      response: { personaReturn: { persona: { idPersona: "1" } } },
    });
    const bad = readJaxwsAnswer("getPersona", {
      status: 500,
      text: fault("No existe persona con ese Id"),
    });
    expect(bad).toMatchObject({
      ok: false,
      validation: true,
      failure: {
        kind: "fault",
        code: "Server",
        message: "No existe persona con ese Id",
        status: 500,
      },
    });
  });

  it("reads a 503 page and a 200 without the response as the authority's failure", () => {
    expect(
      readJaxwsAnswer("getPersona", {
        status: 503,
        text: "<HTML><BODY>Service Unavailable</BODY></HTML>",
      }),
    ).toMatchObject({
      ok: false,
      failure: { kind: "http", status: 503 },
    });
    expect(
      readJaxwsAnswer("getPersona", { status: 200, text: envelope("<other/>") }),
    ).toMatchObject({
      ok: false,
      failure: { kind: "unreadable" },
    });
  });
});

describe("classifying the registry's faults", () => {
  it.each([
    [
      "Este token no le permite actuar en representacion de la CUIT 20111111112",
      "REPRESENTADA_NOT_DELEGATED",
    ],
    ["No existe persona con ese Id", "PERSONA_NOT_FOUND"],
    ["La Clave (CUIT/CUIL) consultada es inexistente", "PERSONA_NOT_FOUND"],
    ["La clave (CUIT/CUIL) consultada se encuentra INACTIVA", "PERSONA_INACTIVA"],
    ["El Id de la persona no es valido", "INVALID_FIELD"],
    ["Falta token y/o sign.", "stale-ticket"],
    ["Token malformado", "stale-ticket"],
    ["No autorizado, par token/sign invalido.", "stale-ticket"],
    ["Debe enviar la CUIT representada", "AUTHORITY_UNAVAILABLE"],
    ["java.lang.NullPointerException", "AUTHORITY_UNAVAILABLE"],
  ])("%s → %s", (message, expected) => {
    const got = classify({ status: 500, text: fault(message) });
    expect(got.kind === "stale-ticket" ? "stale-ticket" : got.error?.code).toBe(expected);
  });

  it("answers 502, never a 4xx, for an outage or a timeout", () => {
    expect(classify({ status: 503, text: "down" }).error?.code).toBe("AUTHORITY_UNAVAILABLE");
    const timeout: SoapFailure = { kind: "timeout", timeoutMs: 100 };
    const attempt = classifyPadronFailure<never>(
      { failure: timeout, validation: false },
      context(),
    );
    expect(attempt.kind === "done" && !attempt.result.ok && attempt.result.error.code).toBe(
      "AUTHORITY_UNAVAILABLE",
    );
  });

  it("never quotes the token or the sign the registry echoes back", () => {
    const ctx = context();
    const echoed = `No se pudo verificar que ${ctx.ticket!.sign} contenga una firma valida de ${ctx.ticket!.token}`;
    const got = classify({ status: 500, text: fault(echoed) }, ctx);
    expect(got.kind).toBe("stale-ticket");
    const text = JSON.stringify(got.error);
    expect(text).not.toContain(ctx.ticket!.token);
    expect(text).not.toContain(ctx.ticket!.sign);
    expect(text).toContain("<token>");
    expect(redact("a XYZ b", { token: "XYZ", sign: "" })).toBe("a <token> b");
  });

  it("calls a signature refusal the mix-up only for a token of the other environment's WSAA", () => {
    const message = "No se pudo verificar que x contenga una firma valida de y";
    const mixed = classify(
      { status: 500, text: fault(message) },
      context({ environment: "produccion", ticket: { token: token("wsaahomo"), sign: "s" } }),
    );
    expect(mixed.error?.code).toBe("CERTIFICATE_ENVIRONMENT_MISMATCH");
    const own = classify({ status: 500, text: fault(message) }, context());
    expect(own.kind).toBe("stale-ticket");
  });
});

describe("reading the registry's records", () => {
  it("A13: one address or many, absent fields null, dates as yyyy-mm-dd", () => {
    const persona = personaA13(
      {
        persona: {
          idPersona: "27251112229",
          apellido: "LOPEZ",
          fechaNacimiento: "1976-05-04T12:00:00-03:00",
          claveInactivaAsociada: "20251112224",
          domicilio: { direccion: "TUCUMAN 540", codigoPostal: "1049", idProvincia: "0" },
          idActividadPrincipal: "477190",
        },
      },
      "27251112229",
    );
    expect(persona).toMatchObject({
      idPersona: "27251112229",
      apellido: "LOPEZ",
      razonSocial: null,
      fechaNacimiento: "1976-05-04",
      clavesInactivasAsociadas: ["20251112224"],
      documento: null,
      actividadPrincipal: { id: 477190, orden: 1 },
    });
    expect(persona?.domicilios).toEqual([
      expect.objectContaining({
        direccion: "TUCUMAN 540",
        codigoPostal: "1049",
        idProvincia: 0,
        piso: null,
      }),
    ]);
    expect(personaA13({}, "1")).toBeUndefined();
  });

  it("constancia: partial-data errors as data, the withheld block null", () => {
    const record = constancia(
      {
        datosGenerales: {
          idPersona: "30717778886",
          razonSocial: "T S.A.",
          domicilioFiscal: { codPostal: "8300" },
        },
        errorRegimenGeneral: { error: "baja de oficio", mensaje: "No cumple" },
      },
      "30717778886",
    );
    expect(record.regimenGeneral).toBeNull();
    expect(record.errorRegimenGeneral).toEqual({
      errores: ["baja de oficio"],
      mensaje: "No cumple",
    });
    expect(record.datosGenerales?.domicilioFiscal?.codigoPostal).toBe("8300");
    expect(record.errorConstancia).toBeNull();
  });
});
