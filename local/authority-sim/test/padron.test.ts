import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser } from "fast-xml-parser";
import * as soap from "soap";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli.js";
import { startSimulator } from "../src/index.js";
import type { ControlClient, Simulator } from "../src/index.js";
import {
  SOAP11,
  faultCode,
  faultString,
  login,
  makeControlClient,
  makeIdentity,
  soapCall,
} from "./helpers.js";
import type { Identity, Ta } from "./helpers.js";

const ISSUER = "20111111112";
const A13_NS = "http://a13.soap.ws.server.puc.sr/";
const A10_NS = "http://a10.soap.ws.server.puc.sr/";
const A5_NS = "http://a5.soap.ws.server.puc.sr/";

let sim: Simulator;
let control: ControlClient;
let id: Identity;
const tas: Record<"a13" | "a10" | "a5", Ta> = {} as Record<"a13" | "a10" | "a5", Ta>;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "authority-sim-padron-"));
  sim = await startSimulator({ port: 0, timeoutHoldMs: 1_500 });
  control = makeControlClient(sim.url);
  id = await makeIdentity(control, "homologacion", ISSUER, "padron", []);
  for (const service of [
    "ws_sr_padron_a13",
    "ws_sr_padron_a10",
    "ws_sr_constancia_inscripcion",
  ] as const) {
    await control.delegate("homologacion", { cuit: ISSUER, alias: "padron", service });
  }
  tas.a13 = await login(sim, "homologacion", id, "ws_sr_padron_a13");
  tas.a10 = await login(sim, "homologacion", id, "ws_sr_padron_a10");
  tas.a5 = await login(sim, "homologacion", id, "ws_sr_constancia_inscripcion");
});

afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

type Which = "a13" | "a10" | "a5";
const NS: Record<Which, string> = { a13: A13_NS, a10: A10_NS, a5: A5_NS };
const url = (which: Which) => {
  const e = sim.endpoints("homologacion");
  return which === "a13" ? e.padronA13 : which === "a10" ? e.padronA10 : e.constancia;
};

/** A request as the authority documents it: `ns2:` operation, unqualified children. */
async function jaxws(
  which: Which,
  op: string,
  inner: string,
  raw?: string,
): Promise<{ status: number; text: string }> {
  const body =
    raw ??
    `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${SOAP11}">` +
      `<soapenv:Body><ns2:${op} xmlns:ns2="${NS[which]}">${inner}</ns2:${op}></soapenv:Body></soapenv:Envelope>`;
  const res = await fetch(url(which), {
    method: "POST",
    headers: { "content-type": "text/xml; charset=utf-8", soapaction: '""' },
    body,
  });
  return { status: res.status, text: await res.text() };
}

const creds = (which: Which, cuit = ISSUER, ta: Ta = tas[which]) =>
  `<token>${ta.token}</token><sign>${ta.sign}</sign><cuitRepresentada>${cuit}</cuitRepresentada>`;

const getPersona = (which: Which, idPersona: string, op = "getPersona") =>
  jaxws(which, op, `${creds(which)}<idPersona>${idPersona}</idPersona>`);

const parser = new XMLParser({ removeNSPrefix: true, parseTagValue: false, isArray: () => false });
type Tree = Record<string, unknown>;
/** The parsed `<op>Response` element. */
function responseOf(text: string, op: string): Tree {
  const doc = parser.parse(text) as Tree;
  const body = (doc.Envelope as Tree).Body as Tree;
  return body[`${op}Response`] as Tree;
}

/** The child element names of `tag`'s first occurrence, in document order. */
function childNames(text: string, tag: string): string[] {
  const start = text.indexOf(`<${tag}>`);
  const end = text.indexOf(`</${tag}>`, start);
  const inner = text.slice(start + tag.length + 2, end);
  const names: string[] = [];
  let depth = 0;
  for (const m of inner.matchAll(/<(\/?)([A-Za-z_][\w.]*)[^>]*?(\/?)>/g)) {
    if (m[1] === "/") depth--;
    else {
      if (depth === 0) names.push(m[2] ?? "");
      if (m[3] !== "/") depth++;
    }
  }
  return names;
}

const sorted = (names: string[]) => [...names].sort((a, b) => a.localeCompare(b, "en"));

describe("registry services (JAX-WS): ws_sr_padron_a13, ws_sr_padron_a10, constancia", () => {
  it("answers dummy on each real path with no token", async () => {
    for (const which of ["a13", "a10", "a5"] as const) {
      const res = await jaxws(which, "dummy", "");
      expect(res.status).toBe(200);
      expect(res.text).toContain(`<ns2:dummyResponse xmlns:ns2="${NS[which]}">`);
      expect(res.text).toContain(
        "<return><appserver>OK</appserver><authserver>OK</authserver><dbserver>OK</dbserver></return>",
      );
    }
    expect(url("a13")).toMatch(/\/homologacion\/sr-padron\/webservices\/personaServiceA13$/);
    expect(url("a5")).toMatch(/\/sr-padron\/webservices\/personaServiceA5$/);
  });

  it("A13 getPersona: the person with every address, main activity, children unqualified and alphabetical", async () => {
    const res = await getPersona("a13", "30712345671");
    expect(res.status).toBe(200);
    expect(res.text).toContain(`<ns2:getPersonaResponse xmlns:ns2="${A13_NS}"><personaReturn>`);
    const persona = (responseOf(res.text, "getPersona").personaReturn as Tree).persona as Tree;
    expect(persona).toMatchObject({
      idPersona: "30712345671",
      razonSocial: "DISTRIBUIDORA DEL PLATA S.R.L.",
      tipoPersona: "JURIDICA",
      tipoClave: "CUIT",
      estadoClave: "ACTIVO",
      idActividadPrincipal: "463100",
      descripcionActividadPrincipal: "VENTA AL POR MAYOR DE PRODUCTOS ALIMENTICIOS",
      mesCierre: "6",
    });
    expect(res.text).toContain("<tipoDomicilio>FISCAL</tipoDomicilio>");
    expect(res.text).toContain("<tipoDomicilio>LEGAL/REAL</tipoDomicilio>");
    expect(childNames(res.text, "personaReturn")).toEqual(["metadata", "persona"]);
    const fields = childNames(res.text, "persona");
    expect(fields).toEqual(sorted(fields));
    expect(childNames(res.text, "domicilio")).toEqual(sorted(childNames(res.text, "domicilio")));
    expect(res.text).toMatch(
      /<metadata><fechaHora>\d{4}-\d\d-\d\dT[\d:.]+-03:00<\/fechaHora><servidor>setiwsh2<\/servidor><\/metadata>/,
    );
  });

  it("A13 getIdPersonaListByDocumento: every key of a DNI, inactive ones too; none for an unknown one", async () => {
    const two = await jaxws(
      "a13",
      "getIdPersonaListByDocumento",
      `${creds("a13")}<documento>25111222</documento>`,
    );
    expect(two.status).toBe(200);
    expect(two.text).toContain(
      "<idPersonaListReturn><idPersona>20251112224</idPersona><idPersona>27251112229</idPersona><metadata>",
    );
    const none = await jaxws(
      "a13",
      "getIdPersonaListByDocumento",
      `${creds("a13")}<documento>99888777</documento>`,
    );
    expect(none.status).toBe(200);
    expect(childNames(none.text, "idPersonaListReturn")).toEqual(["metadata"]);
  });

  it("A10 getPersona: codPostal, dependencia and the main activity", async () => {
    const res = await getPersona("a10", "27283334444");
    expect(res.status).toBe(200);
    const persona = (responseOf(res.text, "getPersona").personaReturn as Tree).persona as Tree;
    expect(persona).toMatchObject({
      apellido: "GOMEZ",
      nombre: "ANA MARIA",
      numeroDocumento: "28333444",
      tipoDocumento: "DNI",
      idActividadPrincipal: "960201",
    });
    expect(persona.domicilio).toMatchObject({ codPostal: "5500", descripcionProvincia: "MENDOZA" });
    expect(persona.dependencia).toMatchObject({ idDependencia: "107" });
  });

  it("constancia getPersona_v2: general data, régimen general taxes (30 IVA) and activities", async () => {
    const res = await getPersona("a5", "30712345671", "getPersona_v2");
    expect(res.status).toBe(200);
    expect(childNames(res.text, "personaReturn")).toEqual([
      "datosGenerales",
      "datosRegimenGeneral",
      "metadata",
    ]);
    const ret = responseOf(res.text, "getPersona_v2").personaReturn as Tree;
    expect((ret.datosGenerales as Tree).domicilioFiscal).toMatchObject({
      codPostal: "2000",
      direccion: "SAN MARTIN 455",
      tipoDomicilio: "FISCAL",
    });
    expect(res.text).toContain(
      "<impuesto><descripcionImpuesto>GANANCIAS SOCIEDADES</descripcionImpuesto><idImpuesto>10</idImpuesto>",
    );
    expect(res.text).toContain(
      "<descripcionImpuesto>IVA</descripcionImpuesto><idImpuesto>30</idImpuesto>",
    );
    expect(res.text).toContain("<nomenclador>883</nomenclador>");
  });

  it("constancia: a monotributista's category, an exempt and a non-taxable entity's VAT tax", async () => {
    const mono = await getPersona("a5", "27283334444", "getPersona_v2");
    expect(childNames(mono.text, "personaReturn")).toEqual([
      "datosGenerales",
      "datosMonotributo",
      "metadata",
    ]);
    expect(mono.text).toContain(
      "<categoriaMonotributo><descripcionCategoria>D LOCACIONES DE SERVICIOS</descripcionCategoria><idCategoria>4</idCategoria><idImpuesto>20</idImpuesto><periodo>202402</periodo></categoriaMonotributo>",
    );
    expect((await getPersona("a5", "30709998885", "getPersona_v2")).text).toContain(
      "<idImpuesto>32</idImpuesto>",
    );
    expect((await getPersona("a5", "30715556665", "getPersona_v2")).text).toContain(
      "<idImpuesto>34</idImpuesto>",
    );
    expect((await getPersona("a5", "23224445555", "getPersona_v2")).text).toContain(
      "<idImpuesto>33</idImpuesto>",
    );
    const cf = await getPersona("a5", "20312223334", "getPersona_v2");
    expect(childNames(cf.text, "personaReturn")).toEqual(["datosGenerales", "metadata"]);
  });

  it("constancia: partial-data errors come inside a 200, with the recorded texts", async () => {
    const rg = await getPersona("a5", "30717778886", "getPersona_v2");
    expect(rg.status).toBe(200);
    expect(childNames(rg.text, "personaReturn")).toEqual([
      "datosGenerales",
      "errorRegimenGeneral",
      "metadata",
    ]);
    expect(rg.text).toContain(
      "<errorRegimenGeneral><error>El contribuyente cuenta con impuestos con baja de oficio por Decreto 1299/98</error><mensaje>No cumple con las condiciones para enviar datos del regimen general</mensaje></errorRegimenGeneral>",
    );
    const mt = await getPersona("a5", "20387776665", "getPersona_v2");
    expect(mt.text).toContain(
      "<errorMonotributo><error>Datos de monotributo incompletos- no posee categoría</error><mensaje>No cumple con las condiciones para enviar datos monotributo</mensaje></errorMonotributo>",
    );
    const whole = await getPersona("a5", "30714443336", "getPersona_v2");
    expect(whole.status).toBe(200);
    expect(childNames(whole.text, "personaReturn")).toEqual(["errorConstancia", "metadata"]);
  });

  it("constancia getPersonaList_v2: an unknown id comes back as a persona holding only errorConstancia", async () => {
    const res = await jaxws(
      "a5",
      "getPersonaList_v2",
      `${creds("a5")}<idPersona>30000000007</idPersona><idPersona>20444555662</idPersona>`,
    );
    expect(res.status).toBe(200);
    expect(res.text).toContain(
      "<persona><errorConstancia><error>No existe persona con ese Id</error><idPersona>20444555662</idPersona></errorConstancia></persona>",
    );
    expect(res.text).toContain("<razonSocial>EMPRESA DE PRUEBA S.A.</razonSocial>");
  });

  it.each([
    ["a13", "getPersona", "20444555662", "No existe persona con ese Id"],
    ["a10", "getPersona", "20444555662", "No existe persona con ese Id"],
    ["a5", "getPersona_v2", "20444555662", "No existe persona con ese Id"],
    ["a13", "getPersona", "20111111111", "El Id de la persona no es valido"],
    ["a5", "getPersona_v2", "123", "El Id de la persona no es valido"],
    ["a13", "getPersona", "20251112224", "La clave (CUIT/CUIL) consultada se encuentra INACTIVA"],
    ["a10", "getPersona", "20251112224", "La clave (CUIT/CUIL) consultada se encuentra INACTIVA"],
  ] as const)(
    "%s %s %s faults with HTTP 500 %s and SRValidationException",
    async (which, op, idPersona, message) => {
      const res = await getPersona(which, idPersona, op);
      expect(res.status).toBe(500);
      expect(faultString(res.text)).toBe(message);
      expect(res.text).toContain("<detail><ns1:SRValidationException");
    },
  );

  it("constancia shows an inactive key (estadoClave INACTIVO) where A13 and A10 refuse it", async () => {
    const res = await getPersona("a5", "20251112224", "getPersona_v2");
    expect(res.status).toBe(200);
    expect(res.text).toContain("<estadoClave>INACTIVO</estadoClave>");
    const active = await getPersona("a13", "27251112229");
    expect(active.text).toContain("<claveInactivaAsociada>20251112224</claveInactivaAsociada>");
  });

  it("refuses a represented CUIT outside the token's relations with the registry's text", async () => {
    const res = await jaxws(
      "a13",
      "getPersona",
      `${creds("a13", "30000000007")}<idPersona>30712345671</idPersona>`,
    );
    expect(res.status).toBe(500);
    expect(faultString(res.text)).toBe(
      "Este token no le permite actuar en representacion de la CUIT 30000000007",
    );
  });

  it("refuses another service's token, a forged sign, a missing token or representada", async () => {
    const other = await jaxws(
      "a10",
      "getPersona",
      `${creds("a10", ISSUER, tas.a13)}<idPersona>30712345671</idPersona>`,
    );
    expect(faultString(other.text)).toBe("No autorizado, par token/sign invalido.");
    const forged = await jaxws(
      "a13",
      "getPersona",
      `${creds("a13", ISSUER, { ...tas.a13, sign: Buffer.from("x".repeat(32)).toString("base64") })}<idPersona>30712345671</idPersona>`,
    );
    expect(faultString(forged.text)).toMatch(
      /^No se pudo verificar que .+ contenga una firma valida de /,
    );
    const none = await jaxws(
      "a13",
      "getPersona",
      "<token></token><sign></sign><idPersona>30712345671</idPersona>",
    );
    expect(faultString(none.text)).toBe("Falta token y/o sign.");
    const malformed = await jaxws(
      "a13",
      "getPersona",
      `<token>bm90IGEgdG9rZW4=</token><sign>x</sign><cuitRepresentada>${ISSUER}</cuitRepresentada><idPersona>30712345671</idPersona>`,
    );
    expect(faultString(malformed.text)).toBe("Token malformado");
    const noCuit = await jaxws(
      "a13",
      "getPersona",
      `<token>${tas.a13.token}</token><sign>${tas.a13.sign}</sign><idPersona>30712345671</idPersona>`,
    );
    expect(faultString(noCuit.text)).toBe("Debe enviar la CUIT representada");
  });

  it("fails the whole request for a qualified child, a text where a long goes, a SOAP 1.2 envelope", async () => {
    const qualified = await jaxws(
      "a13",
      "getPersona",
      "",
      `<soapenv:Envelope xmlns:soapenv="${SOAP11}"><soapenv:Body><a13:getPersona xmlns:a13="${A13_NS}">` +
        `<a13:token>${tas.a13.token}</a13:token><a13:sign>${tas.a13.sign}</a13:sign>` +
        `<a13:cuitRepresentada>${ISSUER}</a13:cuitRepresentada><a13:idPersona>30712345671</a13:idPersona>` +
        `</a13:getPersona></soapenv:Body></soapenv:Envelope>`,
    );
    expect(qualified.status).toBe(500);
    expect(faultCode(qualified.text)).toBe("soap:Client");
    expect(faultString(qualified.text)).toContain("Unmarshalling Error: unexpected element");
    const text = await getPersona("a13", "veinte");
    expect(faultString(text.text)).toContain("Unmarshalling Error");
    const soap12 = await jaxws(
      "a13",
      "dummy",
      "",
      `<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body><ns2:dummy xmlns:ns2="${A13_NS}"/></s:Body></s:Envelope>`,
    );
    expect(soap12.status).toBe(500);
    expect(faultCode(soap12.text)).toBe("soap:VersionMismatch");
  });

  it("serves its own JAX-WS WSDL, which the soap package reads and calls through", async () => {
    const res = await fetch(`${url("a13")}?wsdl`);
    const wsdl = await res.text();
    expect(wsdl).toContain('elementFormDefault="unqualified"');
    expect(wsdl).toContain('soapAction=""');
    const client = await soap.createClientAsync(`${url("a5")}?wsdl`);
    const out = (await soapCall(client, "getPersona_v2", {
      token: tas.a5.token,
      sign: tas.a5.sign,
      cuitRepresentada: ISSUER,
      idPersona: "27283334444",
    })) as {
      personaReturn: { datosMonotributo: { categoriaMonotributo: { idCategoria: number } } };
    };
    expect(out.personaReturn.datosMonotributo.categoriaMonotributo.idCategoria).toBe(4);
  });

  it("fault modes: error-501 faults (dummy reports the database), unavailable answers 503", async () => {
    const service = "ws_sr_padron_a13" as const;
    try {
      await control.setFault("homologacion", { service, mode: "error-501" });
      const down = await getPersona("a13", "30712345671");
      expect(down.status).toBe(500);
      expect(faultCode(down.text)).toBe("soap:Server");
      expect((await jaxws("a13", "dummy", "")).text).toContain("<dbserver>ERROR</dbserver>");
      // the other registry services are not affected
      expect((await getPersona("a10", "30712345671")).status).toBe(200);
      await control.setFault("homologacion", { service, mode: "unavailable" });
      expect((await getPersona("a13", "30712345671")).status).toBe(503);
    } finally {
      await control.setFault("homologacion", { service, mode: "none" });
    }
    const stats = await control.stats("homologacion");
    expect(stats.requests["ws_sr_padron_a13.getPersona"]).toBeGreaterThan(0);
  });

  it("sim persona registers a person from flags or a JSON file; person stays an alias", async () => {
    const file = join(dir, "persona.json");
    writeFileSync(
      file,
      JSON.stringify({
        condicionIva: "monotributo",
        apellido: "DIAZ",
        nombre: "ROCIO",
        documento: { numero: "40111222" },
        categoriaMonotributo: {
          idCategoria: 1,
          descripcionCategoria: "A LOCACIONES DE SERVICIOS",
          periodo: 202501,
        },
        domicilios: [
          {
            direccion: "ITALIA 12",
            codigoPostal: "7600",
            idProvincia: 1,
            descripcionProvincia: "BUENOS AIRES",
            localidad: "MAR DEL PLATA",
          },
        ],
      }),
    );
    const cuit = "27401112222";
    expect(
      await runCli(
        ["persona", "--environment", "homologacion", "--cuit", cuit, "--json", file],
        control,
      ),
    ).toBe('{"ok":true}');
    const constancia = await getPersona("a5", cuit, "getPersona_v2");
    expect(constancia.text).toContain("<idCategoria>1</idCategoria>");
    expect(constancia.text).toContain("<codPostal>7600</codPostal>");
    const byDni = await jaxws(
      "a13",
      "getIdPersonaListByDocumento",
      `${creds("a13")}<documento>40111222</documento>`,
    );
    expect(byDni.text).toContain(`<idPersona>${cuit}</idPersona>`);
    // flags change what the file says
    await expect(
      runCli(
        [
          "person",
          "--environment",
          "homologacion",
          "--cuit",
          cuit,
          "--json",
          file,
          "--condicion-iva",
          "responsable_inscripto",
        ],
        control,
      ),
    ).rejects.toThrow(/only a monotributista has a category/);
    expect(
      await runCli(
        [
          "person",
          "--environment",
          "homologacion",
          "--cuit",
          cuit,
          "--condicion-iva",
          "exento",
          "--apellido",
          "DIAZ",
        ],
        control,
      ),
    ).toBe('{"ok":true}');
    expect((await getPersona("a5", cuit, "getPersona_v2")).text).toContain(
      "<idImpuesto>32</idImpuesto>",
    );
    await expect(
      runCli(
        [
          "persona",
          "--environment",
          "homologacion",
          "--cuit",
          cuit,
          "--json",
          join(dir, "none.json"),
        ],
        control,
      ),
    ).rejects.toThrow(/--json/);
    expect(
      await runCli(["forget-persona", "--environment", "homologacion", "--cuit", cuit], control),
    ).toBe('{"ok":true,"removed":true}');
  });

  it("a state file from before the seeded registry grew gets the persons it lacks, keeping its own", async () => {
    const file = join(dir, "state.json");
    const first = await startSimulator({ port: 0, stateFile: file });
    await makeControlClient(first.url).forgetPerson("homologacion", { cuit: "30712345671" });
    await first.close();
    const old = JSON.parse(readFileSync(file, "utf8")) as {
      envs: Record<
        string,
        { persons: Record<string, unknown>; registrySeed?: number; faults: Record<string, unknown> }
      >;
    };
    for (const env of Object.values(old.envs)) {
      env.persons = { "30000000007": env.persons["30000000007"] };
      delete env.registrySeed;
      delete env.faults.ws_sr_padron_a13;
    }
    writeFileSync(file, JSON.stringify(old));
    const second = await startSimulator({ port: 0, stateFile: file });
    try {
      const state = JSON.parse(readFileSync(file, "utf8")) as typeof old;
      const homo = state.envs.homologacion!;
      expect(Object.keys(homo.persons)).toContain("27251112229");
      expect(homo.faults.ws_sr_padron_a13).toEqual({ mode: "none", rate: 1, latencyMs: 0 });
      // once upgraded, a person it forgets stays forgotten
      await makeControlClient(second.url).forgetPerson("homologacion", { cuit: "27251112229" });
    } finally {
      await second.close();
    }
    const third = await startSimulator({ port: 0, stateFile: file });
    try {
      const state = JSON.parse(readFileSync(file, "utf8")) as typeof old;
      expect(Object.keys(state.envs.homologacion!.persons)).not.toContain("27251112229");
    } finally {
      await third.close();
    }
  });
});
