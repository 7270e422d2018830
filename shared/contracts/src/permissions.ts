import * as billing from "./billing/index.js";
import * as catalog from "./catalog/index.js";
import * as cobros from "./cobros/index.js";
import { healthContract } from "./common/health.js";
import type { Contract, EventContract, JobContract } from "./contract.js";
import * as mail from "./mail/index.js";
import * as padron from "./padron/index.js";
import * as pdf from "./pdf/index.js";
import * as ticket from "./ticket/index.js";
import * as wsfe from "./wsfe/index.js";
import * as webhooks from "./webhooks/index.js";
import * as wsfex from "./wsfex/index.js";

/**
 * Who may do what on NATS. Each process connects with its own identity (NATS_USER), and the
 * server grants it only the subjects below: the ones it answers (every contract of its own
 * namespace, derived, plus its health subject), the ones it calls, the events it publishes and
 * listens to, and the JetStream API calls it makes. `natsAuthorization` turns this map into
 * the server's configuration, so the grants cannot drift from the contracts; a unit test
 * checks every service's source against it.
 */
export interface Grant {
  /** the contract namespace it answers; none for pure callers (edge, operator CLI) */
  readonly serves?: Readonly<Record<string, unknown>>;
  readonly calls: readonly Contract[];
  readonly publishes: readonly EventContract[];
  /** events received on a core subscription (cache invalidation) */
  readonly listens: readonly EventContract[];
  /** creates or updates the EVENTS stream on start */
  readonly managesStream?: boolean;
  /** durable JetStream consumers of the EVENTS stream it reads, by durable name */
  readonly consumes?: readonly string[];
  /** the events those durable consumers read */
  readonly reads?: readonly EventContract[];
  /** job kinds it queues (and whose work-queue stream it may create) */
  readonly enqueues?: readonly JobContract[];
  /** job kinds it works through a durable consumer of their stream, by durable name */
  readonly works?: readonly { readonly job: JobContract; readonly durable: string }[];
}

export const isContract = (value: unknown): value is Contract =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as Contract).subject === "string" &&
  "request" in value &&
  "reply" in value;

export const isEventContract = (value: unknown): value is EventContract =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as EventContract).subject === "string" &&
  (value as EventContract).subject.startsWith("evt.") &&
  "schema" in value;

/**
 * The request/reply contracts of a namespace (`billing`, `ticket`, …), by subject: the order
 * of a module namespace's keys is not the same under every loader.
 */
export function contractsOf(namespace: Readonly<Record<string, unknown>>): Contract[] {
  return Object.values(namespace)
    .filter(isContract)
    .sort((a, b) => a.subject.localeCompare(b.subject));
}

/** Services behind the edge whose health the edge asks for (`<name>.health.get`). */
const served = {
  billing,
  ticket,
  catalog,
  wsfe,
  wsfex,
  padron,
  pdf,
  mail,
  cobros,
  webhooks,
} as const;

export const natsGrants = {
  billing: {
    serves: billing,
    calls: [],
    publishes: [billing.keyRevoked, billing.cuotaAlerta],
    listens: [],
    managesStream: true,
    // password-reset links and operators' replies to support tickets
    enqueues: [mail.mensajeJob],
    consumes: ["billing-comprobantes", "billing-emisiones", "billing-uso", "billing-cobros"],
    reads: [
      wsfe.comprobanteAutorizado,
      wsfe.comprobanteRechazado,
      wsfe.comprobanteCaeaRechazado,
      wsfe.emisionTerminada,
      billing.usoRegistrado,
      cobros.linkPagado,
    ],
  },
  ticket: {
    serves: ticket,
    calls: [],
    publishes: [ticket.certificadoActivado, ticket.certificadoPorVencer, ticket.certificadoVencido],
    listens: [],
    managesStream: true,
  },
  catalog: { serves: catalog, calls: [], publishes: [], listens: [] },
  wsfe: {
    serves: wsfe,
    calls: [
      ticket.accessGet,
      ticket.representadaGet,
      // the representadas with CAEA contingency on, whose CAEAs wsfe obtains
      ticket.contingenciaList,
      // the owner told by e-mail of a fortnight without its CAEA
      billing.accountOwnerGet,
      catalog.clienteGet,
      catalog.productoGet,
      billing.facturaAdmit,
      // an attempt still running keeps its Idempotency-Key bound
      billing.facturaHold,
      billing.facturaSettle,
      pdf.linkCreate,
    ],
    publishes: [
      wsfe.comprobanteAutorizado,
      wsfe.comprobanteRechazado,
      wsfe.comprobanteNoEmitido,
      wsfe.emisionTerminada,
      wsfe.emisionFinalizada,
      wsfe.caeaNoObtenido,
      wsfe.comprobanteCaeaInformado,
      wsfe.comprobanteCaeaRechazado,
    ],
    listens: [ticket.certificadoActivado],
    managesStream: true,
    enqueues: [mail.comprobanteJob, mail.mensajeJob],
  },
  wsfex: {
    serves: wsfex,
    // the export lookup shows the e-mail record wsfe keeps for the voucher
    calls: [ticket.accessGet, wsfe.emailGet],
    publishes: [],
    listens: [ticket.certificadoActivado],
  },
  padron: {
    serves: padron,
    calls: [ticket.accessGet],
    publishes: [],
    listens: [ticket.certificadoActivado],
  },
  pdf: {
    serves: pdf,
    calls: [wsfe.emitidoGet, ticket.perfilGet, ticket.logoGet, padron.constanciaGet],
    publishes: [],
    listens: [],
  },
  mail: {
    serves: mail,
    calls: [
      pdf.comprobanteRender,
      pdf.linkCreate,
      ticket.perfilGet,
      wsfe.emailSend,
      wsfe.emailUpdate,
      // a redelivered e-mail job: whether an earlier delivery already sent it
      wsfe.emailGet,
    ],
    // the outcome of every voucher e-mail, for the accounts' webhooks
    publishes: [mail.emailEnviado, mail.emailFallido],
    listens: [],
    managesStream: true,
    consumes: ["mail-emision"],
    reads: [wsfe.comprobanteAutorizado],
    works: [
      { job: mail.comprobanteJob, durable: "mail" },
      { job: mail.mensajeJob, durable: "mail" },
    ],
  },
  cobros: {
    serves: cobros,
    calls: [wsfe.emitidoGet],
    publishes: [cobros.linkPagado],
    listens: [],
    managesStream: true,
  },
  webhooks: {
    serves: webhooks,
    // the owner of an account whose endpoint was disabled, told by e-mail
    calls: [billing.accountOwnerGet],
    publishes: [],
    listens: [],
    managesStream: true,
    enqueues: [mail.mensajeJob],
    // every voucher outcome, e-mail outcome, paid link, certificate notice and quota alert
    // becomes deliveries to the endpoints subscribed to it: one durable per source's events
    consumes: [
      "webhooks-comprobantes",
      "webhooks-emails",
      "webhooks-cobros",
      "webhooks-certificados",
      "webhooks-cuotas",
      "webhooks-emisiones",
      "webhooks-caea",
      "webhooks-caea-informe",
    ],
    reads: [
      wsfe.comprobanteAutorizado,
      wsfe.comprobanteRechazado,
      wsfe.comprobanteNoEmitido,
      mail.emailEnviado,
      mail.emailFallido,
      cobros.linkPagado,
      ticket.certificadoPorVencer,
      ticket.certificadoVencido,
      billing.cuotaAlerta,
      wsfe.emisionFinalizada,
      wsfe.caeaNoObtenido,
      wsfe.comprobanteCaeaInformado,
      wsfe.comprobanteCaeaRechazado,
    ],
  },
  edge: {
    calls: [
      billing.keyVerify,
      billing.quotaReserve,
      billing.quotaCommit,
      billing.quotaRelease,
      billing.usageList,
      billing.usageSummary,
      // the dashboard (/panel): the session's account's keys
      billing.keyCreate,
      billing.keyList,
      billing.keyRevoke,
      billing.userSignup,
      billing.userLogin,
      billing.userPasswordChange,
      billing.userResetRequest,
      billing.userResetComplete,
      billing.soporteCreate,
      billing.soporteList,
      billing.soporteGet,
      billing.soporteReply,
      ticket.cuentaRepresentadaList,
      ticket.cuentaRepresentadaGet,
      ticket.cuentaRepresentadaCreate,
      ticket.cuentaRepresentadaUpdate,
      ticket.cuentaCertificadoCreate,
      ticket.conexionVerify,
      ...contractsOf(catalog),
      wsfe.comprobanteGet,
      wsfe.comprobanteList,
      wsfe.emailSend,
      wsfe.facturaIssue,
      wsfe.exportacionIssue,
      wsfe.facturaEnqueue,
      wsfe.exportacionEnqueue,
      wsfe.emisionGet,
      wsfe.emisionList,
      wsfe.contingenciaValidate,
      wsfe.caeaList,
      wsfe.parametrosGet,
      wsfe.ultimoComprobanteLast,
      ...contractsOf(wsfex),
      padron.constanciaGet,
      padron.documentoList,
      pdf.comprobanteRender,
      pdf.linkCreate,
      pdf.linkOpen,
      ...contractsOf(cobros).filter((c) => c !== cobros.cuentaSet),
      ...contractsOf(webhooks),
      ...Object.keys(served).map((name) => healthContract(name)),
    ],
    publishes: [billing.usoRegistrado, wsfe.emisionTerminada],
    listens: [billing.keyRevoked],
  },
  /** the operator CLI (`npm run admin`): accounts, keys, representadas, certificates, users, support */
  admin: {
    calls: [
      billing.accountCreate,
      billing.keyCreate,
      billing.keyList,
      billing.keyRevoke,
      ticket.representadaCreate,
      ticket.representadaList,
      ticket.certificateCreate,
      ticket.perfilSet,
      billing.planCreate,
      billing.planList,
      billing.planAssign,
      billing.accountUsage,
      cobros.cuentaSet,
      billing.userAdd,
      billing.soporteOperadorList,
      billing.soporteOperadorGet,
      billing.soporteOperadorReply,
      billing.soporteClose,
    ],
    publishes: [],
    listens: [],
  },
} satisfies Record<string, Grant>;

export type NatsIdentity = keyof typeof natsGrants;

/** The inbox a user's replies come to: only that user may subscribe to it. */
export function natsInboxOf(user: string): string {
  return `_INBOX.${user}`;
}

/** The JetStream stream holding `evt.>` under a subject prefix. */
export function eventStreamOf(prefix: string | undefined): string {
  return prefix ? `${prefix.replace(/[^A-Za-z0-9_-]/g, "_")}_EVENTS` : "EVENTS";
}

/** The JetStream stream of a job kind under a subject prefix (as the bus names it). */
export function jobStreamOf(job: JobContract, prefix: string | undefined): string {
  return prefix ? `${prefix.replace(/[^A-Za-z0-9_-]/g, "_")}_${job.stream}` : job.stream;
}

/** Creating a stream, or reading and updating it. */
const streamManagement = (stream: string) => [
  `$JS.API.STREAM.INFO.${stream}`,
  `$JS.API.STREAM.CREATE.${stream}`,
  `$JS.API.STREAM.UPDATE.${stream}`,
];

/** What one durable consumer of a stream needs: create/update, read, fetch, acknowledge. */
const consumerApi = (stream: string, durable: string) => [
  `$JS.API.CONSUMER.CREATE.${stream}.${durable}`,
  `$JS.API.CONSUMER.CREATE.${stream}.${durable}.>`,
  `$JS.API.CONSUMER.DURABLE.CREATE.${stream}.${durable}`,
  `$JS.API.CONSUMER.INFO.${stream}.${durable}`,
  `$JS.API.CONSUMER.MSG.NEXT.${stream}.${durable}`,
  `$JS.ACK.${stream}.${durable}.>`,
];

export interface Permissions {
  readonly publish: string[];
  readonly subscribe: string[];
  /** may answer requests it received (reply subjects only, one reply each) */
  readonly allowResponses: boolean;
}

/** The subjects one identity may publish and subscribe to, under a subject prefix. */
export function permissionsOf(identity: NatsIdentity, prefix?: string): Permissions {
  const grant: Grant = natsGrants[identity];
  const subject = (name: string) => (prefix ? `${prefix}.${name}` : name);
  const stream = eventStreamOf(prefix);
  const answers = grant.serves
    ? [...contractsOf(grant.serves), healthContract(identity)].map((c) => subject(c.subject))
    : [];
  const jsApi = grant.serves
    ? // a JetStream manager (durable consumers, their lag in shared/service) asks this first
      ["$JS.API.INFO"]
    : [];
  if (grant.managesStream) jsApi.push(...streamManagement(stream));
  for (const durable of grant.consumes ?? []) jsApi.push(...consumerApi(stream, durable));
  const jobs: string[] = [];
  for (const job of grant.enqueues ?? []) {
    jobs.push(subject(job.subject), ...streamManagement(jobStreamOf(job, prefix)));
  }
  for (const { job, durable } of grant.works ?? []) {
    const jobStream = jobStreamOf(job, prefix);
    jobs.push(...streamManagement(jobStream), ...consumerApi(jobStream, durable));
  }
  const unique = (list: string[]) => [...new Set(list)];
  return {
    publish: unique([
      ...grant.calls.map((c) => subject(c.subject)),
      ...grant.publishes.map((e) => subject(e.subject)),
      ...jsApi,
      ...jobs,
    ]),
    subscribe: unique([
      ...answers,
      ...grant.listens.map((e) => subject(e.subject)),
      `${natsInboxOf(identity)}.>`,
    ]),
    allowResponses: answers.length > 0,
  };
}
