import { trace } from "@opentelemetry/api";
import type { Bus, HandlerContext, RequestOptions } from "@pasarela/bus";
import { counter } from "@pasarela/telemetry";
import { catalog, ticket, wsfe, type Environment } from "@pasarela/contracts";
import {
  appError,
  authorityUnavailable,
  fail,
  invalidField,
  kindOf,
  isErrorCode,
  ok,
  type AppError,
  type Result,
} from "@pasarela/errors";
import type { WsfeAdapter, WsfeCaller } from "../adapters/wsfe.js";
import {
  authorizedReply,
  feCaeDetRequest,
  prepareIssuance,
  referencedIds,
  type PreparedVoucher,
  type ResolvedReferences,
} from "../domain/issuance/index.js";
import { domesticSummary } from "../domain/voucher-summary.js";
import { resolvePtoVta } from "../domain/point-of-sale.js";
import type { SeriesKey } from "../db/repositories/series.js";
import type { CaeaComprobantesRepository } from "../db/repositories/caea-comprobantes.js";
import type { CaeaIssuer } from "./caea-issue.js";
import { storedReply } from "./events.js";
import type { IssuanceJob, IssuanceReply, Issuer } from "./issuance-job.js";
import { isOpen, type OpenSettler } from "./settle-open.js";

/** What one admitted voucher is issued with (the time budget is the flow's: factura-issue.ts). */
export interface VoucherIssueDeps {
  bus: Pick<Bus, "request">;
  wsfe: Pick<WsfeAdapter, "cotizacion">;
  /** numbers, stores and sends the voucher, coalesced with the others of its series */
  issuer: Issuer;
  /** issuance under the fortnight's CAEA, for representadas with contingency on */
  contingency?: ContingencyDeps;
  now?: () => number;
}

/** What issuing in contingency needs besides the CAEA issuer. */
export interface ContingencyDeps {
  issue: CaeaIssuer;
  /** settles a voucher of the failed attempt whose fate is open, with the authority */
  settleOpen: OpenSettler;
  /** the vouchers an issuance call stored */
  ofRequest: CaeaComprobantesRepository["ofRequest"];
}

/** An answer in the 502 class: the authority could not be reached or did not answer. */
const authorityDown = (error: AppError) =>
  isErrorCode(error.code) && kindOf(error.code) === "upstream";

/** The catalog's answers for a request's references; an id it does not find is left out. */
export async function resolveReferences(
  bus: Pick<Bus, "request">,
  headers: RequestOptions,
  { clienteId, productoIds }: { clienteId?: string | undefined; productoIds: readonly string[] },
): Promise<Result<ResolvedReferences>> {
  const [cliente, ...productos] = await Promise.all([
    clienteId === undefined
      ? undefined
      : bus.request(catalog.clienteGet, { id: clienteId }, headers),
    ...productoIds.map((id) => bus.request(catalog.productoGet, { id }, headers)),
  ]);
  if (cliente && !cliente.ok && cliente.error.code !== "CLIENTE_NOT_FOUND") return cliente;
  const found = new Map<string, catalog.Producto>();
  for (const [i, producto] of productos.entries()) {
    if (producto?.ok) found.set(productoIds[i]!, producto.value);
    else if (producto && producto.error.code !== "PRODUCTO_NOT_FOUND") return producto;
  }
  return ok({ ...(cliente?.ok ? { cliente: cliente.value } : {}), productos: found });
}

/**
 * What the issuer needs of a domestic voucher: the request stored beside it, its e-mail
 * recipient, its FECAEDetRequest once numbered and its reply once authorized.
 */
export function domesticVoucher(
  voucher: PreparedVoucher,
  series: Pick<SeriesKey, "cuit" | "ptoVta">,
  /** MonCotiz as sent: the voucher's own rate, or the authority's of the day */
  cotizacion: string,
): Pick<IssuanceJob<wsfe.FacturaIssueReply>, "request" | "emailTo" | "build" | "reply"> {
  return {
    request: voucher,
    emailTo: voucher.email ?? null,
    build: (cbteNro) => {
      const sent = feCaeDetRequest(voucher, { cbteNro, cotizacion });
      return { sent, summary: domesticSummary(sent) };
    },
    reply: (granted) =>
      authorizedReply(voucher, {
        cuit: series.cuit,
        ptoVta: series.ptoVta,
        cbteNro: granted.cbteNro,
        cotizacion,
        cae: granted.cae,
        caeVencimiento: granted.caeVencimiento,
        observaciones: granted.observaciones,
        ...(granted.tipoAutorizacion === undefined
          ? {}
          : { tipoAutorizacion: granted.tipoAutorizacion }),
      }),
  };
}

/**
 * What an issuance learns before judging its voucher, asked together: the representada (with
 * an active certificate: its 403s answer before anything the references say), its issuer
 * profile and point of sale, and the catalog's answers for the request's references.
 */
export async function issuerAndReferences(
  bus: Pick<Bus, "request">,
  ctx: Pick<VoucherIssueContext, "accountId" | "requestId" | "deadline">,
  request: { environment: Environment; representada: string; ptoVta?: number | undefined },
  ids: { clienteId?: string | undefined; productoIds: readonly string[] },
): Promise<
  Result<{
    emisor: ticket.Emisor | undefined;
    ptoVta: number;
    contingencia: ticket.Contingencia;
    references: ResolvedReferences;
  }>
> {
  const headers = { accountId: ctx.accountId, requestId: ctx.requestId, deadline: ctx.deadline };
  const [registered, references] = await Promise.all([
    bus.request(
      ticket.representadaGet,
      {
        cuit: request.representada,
        environment: request.environment,
        requireActiveCertificate: true,
      },
      headers,
    ),
    resolveReferences(bus, headers, ids),
  ]);
  if (!registered.ok) return registered;
  const ptoVta = resolvePtoVta(request.ptoVta, registered.value.ptoVta);
  if (!ptoVta.ok) return ptoVta;
  if (!references.ok) return references;
  return ok({
    emisor: registered.value.emisor,
    ptoVta: ptoVta.value,
    contingencia: registered.value.contingencia,
    references: references.value,
  });
}

/**
 * Everything an issuance judges before the authority, without issuing: the representada and
 * its point of sale, the references and the voucher's own rules (each 400/403/422 it answers).
 */
export function makeVoucherJudge(deps: Pick<VoucherIssueDeps, "bus" | "now">) {
  const now = deps.now ?? Date.now;
  return async (
    request: wsfe.FacturaIssueRequest,
    ctx: Pick<VoucherIssueContext, "accountId" | "requestId" | "deadline">,
  ): Promise<Result<void>> => {
    const known = await issuerAndReferences(deps.bus, ctx, request, referencedIds(request));
    if (!known.ok) return known;
    const prepared = prepareIssuance(request, known.value.references, new Date(now()));
    if (!prepared.ok) return prepared;
    return request.contingencia === undefined
      ? ok(undefined)
      : contingencyRefusal(known.value.contingencia, prepared.value);
  };
}

/**
 * Why a voucher asked to be issued in contingency (`contingencia: "caea"`) cannot be: the
 * representada's contingency is off, or its currency's rate is not in the request (the
 * authority's of the day cannot be asked). Ok when it can.
 */
function contingencyRefusal(
  contingencia: ticket.Contingencia,
  voucher: PreparedVoucher,
): Result<void> {
  if (!contingencia.caea || contingencia.puntosDeVenta.length === 0) {
    return fail(appError("CONTINGENCY_NOT_ENABLED"));
  }
  if (voucher.moneda.cotizacion === undefined) {
    return fail(invalidField("moneda.cotizacion", "es obligatoria para emitir en contingencia"));
  }
  return ok(undefined);
}

/** The issuance as a caller of the issuer, with the call's deadline already settled. */
export interface VoucherIssueContext {
  accountId: string;
  requestId: string;
  deadline: number;
  logger: HandlerContext["logger"];
  /** takes the stored voucher once it reached a final state (the flow publishes its event) */
  settled?: IssuanceJob["settled"];
  /** false once the call's Idempotency-Key may no longer be bound to it: nothing is sent */
  keyHeld?: IssuanceJob["keyHeld"];
}

/**
 * One admitted voucher: references through the catalog, the domain's judgement (every 400/422
 * before the authority), the rate of the day when needed, then the issuer: as the series' only
 * writer, the last number, reconciliation of anything left unsettled, the voucher stored
 * `pending` with its number, FECAESolicitar (coalesced with the other vouchers waiting on the
 * series), and the answer stored (`authorized`, `rejected`, or `unknown` when no usable answer
 * came back) before its event is published and the caller answered.
 */
export function makeVoucherIssue(deps: VoucherIssueDeps) {
  const now = deps.now ?? Date.now;

  /**
   * The authority could not be reached for the voucher (`failed`, a 502): it is issued in
   * contingency once nothing of the attempt can still be authorized. A voucher the attempt
   * sent without an answer is settled with the authority first; authorized after all, it is
   * answered as it is; when the authority cannot tell yet, the 502 stands (issuing it again
   * under a CAEA could make two vouchers of one sale).
   */
  async function fallBack(
    contingency: ContingencyDeps,
    failed: Result<wsfe.FacturaIssueReply>,
    ctx: VoucherIssueContext,
    issueUnderCaea: () => Promise<Result<wsfe.FacturaIssueReply>>,
  ): Promise<Result<wsfe.FacturaIssueReply>> {
    const mine = await contingency.ofRequest(ctx.accountId, ctx.requestId);
    for (const open of mine.filter(isOpen)) {
      const settled = await contingency.settleOpen(ctx.accountId, open, ctx.deadline);
      if (!settled.ok) {
        ctx.logger.warn(
          { err: settled.error, comprobanteId: open.id },
          "not issued in contingency: the failed attempt's voucher could not be settled",
        );
        return failed;
      }
    }
    const settled =
      mine.length === 0 ? [] : await contingency.ofRequest(ctx.accountId, ctx.requestId);
    const authorized = settled.find((v) => v.state === "authorized");
    if (authorized) {
      const reply = storedReply(authorized);
      if (reply === undefined || wsfe.isExportCbteTipo(authorized.series.cbteTipo)) return failed;
      ctx.settled?.(authorized);
      return ok(reply as wsfe.FacturaIssueReply);
    }
    if (settled.some((v) => v.state !== "not_issued" && v.state !== "conflict")) return failed;
    return issueUnderCaea();
  }

  return async (
    request: wsfe.FacturaIssueRequest,
    ctx: VoucherIssueContext,
  ): Promise<Result<wsfe.FacturaIssueReply>> => {
    const { environment, representada, cbteTipo } = request;
    const { accountId, deadline } = ctx;
    const known = await issuerAndReferences(deps.bus, ctx, request, referencedIds(request));
    if (!known.ok) return known;
    const { emisor, ptoVta, references, contingencia } = known.value;
    const prepared = prepareIssuance(request, references, new Date(now()));
    if (!prepared.ok) return prepared;
    // the issuer is copied as it is now: a later change of the profile never reaches it
    const voucher = { ...prepared.value, emisor };

    const caller: WsfeCaller = { accountId, cuit: representada, environment, deadline };
    const contingency = contingencia.caea ? deps.contingency : undefined;
    /** The voucher issued under the CAEA, on the representada's first CAEA point of sale. */
    const underCaea = async (issue: ContingencyDeps["issue"], cotizacion: string) => {
      const caeaSeries = {
        environment,
        cuit: representada,
        ptoVta: contingencia.puntosDeVenta[0]!,
        cbteTipo,
      };
      const voucherOnSeries = domesticVoucher(voucher, caeaSeries, cotizacion);
      const job = jobFor(ctx, caller, caeaSeries, request.idempotencyKey, voucherOnSeries);
      const result = await issue({ ...job, cbteFch: voucher.cbteFch });
      annotateSpan(caeaSeries, result, "CAEA");
      return result;
    };
    if (request.contingencia === "caea") {
      // a till that knows it is offline: no CAE is asked for
      const refused = contingencyRefusal(contingencia, voucher);
      if (!refused.ok) return refused;
      return contingency
        ? underCaea(contingency.issue, voucher.moneda.cotizacion!)
        : fail(appError("CONTINGENCY_NOT_ENABLED"));
    }

    let cotizacion = voucher.moneda.cotizacion;
    if (cotizacion === undefined) {
      const quote = await deps.wsfe.cotizacion(caller, voucher.moneda.id);
      if (!quote.ok) return quote;
      // the adapter reads the authority's decimal text; a rate of up to 15 significant digits
      // prints back from its double as that same text
      cotizacion = wsfe.canonicalDecimal(String(quote.value.cotizacion));
      if (cotizacion === undefined || cotizacion === "0") {
        return fail(authorityUnavailable(`cotización ilegible: ${quote.value.cotizacion}`));
      }
    }
    const series: SeriesKey = { environment, cuit: representada, ptoVta, cbteTipo };
    const issued = await issueOnSeries(
      deps.issuer,
      ctx,
      caller,
      series,
      request.idempotencyKey,
      domesticVoucher(voucher, series, cotizacion),
    );
    if (issued.ok || contingency === undefined || !authorityDown(issued.error)) return issued;
    const rate = cotizacion;
    return fallBack(contingency, issued, ctx, () => underCaea(contingency.issue, rate));
  };
}

/**
 * Hands one prepared voucher of either kind to the issuer with what every issuance carries
 * (the caller, its key, request id, deadline and logger), and records the outcome.
 */
export async function issueOnSeries<R extends IssuanceReply>(
  issuer: Issuer,
  ctx: VoucherIssueContext,
  caller: WsfeCaller,
  series: SeriesKey,
  idempotencyKey: string | undefined,
  voucher: Pick<IssuanceJob<R>, "request" | "emailTo" | "build" | "reply">,
): Promise<Result<R>> {
  const result = await issuer(jobFor(ctx, caller, series, idempotencyKey, voucher));
  annotateSpan(series, result);
  return result;
}

/** A prepared voucher as a job of the issuer, on `series`, with what every issuance carries. */
function jobFor<R extends IssuanceReply>(
  ctx: VoucherIssueContext,
  caller: WsfeCaller,
  series: SeriesKey,
  idempotencyKey: string | undefined,
  voucher: Pick<IssuanceJob<R>, "request" | "emailTo" | "build" | "reply">,
): IssuanceJob<R> {
  return {
    accountId: ctx.accountId,
    caller,
    series,
    ...voucher,
    idempotencyKey: idempotencyKey ?? null,
    requestId: ctx.requestId,
    deadline: ctx.deadline,
    logger: ctx.logger,
    ...(ctx.settled === undefined ? {} : { settled: ctx.settled }),
    ...(ctx.keyHeld === undefined ? {} : { keyHeld: ctx.keyHeld }),
  };
}

const issuances = counter(
  "pasarela_issuance_total",
  "Issuances answered by wsfe, by environment and outcome (authorized, or the catalogue code)",
  ["environment", "outcome"],
);

/**
 * The series and, once authorized, the number and CAE on the issuance's span (never secrets),
 * and the outcome in the metrics.
 */
function annotateSpan(
  series: SeriesKey,
  result: Result<IssuanceReply>,
  tipoAutorizacion: "CAE" | "CAEA" = "CAE",
): void {
  issuances.inc({
    environment: series.environment,
    outcome: result.ok
      ? tipoAutorizacion === "CAEA"
        ? "authorized_caea"
        : "authorized"
      : result.error.code,
  });
  trace.getActiveSpan()?.setAttributes({
    "pasarela.environment": series.environment,
    "pasarela.representada": series.cuit,
    "pasarela.pto_vta": series.ptoVta,
    "pasarela.cbte_tipo": series.cbteTipo,
    "pasarela.tipo_autorizacion": tipoAutorizacion,
    ...(result.ok
      ? { "pasarela.cbte_nro": result.value.cbteNro, "pasarela.cae": result.value.cae }
      : {}),
  });
}
