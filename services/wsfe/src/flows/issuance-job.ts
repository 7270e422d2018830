import type { wsfe } from "@pasarela/contracts";
import type { Result } from "@pasarela/errors";
import type { Logger } from "@pasarela/telemetry";
import type { WsfeCaller } from "../adapters/wsfe.js";
import type { StoredComprobante } from "../db/repositories/comprobantes.js";
import type { SeriesKey } from "../db/repositories/series.js";
import type { AuthorityMessage } from "../domain/cae-answer.js";
import type { SentVoucher, VoucherSummary } from "../domain/voucher-summary.js";

/*
 * What the issuer is given and answers, whichever kind of voucher: the flows that admit an
 * issuance build a job, the batch issuer numbers, stores and sends it (batches.ts).
 */

/**
 * The reason every issuer gives a call whose job's `keyHeld` turned false before its voucher
 * was stored: nothing was stored or sent.
 */
export const KEY_LAPSED = "the Idempotency-Key's lease lapsed";

/** What the authority granted a voucher, as its reply is made of. */
export interface Granted {
  readonly cbteNro: number;
  readonly cae: string;
  readonly caeVencimiento: string;
  readonly observaciones: readonly AuthorityMessage[];
  /** CAEA: issued in contingency, `cae` being the fortnight's CAEA (see caea-issue.ts) */
  readonly tipoAutorizacion?: "CAE" | "CAEA";
}

/** What an authorized voucher answers: a domestic voucher's reply, or an export one's. */
export type IssuanceReply = wsfe.FacturaIssueReply | wsfe.ExportacionIssueReply;

/** One voucher ready to be numbered and sent, and whom to answer. */
export interface IssuanceJob<R extends IssuanceReply = IssuanceReply> {
  readonly accountId: string;
  readonly caller: WsfeCaller;
  readonly series: SeriesKey;
  /** the request as resolved, stored beside the voucher (what its reply and PDF are made of) */
  readonly request: unknown;
  /** who gets the voucher by e-mail once authorized */
  readonly emailTo: string | null;
  /**
   * The voucher as the authority is sent it with number `cbteNro` (and, for an export voucher,
   * FEXAuthorize's request Id), and the columns stored for it.
   */
  readonly build: (
    cbteNro: number,
    requestId: number | undefined,
  ) => { readonly sent: SentVoucher; readonly summary: VoucherSummary };
  /** the reply of the voucher once authorized */
  readonly reply: (granted: Granted) => R;
  readonly idempotencyKey: string | null;
  readonly requestId: string;
  /** the API call's deadline (epoch ms) */
  readonly deadline: number;
  readonly logger: Logger;
  /**
   * Takes the stored voucher once it reached a final state, before the caller is answered:
   * whoever waits for it publishes its event. Without it, the batch publishes the event.
   */
  readonly settled?: (stored: StoredComprobante) => void;
  /**
   * False once the call's Idempotency-Key may no longer be bound to it (its process could not
   * keep it): the voucher is then neither stored nor sent, since a retry may be looking it up.
   */
  readonly keyHeld?: () => boolean;
}

export type IssuanceResult = Result<IssuanceReply>;

/** Issues one voucher, coalesced with the others waiting on its series. */
export type Issuer = <R extends IssuanceReply>(job: IssuanceJob<R>) => Promise<Result<R>>;

export interface Waiting {
  readonly job: IssuanceJob;
  readonly answer: (result: IssuanceResult) => void;
  /** an unexpected throw: the caller's handler turns it into INTERNAL */
  readonly crash: (error: unknown) => void;
}
