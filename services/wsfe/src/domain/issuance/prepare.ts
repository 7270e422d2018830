import type { ticket, wsfe } from "@pasarela/contracts";
import { type catalog } from "@pasarela/contracts";
import { fail, ok, type Result } from "@pasarela/errors";
import { argentinaToday, resolveDates } from "./dates.js";
import { productoIdsOf, resolveItems } from "./items.js";
import { resolveMoneda, type MonedaResuelta } from "./moneda.js";
import { FCE_OPCIONALES, isFce, voucherClass, type VoucherClass } from "./voucher-types.js";
import { resolveOpcionales, type Opcional } from "./opcionales.js";
import { buildQrUrl } from "./qr.js";
import { resolveReceptor, type Receptor } from "./receptor.js";
import { associatedProblem, receptorProblem } from "./rules.js";
import {
  computeTotals,
  type AlicIva,
  type PricedItem,
  type Totals,
  type Tributo,
} from "./totals.js";

/**
 * A voucher ready for FECAESolicitar but for its number (and, for a foreign currency sent
 * without a rate, the authority's rate of the day): the request as resolved, with everything
 * the authority will check already computed. Plain data, so it can be stored as the voucher's
 * resolved request and compared when the voucher is reconciled.
 */
export interface PreparedVoucher {
  readonly cbteTipo: number;
  readonly clase: VoucherClass;
  readonly concepto: 1 | 2 | 3;
  readonly cbteFch: string;
  readonly fchServDesde?: string;
  readonly fchServHasta?: string;
  readonly fchVtoPago?: string;
  readonly receptor: Receptor;
  readonly items: readonly PricedItem[];
  readonly totals: Totals;
  /** one entry per rate with a base; empty for class C */
  readonly iva: readonly AlicIva[];
  readonly tributos: readonly Tributo[];
  readonly comprobantesAsociados: readonly wsfe.ComprobanteAsociado[];
  readonly opcionales: readonly Opcional[];
  readonly moneda: MonedaResuelta;
  readonly email?: string;
  /**
   * the issuer profile when the voucher was issued, so every print of it shows the same
   * issuer; absent from vouchers issued before it was kept
   */
  readonly emisor?: ticket.Emisor;
}

/** What the catalog must resolve before `prepareIssuance`. */
export function referencedIds(request: Pick<wsfe.FacturaIssueRequest, "clienteId" | "items">): {
  clienteId?: string;
  productoIds: string[];
} {
  return {
    ...(request.clienteId !== undefined ? { clienteId: request.clienteId } : {}),
    productoIds: productoIdsOf(request.items),
  };
}

/** What the catalog answered: an id it did not find is simply absent. */
export interface ResolvedReferences {
  readonly cliente?: catalog.Cliente;
  readonly productos: ReadonlyMap<string, catalog.Producto>;
}

/**
 * Everything the gateway judges before the authority, in order: references (400 with the
 * catalogue's exact messages); values missing once references are resolved (400 naming the
 * field); then the voucher rules (422 TOTALS_INVALID naming the field and the rule): items,
 * rates and totals, tributes, receiver, associated vouchers, FCE and opcionales, dates,
 * currency. `now` is the clock: `cbteFch` defaults to that day in Argentina. A failure here
 * leaves numbering alone.
 */
export function prepareIssuance(
  request: wsfe.FacturaIssueRequest,
  resolved: ResolvedReferences,
  now: Date,
): Result<PreparedVoucher> {
  const { cbteTipo } = request;
  const clase = voucherClass(cbteTipo);
  // the contract refuses any type outside WSFE_CBTE_TIPOS, and each of those has a class
  if (clase === undefined) throw new Error(`cbteTipo ${cbteTipo} has no voucher class`);

  const receptor = resolveReceptor(request, resolved.cliente);
  const items = resolveItems(request.items, resolved.productos);
  // a reference that does not resolve answers before any value that is missing
  if (!receptor.ok && receptor.error.code === "CLIENTE_REFERENCE_NOT_FOUND") return receptor;
  if (!items.ok && items.error.code === "PRODUCTO_REFERENCE_NOT_FOUND") return items;
  if (!receptor.ok) return receptor;
  if (!items.ok) return items;

  const fce = isFce(cbteTipo);
  const computed = computeTotals({
    cbteTipo,
    classC: clase === "C",
    fce,
    items: items.value,
    tributos: request.tributos ?? [],
  });
  if (!computed.ok) return computed;

  const receptorRule = receptorProblem(cbteTipo, clase, receptor.value, request.representada);
  if (receptorRule !== undefined) return fail(receptorRule);
  const asociados = request.comprobantesAsociados ?? [];
  const associationRule = associatedProblem(cbteTipo, asociados);
  if (associationRule !== undefined) return fail(associationRule);

  const opcionales = resolveOpcionales(cbteTipo, clase, request.opcionales ?? [], request.fce);
  if (!opcionales.ok) return opcionales;
  const anulacion = opcionales.value.find((o) => o.id === FCE_OPCIONALES.anulacion);
  const dates = resolveDates(
    request,
    cbteTipo,
    anulacion === undefined ? undefined : anulacion.valor === "S",
    argentinaToday(now),
  );
  if (!dates.ok) return dates;
  const moneda = resolveMoneda(request.moneda);
  if (!moneda.ok) return moneda;

  return ok({
    cbteTipo,
    clase,
    concepto: request.concepto,
    ...dates.value,
    receptor: receptor.value,
    items: computed.value.items,
    totals: computed.value.totals,
    iva: computed.value.iva,
    tributos: computed.value.tributos,
    comprobantesAsociados: asociados,
    opcionales: opcionales.value,
    moneda: moneda.value,
    ...(request.email !== undefined ? { email: request.email } : {}),
  });
}

/** What the authority granted a voucher, with where it was issued. */
export interface Authorization {
  /** the issuer: the representada's CUIT */
  readonly cuit: string;
  readonly ptoVta: number;
  readonly cbteNro: number;
  /** the rate sent as MonCotiz: the voucher's own, or the authority's of the day */
  readonly cotizacion: string;
  readonly cae: string;
  /** CAEFchVto, yyyymmdd */
  readonly caeVencimiento: string;
  /** observations that came with the `A`: returned, never turned into errors */
  readonly observaciones: readonly wsfe.CodigoMensaje[];
  /**
   * CAEA: issued in contingency, `cae` being the fortnight's CAEA and `caeVencimiento` its
   * FchVigHasta (the QR's tipoCodAut is then A); CAE (or absent): the voucher's own CAE
   */
  readonly tipoAutorizacion?: "CAE" | "CAEA";
}

/** The 200 of an authorized voucher, with its RG 4892 QR. */
export function authorizedReply(
  voucher: PreparedVoucher,
  granted: Authorization,
): wsfe.FacturaIssueReply {
  const { totals } = voucher;
  const caea = granted.tipoAutorizacion === "CAEA";
  return {
    resultado: "A",
    cae: granted.cae,
    caeVencimiento: granted.caeVencimiento,
    ...(caea
      ? { tipoAutorizacion: "CAEA", caea: granted.cae, caeaVencimiento: granted.caeVencimiento }
      : {}),
    cbteNro: granted.cbteNro,
    ptoVta: granted.ptoVta,
    cbteTipo: voucher.cbteTipo,
    cbteFch: voucher.cbteFch,
    impTotal: totals.impTotal,
    impNeto: totals.impNeto,
    impIVA: totals.impIVA,
    impTrib: totals.impTrib,
    impTotConc: totals.impTotConc,
    impOpEx: totals.impOpEx,
    moneda: {
      id: voucher.moneda.id,
      cotizacion: granted.cotizacion,
      mismaMonedaExtranjera: voucher.moneda.mismaMonedaExtranjera,
    },
    observaciones: granted.observaciones.map(({ code, msg }) => ({ code, msg })),
    qr: buildQrUrl({
      cbteFch: voucher.cbteFch,
      cuit: granted.cuit,
      ptoVta: granted.ptoVta,
      cbteTipo: voucher.cbteTipo,
      cbteNro: granted.cbteNro,
      importe: totals.impTotal,
      moneda: voucher.moneda.id,
      cotizacion: granted.cotizacion,
      docTipo: voucher.receptor.docTipo,
      docNro: voucher.receptor.docNro,
      tipoCodAut: caea ? "A" : "E",
      codAut: granted.cae,
    }),
  };
}
