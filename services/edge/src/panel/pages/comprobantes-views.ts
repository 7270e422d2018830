import type { cobros, wsfe } from "@pasarela/contracts";
import {
  dinero,
  documento,
  fecha,
  fechaHora,
  numeroComprobante,
  numeroDocumento,
  opcionesComprobante,
  tipoComprobante,
} from "@pasarela/formato";
import { html, type Html, type Interpolation } from "../html.js";
import { csrfField, scrollBox } from "../layout.js";

/**
 * What the Comprobantes page shows of each voucher: its type and number by name, money and dates
 * the Argentine way, the receiver by name and document. A rejected attempt is not a voucher: it
 * is shown greyed as "Intento rechazado" with the authority's reasons, and the voucher later
 * authorized under the same number says how many attempts came before it. A voucher issued in
 * contingency carries a CAEA badge and where its informing stands: to be informed, informed, or
 * refused by the authority (with its reasons: the customer holds it, the account must act).
 */

type Item = wsfe.ComprobanteListItem;

const STATES = {
  authorized: html`<span class="badge ok">Autorizado</span>`,
  rejected: html`<span class="badge bad">Intento rechazado</span>`,
  pending: html`<span class="badge warn">Pendiente</span>`,
  caea_pendiente: html`<span class="badge warn">Pendiente de informar</span>`,
  caea_rechazado: html`<span class="badge bad">Rechazado al informar</span>`,
} as const;
/** The kind of authorization, shown only for the exception: a voucher issued under a CAEA. */
const CAEA_BADGE = html`<span
  class="badge info"
  title="Emitido en contingencia con el CAEA de la quincena"
  >CAEA</span
>`;
const EMAIL = {
  pending: html`<span class="badge warn">Enviando</span>`,
  sent: html`<span class="badge ok">Enviado</span>`,
  failed: html`<span class="badge bad">Falló</span>`,
} as const;
const COBRO = {
  pendiente: html`<span class="badge warn">Pendiente de pago</span>`,
  pagado: html`<span class="badge ok">Pagado</span>`,
  vencido: html`<span class="badge bad">Vencido</span>`,
} as const;

/** The states the filter offers, by what people call them. */
export const STATE_FILTERS = {
  authorized: "Autorizados",
  rejected: "Intentos rechazados",
  pending: "Pendientes",
  caea_pendiente: "CAEA pendientes de informar",
  caea_rechazado: "CAEA rechazados al informar",
} as const;

/** Whether the customer holds the voucher: it prints, is e-mailed and is charged. */
export const isHeld = (c: Pick<Item, "state">): boolean =>
  c.state === "authorized" || c.state === "caea_pendiente";

/** A voucher's number within one environment: a rejected attempt and the voucher after it share it. */
export const numberKey = (c: {
  representada: string;
  ptoVta: number;
  cbteTipo: number;
  cbteNro: number;
}) => `${c.representada}/${c.ptoVta}/${c.cbteTipo}/${c.cbteNro}`;

/** The voucher-type filter: every type WSFEv1 issues, by name. */
export const tipoSelect = (tipos: readonly number[], selected: string): Html =>
  html`<select id="tipo" name="tipo">
    <option value="">Todos</option>
    ${opcionesComprobante(tipos).map(
      ({ value, label }) =>
        html`<option value="${value}" ${String(value) === selected ? html`selected` : ""}>
          ${label}
        </option>`,
    )}
  </select>`;

/** The receiver: the customer's name when the voucher carries it, then the document. */
const receiver = (r: Item["receptor"]): Html => {
  const doc = documento(r.docTipo, r.docNro);
  const nombre = r.razonSocial?.trim();
  return nombre ? html`${nombre}<br /><small class="muted">${doc}</small>` : html`${doc}`;
};

/** The authority's reasons for a rejection, one per line, or a plain statement without them. */
const reasons = (c: Item): Html => {
  const motivos = c.rechazo ?? [];
  return motivos.length === 0
    ? html`<small>La AFIP no lo autorizó.</small>`
    : html`${motivos.map(
        (m) =>
          html`<small>${m.msg} <span class="mono">(${m.code})</span></small
            ><br />`,
      )}`;
};

/** Where a CAEA voucher's informing stands, under its state: when informed, or why refused. */
const caeaState = (c: Item): Interpolation => {
  if (c.tipoAutorizacion !== "CAEA") return "";
  if (c.state === "caea_rechazado") {
    return html`<br />${reasons(c)}<small
        >El cliente ya lo tiene: anulalo con una nota de crédito.</small
      >`;
  }
  if (c.state === "caea_pendiente")
    return html`<br /><small class="muted">Se informa a la AFIP</small>`;
  return c.caeaInformadoAt
    ? html`<br /><small class="muted">Informado el ${fechaHora(c.caeaInformadoAt)}</small>`
    : "";
};

export interface RowsInput {
  items: readonly Item[];
  csrf: string;
  /** the payment-link cell of an authorized voucher */
  cobro: (c: Item) => Interpolation;
}

/** How many rejected attempts each number of the page has, and which numbers were authorized. */
function attemptsOf(items: readonly Item[]) {
  const rejected = new Map<string, number>();
  const authorized = new Set<string>();
  for (const c of items) {
    const key = numberKey(c);
    if (c.state === "rejected") rejected.set(key, (rejected.get(key) ?? 0) + 1);
    if (isHeld(c)) authorized.add(key);
  }
  return { rejected, authorized };
}

function actions(c: Item, csrf: string): Interpolation {
  if (!isHeld(c)) return "";
  const key = new URLSearchParams({
    environment: c.environment,
    representada: c.representada,
    ptoVta: String(c.ptoVta),
    cbteTipo: String(c.cbteTipo),
    cbteNro: String(c.cbteNro),
  });
  return html`<a href="/panel/comprobantes/pdf?${key.toString()}">PDF</a>
    <form method="post" action="/panel/comprobantes/email" class="inline">
      ${csrfField(csrf)}
      ${[...key].map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}
      <input type="email" name="to" placeholder="e-mail (opcional)" aria-label="Destinatario" />
      <button type="submit" class="secondary">Enviar por e-mail</button>
    </form>`;
}

/** The table of vouchers of one page. */
/** "Factura B 00003-00000003", the number never broken across lines. */
const voucherName = (c: Item): Html =>
  html`${tipoComprobante(c.cbteTipo)}
    <span class="nowrap">${numeroComprobante(c.ptoVta, c.cbteNro)}</span>`;

export function comprobantesTable({ items, csrf, cobro }: RowsInput): Html {
  const attempts = attemptsOf(items);
  const row = (c: Item) => {
    const key = numberKey(c);
    if (c.state === "rejected") {
      // greyed cell by cell: a row is always a bare <tr>, whatever its state
      return html`<tr>
        <td class="muted">${fecha(c.cbteFch)}</td>
        <td class="muted">
          <small>${voucherName(c)}</small>
          ${attempts.authorized.has(key) ? html`<br /><small>El número quedó para el comprobante autorizado después.</small>` : ""}
        </td>
        <td class="mono muted">${numeroDocumento(80, c.representada)}</td>
        <td class="muted">${receiver(c.receptor)}</td>
        <td class="num muted">${dinero(c.impTotal, c.moneda)}</td>
        <td class="muted">${STATES.rejected}<br />${reasons(c)}</td>
        <td class="muted">—</td>
        <td class="muted">—</td>
        <td class="muted">—</td>
        <td></td>
      </tr>`;
    }
    const before = c.state === "pending" ? 0 : (attempts.rejected.get(key) ?? 0);
    return html`<tr>
      <td>${fecha(c.cbteFch)}</td>
      <td>
        <strong>${voucherName(c)}</strong>
        ${before > 0 ? html`<br /><small class="muted">${before === 1 ? "Antes, un intento rechazado con este número" : `Antes, ${before} intentos rechazados con este número`}</small>` : ""}
      </td>
      <td class="mono">${numeroDocumento(80, c.representada)}</td>
      <td>${receiver(c.receptor)}</td>
      <td class="num">${dinero(c.impTotal, c.moneda)}</td>
      <td>${STATES[c.state]}${caeaState(c)}</td>
      <td class="mono">
        ${c.tipoAutorizacion === "CAEA" ? html`${CAEA_BADGE}<br />` : ""}${c.cae ?? "—"}
      </td>
      <td>
        ${c.email ? html`${EMAIL[c.email.status]} <span class="muted">${c.email.to}</span>` : "—"}
      </td>
      <td>${cobro(c)}</td>
      <td>${actions(c, csrf)}</td>
    </tr>`;
  };
  return scrollBox(
    "Comprobantes",
    html`<table id="comprobantes">
      <thead>
        <tr>
          <th>Fecha</th>
          <th>Comprobante</th>
          <th>Representada</th>
          <th>Receptor</th>
          <th class="num">Total</th>
          <th>Estado</th>
          <th>CAE / CAEA</th>
          <th>E-mail</th>
          <th>Cobro</th>
          <th></th>
        </tr>
      </thead>
      <tbody>
        ${items.map(row)}
      </tbody>
    </table>`,
  );
}

/** The payment-link cell of an authorized voucher. */
export function cobroCell(
  c: Item,
  links: { ok: boolean } | undefined,
  linkOf: ReadonlyMap<string, cobros.LinkCobro>,
): Interpolation {
  if (!isHeld(c)) return "—";
  if (links && !links.ok) return html`<span class="muted">No disponible</span>`;
  const l = linkOf.get(numberKey(c));
  if (!l) return "—";
  return l.estado === "pendiente"
    ? html`${COBRO.pendiente} <a href="${l.url}" rel="noopener">Link de pago</a>`
    : COBRO[l.estado];
}
