import { bind, type Binding, type Bus, type Handler } from "@pasarela/bus";
import { billing, wsfe } from "@pasarela/contracts";
import type { PageCursors } from "@pasarela/sealing";
import type { WsfexAdapter } from "@pasarela/authority";
import type { VoucherAuthority } from "./adapters/voucher-authority.js";
import type { WsfeAdapter } from "./adapters/wsfe.js";
import type { ComprobantesEmailRepository } from "./db/repositories/comprobantes-email.js";
import type { ComprobantesListadoRepository } from "./db/repositories/comprobantes-listado.js";
import type { ComprobantesRepository } from "./db/repositories/comprobantes.js";
import { makeComprobanteList } from "./handlers/comprobante-list.js";
import { makeComprobanteGet } from "./handlers/comprobante-get.js";
import { makeEmailGet } from "./handlers/email-get.js";
import { makeEmailSend, makeEmailUpdate } from "./handlers/email-send.js";
import { makeEmitidoGet } from "./handlers/emitido-get.js";
import { makeFacturaGet } from "./handlers/factura-get.js";
import { makeParametrosGet } from "./handlers/parametros-get.js";
import { makePointOfSaleResolver } from "./handlers/point-of-sale.js";
import type { Issuer } from "./flows/issuance-job.js";
import type { VoucherEvents } from "./flows/events.js";
import type { Reconciler } from "./flows/reconcile.js";
import type { SeriesWriter } from "./flows/series-writer.js";
import { makeUltimoComprobanteLast } from "./handlers/ultimo-comprobante-last.js";
import { makeIssuanceLifecycle } from "./flows/factura-issue.js";
import { makeVoucherIssue, makeVoucherJudge } from "./flows/voucher-issue.js";
import { makeExportacionIssue, makeExportacionJudge } from "./flows/exportacion-issue.js";
import type { QueuedKinds } from "./flows/async-issuance.js";
import type { EmisionesRepository } from "./db/repositories/emisiones.js";
import { makeEmisionEnqueue, makeEmisionGet } from "./handlers/emision-enqueue.js";
import { makeEmisionList } from "./handlers/emision-list.js";
import { makeCaeaList, makeContingenciaValidate } from "./handlers/contingencia.js";
import type { CaeasRepository } from "./db/repositories/caeas.js";
import type { CaeaComprobantesRepository } from "./db/repositories/caea-comprobantes.js";
import { makeCaeaIssuer } from "./flows/caea-issue.js";
import { makeOpenSettler } from "./flows/settle-open.js";

/** What issues vouchers, by kind: the lifecycle of each and its judgement before the authority. */
export function makeIssuanceKinds(deps: {
  comprobantes: ComprobantesRepository;
  caeaComprobantes: CaeaComprobantesRepository;
  caeas: Pick<CaeasRepository, "find">;
  emisiones: Pick<EmisionesRepository, "byLlave">;
  bus: Bus;
  wsfe: WsfeAdapter;
  wsfex: WsfexAdapter;
  authority: VoucherAuthority;
  issuer: Issuer;
  events: VoucherEvents;
  writer: SeriesWriter;
  reconcile: Reconciler;
}) {
  const facturaGet = makeFacturaGet({
    authority: deps.authority,
    comprobantes: deps.comprobantes,
    writer: deps.writer,
    reconcile: deps.reconcile,
  });
  // issuance under the fortnight's CAEA when the authority cannot be reached
  const contingency = {
    issue: makeCaeaIssuer({
      writer: deps.writer,
      caeas: deps.caeas,
      comprobantes: deps.caeaComprobantes,
      authority: deps.authority,
    }),
    settleOpen: makeOpenSettler(deps),
    ofRequest: (accountId: string, requestId: string) =>
      deps.caeaComprobantes.ofRequest(accountId, requestId),
  };
  const vouchersOfKey = (accountId: string, key: string) =>
    deps.comprobantes.byIdempotencyKey(accountId, key);
  // a call under the key of an asynchronous issuance is that issuance
  const queuedOfKey = async (accountId: string, key: string) => {
    const row = await deps.emisiones.byLlave(accountId, key);
    if (!row) return undefined;
    const answer = billing.facturaAnswerSchema.safeParse(row.answer ?? undefined);
    return { fingerprint: row.fingerprint, answer: answer.success ? answer.data : undefined };
  };
  const common = { bus: deps.bus, events: deps.events, facturaGet, vouchersOfKey, queuedOfKey };
  return {
    facturaGet,
    judges: {
      factura: makeVoucherJudge({ bus: deps.bus }),
      exportacion: makeExportacionJudge({ bus: deps.bus }),
    },
    kinds: {
      factura: makeIssuanceLifecycle({
        ...common,
        issueVoucher: makeVoucherIssue({
          issuer: deps.issuer,
          bus: deps.bus,
          wsfe: deps.wsfe,
          contingency,
        }),
      }),
      // export vouchers: the same lifecycle, the export body and reply
      exportacion: makeIssuanceLifecycle({
        ...common,
        issueVoucher: makeExportacionIssue({
          issuer: deps.issuer,
          bus: deps.bus,
          wsfex: deps.wsfex,
        }),
        answerSchema: wsfe.exportacionHttpReplySchema,
      }),
    } satisfies QueuedKinds,
  };
}

export type IssuanceKinds = ReturnType<typeof makeIssuanceKinds>;

/** Wiring only: the WSFEv1 adapter, the repositories and handlers bound to their subjects. */
export function wsfeBindings(deps: {
  emails: ComprobantesEmailRepository;
  comprobantes: ComprobantesRepository;
  emisiones: EmisionesRepository;
  listado: ComprobantesListadoRepository;
  cursors: PageCursors;
  bus: Bus;
  wsfe: WsfeAdapter;
  issuance: IssuanceKinds;
  caeas: CaeasRepository;
  /** the asynchronous issuances' worker looks for due ones now */
  queued: () => void;
}): Binding[] {
  const pointOfSale = makePointOfSaleResolver(deps.bus);
  const { issuance } = deps;
  return [
    bind(wsfe.ultimoComprobanteLast, makeUltimoComprobanteLast({ wsfe: deps.wsfe, pointOfSale })),
    bind(
      wsfe.comprobanteGet,
      makeComprobanteGet({ wsfe: deps.wsfe, pointOfSale, emails: deps.emails }),
    ),
    bind(wsfe.parametrosGet, makeParametrosGet({ wsfe: deps.wsfe })),
    bind(wsfe.emitidoGet, makeEmitidoGet({ comprobantes: deps.comprobantes })),
    bind(
      wsfe.comprobanteList,
      makeComprobanteList({ listado: deps.listado, cursors: deps.cursors }),
    ),
    bind(wsfe.facturaIssue, issuance.kinds.factura.call),
    bind(wsfe.exportacionIssue, issuance.kinds.exportacion.call),
    bind(
      wsfe.facturaEnqueue,
      makeEmisionEnqueue<wsfe.FacturaIssueCall>({
        tipo: "factura",
        bus: deps.bus,
        emisiones: deps.emisiones,
        judge: issuance.judges.factura,
        queued: deps.queued,
      }),
    ),
    bind(
      wsfe.exportacionEnqueue,
      makeEmisionEnqueue<wsfe.ExportacionIssueCall>({
        tipo: "exportacion",
        bus: deps.bus,
        emisiones: deps.emisiones,
        judge: issuance.judges.exportacion,
        queued: deps.queued,
      }) as unknown as Handler<typeof wsfe.exportacionEnqueue>,
    ),
    bind(wsfe.emisionGet, makeEmisionGet({ emisiones: deps.emisiones })),
    bind(wsfe.emisionList, makeEmisionList({ emisiones: deps.emisiones, cursors: deps.cursors })),
    bind(wsfe.contingenciaValidate, makeContingenciaValidate({ wsfe: deps.wsfe })),
    bind(wsfe.caeaList, makeCaeaList({ bus: deps.bus, caeas: deps.caeas })),
    bind(wsfe.facturaGet, issuance.facturaGet),
    bind(
      wsfe.emailSend,
      makeEmailSend({ emails: deps.emails, comprobantes: deps.comprobantes, bus: deps.bus }),
    ),
    bind(wsfe.emailUpdate, makeEmailUpdate({ emails: deps.emails })),
    bind(wsfe.emailGet, makeEmailGet({ emails: deps.emails })),
  ];
}
