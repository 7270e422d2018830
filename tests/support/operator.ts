import { execFile } from "node:child_process";
import { randomInt } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { E2EStack } from "./stack.js";

export type Environment = "homologacion" | "produccion";
export type WsService = "wsfe" | "wsfex";
/** every web service a certificate can be delegated at the simulator */
export type DelegableService =
  WsService | "ws_sr_padron_a13" | "ws_sr_padron_a10" | "ws_sr_constancia_inscripcion";

/** A CUIT with a valid check digit (the simulator and the ticket service both check it). */
export function randomCuit(prefix: "20" | "23" | "27" | "30" = "20"): string {
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  for (;;) {
    const body = `${prefix}${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;
    const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (weights[i] ?? 0), 0);
    const check = 11 - (sum % 11);
    if (check === 10) continue;
    return `${body}${check === 11 ? 0 : check}`;
  }
}

/** A private temporary directory for the files an operator hands to the CLIs. */
export interface Scratch {
  dir: string;
  /** writes `content` to a new file in the directory and answers its path */
  file(name: string, content: string): string;
  remove(): void;
}

export function scratch(): Scratch {
  const dir = mkdtempSync(join(tmpdir(), "pasarela-e2e-"));
  let n = 0;
  return {
    dir,
    file(name, content) {
      const path = join(dir, `${n++}-${name}`);
      writeFileSync(path, content);
      return path;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function run(command: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: 30_000 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(" ")} failed: ${stderr}`));
      else resolve();
    });
  });
}

/**
 * A key pair and CSR made outside the gateway with `openssl`, as a taxpayer who generated
 * their certificate request themselves would: subject `CN=<alias>, serialNumber=CUIT <cuit>`.
 */
export async function opensslKeyAndCsr(
  dir: Scratch,
  cuit: string,
  alias: string,
): Promise<{ keyFile: string; csrFile: string }> {
  const keyFile = dir.file(`${alias}.key`, "");
  const csrFile = dir.file(`${alias}.csr`, "");
  await run("openssl", [
    "req",
    "-new",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    keyFile,
    "-out",
    csrFile,
    "-subj",
    `/CN=${alias}/serialNumber=CUIT ${cuit}`,
  ]);
  return { keyFile, csrFile };
}

export interface Account {
  accountId: string;
  /** `Bearer <secret>` of a read_write key */
  rw: string;
  /** `Bearer <secret>` of a read_only key, when asked for */
  ro: string;
}

/** An account with a read_write and a read_only key, made with `npm run admin`. */
export async function newAccount(stack: E2EStack, name = "Comercio"): Promise<Account> {
  const { accountId } = await stack.admin<{ accountId: string }>(
    "account",
    "create",
    "--name",
    name,
  );
  const key = async (scope: "read_only" | "read_write") =>
    `Bearer ${(await stack.admin<{ secret: string }>("key", "create", "--account", accountId, "--scope", scope)).secret}`;
  const [rw, ro] = await Promise.all([key("read_write"), key("read_only")]);
  return { accountId, rw, ro };
}

/** `admin representada create` arguments; `extra` adds flags such as --alias and --pto-vta. */
export const representadaCreateArgs = (
  accountId: string,
  cuit: string,
  environment: Environment,
  ...extra: string[]
): string[] => [
  "representada",
  "create",
  "--account",
  accountId,
  "--cuit",
  cuit,
  "--environment",
  environment,
  ...extra,
];

/** `sim delegate`: the alias's certificate is delegated `service` for `cuit` at the authority. */
export const simDelegate = (
  stack: E2EStack,
  environment: Environment,
  delegation: { cuit: string; alias: string; service: DelegableService },
) =>
  stack.sim(
    "delegate",
    "--environment",
    environment,
    "--cuit",
    delegation.cuit,
    "--alias",
    delegation.alias,
    "--service",
    delegation.service,
  );

/** `sim pos`: a point of sale enabled at the authority (the simulator's default service if none). */
export const simPos = (
  stack: E2EStack,
  environment: Environment,
  pos: { cuit: string; ptoVta: number; service?: WsService },
) =>
  stack.sim(
    "pos",
    "--environment",
    environment,
    "--cuit",
    pos.cuit,
    "--pto-vta",
    String(pos.ptoVta),
    ...(pos.service === undefined ? [] : ["--service", pos.service]),
  );

export interface RegisterOptions {
  accountId: string;
  environment: Environment;
  cuit?: string;
  alias?: string;
  ptoVta?: number;
  /** which simulator CA signs the CSR: the representada's own environment by default */
  certFrom?: Environment;
  /** leave the CSR pending (no active certificate) */
  withoutCertificate?: boolean;
  /** web services the alias is delegated for at the authority */
  delegate?: readonly WsService[];
  /** points of sale enabled at the authority */
  pos?: readonly { ptoVta: number; service: WsService }[];
}

export interface Registered {
  representadaId: string;
  cuit: string;
  alias: string;
  environment: Environment;
  /** what `certificate upload` printed, when a certificate was uploaded */
  upload?: Record<string, unknown>;
}

/**
 * Registers a representada exactly as an operator does: `admin representada create`, the CSR
 * signed with `sim cert`, `admin certificate upload`, then `sim delegate` and `sim pos`.
 */
export async function register(
  stack: E2EStack,
  dir: Scratch,
  o: RegisterOptions,
): Promise<Registered> {
  const cuit = o.cuit ?? randomCuit();
  const created = await stack.admin<{ representadaId: string; alias: string; csr: string }>(
    ...representadaCreateArgs(
      o.accountId,
      cuit,
      o.environment,
      ...(o.alias === undefined ? [] : ["--alias", o.alias]),
      ...(o.ptoVta === undefined ? [] : ["--pto-vta", String(o.ptoVta)]),
    ),
  );
  const registered: Registered = {
    representadaId: created.representadaId,
    cuit,
    alias: created.alias,
    environment: o.environment,
  };
  const authoritySide = async () => {
    for (const service of o.delegate ?? []) {
      await simDelegate(stack, o.environment, { cuit, alias: created.alias, service });
    }
    for (const p of o.pos ?? []) await simPos(stack, o.environment, { cuit, ...p });
  };
  const certificate = async () => {
    if (o.withoutCertificate) return;
    const pem = await signCsr(stack, dir, o.certFrom ?? o.environment, created.csr);
    registered.upload = await stack.admin(
      "certificate",
      "upload",
      "--representada",
      created.representadaId,
      "--cert",
      dir.file("cert.pem", pem),
    );
  };
  await Promise.all([authoritySide(), certificate()]);
  return registered;
}

/** A representada of the account issuing through WSFEv1 at `ptoVta`, its default point of sale. */
export const registerWsfeIssuer = (
  stack: E2EStack,
  dir: Scratch,
  accountId: string,
  environment: Environment,
  ptoVta: number,
): Promise<Registered> =>
  register(stack, dir, {
    accountId,
    environment,
    ptoVta,
    delegate: ["wsfe"],
    pos: [{ ptoVta, service: "wsfe" }],
  });

/** `sim cert --environment <env> --csr <file>` (the CLI's library): the PEM the simulator's CA issues. */
export async function signCsr(
  stack: E2EStack,
  dir: Scratch,
  environment: Environment,
  csrPem: string,
): Promise<string> {
  const pem = await stack.simText(
    "cert",
    "--environment",
    environment,
    "--csr",
    dir.file("request.csr", csrPem),
  );
  if (!pem.includes("-----BEGIN CERTIFICATE-----"))
    throw new Error(`sim cert printed no certificate: ${pem}`);
  return pem;
}

export interface SimStats {
  logins: Record<string, number>;
  requests: Record<string, number>;
  total: number;
}

/** `npm run sim -- stats --environment <env>` */
export const simStats = (stack: E2EStack, environment: Environment) =>
  stack.sim<SimStats>("stats", "--environment", environment);

export interface HttpAnswer {
  status: number;
  text: string;
  json<T = Record<string, unknown>>(): T;
}

/** One HTTP request to the edge with fetch; a string body is sent as is (to test non-JSON). */
export async function http(
  stack: E2EStack,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  path: string,
  authorization: string | undefined,
  body?: unknown,
): Promise<HttpAnswer> {
  const response = await fetch(`${stack.edgeUrl}${path}`, {
    method,
    headers: {
      ...(authorization ? { authorization } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    json: <T>() => JSON.parse(text) as T,
  };
}

export interface ErrorBody {
  error: string;
  code: string;
  details?: Record<string, unknown>;
}
