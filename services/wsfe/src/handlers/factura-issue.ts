import { randomUUID } from "node:crypto";
import type { Bus, Handler, HandlerContext, RequestOptions } from "@pasarela/bus";
import { DEADLINE_SLACK_MS, catalog, ticket, wsfe } from "@pasarela/contracts";
import {
  appError,
  authorityRejected,
  authorityUnavailable,
  fail,
  issuanceOutcomeUnknown,
  ok,
  type AppError,
  type Result,
} from "@pasarela/errors";
import type { WsfeAdapter, WsfeCaller } from "../adapters/wsfe.js";
import type { ComprobantesRepository } from "../db/repositories/comprobantes.js";
import type { SeriesKey, SeriesRepository } from "../db/repositories/series.js";
import {
  authorizedReply,
  feCaeDetRequest,
  prepareIssuance,
  referencedIds,
  type PreparedVoucher,
  type ResolvedReferences,
} from "../domain/issuance/index.js";
import { resolvePtoVta } from "../domain/point-of-sale.js";
import type { VoucherEvents } from "../issuance/events.js";
import type { Reconciler } from "../issuance/reconcile.js";
import type { HeldSeries, SeriesWriter } from "../issuance/series-writer.js";

/**
 * The time budget of one issuance, laid out as the queries' (authority-query.ts). The edge
 * waits min(the contract's 125 s, API_TIMEOUT_MS: 65 s by default) and hands every hop the
 * same deadline D, DEADLINE_SLACK_MS (3 s) before it gives up. 125 s is what the worst case
 * needs with AUTHORITY_TIMEOUT_MS at 30 s: a first WSAA login (30 s), the last number (30 s),
 * one more call (the rate of the day or a reconciliation lookup, 30 s) and FECAESolicitar
 * (30 s), plus 5 s for NATS, the catalog and the database; raise API_TIMEOUT_MS to give it all.
 * Whatever the budget, FECAESolicitar is sent only while a whole AUTHORITY_TIMEOUT_MS and
 * SEND_MARGIN_MS (to store the answer and reply) still fit before D: otherwise 502 without
 * sending, numbering unchanged, because a voucher the caller stopped waiting for is one the
 * caller may issue again.
 */
const SEND_MARGIN_MS = 2_000;

export interface FacturaIssueDeps {
  bus: Pick<Bus, "request">;
  wsfe: WsfeAdapter;
  comprobantes: Pick<
    ComprobantesRepository,
    | "unresolved"
    | "insertPending"
    | "markAuthorized"
    | "markRejected"
    | "markUnknown"
    | "markNotIssued"
  >;
  series: Pick<SeriesRepository, "flagReconciliation">;
  writer: SeriesWriter;
  reconcile: Reconciler;
  events: VoucherEvents;
  authorityTimeoutMs: number;
  /** how long a caller that sets no deadline waits; the contract's timeout by default */
  budgetMs?: number;
  now?: () => number;
}

/** The catalog's answers for the request's references; an id it does not find is left out. */
async function resolveReferences(
  bus: Pick<Bus, "request">,
  headers: RequestOptions,
  request: wsfe.FacturaIssueRequest,
): Promise<Result<ResolvedReferences>> {
  const { clienteId, productoIds } = referencedIds(request);
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

/** Spec §7.3 11002, as the issuance's rejection with the hint rather than a query's 400. */
function numberingRefused(error: AppError): AppError {
  if (error.code !== "POINT_OF_SALE_NOT_ENABLED") return error;
  const { authorityCode, authorityMessage } = error.details ?? {};
  const code = typeof authorityCode === "number" ? authorityCode : 11002;
  const msg = typeof authorityMessage === "string" ? authorityMessage : error.message;
  return authorityRejected({ observaciones: [], errores: [{ code, msg }] });
}

/**
 * `wsfe.factura.issue` (issue 10): references through the catalog, the domain's judgement (every
 * 400/422 before the authority), the rate of the day when needed, then, as the series' only
 * writer: the last number, reconciliation of anything left unsettled, the voucher stored
 * `pending` with its number, FECAESolicitar, and the answer stored (`authorized`, `rejected`,
 * or `unknown` when no usable answer came back) before its event is published and the caller
 * answered.
 */
export function makeFacturaIssue(deps: FacturaIssueDeps): Handler<typeof wsfe.facturaIssue> {
  const now = deps.now ?? Date.now;
  const budgetMs = (deps.budgetMs ?? wsfe.facturaIssue.timeoutMs ?? 0) - DEADLINE_SLACK_MS;

  async function issue(args: {
    ctx: HandlerContext;
    accountId: string;
    caller: WsfeCaller;
    series: SeriesKey;
    voucher: PreparedVoucher;
    cotizacion: string;
    request: wsfe.FacturaIssueRequest;
    deadline: number;
    held: HeldSeries;
  }): Promise<Result<wsfe.FacturaIssueReply>> {
    const { ctx, caller, series, voucher, cotizacion, held } = args;
    const { ptoVta, cbteTipo } = series;
    const [last, open] = await Promise.all([
      deps.wsfe.ultimoAutorizado(caller, { ptoVta, cbteTipo }),
      deps.comprobantes.unresolved(series),
    ]);
    if (!last.ok) return fail(numberingRefused(last.error));
    const settled = await deps.reconcile(caller, series, last.value, open, held);
    if (!settled.ok) return settled;

    const cbteNro = last.value + 1;
    if (args.deadline - now() < deps.authorityTimeoutMs + SEND_MARGIN_MS) {
      return fail(
        authorityUnavailable(
          "la AFIP tardó demasiado en las consultas previas; el comprobante no se envió",
          { ptoVta, cbteTipo },
        ),
      );
    }
    const detalle = feCaeDetRequest(voucher, { cbteNro, cotizacion });
    const id = randomUUID();
    // the lease is renewed while the voucher is stored: both must hold before sending
    const [inserted, renewed] = await Promise.all([
      deps.comprobantes.insertPending({
        id,
        accountId: args.accountId,
        series,
        cbteNro,
        sent: detalle,
        request: voucher,
        emailTo: voucher.email ?? null,
        idempotencyKey: args.request.idempotencyKey ?? null,
        requestId: ctx.requestId,
      }),
      held.renew(),
    ]);
    if (inserted === "number-taken") {
      // the gateway holds a live voucher above what the authority says was authorized
      ctx.logger.error({ ptoVta, cbteTipo, cbteNro }, "numbering out of step with the authority");
      return fail(
        authorityUnavailable(
          `la AFIP informa ${last.value} como último autorizado pero la pasarela ya tiene el ${cbteNro}`,
          { ptoVta, cbteTipo, cbteNro },
        ),
      );
    }
    if (!renewed) {
      await deps.comprobantes.markNotIssued(id, { reason: "series lease lost before sending" });
      return fail(appError("SERVICE_UNAVAILABLE", { reason: "series lease lost" }));
    }
    const outcome = await deps.wsfe.solicitar(caller, { ptoVta, cbteTipo, detalles: [detalle] });
    const ref = { ptoVta, cbteTipo, cbteNro };

    if (outcome.kind === "refused") {
      await deps.comprobantes.markNotIssued(id, outcome.error);
      return fail(outcome.error);
    }
    const unknown = async (cause: AppError) => {
      await deps.comprobantes.markUnknown(id, cause);
      await deps.series.flagReconciliation(series, true);
      ctx.logger.warn({ ...ref, error: cause.message }, "issuance outcome unknown");
      return fail(issuanceOutcomeUnknown(ref, cause));
    };
    if (outcome.kind === "unknown") return unknown(outcome.error);
    const answer = outcome.detalles.find((d) => d.cbteDesde === cbteNro);
    if (!answer) {
      return unknown(
        authorityUnavailable(`la respuesta de FECAESolicitar no trae el comprobante ${cbteNro}`),
      );
    }
    if (answer.resultado === "A") {
      const stored = await deps.comprobantes.markAuthorized(id, {
        cae: answer.cae,
        caeVencimiento: answer.caeFchVto,
        observaciones: answer.observaciones,
        eventos: outcome.eventos,
      });
      if (stored) await deps.events.publishOutcome(stored);
      else ctx.logger.error({ ...ref, id }, "authorized voucher was already settled");
      return ok(
        authorizedReply(voucher, {
          cuit: series.cuit,
          ptoVta,
          cbteNro,
          cotizacion,
          cae: answer.cae,
          caeVencimiento: answer.caeFchVto,
          observaciones: answer.observaciones,
        }),
      );
    }
    const rejection = {
      observaciones: answer.observaciones,
      errores: outcome.errores,
      eventos: outcome.eventos,
    };
    const rejected = await deps.comprobantes.markRejected(id, rejection);
    if (rejected) await deps.events.publishOutcome(rejected);
    const error = authorityRejected(rejection);
    return fail({ ...error, details: { ...error.details, ...ref } });
  }

  return async (request, ctx) => {
    // the API call's deadline, or one of our own for a caller on the bus that set none
    const deadline = ctx.deadline ?? now() + budgetMs;
    const { environment, representada, cbteTipo } = request;
    const accountId = ctx.accountId;
    if (!accountId) return fail(appError("REPRESENTADA_NOT_FOUND"));
    const headers = { accountId, requestId: ctx.requestId, deadline };

    // asked together; the representada's 403s answer before anything the references say
    const [registered, references] = await Promise.all([
      deps.bus.request(
        ticket.representadaGet,
        { cuit: representada, environment, requireActiveCertificate: true },
        headers,
      ),
      resolveReferences(deps.bus, headers, request),
    ]);
    if (!registered.ok) return registered;
    const ptoVta = resolvePtoVta(request.ptoVta, registered.value.ptoVta);
    if (!ptoVta.ok) return ptoVta;
    if (!references.ok) return references;
    const prepared = prepareIssuance(request, references.value, new Date(now()));
    if (!prepared.ok) return prepared;
    const voucher = prepared.value;

    const caller: WsfeCaller = { accountId, cuit: representada, environment, deadline };
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
    const rate = cotizacion;
    const series: SeriesKey = { environment, cuit: representada, ptoVta: ptoVta.value, cbteTipo };
    return deps.writer.run(series, deadline, (held) =>
      issue({
        ctx,
        accountId,
        caller,
        series,
        voucher,
        cotizacion: rate,
        request,
        deadline,
        held,
      }),
    );
  };
}
