import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { makeControlClient } from "./control/client.js";
import type { ControlClient } from "./control/client.js";
import type { PersonInput } from "./control/client.js";
import {
  CONDICIONES_PADRON,
  ENVIRONMENTS,
  FAULT_MODES,
  FAULT_SERVICES,
  WSN_SERVICES,
} from "./state.js";
import type { CondicionPadron, Environment, FaultMode, FaultService, WsnService } from "./state.js";

const USAGE =
  "usage: sim <cert|ca|delegate|undelegate|pos|fault|permit|persona|forget-persona|stats|reset|settings|forget-tas> --environment <env> [options] | sim tls-ca";

export class UsageError extends Error {}

function parseFlags(args: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (!arg.startsWith("--")) throw new UsageError(`unexpected argument ${arg}`);
    const eq = arg.indexOf("=");
    if (eq > 0) {
      flags.set(arg.slice(2, eq), arg.slice(eq + 1));
      continue;
    }
    const value = args[i + 1];
    if (value === undefined || value.startsWith("--")) throw new UsageError(`${arg} needs a value`);
    flags.set(arg.slice(2), value);
    i++;
  }
  return flags;
}

function pick<T extends string>(
  flags: Map<string, string>,
  name: string,
  allowed: readonly T[],
): T {
  const v = flags.get(name);
  if (v === undefined) throw new UsageError(`missing --${name}`);
  if (!(allowed as readonly string[]).includes(v)) {
    throw new UsageError(`--${name} must be one of ${allowed.join(", ")}`);
  }
  return v as T;
}

function required(flags: Map<string, string>, name: string): string {
  const v = flags.get(name);
  if (v === undefined) throw new UsageError(`missing --${name}`);
  return v;
}

function numberFlag(flags: Map<string, string>, name: string): number | undefined {
  const v = flags.get(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number`);
  return n;
}

/** `--mix drop-after-commit:0.1,error-501:0.05`: further fault modes with their rates. */
function parseMix(raw: string): { mode: FaultMode; rate: number }[] {
  return raw.split(",").map((part) => {
    const [mode = "", rate = ""] = part.split(":");
    if (!(FAULT_MODES as readonly string[]).includes(mode) || !Number.isFinite(Number(rate))) {
      throw new UsageError(`--mix takes mode:rate pairs separated by commas, not ${part}`);
    }
    return { mode: mode as FaultMode, rate: Number(rate) };
  });
}

/** `--actividades '[{"id":620100,"desc":"..."}]'`: a JSON list, the main activity first. */
function actividadesFlag(flags: Map<string, string>): PersonInput["actividades"] {
  const raw = flags.get("actividades");
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new UsageError('--actividades must be JSON: [{"id":620100,"desc":"..."}]');
  }
  if (
    !Array.isArray(parsed) ||
    !parsed.every(
      (a: unknown) =>
        typeof a === "object" &&
        a !== null &&
        typeof (a as { id?: unknown }).id === "number" &&
        typeof (a as { desc?: unknown }).desc === "string",
    )
  ) {
    throw new UsageError('--actividades must be JSON: [{"id":620100,"desc":"..."}]');
  }
  return parsed as { id: number; desc: string }[];
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

/** Runs one command; returns what goes to stdout (JSON text, or a PEM for cert/ca/tls-ca). */
export async function runCli(argv: readonly string[], client: ControlClient): Promise<string> {
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError(USAGE);
  const flags = parseFlags(rest);
  // The HTTPS port's CA belongs to the simulator, not to one environment.
  if (command === "tls-ca") return client.tlsCaCertificate();
  const env: Environment = pick(flags, "environment", ENVIRONMENTS);
  switch (command) {
    case "cert": {
      const csr = await readFile(required(flags, "csr"), "utf8");
      return client.issueCertificate(env, csr);
    }
    case "ca":
      return client.caCertificate(env);
    case "delegate":
      return JSON.stringify(
        await client.delegate(env, {
          cuit: required(flags, "cuit"),
          alias: required(flags, "alias"),
          service: pick<WsnService>(flags, "service", WSN_SERVICES),
        }),
      );
    case "undelegate":
      return JSON.stringify(
        await client.undelegate(env, {
          cuit: required(flags, "cuit"),
          alias: required(flags, "alias"),
          service: pick<WsnService>(flags, "service", WSN_SERVICES),
        }),
      );
    case "pos": {
      const ptoVta = numberFlag(flags, "pto-vta");
      if (ptoVta === undefined) throw new UsageError("missing --pto-vta");
      const service = flags.has("service")
        ? pick<"wsfe" | "wsfex">(flags, "service", ["wsfe", "wsfex"])
        : "wsfe";
      return JSON.stringify(
        await client.enablePointOfSale(env, { cuit: required(flags, "cuit"), ptoVta, service }),
      );
    }
    case "fault": {
      const rate = numberFlag(flags, "rate");
      const latencyMs = numberFlag(flags, "latency-ms");
      const latencyMaxMs = numberFlag(flags, "latency-max-ms");
      return JSON.stringify(
        await client.setFault(env, {
          ...(latencyMaxMs === undefined ? {} : { latencyMaxMs }),
          ...(flags.has("mix") ? { mix: parseMix(required(flags, "mix")) } : {}),
          service: pick<FaultService>(flags, "service", FAULT_SERVICES),
          mode: pick<FaultMode>(flags, "mode", FAULT_MODES),
          ...(rate === undefined ? {} : { rate }),
          ...(latencyMs === undefined ? {} : { latencyMs }),
          ...(flags.has("operation") ? { operation: required(flags, "operation") } : {}),
          ...(flags.has("latency-operation")
            ? { latencyOperation: required(flags, "latency-operation") }
            : {}),
        }),
      );
    }
    case "permit": {
      const dstMerc = numberFlag(flags, "dst-merc");
      if (dstMerc === undefined) throw new UsageError("missing --dst-merc");
      if (!Number.isInteger(dstMerc)) throw new UsageError("--dst-merc must be an integer");
      return JSON.stringify(
        await client.setPermit(env, {
          idPermiso: required(flags, "id-permiso"),
          dstMerc,
          status: pick<"OK" | "NO">(flags, "status", ["OK", "NO"]),
        }),
      );
    }
    case "persona":
    case "person": {
      const person: Partial<PersonInput> = flags.has("json")
        ? await personFile(required(flags, "json"))
        : {};
      const tipo = flags.get("tipo-persona");
      const estado = flags.get("estado-clave");
      const tipoClave = flags.get("tipo-clave");
      const actividades = actividadesFlag(flags);
      const documento = flags.get("documento");
      const optional = (flag: string, key: keyof PersonInput) => {
        const v = flags.get(flag);
        return v === undefined ? {} : { [key]: v };
      };
      // the file gives the record, flags change it; the control API judges the result
      Object.assign(person, {
        cuit: required(flags, "cuit"),
        ...(flags.has("condicion-iva") || person.condicionIva === undefined
          ? { condicionIva: pick<CondicionPadron>(flags, "condicion-iva", CONDICIONES_PADRON) }
          : {}),
        ...(tipo === undefined
          ? {}
          : { tipoPersona: pick(flags, "tipo-persona", ["FISICA", "JURIDICA"] as const) }),
        ...(estado === undefined
          ? {}
          : { estadoClave: pick(flags, "estado-clave", ["ACTIVO", "INACTIVO"] as const) }),
        ...(tipoClave === undefined
          ? {}
          : { tipoClave: pick(flags, "tipo-clave", ["CUIT", "CUIL", "CDI"] as const) }),
        ...optional("razon-social", "razonSocial"),
        ...optional("apellido", "apellido"),
        ...optional("nombre", "nombre"),
        ...(documento === undefined ? {} : { documento: { tipo: "DNI", numero: documento } }),
        ...(actividades === undefined ? {} : { actividades }),
      });
      return JSON.stringify(await client.setPerson(env, person as PersonInput));
    }
    case "forget-persona":
    case "forget-person":
      return JSON.stringify(await client.forgetPerson(env, { cuit: required(flags, "cuit") }));
    case "stats":
      return JSON.stringify(await client.stats(env));
    case "reset":
      return JSON.stringify(await client.reset(env));
    case "settings": {
      const single = flags.get("enforce-single-ta");
      const offset = numberFlag(flags, "clock-offset-ms");
      return JSON.stringify(
        await client.settings(env, {
          ...(single === undefined ? {} : { enforceSingleTa: single === "true" }),
          ...(offset === undefined ? {} : { clockOffsetMs: offset }),
        }),
      );
    }
    case "forget-tas":
      return JSON.stringify(await client.forgetTas(env));
    default:
      throw new UsageError(`unknown command ${command}. ${USAGE}`);
  }
}

async function main(): Promise<void> {
  const client = makeControlClient(process.env["SIM_URL"] ?? "http://127.0.0.1:4400");
  try {
    const out = await runCli(process.argv.slice(2), client);
    process.stdout.write(out.endsWith("\n") ? out : `${out}\n`);
  } catch (error) {
    process.stderr.write(
      `${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n`,
    );
    process.exitCode = error instanceof UsageError ? 2 : 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
