import type { catalog, ticket, wsfe } from "@pasarela/contracts";
import { fail, ok, type Result } from "@pasarela/errors";
import { argentinaToday } from "../issuance/index.js";
import { resolveCliente, type ClienteExterior } from "./cliente.js";
import {
  priceExportItems,
  productoIdsOf,
  resolveExportItems,
  type ExportacionLine,
} from "./items.js";
import {
  asociadosProblem,
  exportRulesProblem,
  resolveExportDates,
  resolveExportMoneda,
  type ExportacionMoneda,
} from "./rules.js";

/** What `prepareExportacion` reads: the body of `POST /api/wsfex/facturas`, or more. */
export type ExportacionRequest = wsfe.ExportacionBody;

/**
 * An export voucher ready for FEXAuthorize but for its request id and number (and, for a
 * foreign currency sent without a rate, the authority's rate of the day): the request as
 * resolved, with every amount computed. Plain data, so it can be stored as the voucher's
 * resolved request and read back (`emitidoOfExportacion`).
 */
export interface PreparedExportacion {
  readonly cbteTipo: 19 | 20 | 21;
  readonly cbteFch: string;
  /** 1 goods, 2 services, 4 other */
  readonly tipoExpo: 1 | 2 | 4;
  readonly permisoExistente?: "S" | "N";
  readonly permisos: readonly wsfe.Permiso[];
  readonly dstCmp: number;
  readonly cliente: ClienteExterior;
  readonly moneda: ExportacionMoneda;
  readonly idioma: 1 | 2 | 3;
  readonly incoterms?: string;
  readonly incotermsDs?: string;
  readonly formaPago?: string;
  readonly fechaPago?: string;
  readonly obsComerciales?: string;
  readonly obs?: string;
  readonly items: readonly ExportacionLine[];
  /** Σ items' `importe`, two decimals */
  readonly impTotal: string;
  readonly comprobantesAsociados: readonly wsfe.ExportacionAsociado[];
  readonly opcionales: readonly { readonly id: string; readonly valor: string }[];
  readonly actividades: readonly number[];
  readonly email?: string;
  /**
   * the issuer profile when the voucher was issued, so every print of it shows the same issuer;
   * the flow adds it, as for domestic vouchers
   */
  readonly emisor?: ticket.Emisor;
}

/** What the catalog must resolve before `prepareExportacion`. */
export function referencedExportIds(request: Pick<ExportacionRequest, "clienteId" | "items">): {
  clienteId?: string;
  productoIds: string[];
} {
  return {
    ...(request.clienteId !== undefined ? { clienteId: request.clienteId } : {}),
    productoIds: productoIdsOf(request.items),
  };
}

/** What the catalog answered: an id it did not find is simply absent. */
export interface ExportacionReferences {
  readonly cliente?: catalog.Cliente;
  readonly productos: ReadonlyMap<string, catalog.Producto>;
}

/**
 * Everything the gateway judges before the authority, in order: references (400 with the
 * catalogue's exact messages); values missing once references are resolved (400 INVALID_FIELD
 * naming the field); then the voucher rules (422 TOTALS_INVALID naming the field and the
 * rule): items and totals, what the type and kind of export require, associated vouchers,
 * dates, currency. `now` is the clock: `cbteFch` defaults to that day in Argentina. What only
 * the authority knows (the next number, its country, currency and unit tables, a permit's
 * destination, the rate of the day) is left to it. A failure here leaves numbering alone.
 */
export function prepareExportacion(
  request: ExportacionRequest,
  references: ExportacionReferences,
  now: Date,
): Result<PreparedExportacion> {
  const cliente = resolveCliente(request, references.cliente);
  const lines = resolveExportItems(request.items, references.productos);
  // a reference that does not resolve answers before any value that is missing
  if (!cliente.ok && cliente.error.code === "CLIENTE_REFERENCE_NOT_FOUND") return cliente;
  if (!lines.ok && lines.error.code === "PRODUCTO_REFERENCE_NOT_FOUND") return lines;
  if (!cliente.ok) return cliente;
  if (!lines.ok) return lines;

  const priced = priceExportItems(lines.value);
  if (!priced.ok) return priced;
  const rule = exportRulesProblem(request);
  if (rule !== undefined) return fail(rule);
  const asociados = request.comprobantesAsociados ?? [];
  const association = asociadosProblem(request.cbteTipo, asociados);
  if (association !== undefined) return fail(association);
  const dates = resolveExportDates(request, argentinaToday(now));
  if (!dates.ok) return dates;
  const moneda = resolveExportMoneda(request);
  if (!moneda.ok) return moneda;

  return ok({
    cbteTipo: exportTipo(request.cbteTipo),
    ...dates.value,
    tipoExpo: request.tipoExpo,
    permisos: (request.permisos ?? []).map(({ idPermiso, dstMerc }) => ({ idPermiso, dstMerc })),
    dstCmp: request.dstCmp,
    cliente: cliente.value,
    moneda: moneda.value,
    idioma: request.idioma,
    items: priced.value.items,
    impTotal: priced.value.impTotal,
    comprobantesAsociados: asociados.map((a) => ({ ...a })),
    opcionales: (request.opcionales ?? []).map(({ id, valor }) => ({ id, valor })),
    actividades: [...(request.actividades ?? [])],
    ...present("permisoExistente", request.permisoExistente),
    ...present("incoterms", request.incoterms),
    ...present("incotermsDs", request.incotermsDs),
    ...present("formaPago", request.formaPago),
    ...present("obsComerciales", request.obsComerciales),
    ...present("obs", request.obs),
    ...present("email", request.email),
  });
}

/** An optional value as a key only when it is there: the stored voucher is JSON. */
function present<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** The contract accepts only 19, 20 and 21. */
function exportTipo(cbteTipo: number): 19 | 20 | 21 {
  if (cbteTipo === 19 || cbteTipo === 20 || cbteTipo === 21) return cbteTipo;
  throw new Error(`cbteTipo ${cbteTipo} is not an export voucher type`);
}
