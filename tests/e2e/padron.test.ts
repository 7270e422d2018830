import { readFileSync } from "node:fs";
import { makeControlClient, type ControlClient } from "@pasarela/authority-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  http,
  newAccount,
  opensslKeyAndCsr,
  randomCuit,
  register,
  representadaCreateArgs,
  scratch,
  signCsr,
  simStats,
  type Account,
  type ErrorBody,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";

const env = "homologacion" as const;
const AUTHORITY_TIMEOUT_MS = 1_500;
const REGISTRY_SERVICES = [
  "ws_sr_padron_a13",
  "ws_sr_padron_a10",
  "ws_sr_constancia_inscripcion",
] as const;
type RegistryService = (typeof REGISTRY_SERVICES)[number];

/** Who the seeded registry of the simulator holds (authority-sim padron/seed.ts). */
const SEEDED = {
  riCompany: "30712345671",
  riPerson: "20172543597",
  monotributista: "27283334444",
  exemptFoundation: "30709998885",
  afip: "33693450239",
  nonTaxable: "30715556665",
  notRegistered: "23224445555",
  finalConsumer: "20312223334",
  inactiveKey: "20251112224",
  activeSuccessor: "27251112229",
  regimenWithheld: "30717778886",
  monotributoWithheld: "20387776665",
  constanciaRefused: "30714443336",
} as const;
/** A CUIT with a valid check digit that the registry does not hold. */
const NOBODY = "20444555662";

interface Cliente {
  id: string;
  docTipo: number;
  docNro: string;
  razonSocial: string;
  condicionIvaReceptorId: number | null;
  domicilio: string | null;
  email: string | null;
}

describe("registry lookups end to end: /api/padron/* and autocompletar over real processes", () => {
  let stack: E2EStack;
  let control: ControlClient;
  let dir: Scratch;
  let account: Account;
  /** every registry service and wsfe delegated; point of sale 3 for wsfe */
  let main: Registered;
  /** only ws_sr_padron_a13 delegated */
  let onlyA13: Registered;
  /** wsfe delegated, no registry service */
  let none: Registered;
  /** a representative's certificate registered for a taxpayer that delegated nothing to it */
  let represented: Registered;

  const post = (path: string, body: unknown, authorization: string | null = account.rw) =>
    http(stack, "POST", path, authorization ?? undefined, body);
  const as = (who: Registered, extra: Record<string, unknown> = {}) => ({
    environment: who.environment,
    representada: who.cuit,
    ...extra,
  });
  const authorityTotal = async () => (await simStats(stack, env)).total;
  const delegate = (cuit: string, alias: string, services: readonly RegistryService[]) =>
    Promise.all(services.map((service) => control.delegate(env, { cuit, alias, service })));

  async function registerRepresented(): Promise<Registered> {
    const cuit = randomCuit("30");
    const representative = randomCuit();
    const alias = "estudio-padron";
    const [created, { keyFile, csrFile }] = await Promise.all([
      stack.admin<{ representadaId: string }>(
        ...representadaCreateArgs(account.accountId, cuit, env),
      ),
      opensslKeyAndCsr(dir, representative, alias),
    ]);
    const pem = await signCsr(stack, dir, env, readFileSync(csrFile, "utf8"));
    await stack.admin(
      "certificate",
      "upload",
      "--representada",
      created.representadaId,
      "--cert",
      dir.file("representative.pem", pem),
      "--key",
      keyFile,
    );
    // the representative delegates to itself: the represented CUIT is in no token's relations
    await delegate(representative, alias, REGISTRY_SERVICES);
    return { representadaId: created.representadaId, cuit, alias, environment: env };
  }

  beforeAll(async () => {
    stack = await startE2EStack({
      env: { AUTHORITY_TIMEOUT_MS: String(AUTHORITY_TIMEOUT_MS), LOG_LEVEL: "info" },
    });
    if (!stack.simulatorUrl) throw new Error("the stack runs no simulator");
    control = makeControlClient(stack.simulatorUrl);
    dir = scratch();
    account = await newAccount(stack, "Padrón");
    const accountId = account.accountId;
    [main, onlyA13, none] = await Promise.all([
      register(stack, dir, {
        accountId,
        environment: env,
        ptoVta: 3,
        delegate: ["wsfe"],
        pos: [{ ptoVta: 3, service: "wsfe" }],
      }),
      register(stack, dir, { accountId, environment: env }),
      register(stack, dir, { accountId, environment: env, delegate: ["wsfe"] }),
    ]);
    await Promise.all([
      delegate(main.cuit, main.alias, REGISTRY_SERVICES),
      delegate(onlyA13.cuit, onlyA13.alias, ["ws_sr_padron_a13"]),
    ]);
    represented = await registerRepresented();
  });

  afterAll(async () => {
    await stack?.teardown();
    dir?.remove();
  });

  describe("/api/padron/a13", () => {
    it("answers the person: identity, kind, key state, names, every address, main activity; a read_only key may ask", async () => {
      const response = await post(
        "/api/padron/a13",
        as(main, { idPersona: SEEDED.riCompany }),
        account.ro,
      );
      expect(response.status, response.text).toBe(200);
      const persona = response.json<Record<string, unknown>>();
      expect(persona).toMatchObject({
        idPersona: SEEDED.riCompany,
        tipoPersona: "JURIDICA",
        tipoClave: "CUIT",
        estadoClave: "ACTIVO",
        razonSocial: "DISTRIBUIDORA DEL PLATA S.R.L.",
        apellido: null,
        fechaContratoSocial: "2012-06-15",
        mesCierre: 6,
        clavesInactivasAsociadas: [],
        actividadPrincipal: {
          id: 463100,
          descripcion: "VENTA AL POR MAYOR DE PRODUCTOS ALIMENTICIOS",
          orden: 1,
        },
      });
      const domicilios = persona.domicilios as Record<string, unknown>[];
      expect(domicilios.map((d) => d.tipoDomicilio)).toEqual(["FISCAL", "LEGAL/REAL"]);
      expect(domicilios[0]).toMatchObject({
        direccion: "SAN MARTIN 455",
        calle: "SAN MARTIN",
        numero: 455,
        localidad: "ROSARIO",
        codigoPostal: "2000",
        idProvincia: 12,
        descripcionProvincia: "SANTA FE",
      });
    });

    it("takes idPersona as a number too, and names an individual's document and earlier keys", async () => {
      const response = await post(
        "/api/padron/a13",
        as(main, { idPersona: Number(SEEDED.activeSuccessor) }),
      );
      expect(response.status, response.text).toBe(200);
      expect(response.json()).toMatchObject({
        idPersona: SEEDED.activeSuccessor,
        tipoPersona: "FISICA",
        apellido: "LOPEZ",
        nombre: "CARLA",
        documento: { tipo: "DNI", numero: "25111222" },
        fechaNacimiento: "1976-05-04",
        clavesInactivasAsociadas: [SEEDED.inactiveKey],
      });
    });

    it("answers 404 No existe persona con ese Id for an unknown person", async () => {
      const response = await post("/api/padron/a13", as(main, { idPersona: NOBODY }));
      expect(response.status, response.text).toBe(404);
      expect(response.json<ErrorBody>()).toMatchObject({
        code: "PERSONA_NOT_FOUND",
        error: "No existe persona con ese Id",
        details: { idPersona: NOBODY, service: "ws_sr_padron_a13" },
      });
    });

    it("answers 400 naming idPersona for an invalid id, before the authority", async () => {
      const before = await authorityTotal();
      for (const idPersona of ["30712345672", "3071234567", "30-71234567-1", "abc", 12]) {
        const response = await post("/api/padron/a13", as(main, { idPersona }));
        expect(response.status, String(idPersona)).toBe(400);
        const error = response.json<ErrorBody>();
        expect(error.code).toBe("INVALID_FIELD");
        expect(error.error).toContain("idPersona");
      }
      const missing = await post("/api/padron/a13", as(main));
      expect(missing.json<ErrorBody>().error).toBe("El campo idPersona es obligatorio");
      expect(await authorityTotal()).toBe(before);
    });

    it("answers 404 PERSONA_INACTIVA for an inactive key, pointing at the constancia", async () => {
      const response = await post("/api/padron/a13", as(main, { idPersona: SEEDED.inactiveKey }));
      expect(response.status, response.text).toBe(404);
      const error = response.json<ErrorBody>();
      expect(error.code).toBe("PERSONA_INACTIVA");
      expect(error.error).toContain(SEEDED.inactiveKey);
      expect(error.error).toContain("/api/padron/constancia");
    });
  });

  describe("/api/padron/documento", () => {
    it("answers every key of a DNI, the inactive one too", async () => {
      const response = await post("/api/padron/documento", as(main, { documento: "25111222" }));
      expect(response.status, response.text).toBe(200);
      expect(response.json()).toEqual({
        idPersonas: [SEEDED.inactiveKey, SEEDED.activeSuccessor],
      });
    });

    it("answers {idPersonas: []} for a document nobody holds, and 400 for one that is not digits", async () => {
      const empty = await post("/api/padron/documento", as(main, { documento: 99888777 }));
      expect(empty.status, empty.text).toBe(200);
      expect(empty.text).toBe('{"idPersonas":[]}');
      const invalid = await post("/api/padron/documento", as(main, { documento: "25.111.222" }));
      expect(invalid.status).toBe(400);
      expect(invalid.json<ErrorBody>().error).toContain("documento");
    });
  });

  describe("/api/padron/a10", () => {
    it("answers the person with its dependencia and addresses", async () => {
      const response = await post(
        "/api/padron/a10",
        as(main, { idPersona: SEEDED.monotributista }),
      );
      expect(response.status, response.text).toBe(200);
      const persona = response.json<Record<string, unknown>>();
      expect(persona).toMatchObject({
        idPersona: SEEDED.monotributista,
        apellido: "GOMEZ",
        nombre: "ANA MARIA",
        documento: { tipo: "DNI", numero: "28333444" },
        dependencia: { id: 107 },
        actividadPrincipal: { id: 960201, descripcion: "SERVICIOS DE PELUQUERIA" },
      });
      expect(persona.domicilios).toEqual([
        expect.objectContaining({ codigoPostal: "5500", localidad: "MENDOZA", calle: null }),
      ]);
    });

    it("answers 404 for an unknown person and PERSONA_INACTIVA for an inactive key", async () => {
      const unknown = await post("/api/padron/a10", as(main, { idPersona: NOBODY }));
      expect(unknown.status).toBe(404);
      expect(unknown.json<ErrorBody>().code).toBe("PERSONA_NOT_FOUND");
      const inactive = await post("/api/padron/a10", as(main, { idPersona: SEEDED.inactiveKey }));
      expect(inactive.status).toBe(404);
      expect(inactive.json<ErrorBody>().code).toBe("PERSONA_INACTIVA");
    });
  });

  describe("/api/padron/constancia", () => {
    it.each([
      ["a VAT-registered company", SEEDED.riCompany, 1],
      ["a VAT-registered individual", SEEDED.riPerson, 1],
      ["a monotributista with a category", SEEDED.monotributista, 6],
      ["the successor key of a monotributista", SEEDED.activeSuccessor, 6],
      ["an exempt foundation", SEEDED.exemptFoundation, 4],
      ["AFIP itself (exempt)", SEEDED.afip, 4],
      ["an association outside VAT", SEEDED.nonTaxable, 15],
      ["an individual not registered in VAT", SEEDED.notRegistered, 7],
      ["a final consumer (a CUIL, no taxes)", SEEDED.finalConsumer, 5],
      ["a company whose general regime is withheld", SEEDED.regimenWithheld, null],
      ["a monotributista without a category", SEEDED.monotributoWithheld, null],
      ["a company whose constancia is refused", SEEDED.constanciaRefused, null],
    ])("derives condicionIvaReceptorId for %s", async (_kind, idPersona, expected) => {
      const response = await post("/api/padron/constancia", as(main, { idPersona }));
      expect(response.status, response.text).toBe(200);
      expect(
        response.json<{ condicionIvaReceptorId: number | null }>().condicionIvaReceptorId,
      ).toBe(expected);
    });

    it("answers general data, fiscal address, régimen general taxes and activities", async () => {
      const response = await post(
        "/api/padron/constancia",
        as(main, { idPersona: SEEDED.riCompany }),
      );
      const constancia = response.json<Record<string, Record<string, unknown> | null>>();
      expect(constancia.datosGenerales).toMatchObject({
        razonSocial: "DISTRIBUIDORA DEL PLATA S.R.L.",
        tipoPersona: "JURIDICA",
        estadoClave: "ACTIVO",
      });
      expect(constancia.datosGenerales?.domicilioFiscal).toMatchObject({
        direccion: "SAN MARTIN 455",
        codigoPostal: "2000",
      });
      expect(constancia.regimenGeneral?.impuestos).toEqual([
        { id: 10, descripcion: "GANANCIAS SOCIEDADES", periodo: 201901 },
        { id: 30, descripcion: "IVA", periodo: 201901 },
      ]);
      expect(constancia.regimenGeneral?.actividades).toHaveLength(2);
      expect(constancia.monotributo).toBeNull();
      const mono = await post(
        "/api/padron/constancia",
        as(main, { idPersona: SEEDED.monotributista }),
      );
      expect(mono.json<Record<string, Record<string, unknown> | null>>().monotributo).toMatchObject(
        {
          categoria: {
            id: 4,
            descripcion: "D LOCACIONES DE SERVICIOS",
            idImpuesto: 20,
            periodo: 202402,
          },
          impuestos: [{ id: 20, descripcion: "MONOTRIBUTO" }],
          actividadMonotributista: { id: 960201 },
        },
      );
    });

    it("answers partial-data errors as data inside a 200", async () => {
      const regimen = await post(
        "/api/padron/constancia",
        as(main, { idPersona: SEEDED.regimenWithheld }),
      );
      expect(regimen.status).toBe(200);
      expect(regimen.json()).toMatchObject({
        regimenGeneral: null,
        errorRegimenGeneral: {
          errores: ["El contribuyente cuenta con impuestos con baja de oficio por Decreto 1299/98"],
          mensaje: "No cumple con las condiciones para enviar datos del regimen general",
        },
        errorConstancia: null,
      });
      const mono = await post(
        "/api/padron/constancia",
        as(main, { idPersona: SEEDED.monotributoWithheld }),
      );
      expect(mono.json()).toMatchObject({
        monotributo: null,
        errorMonotributo: { errores: ["Datos de monotributo incompletos- no posee categoría"] },
      });
      const refused = await post(
        "/api/padron/constancia",
        as(main, { idPersona: SEEDED.constanciaRefused }),
      );
      expect(refused.status).toBe(200);
      expect(refused.json()).toMatchObject({
        idPersona: SEEDED.constanciaRefused,
        datosGenerales: null,
        errorConstancia: { errores: [expect.stringContaining("domicilio fiscal electronico")] },
      });
    });

    it("shows an inactive key with estadoClave INACTIVO, and answers 404 for an unknown person", async () => {
      const inactive = await post(
        "/api/padron/constancia",
        as(main, { idPersona: SEEDED.inactiveKey }),
      );
      expect(inactive.status, inactive.text).toBe(200);
      expect(inactive.json()).toMatchObject({ datosGenerales: { estadoClave: "INACTIVO" } });
      const unknown = await post("/api/padron/constancia", as(main, { idPersona: NOBODY }));
      expect(unknown.status).toBe(404);
      expect(unknown.json<ErrorBody>().error).toBe("No existe persona con ese Id");
    });
  });

  describe("delegation, registration and outages", () => {
    it.each([
      ["/api/padron/a13", { idPersona: SEEDED.riCompany }, "ws_sr_padron_a13"],
      ["/api/padron/documento", { documento: "25111222" }, "ws_sr_padron_a13"],
      ["/api/padron/a10", { idPersona: SEEDED.riCompany }, "ws_sr_padron_a10"],
      ["/api/padron/constancia", { idPersona: SEEDED.riCompany }, "ws_sr_constancia_inscripcion"],
    ])(
      "%s answers 403 naming %s and the environment when it is not delegated",
      async (path, extra, service) => {
        const response = await post(path, as(none, extra));
        expect(response.status, response.text).toBe(403);
        const error = response.json<ErrorBody>();
        expect(error.code).toBe("SERVICE_NOT_DELEGATED");
        expect(error.error).toContain(service);
        expect(error.error).toContain("en homologación");
        expect(error.details).toMatchObject({ service, environment: env });
      },
    );

    it("delegating ws_sr_padron_a13 does not enable A10 or the constancia", async () => {
      const a13 = await post("/api/padron/a13", as(onlyA13, { idPersona: SEEDED.riCompany }));
      expect(a13.status, a13.text).toBe(200);
      const documento = await post("/api/padron/documento", as(onlyA13, { documento: "28333444" }));
      expect(documento.json()).toEqual({ idPersonas: [SEEDED.monotributista] });
      for (const [path, service] of [
        ["/api/padron/a10", "ws_sr_padron_a10"],
        ["/api/padron/constancia", "ws_sr_constancia_inscripcion"],
      ] as const) {
        const response = await post(path, as(onlyA13, { idPersona: SEEDED.riCompany }));
        expect(response.status, path).toBe(403);
        expect(response.json<ErrorBody>().details).toMatchObject({ service });
      }
    });

    it.each([
      ["/api/padron/a13", "ws_sr_padron_a13"],
      ["/api/padron/a10", "ws_sr_padron_a10"],
      ["/api/padron/constancia", "ws_sr_constancia_inscripcion"],
    ])(
      "%s answers 403 when the represented taxpayer did not delegate %s",
      async (path, service) => {
        const response = await post(path, as(represented, { idPersona: SEEDED.riCompany }));
        expect(response.status, response.text).toBe(403);
        const error = response.json<ErrorBody>();
        expect(error.code).toBe("REPRESENTADA_NOT_DELEGATED");
        expect(error.error).toContain(represented.cuit);
        expect(error.details).toMatchObject({
          service,
          authorityMessage: `Este token no le permite actuar en representacion de la CUIT ${represented.cuit}`,
        });
      },
    );

    it("answers 403 for a representada not registered, authority not called", async () => {
      const before = await authorityTotal();
      const response = await post("/api/padron/constancia", {
        environment: env,
        representada: randomCuit(),
        idPersona: SEEDED.riCompany,
      });
      expect(response.status).toBe(403);
      expect(response.json<ErrorBody>().code).toBe("REPRESENTADA_NOT_FOUND");
      expect(await authorityTotal()).toBe(before);
    });

    it.each(REGISTRY_SERVICES)(
      "answers 502 when %s is down, slow or failing, never a 403",
      async (service) => {
        const path = {
          ws_sr_padron_a13: "/api/padron/a13",
          ws_sr_padron_a10: "/api/padron/a10",
          ws_sr_constancia_inscripcion: "/api/padron/constancia",
        }[service];
        try {
          for (const mode of ["error-501", "unavailable", "timeout"] as const) {
            await stack.sim("fault", "--environment", env, "--service", service, "--mode", mode);
            const response = await post(path, as(main, { idPersona: SEEDED.riCompany }));
            expect(response.status, `${mode}: ${response.text}`).toBe(502);
            expect(response.json<ErrorBody>().code).toBe("AUTHORITY_UNAVAILABLE");
          }
        } finally {
          await stack.sim("fault", "--environment", env, "--service", service, "--mode", "none");
        }
        const after = await post(path, as(main, { idPersona: SEEDED.riCompany }));
        expect(after.status).toBe(200);
      },
    );

    it("logs in once per certificate and registry service", async () => {
      const { logins } = await simStats(stack, env);
      for (const service of REGISTRY_SERVICES) expect(logins[`${main.alias}|${service}`]).toBe(1);
    });
  });

  describe("the simulator's registry from the CLI", () => {
    it("sim persona registers a person from a JSON file and changes it from flags", async () => {
      const cuit = randomCuit("27");
      const file = dir.file(
        "persona.json",
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
      expect(
        await stack.sim("persona", "--environment", env, "--cuit", cuit, "--json", file),
      ).toEqual({ ok: true });
      const first = await post("/api/padron/constancia", as(main, { idPersona: cuit }));
      expect(first.json()).toMatchObject({
        condicionIvaReceptorId: 6,
        datosGenerales: { apellido: "DIAZ", domicilioFiscal: { localidad: "MAR DEL PLATA" } },
      });
      await stack.sim(
        "persona",
        "--environment",
        env,
        "--cuit",
        cuit,
        "--condicion-iva",
        "responsable_inscripto",
        "--apellido",
        "DIAZ",
      );
      const second = await post("/api/padron/constancia", as(main, { idPersona: cuit }));
      expect(second.json()).toMatchObject({ condicionIvaReceptorId: 1 });
    });
  });

  describe("POST /api/clientes with autocompletar", () => {
    it("fills razonSocial, domicilio and condicionIvaReceptorId from the constancia", async () => {
      const response = await post("/api/clientes", {
        docTipo: 80,
        docNro: SEEDED.riCompany,
        autocompletar: true,
        environment: env,
        representada: main.cuit,
        email: "compras@delplata.example",
      });
      expect(response.status, response.text).toBe(201);
      expect(response.json<Cliente>()).toMatchObject({
        docTipo: 80,
        docNro: SEEDED.riCompany,
        razonSocial: "DISTRIBUIDORA DEL PLATA S.R.L.",
        domicilio: "SAN MARTIN 455, ROSARIO (2000), SANTA FE",
        condicionIvaReceptorId: 1,
        email: "compras@delplata.example",
      });
      const stored = await http(
        stack,
        "GET",
        `/api/clientes/${response.json<Cliente>().id}`,
        account.rw,
      );
      expect(stored.json()).toMatchObject({ razonSocial: "DISTRIBUIDORA DEL PLATA S.R.L." });
    });

    it("lets explicit fields win, null included, and names a person by surname and names", async () => {
      const response = await post("/api/clientes", {
        docTipo: 80,
        docNro: SEEDED.monotributista,
        autocompletar: true,
        environment: env,
        representada: main.cuit,
        condicionIvaReceptorId: null,
        domicilio: "Local 4, Galería Mendoza",
      });
      expect(response.status, response.text).toBe(201);
      expect(response.json<Cliente>()).toMatchObject({
        razonSocial: "GOMEZ ANA MARIA",
        domicilio: "Local 4, Galería Mendoza",
        condicionIvaReceptorId: null,
      });
      const named = await post("/api/clientes", {
        docTipo: 80,
        docNro: SEEDED.exemptFoundation,
        autocompletar: true,
        environment: env,
        representada: main.cuit,
        razonSocial: "Fundación Ayudar (sede central)",
      });
      expect(named.json<Cliente>()).toMatchObject({
        razonSocial: "Fundación Ayudar (sede central)",
        domicilio: "AV RIVADAVIA 6100, CIUDAD AUTONOMA BUENOS AIRES (1406)",
        condicionIvaReceptorId: 4,
      });
    });

    it("stores a null condition when the registry withholds what decides it", async () => {
      const response = await post("/api/clientes", {
        docTipo: 80,
        docNro: SEEDED.regimenWithheld,
        autocompletar: true,
        environment: env,
        representada: main.cuit,
      });
      expect(response.status, response.text).toBe(201);
      expect(response.json<Cliente>()).toMatchObject({
        razonSocial: "TRANSPORTES DEL SUR S.A.",
        condicionIvaReceptorId: null,
      });
    });

    it("refuses before the registry: a read_only key, a customer already there, a bad body", async () => {
      const before = await authorityTotal();
      const body = {
        docTipo: 80,
        docNro: SEEDED.riCompany,
        autocompletar: true,
        environment: env,
        representada: main.cuit,
      };
      const readOnly = await post("/api/clientes", body, account.ro);
      expect(readOnly.status).toBe(403);
      expect(readOnly.json<ErrorBody>().error).toBe(
        "Esta API key es de solo lectura y no puede modificar datos de la cuenta.",
      );
      const duplicate = await post("/api/clientes", body);
      expect(duplicate.status).toBe(409);
      expect(duplicate.json<ErrorBody>().code).toBe("CLIENTE_DUPLICATE");
      for (const [bad, field] of [
        [{ ...body, docTipo: 96, docNro: "28333444" }, "docTipo"],
        [{ ...body, environment: undefined }, "environment"],
        [{ ...body, docNro: "30712345672" }, "docNro"],
        [{ docTipo: 80, docNro: SEEDED.riPerson }, "razonSocial"],
        [
          { docTipo: 80, docNro: SEEDED.riPerson, razonSocial: "X", environment: env },
          "environment",
        ],
      ] as const) {
        const response = await post("/api/clientes", bad);
        expect(response.status, JSON.stringify(bad)).toBe(400);
        expect(response.json<ErrorBody>().error).toContain(field);
      }
      expect(await authorityTotal()).toBe(before);
    });

    it("answers the registry's own refusals and stores nothing", async () => {
      const unknown = await post("/api/clientes", {
        docTipo: 80,
        docNro: NOBODY,
        autocompletar: true,
        environment: env,
        representada: main.cuit,
      });
      expect(unknown.status).toBe(404);
      expect(unknown.json<ErrorBody>().code).toBe("PERSONA_NOT_FOUND");
      const notDelegated = await post("/api/clientes", {
        docTipo: 80,
        docNro: SEEDED.riPerson,
        autocompletar: true,
        environment: env,
        representada: onlyA13.cuit,
      });
      expect(notDelegated.status).toBe(403);
      expect(notDelegated.json<ErrorBody>().details).toMatchObject({
        service: "ws_sr_constancia_inscripcion",
      });
      const noName = await post("/api/clientes", {
        docTipo: 80,
        docNro: SEEDED.constanciaRefused,
        autocompletar: true,
        environment: env,
        representada: main.cuit,
      });
      expect(noName.status).toBe(400);
      expect(noName.json<ErrorBody>().error).toContain("razonSocial");
      const list = await http(
        stack,
        "GET",
        `/api/clientes?docTipo=80&docNro=${NOBODY}`,
        account.rw,
      );
      expect(list.json<{ items: unknown[] }>().items).toEqual([]);
    });
  });

  describe("issuing to the derived condition", () => {
    /** A class A voucher (1) to a VAT-registered or monotributo receiver, B (6) to anyone else. */
    const cbteTipoFor = (condicion: number) => (condicion === 1 || condicion === 6 ? 1 : 6);
    const factura = (cbteTipo: number, receptor: Record<string, unknown>) =>
      post(
        "/api/wsfe/facturas",
        as(main, {
          cbteTipo,
          ptoVta: 3,
          concepto: 1,
          ...receptor,
          items: [
            {
              descripcion: "Servicio de prueba",
              cantidad: 1,
              precioUnitario: "100",
              alicuotaIva: 21,
            },
          ],
        }),
      );

    it.each([
      ["a VAT-registered company", 80, SEEDED.riCompany],
      ["a monotributista", 80, SEEDED.monotributista],
      ["an exempt foundation", 80, SEEDED.exemptFoundation],
      ["an association outside VAT", 80, SEEDED.nonTaxable],
      ["an individual not registered in VAT", 80, SEEDED.notRegistered],
      ["a final consumer identified by CUIL", 86, SEEDED.finalConsumer],
    ])(
      "a voucher to %s with the derived condition is authorized",
      async (_kind, docTipo, docNro) => {
        const constancia = await post("/api/padron/constancia", as(main, { idPersona: docNro }));
        const condicion = constancia.json<{ condicionIvaReceptorId: number | null }>()
          .condicionIvaReceptorId;
        expect(condicion).not.toBeNull();
        const response = await factura(cbteTipoFor(condicion ?? 0), {
          docTipo,
          docNro,
          condicionIvaReceptorId: condicion,
        });
        expect(response.status, response.text).toBe(200);
        const voucher = response.json<{ resultado: string; cae: string; impTotal: number }>();
        expect(voucher).toMatchObject({ resultado: "A", impTotal: 121 });
        expect(voucher.cae).toMatch(/^\d{14}$/);
      },
    );

    it("a customer created with autocompletar is issued to by clienteId", async () => {
      const created = await post("/api/clientes", {
        docTipo: 86,
        docNro: SEEDED.finalConsumer,
        autocompletar: true,
        environment: env,
        representada: main.cuit,
      });
      expect(created.status, created.text).toBe(201);
      const cliente = created.json<Cliente>();
      expect(cliente).toMatchObject({
        razonSocial: "RODRIGUEZ MARTIN",
        domicilio: "MEXICO 2200, CIUDAD AUTONOMA BUENOS AIRES (1222)",
        condicionIvaReceptorId: 5,
      });
      const response = await factura(6, { clienteId: cliente.id });
      expect(response.status, response.text).toBe(200);
      expect(response.json()).toMatchObject({ resultado: "A", cbteTipo: 6 });
    });
  });

  it("answers in production with the production certificate and registry", async () => {
    const prod = await register(stack, dir, {
      accountId: account.accountId,
      environment: "produccion",
    });
    await Promise.all(
      REGISTRY_SERVICES.map((service) =>
        control.delegate("produccion", { cuit: prod.cuit, alias: prod.alias, service }),
      ),
    );
    const response = await post("/api/padron/constancia", {
      environment: "produccion",
      representada: prod.cuit,
      idPersona: SEEDED.riPerson,
    });
    expect(response.status, response.text).toBe(200);
    expect(response.json()).toMatchObject({
      condicionIvaReceptorId: 1,
      datosGenerales: { apellido: "PEREZ", nombre: "JUAN CARLOS" },
    });
  });
});
