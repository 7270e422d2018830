import type { Bus } from "@pasarela/bus";
import type { WsfexAdapter } from "@pasarela/authority";
import type { wsfe } from "@pasarela/contracts";
import { authorityUnavailable, fail, ok, type Result } from "@pasarela/errors";
import type { WsfeCaller } from "../adapters/wsfe.js";
import type { SeriesKey } from "../db/repositories/series.js";
import {
  exportacionReply,
  fexCmp,
  PESOS,
  prepareExportacion,
  referencedExportIds,
  summaryOf,
  type PreparedExportacion,
} from "../domain/exportacion/index.js";
import type { IssuanceJob, Issuer } from "./issuance-job.js";
import type { VoucherOf } from "./factura-issue.js";
import { issueOnSeries, issuerAndReferences, type VoucherIssueContext } from "./voucher-issue.js";

export interface ExportacionIssueDeps {
  bus: Pick<Bus, "request">;
  wsfex: Pick<WsfexAdapter, "cotizacion">;
  /** numbers, stores and sends the voucher as its series' only writer */
  issuer: Issuer;
  now?: () => number;
}

/**
 * One admitted export voucher: references through the catalog, the domain's judgement (every
 * 400/422 before the authority), the rate of the day when the caller sent none
 * (FEXGetPARAM_Ctz), then the issuer. There, as the series' only writer: the last number
 * (FEXGetLast_CMP), reconciliation of anything left unsettled, a request `Id` of the CUIT and
 * the voucher stored `pending` with both, FEXAuthorize, and the answer stored before its event
 * is published and the caller answered. The same issuer, queue and reconciliation as domestic
 * vouchers: only the authority's service differs.
 */
export function makeExportacionIssue(deps: ExportacionIssueDeps) {
  const now = deps.now ?? Date.now;
  return async (
    request: VoucherOf<wsfe.ExportacionIssueCall>,
    ctx: VoucherIssueContext,
  ): Promise<Result<wsfe.ExportacionIssueReply>> => {
    const { environment, representada, cbteTipo } = request;
    const { accountId, deadline } = ctx;
    const known = await issuerAndReferences(deps.bus, ctx, request, referencedExportIds(request));
    if (!known.ok) return known;
    const { emisor, ptoVta, references } = known.value;
    const prepared = prepareExportacion(request, references, new Date(now()));
    if (!prepared.ok) return prepared;
    // the issuer is copied as it is now: a later change of the profile never reaches it
    const voucher = { ...prepared.value, emisor };

    const caller: WsfeCaller = { accountId, cuit: representada, environment, deadline };
    let cotizacion = voucher.moneda.id === PESOS ? "1" : voucher.moneda.cotizacion;
    if (cotizacion === undefined) {
      const quote = await deps.wsfex.cotizacion(caller, { monedaId: voucher.moneda.id });
      if (!quote.ok) return quote;
      if (!/^\d+(\.\d+)?$/.test(quote.value.cotizacion) || Number(quote.value.cotizacion) === 0) {
        return fail(authorityUnavailable(`cotización ilegible: ${quote.value.cotizacion}`));
      }
      cotizacion = quote.value.cotizacion;
    }
    const series: SeriesKey = { environment, cuit: representada, ptoVta, cbteTipo };
    return issueOnSeries(
      deps.issuer,
      ctx,
      caller,
      series,
      request.idempotencyKey,
      exportVoucher(voucher, series, cotizacion),
    );
  };
}

/** What an export issuance judges before the authority, without issuing (as makeVoucherJudge). */
export function makeExportacionJudge(deps: Pick<ExportacionIssueDeps, "bus" | "now">) {
  const now = deps.now ?? Date.now;
  return async (
    request: VoucherOf<wsfe.ExportacionIssueCall>,
    ctx: Pick<VoucherIssueContext, "accountId" | "requestId" | "deadline">,
  ): Promise<Result<void>> => {
    const known = await issuerAndReferences(deps.bus, ctx, request, referencedExportIds(request));
    if (!known.ok) return known;
    const prepared = prepareExportacion(request, known.value.references, new Date(now()));
    return prepared.ok ? ok(undefined) : prepared;
  };
}

/**
 * What the issuer needs of an export voucher: the request stored beside it, its e-mail
 * recipient, its ClsFEXRequest once numbered (with the request Id the issuer took for it) and
 * its reply once authorized.
 */
export function exportVoucher(
  voucher: PreparedExportacion,
  series: Pick<SeriesKey, "cuit" | "ptoVta">,
  /** Moneda_ctz as sent: the voucher's own rate, or the authority's of the day */
  cotizacion: string,
): Pick<IssuanceJob<wsfe.ExportacionIssueReply>, "request" | "emailTo" | "build" | "reply"> {
  const { cuit, ptoVta } = series;
  return {
    request: voucher,
    emailTo: voucher.email ?? null,
    build: (cbteNro, id) => {
      // the issuer takes an Id for every export voucher before building it
      if (id === undefined) throw new Error("export voucher numbered without a request Id");
      const sent = fexCmp(voucher, { id, cbteNro, ptoVta, cotizacion });
      return { sent, summary: summaryOf(sent) };
    },
    reply: (granted) => exportacionReply(voucher, { cuit, ptoVta, cotizacion, ...granted }),
  };
}
