import type { AccountContext, Bus, Handler } from "@pasarela/bus";
import type { billing, wsfe } from "@pasarela/contracts";
import type { Result } from "@pasarela/errors";
import type { StoredComprobante } from "../db/repositories/comprobantes.js";
import type { VoucherEvents } from "./events.js";
import type { IssuanceReply } from "./issuance-job.js";
import type { VoucherIssueContext } from "./voucher-issue.js";

// The issuance lifecycle's types (factura-issue.ts): what it answers, what it runs on, and the
// ways the asynchronous queue enters it.

/** What an issuance answers: the authorized voucher's 200 body (domestic or export). */
export interface IssuanceAnswer<Http = wsfe.FacturaHttpReply> {
  readonly factura: Http;
  readonly replayed: boolean;
}

/** How a stored answer is read back as this kind of voucher's 200 body (a zod schema). */
export interface AnswerSchema<Http> {
  safeParse(value: unknown): { success: true; data: Http } | { success: false };
}

/** What every issuance call carries besides its voucher: the key, its fingerprint, the scope. */
export interface IssuanceCall {
  readonly environment: wsfe.FacturaIssueCall["environment"];
  readonly representada: string;
  readonly idempotencyKey?: string | undefined;
  readonly fingerprint?: string | undefined;
  readonly keyScope: wsfe.FacturaIssueCall["keyScope"];
}

/** The voucher of a call, as the issuance takes it: without the key's fingerprint and scope. */
export type VoucherOf<Req extends IssuanceCall> = Omit<Req, "fingerprint" | "keyScope">;

/**
 * What the flow runs on: the bus (billing, pdf), the voucher's issuance and its lookup.
 *
 * The time budget of one issuance, laid out as the queries' (authority-query.ts). The edge
 * waits min(the contract's 125 s, API_TIMEOUT_MS: 65 s by default) and hands every hop the
 * same deadline D, DEADLINE_SLACK_MS (3 s) before it gives up. 125 s is what the worst case
 * needs with AUTHORITY_TIMEOUT_MS at 30 s: a first WSAA login (30 s), the last number (30 s),
 * one more call (the rate of the day or a reconciliation lookup, 30 s) and FECAESolicitar
 * (30 s), plus 5 s for NATS, billing, the catalog, pdf and the database; raise API_TIMEOUT_MS
 * to give it all. Whatever the budget, FECAESolicitar is sent only while a whole
 * AUTHORITY_TIMEOUT_MS and SEND_MARGIN_MS still fit before D (flows/batches.ts).
 */
export interface FacturaFlowDeps<
  Req extends IssuanceCall = wsfe.FacturaIssueCall,
  Http extends wsfe.IssuedHttpReply = wsfe.FacturaHttpReply,
> {
  /** the 200 body this kind of voucher answers: a stored answer is read back with it */
  answerSchema?: AnswerSchema<Http>;
  bus: Pick<Bus, "request">;
  /** the outcome events: built from the stored voucher, published on JetStream */
  events: Pick<VoucherEvents, "outcomeOf" | "publish">;
  /** numbers, sends and stores one admitted voucher (voucher-issue.ts) */
  issueVoucher: (
    request: VoucherOf<Req>,
    ctx: VoucherIssueContext,
  ) => Promise<Result<IssuanceReply>>;
  /** what became of the voucher of an earlier attempt under a key (wsfe.factura.get) */
  facturaGet: Handler<typeof wsfe.facturaGet>;
  /** the stored vouchers of an Idempotency-Key, once `facturaGet` settled them */
  vouchersOfKey: (accountId: string, key: string) => Promise<readonly StoredComprobante[]>;
  /**
   * the asynchronous issuance that owns a key, if one does (async-issuance.ts): a call under
   * that key is that issuance, answered once it ends
   */
  queuedOfKey?: (accountId: string, key: string) => Promise<QueuedIssuance | undefined>;
  /** how long a caller that sets no deadline waits; the contract's timeout by default */
  budgetMs?: number;
  now?: () => number;
  /** how often a call under a queued issuance's key looks at it again while it is pending */
  queuedPollMs?: number;
}

/** What a call under its key needs of an asynchronous issuance. */
export interface QueuedIssuance {
  readonly fingerprint: string;
  /** its answer once it ended; undefined while it is pending */
  readonly answer: billing.FacturaAnswer | undefined;
}

/**
 * The issuance's lifecycle as the asynchronous queue runs it: the first attempt under the
 * admission made when it was queued, then retries that settle what an earlier attempt left
 * open before issuing again.
 */
export interface IssuanceLifecycle<Req extends IssuanceCall, Http> {
  /** a synchronous call (`wsfe.factura.issue`): admission, then the voucher */
  call: (request: Req, ctx: AccountContext) => Promise<Result<IssuanceAnswer<Http>>>;
  /** an issuance billing already admitted under `ctx.requestId`: the voucher, at once */
  issueAdmitted: (request: Req, ctx: AccountContext) => Promise<Result<IssuanceAnswer<Http>>>;
  /**
   * another attempt under the key: what earlier attempts left is settled with the authority
   * first (their voucher's answer when one was authorized or rejected), then the voucher is
   * admitted and issued as a retry by the caller would be
   */
  retry: (
    request: Req & { idempotencyKey: string },
    ctx: AccountContext,
  ) => Promise<Result<IssuanceAnswer<Http>>>;
  /**
   * the queue gives up issuing: what earlier attempts left is settled with the authority first
   * (their voucher's answer when one was authorized or rejected); otherwise the key and the
   * quota are given back and it ends never issued (ASYNC_ISSUANCE_EXPIRED)
   */
  abandon: (
    request: Req & { idempotencyKey: string },
    ctx: AccountContext,
  ) => Promise<Result<IssuanceAnswer<Http>>>;
}
