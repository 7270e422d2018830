import { bind, type Binding, type Bus } from "@pasarela/bus";
import { wsfe } from "@pasarela/contracts";
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
import { makeFacturaFlow } from "./flows/factura-issue.js";
import { makeVoucherIssue } from "./flows/voucher-issue.js";
import { makeExportacionIssue } from "./flows/exportacion-issue.js";

/** Wiring only: the WSFEv1 adapter, the repositories and handlers bound to their subjects. */
export function wsfeBindings(deps: {
  emails: ComprobantesEmailRepository;
  comprobantes: ComprobantesRepository;
  listado: ComprobantesListadoRepository;
  cursors: PageCursors;
  bus: Bus;
  wsfe: WsfeAdapter;
  /** export issuance's own calls (the rate of the day) */
  wsfex: WsfexAdapter;
  /** the series' authority, WSFEv1 or WSFEXv1 by the voucher type */
  authority: VoucherAuthority;
  issuer: Issuer;
  events: VoucherEvents;
  /** what wsfe.factura.get settles a voucher with, as an issuance does before numbering */
  writer: SeriesWriter;
  reconcile: Reconciler;
}): Binding[] {
  const pointOfSale = makePointOfSaleResolver(deps.bus);
  const facturaGet = makeFacturaGet({
    authority: deps.authority,
    comprobantes: deps.comprobantes,
    writer: deps.writer,
    reconcile: deps.reconcile,
  });
  const issueVoucher = makeVoucherIssue({ issuer: deps.issuer, bus: deps.bus, wsfe: deps.wsfe });
  const issueExportacion = makeExportacionIssue({
    issuer: deps.issuer,
    bus: deps.bus,
    wsfex: deps.wsfex,
  });
  const vouchersOfKey = (accountId: string, key: string) =>
    deps.comprobantes.byIdempotencyKey(accountId, key);
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
    bind(
      wsfe.facturaIssue,
      makeFacturaFlow({
        bus: deps.bus,
        events: deps.events,
        issueVoucher,
        facturaGet,
        vouchersOfKey,
      }),
    ),
    // export vouchers: the same lifecycle, the export body and reply
    bind(
      wsfe.exportacionIssue,
      makeFacturaFlow({
        bus: deps.bus,
        events: deps.events,
        issueVoucher: issueExportacion,
        facturaGet,
        vouchersOfKey,
        answerSchema: wsfe.exportacionHttpReplySchema,
      }),
    ),
    bind(wsfe.facturaGet, facturaGet),
    bind(
      wsfe.emailSend,
      makeEmailSend({ emails: deps.emails, comprobantes: deps.comprobantes, bus: deps.bus }),
    ),
    bind(wsfe.emailUpdate, makeEmailUpdate({ emails: deps.emails })),
    bind(wsfe.emailGet, makeEmailGet({ emails: deps.emails })),
  ];
}
