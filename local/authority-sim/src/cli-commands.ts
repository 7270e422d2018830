import { readFile } from "node:fs/promises";
import { z } from "zod";
import { defineCommand, flag, seeHelp, UsageError, type SimCommand } from "./cli-flags.js";
import type { PersonInput } from "./control/client.js";
import {
  CONDICIONES_PADRON,
  EMISION_TIPOS,
  ENVIRONMENTS,
  FAULT_MODES,
  FAULT_SERVICES,
  WSN_SERVICES,
  type FaultMode,
} from "./state.js";

const environment = flag(z.enum(ENVIRONMENTS), "the simulated authority environment");
const cuit = flag(z.string(), "the taxpayer's CUIT, 11 digits", "<cuit>");
const alias = flag(z.string(), "the certificate's alias (its CN)", "<alias>");
const json = (value: unknown): string => JSON.stringify(value);

/** A flag whose text another parser reads; the message names the flag and the form it takes. */
const parsedText = <T>(read: (raw: string) => T | undefined, message: string) =>
  z.string().transform((raw, ctx) => {
    const value = read(raw);
    if (value === undefined) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return value;
  });

/** `drop-after-commit:0.1,error-501:0.05`: further fault modes with their rates. */
function readMix(raw: string): { mode: FaultMode; rate: number }[] | undefined {
  const pairs = raw.split(",").map((part) => {
    const [mode = "", rate = ""] = part.split(":");
    return (FAULT_MODES as readonly string[]).includes(mode) &&
      rate !== "" &&
      Number.isFinite(Number(rate))
      ? { mode: mode as FaultMode, rate: Number(rate) }
      : undefined;
  });
  return pairs.every((p) => p !== undefined) ? pairs : undefined;
}

/** `[{"id":620100,"desc":"..."}]`: a JSON list, the main activity first. */
function readActividades(raw: string): { id: number; desc: string }[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const valid =
    Array.isArray(parsed) &&
    parsed.every(
      (a: unknown) =>
        typeof a === "object" &&
        a !== null &&
        typeof (a as { id?: unknown }).id === "number" &&
        typeof (a as { desc?: unknown }).desc === "string",
    );
  return valid ? (parsed as { id: number; desc: string }[]) : undefined;
}

/** `--json <file>`: a person record as the control API takes it (PersonInput), cuit aside. */
async function personFile(path: string): Promise<Partial<PersonInput>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new UsageError(
      `--json ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`--json ${path} must hold one JSON object (a person)`);
  }
  return parsed;
}

const delegation = {
  environment,
  cuit,
  alias,
  service: flag(z.enum(WSN_SERVICES), "the web service the certificate may act for"),
};

const person: SimCommand = defineCommand({
  name: "persona",
  aliases: ["person"],
  summary:
    'Registers a person in the environment\'s registry (padrón), or replaces its record. Prints {"ok":true}. A FISICA person needs --apellido, a JURIDICA one --razon-social; the --json file holds a whole record (addresses, documento, categoriaMonotributo, clavesInactivas, errores) and the flags change it.',
  flags: {
    environment,
    cuit,
    json: flag(
      z.string().optional(),
      "a file with the person's record as the control API takes it",
      "<file>",
    ),
    "condicion-iva": flag(
      z.enum(CONDICIONES_PADRON).optional(),
      "the VAT condition; required unless the --json file gives condicionIva",
    ),
    "tipo-persona": flag(
      z.enum(["FISICA", "JURIDICA"]).optional(),
      "JURIDICA by default for CUITs starting 30, 33 or 34, FISICA for the others",
    ),
    apellido: flag(z.string().optional(), "the surname; required for a FISICA person", "<text>"),
    nombre: flag(z.string().optional(), "the given names of a FISICA person", "<text>"),
    "razon-social": flag(
      z.string().optional(),
      "the company name; required for a JURIDICA person",
      "<text>",
    ),
    documento: flag(z.string().optional(), "the DNI of a FISICA person", "<dni>"),
    "estado-clave": flag(z.enum(["ACTIVO", "INACTIVO"]).optional(), "ACTIVO by default"),
    "tipo-clave": flag(z.enum(["CUIT", "CUIL", "CDI"]).optional(), "CUIT by default"),
    actividades: flag(
      parsedText(
        readActividades,
        '--actividades must be JSON: [{"id":620100,"desc":"..."}]',
      ).optional(),
      "the activities, the main one first",
      '\'[{"id":620100,"desc":"..."}]\'',
    ),
  },
  run: async (client, f) => {
    // the file gives the record, flags change it; the control API judges the result
    const record: Partial<PersonInput> = f.json === undefined ? {} : await personFile(f.json);
    const condicionIva = f["condicion-iva"] ?? record.condicionIva;
    if (condicionIva === undefined) {
      throw new UsageError(`missing --condicion-iva; ${seeHelp(person)}`);
    }
    const changes: Partial<PersonInput> = {
      cuit: f.cuit,
      condicionIva,
      ...(f["tipo-persona"] === undefined ? {} : { tipoPersona: f["tipo-persona"] }),
      ...(f["estado-clave"] === undefined ? {} : { estadoClave: f["estado-clave"] }),
      ...(f["tipo-clave"] === undefined ? {} : { tipoClave: f["tipo-clave"] }),
      ...(f["razon-social"] === undefined ? {} : { razonSocial: f["razon-social"] }),
      ...(f.apellido === undefined ? {} : { apellido: f.apellido }),
      ...(f.nombre === undefined ? {} : { nombre: f.nombre }),
      ...(f.documento === undefined ? {} : { documento: { tipo: "DNI", numero: f.documento } }),
      ...(f.actividades === undefined ? {} : { actividades: f.actividades }),
    };
    return json(await client.setPerson(f.environment, { ...record, ...changes } as PersonInput));
  },
});

/** Every command of the simulator's CLI, in the order the help lists them. */
export const commands: readonly SimCommand[] = [
  defineCommand({
    name: "cert",
    summary:
      "Prints a certificate (PEM) for a CSR, signed by the environment's CA, as the authority's WSASS would issue it.",
    flags: { environment, csr: flag(z.string(), "the CSR file (PEM)", "<file>") },
    run: async (client, f) => client.issueCertificate(f.environment, await readFile(f.csr, "utf8")),
  }),
  defineCommand({
    name: "ca",
    summary: "Prints the environment's CA certificate (PEM).",
    flags: { environment },
    run: (client, f) => client.caCertificate(f.environment),
  }),
  defineCommand({
    name: "tls-ca",
    summary: "Prints the CA certificate (PEM) of the simulator's HTTPS port.",
    flags: {},
    run: (client) => client.tlsCaCertificate(),
  }),
  defineCommand({
    name: "delegate",
    summary: 'Lets a certificate (CUIT and alias) act for a web service. Prints {"ok":true}.',
    flags: delegation,
    run: async (client, f) =>
      json(
        await client.delegate(f.environment, { cuit: f.cuit, alias: f.alias, service: f.service }),
      ),
  }),
  defineCommand({
    name: "undelegate",
    summary: 'Withdraws a delegation. Prints {"ok":true,"removed":true|false}.',
    flags: delegation,
    run: async (client, f) =>
      json(
        await client.undelegate(f.environment, {
          cuit: f.cuit,
          alias: f.alias,
          service: f.service,
        }),
      ),
  }),
  defineCommand({
    name: "pos",
    summary:
      'Enables a point of sale of a CUIT for a web service. Prints {"ok":true}. The control API also takes bloqueado and fchBaja for a point that is blocked or withdrawn.',
    flags: {
      environment,
      cuit,
      "pto-vta": flag(z.coerce.number(), "the point of sale number", "<n>"),
      service: flag(z.enum(["wsfe", "wsfex"]).default("wsfe"), "the web service it issues with"),
      emision: flag(
        z.enum(EMISION_TIPOS).default("CAE"),
        "how a wsfe point issues: CAE online, or CAEA (contingency: informs what it issued)",
      ),
    },
    run: async (client, f) => {
      if (f.emision === "CAEA" && f.service !== "wsfe") {
        throw new UsageError(`--emision CAEA is for --service wsfe only; ${seeHelp()}`);
      }
      return json(
        await client.enablePointOfSale(f.environment, {
          cuit: f.cuit,
          ptoVta: f["pto-vta"],
          service: f.service,
          ...(f.service === "wsfe" ? { emisionTipo: f.emision } : {}),
        }),
      );
    },
  }),
  defineCommand({
    name: "caea",
    summary:
      "Prints the CAEAs granted to a CUIT as JSON: each with its fortnight (periodo, orden, validity, FchTopeInf), the vouchers informed under it and the points of sale declared without movement.",
    flags: { environment, cuit },
    run: async (client, f) => json(await client.caeas(f.environment, f.cuit)),
  }),
  defineCommand({
    name: "fault",
    summary:
      'Injects faults into a service of the environment (mode none clears them). Prints {"ok":true}. With --operation the modes hit only that operation; latency applies to every request, or with --latency-operation to that operation only.',
    flags: {
      environment,
      service: flag(z.enum(FAULT_SERVICES), "the service that misbehaves"),
      mode: flag(z.enum(FAULT_MODES), "what goes wrong"),
      rate: flag(
        z.coerce.number().optional(),
        "the share of requests the mode hits, 0 to 1 (all by default)",
        "<0..1>",
      ),
      "latency-ms": flag(z.coerce.number().optional(), "each request waits this long", "<ms>"),
      "latency-max-ms": flag(
        z.coerce.number().optional(),
        "each request waits a random time between --latency-ms and this",
        "<ms>",
      ),
      mix: flag(
        parsedText(readMix, "--mix takes mode:rate pairs separated by commas").optional(),
        "further modes with their own rates, drawn after --mode",
        "<mode:rate,...>",
      ),
      operation: flag(z.string().optional(), "only this SOAP operation", "<operation>"),
      "latency-operation": flag(
        z.string().optional(),
        "the latency applies to this SOAP operation only",
        "<operation>",
      ),
    },
    run: async (client, f) =>
      json(
        await client.setFault(f.environment, {
          service: f.service,
          mode: f.mode,
          ...(f.rate === undefined ? {} : { rate: f.rate }),
          ...(f["latency-ms"] === undefined ? {} : { latencyMs: f["latency-ms"] }),
          ...(f["latency-max-ms"] === undefined ? {} : { latencyMaxMs: f["latency-max-ms"] }),
          ...(f.mix === undefined ? {} : { mix: f.mix }),
          ...(f.operation === undefined ? {} : { operation: f.operation }),
          ...(f["latency-operation"] === undefined
            ? {}
            : { latencyOperation: f["latency-operation"] }),
        }),
      ),
  }),
  defineCommand({
    name: "permit",
    summary:
      'Sets what FEXCheck_Permiso answers for an export permit and destination. Prints {"ok":true}.',
    flags: {
      environment,
      "id-permiso": flag(z.string(), "the permit's id", "<id>"),
      "dst-merc": flag(z.coerce.number().int(), "the destination country's code", "<code>"),
      status: flag(z.enum(["OK", "NO"]), "the answer"),
    },
    run: async (client, f) =>
      json(
        await client.setPermit(f.environment, {
          idPermiso: f["id-permiso"],
          dstMerc: f["dst-merc"],
          status: f.status,
        }),
      ),
  }),
  person,
  defineCommand({
    name: "forget-persona",
    aliases: ["forget-person"],
    summary: 'Takes a person out of the registry. Prints {"ok":true,"removed":true|false}.',
    flags: { environment, cuit },
    run: async (client, f) => json(await client.forgetPerson(f.environment, { cuit: f.cuit })),
  }),
  defineCommand({
    name: "stats",
    summary:
      "Prints what the environment served: WSAA logins per certificate and service, requests per operation, injected faults per <operation> <mode>, and FECAESolicitar details sent, authorized and rejected with the largest batch.",
    flags: { environment },
    run: async (client, f) => json(await client.stats(f.environment)),
  }),
  defineCommand({
    name: "reset",
    summary:
      'Starts the environment afresh, keeping its CA: no delegations, points of sale, tickets, vouchers, faults or counters, the seeded registry and default settings. Prints {"ok":true}.',
    flags: { environment },
    run: async (client, f) => json(await client.reset(f.environment)),
  }),
  defineCommand({
    name: "settings",
    summary: 'Changes how the environment behaves. Prints {"ok":true}.',
    flags: {
      environment,
      "enforce-single-ta": flag(
        z.enum(["true", "false"]).optional(),
        "false lets a certificate get a new access ticket while one is still valid",
      ),
      "clock-offset-ms": flag(
        z.coerce.number().optional(),
        "shifts the environment's clock, e.g. to expire tickets without waiting 12 h",
        "<ms>",
      ),
    },
    run: async (client, f) =>
      json(
        await client.settings(f.environment, {
          ...(f["enforce-single-ta"] === undefined
            ? {}
            : { enforceSingleTa: f["enforce-single-ta"] === "true" }),
          ...(f["clock-offset-ms"] === undefined ? {} : { clockOffsetMs: f["clock-offset-ms"] }),
        }),
      ),
  }),
  defineCommand({
    name: "forget-tas",
    summary:
      'Forgets the access tickets WSAA issued, so a certificate may log in again. Prints {"ok":true}.',
    flags: { environment },
    run: async (client, f) => json(await client.forgetTas(f.environment)),
  }),
];
