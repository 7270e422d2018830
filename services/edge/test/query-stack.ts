import { randomBytes, randomInt } from "node:crypto";
import { makeAsmxClient, type XmlObject } from "@pasarela/authority";
import {
  makeControlClient,
  startSimulator,
  type ControlClient,
  type Simulator,
} from "@pasarela/authority-sim";
import { loadConfig as loadBillingConfig, startBilling } from "@pasarela/billing";
import { connectBus, type Bus } from "@pasarela/bus";
import { ticket, type Environment } from "@pasarela/contracts";
import { startTracing, createLogger } from "@pasarela/telemetry";
import { fileInfra, type FileInfra } from "@pasarela/testing";
import { loadConfig as loadTicketConfig, startTicket } from "@pasarela/ticket";
import { loadConfig as loadWsfeConfig, startWsfe, type WsfeDeps } from "@pasarela/wsfe";
import { loadConfig as loadWsfexConfig, startWsfex } from "@pasarela/wsfex";
import type { LightMyRequestResponse } from "fastify";
import forge from "node-forge";
import { buildApp, type EdgeApp } from "../src/index.js";
import { newKey } from "./billing-edge.js";

/** Every error body but the 401. */
export interface ErrorBody {
  error: string;
  code: string;
  details?: Record<string, unknown>;
}

/**
 * The real query path in one process: edge → NATS → wsfe/wsfex → ticket (WSAA) → the
 * authority simulator, with billing for keys. Each test file gets its own database, subject
 * prefix and simulator, so nothing is shared by accident.
 */
export interface QueryStack {
  /** this file's NATS prefix and database, for services a test starts beside these */
  infra: FileInfra;
  edge: EdgeApp;
  client: Bus;
  sim: Simulator;
  control: ControlClient;
  wsfe: WsfeDeps;
  /** a fresh account with a read_write key */
  newKey: () => Promise<{ accountId: string; authorization: string }>;
  /** a representada with an active certificate issued by the simulator's CA of `certFrom` */
  register: (options: RegisterOptions) => Promise<Registered>;
  post: (url: string, authorization: string, payload: unknown) => Promise<LightMyRequestResponse>;
  /** the number of requests the simulator has seen for an environment */
  authorityCalls: (environment: Environment) => Promise<number>;
  stop: () => Promise<void>;
}

export interface RegisterOptions {
  accountId: string;
  environment: Environment;
  cuit?: string;
  ptoVta?: number;
  /** services the certificate is delegated for; default none */
  delegate?: readonly ("wsfe" | "wsfex")[];
  /** points of sale enabled at the authority */
  pos?: readonly { ptoVta: number; service: "wsfe" | "wsfex" }[];
  /** which CA issues the certificate; the registration's own environment by default */
  certFrom?: Environment;
  /** leave the CSR pending: no active certificate */
  withoutCertificate?: boolean;
  /**
   * hold this representative's certificate (another CUIT, key made outside the gateway)
   * instead of one for the gateway's CSR; `delegate` then delegates to the representative
   */
  representative?: { cuit: string; alias: string };
}

export interface Registered {
  cuit: string;
  alias: string;
  representadaId: string;
}

/** A CUIT with a valid check digit (the simulator and ticket both check it). */
export function randomCuit(prefix: "20" | "30" = "20"): string {
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  for (;;) {
    const body = `${prefix}${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;
    const sum = [...body].reduce((acc, d, i) => acc + Number(d) * weights[i]!, 0);
    const check = 11 - (sum % 11);
    if (check === 10) continue;
    return `${body}${check === 11 ? 0 : check}`;
  }
}

/** A key pair and CSR made outside the gateway, for a certificate of another CUIT. */
function externalCsr(cuit: string, alias: string): { keyPem: string; csrPem: string } {
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const csr = forge.pki.createCertificationRequest();
  csr.publicKey = keys.publicKey;
  csr.setSubject([
    { name: "commonName", value: alias },
    { type: "2.5.4.5", value: `CUIT ${cuit}` },
  ]);
  csr.sign(keys.privateKey, forge.md.sha256.create());
  return {
    keyPem: forge.pki.privateKeyToPem(keys.privateKey),
    csrPem: forge.pki.certificationRequestToPem(csr),
  };
}

export async function startQueryStack(
  options: {
    authorityTimeoutMs?: number;
    /** the simulator world whose WSAA each environment logs in at; its own by default */
    wsaaOf?: Partial<Record<Environment, Environment>>;
  } = {},
): Promise<QueryStack> {
  const infra: FileInfra = await fileInfra();
  const sim = await startSimulator({ port: 0, timeoutHoldMs: 10_000 });
  const control = makeControlClient(sim.url);
  const silent = (service: string) => createLogger({ service, level: "silent" });
  const common = {
    NATS_URL: infra.natsUrl,
    NATS_PREFIX: infra.prefix,
    DATABASE_URL: infra.databaseUrl,
    LOG_LEVEL: "silent",
    CURSOR_KEY: randomBytes(32).toString("base64"),
  };
  const timeout = String(options.authorityTimeoutMs ?? 2_000);
  const billingService = await startBilling(
    loadBillingConfig({ ...common, API_KEY_PEPPER: "query-test-pepper-query-test-pepper-01" }),
    silent("billing"),
  );
  const ticketService = await startTicket(
    loadTicketConfig({
      ...common,
      KEY_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      WSAA_URL_HOMOLOGACION: sim.endpoints(options.wsaaOf?.homologacion ?? "homologacion").wsaa,
      WSAA_URL_PRODUCCION: sim.endpoints(options.wsaaOf?.produccion ?? "produccion").wsaa,
      AUTHORITY_TIMEOUT_MS: timeout,
      TA_RETRY_AFTER_MS: "0",
    }),
    silent("ticket"),
  );
  const wsfeService = await startWsfe(
    loadWsfeConfig({
      ...common,
      KEY_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      WSFE_URL_HOMOLOGACION: sim.endpoints("homologacion").wsfe,
      WSFE_URL_PRODUCCION: sim.endpoints("produccion").wsfe,
      AUTHORITY_TIMEOUT_MS: timeout,
    }),
    silent("wsfe"),
  );
  const wsfexService = await startWsfex(
    loadWsfexConfig({
      ...common,
      WSFEX_URL_HOMOLOGACION: sim.endpoints("homologacion").wsfex,
      WSFEX_URL_PRODUCCION: sim.endpoints("produccion").wsfex,
      AUTHORITY_TIMEOUT_MS: timeout,
    }),
    silent("wsfex"),
  );
  const { tracer } = startTracing({ service: "test" });
  const busOptions = { url: infra.natsUrl, prefix: infra.prefix, tracer, logger: silent("bus") };
  const client = await connectBus({ ...busOptions, name: "test" });
  const edgeBus = await connectBus({ ...busOptions, name: "edge" });
  const edge = await buildApp({ bus: edgeBus, logger: silent("edge"), tracer });

  const must = <T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }) => {
    if (!result.ok) throw new Error(result.error.message);
    return result.value;
  };

  return {
    infra,
    edge,
    client,
    sim,
    control,
    wsfe: wsfeService.deps,
    async newKey() {
      const { accountId, secret } = await newKey(client, "read_write");
      return { accountId, authorization: `Bearer ${secret}` };
    },
    async register(o) {
      const cuit = o.cuit ?? randomCuit();
      const created = must(
        await client.request(ticket.representadaCreate, {
          accountId: o.accountId,
          cuit,
          environment: o.environment,
          ...(o.ptoVta !== undefined ? { ptoVta: o.ptoVta } : {}),
        }),
      );
      const holder = o.representative ?? { cuit, alias: created.alias };
      if (o.representative) {
        const { keyPem, csrPem } = externalCsr(holder.cuit, holder.alias);
        must(
          await client.request(ticket.certificateCreate, {
            representadaId: created.representadaId,
            certificate: await control.issueCertificate(o.certFrom ?? o.environment, csrPem),
            privateKey: keyPem,
          }),
        );
      } else if (!o.withoutCertificate) {
        must(
          await client.request(ticket.certificateCreate, {
            representadaId: created.representadaId,
            certificate: await control.issueCertificate(o.certFrom ?? o.environment, created.csr),
          }),
        );
      }
      for (const service of o.delegate ?? []) {
        await control.delegate(o.environment, { ...holder, service });
      }
      for (const p of o.pos ?? []) await control.enablePointOfSale(o.environment, { cuit, ...p });
      return { cuit, alias: created.alias, representadaId: created.representadaId };
    },
    post: (url, authorization, payload) =>
      edge.app.inject({
        method: "POST",
        url,
        headers: { authorization, "content-type": "application/json" },
        payload: typeof payload === "string" ? payload : JSON.stringify(payload),
      }),
    authorityCalls: async (environment) => (await control.stats(environment)).total,
    async stop() {
      await edge.close();
      await edgeBus.close();
      await client.close();
      await wsfexService.stop();
      await wsfeService.stop();
      await ticketService.stop();
      await billingService.stop();
      await sim.close();
      await infra.cleanup();
    },
  };
}

const today = () => {
  const d = new Date(Date.now() - 3 * 3_600_000);
  return d.toISOString().slice(0, 10).replaceAll("-", "");
};

interface Who {
  accountId: string;
  cuit: string;
  environment: Environment;
}

const namespaces = {
  wsfe: "http://ar.gov.afip.dif.FEV1/",
  wsfex: "http://ar.gov.afip.dif.fexv1/",
} as const;

/**
 * Sends an issuance operation straight to the simulator (issuance is not the gateway's yet),
 * signed with the TA the gateway would use, so no extra WSAA login is made.
 */
async function issueAtSimulator(
  stack: QueryStack,
  who: Who,
  service: "wsfe" | "wsfex",
  operation: string,
  request: string,
): Promise<XmlObject> {
  const ta = await stack.client.request(
    ticket.accessGet,
    { cuit: who.cuit, environment: who.environment, service },
    { accountId: who.accountId },
  );
  if (!ta.ok) throw new Error(ta.error.message);
  const asmx = makeAsmxClient({
    service,
    endpoint: stack.sim.endpoints(who.environment)[service],
    namespace: namespaces[service],
    timeoutMs: 5_000,
  });
  const outcome = await asmx.call(
    operation,
    `<Auth><Token>${ta.value.token}</Token><Sign>${ta.value.sign}</Sign><Cuit>${who.cuit}</Cuit></Auth>${request}`,
  );
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.failure));
  return outcome.result;
}

/** Issues a Factura C (type 11) for a final consumer. */
export function issueFacturaC(
  stack: QueryStack,
  who: Who,
  ptoVta: number,
  cbteNro: number,
  impTotal: number,
): Promise<XmlObject> {
  return issueAtSimulator(
    stack,
    who,
    "wsfe",
    "FECAESolicitar",
    `<FeCAEReq><FeCabReq><CantReg>1</CantReg><PtoVta>${ptoVta}</PtoVta><CbteTipo>11</CbteTipo></FeCabReq>` +
      `<FeDetReq><FECAEDetRequest><Concepto>1</Concepto><DocTipo>99</DocTipo><DocNro>0</DocNro>` +
      `<CbteDesde>${cbteNro}</CbteDesde><CbteHasta>${cbteNro}</CbteHasta><CbteFch>${today()}</CbteFch>` +
      `<ImpTotal>${impTotal}</ImpTotal><ImpTotConc>0</ImpTotConc><ImpNeto>${impTotal}</ImpNeto>` +
      `<ImpOpEx>0</ImpOpEx><ImpTrib>0</ImpTrib><ImpIVA>0</ImpIVA><MonId>PES</MonId><MonCotiz>1</MonCotiz>` +
      `<CondicionIVAReceptorId>5</CondicionIVAReceptorId></FECAEDetRequest></FeDetReq></FeCAEReq>`,
  );
}

/** Issues an export invoice (type 19). */
export function issueFacturaE(
  stack: QueryStack,
  who: Who,
  ptoVta: number,
  cbteNro: number,
): Promise<XmlObject> {
  return issueAtSimulator(
    stack,
    who,
    "wsfex",
    "FEXAuthorize",
    `<Cmp><Id>${randomInt(1, 1_000_000)}</Id><Fecha_cbte>${today()}</Fecha_cbte><Cbte_Tipo>19</Cbte_Tipo>` +
      `<Punto_vta>${ptoVta}</Punto_vta><Cbte_nro>${cbteNro}</Cbte_nro><Tipo_expo>1</Tipo_expo>` +
      `<Permiso_existente>N</Permiso_existente><Dst_cmp>203</Dst_cmp><Cliente>Importadora SA</Cliente>` +
      `<Cuit_pais_cliente>50000000016</Cuit_pais_cliente><Domicilio_cliente>Rua 1</Domicilio_cliente>` +
      `<Id_impositivo>123</Id_impositivo><Moneda_Id>DOL</Moneda_Id><Moneda_ctz>1000</Moneda_ctz>` +
      `<Imp_total>250.5</Imp_total><Forma_pago>Transferencia</Forma_pago><Incoterms>FOB</Incoterms>` +
      `<Idioma_cbte>1</Idioma_cbte><Items><Item><Pro_codigo>A1</Pro_codigo><Pro_ds>Vino</Pro_ds>` +
      `<Pro_qty>1</Pro_qty><Pro_umed>7</Pro_umed><Pro_precio_uni>250.5</Pro_precio_uni>` +
      `<Pro_bonificacion>0</Pro_bonificacion><Pro_total_item>250.5</Pro_total_item></Item></Items></Cmp>`,
  );
}
