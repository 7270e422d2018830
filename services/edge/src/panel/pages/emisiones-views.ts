import type { wsfe } from "@pasarela/contracts";
import { numeroComprobante, tipoComprobante } from "@pasarela/formato";
import { html, type Html, type Interpolation } from "../html.js";
import { scrollBox, when } from "../layout.js";

/**
 * What the asynchronous issuances view shows of each one (`Prefer: respond-async`): when it
 * was asked for, its state and attempts, when the next one is due while it waits, and once it
 * ended its result: the voucher authorized (by name and number, with its CAE or CAEA) or the
 * error it ended with.
 */

type Emision = wsfe.EmisionAsync;

const ESTADOS: Record<Emision["estado"], Html> = {
  pendiente: html`<span class="badge warn">Pendiente</span>`,
  autorizado: html`<span class="badge ok">Autorizada</span>`,
  rechazado: html`<span class="badge bad">Rechazada</span>`,
  no_emitido: html`<span class="badge bad">No emitida</span>`,
};

/** The states the filter offers, by what people call them. */
export const EMISION_FILTERS: Record<Emision["estado"], string> = {
  pendiente: "Pendientes",
  autorizado: "Autorizadas",
  rechazado: "Rechazadas",
  no_emitido: "No emitidas",
};

const TIPOS: Record<Emision["tipo"], string> = {
  factura: "Factura (WSFEv1)",
  exportacion: "Exportación (WSFEXv1)",
};

const numberOf = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isInteger(value) ? value : undefined;
const textOf = (value: unknown): string | undefined =>
  typeof value === "string" ? value : undefined;

/** The result of an issuance that ended; nothing while it waits. */
function result(e: Emision): Interpolation {
  if (!e.answer) {
    return e.estado === "pendiente" ? html`<span class="muted">—</span>` : "—";
  }
  if (e.answer.kind === "error") {
    const { code, message } = e.answer.error;
    return html`<small>${message}</small> <span class="mono muted">(${code})</span>`;
  }
  const f = e.answer.factura;
  const cbteTipo = numberOf(f.cbteTipo);
  const ptoVta = numberOf(f.ptoVta);
  const cbteNro = numberOf(f.cbteNro);
  const cae = textOf(f.cae);
  const caea = f.tipoAutorizacion === "CAEA";
  return html`${
    cbteTipo !== undefined && ptoVta !== undefined && cbteNro !== undefined
      ? html`${tipoComprobante(cbteTipo)}
          <span class="nowrap">${numeroComprobante(ptoVta, cbteNro)}</span>`
      : ""
  }
  ${cae ? html`<br /><small class="mono">${caea ? "CAEA" : "CAE"} ${cae}</small>` : ""}`;
}

/** The table of one page of asynchronous issuances. */
export function emisionesTable(items: readonly Emision[]): Html {
  return scrollBox(
    "Emisiones asincrónicas",
    html`<table id="emisiones">
      <thead>
        <tr>
          <th>Pedida</th>
          <th>Tipo</th>
          <th>Estado</th>
          <th class="num">Intentos</th>
          <th>Próximo intento</th>
          <th>Resultado</th>
          <th>Idempotency-Key</th>
        </tr>
      </thead>
      <tbody>
        ${items.map(
          (e) =>
            html`<tr>
              <td>${when(e.createdAt)}</td>
              <td>${TIPOS[e.tipo]}</td>
              <td>${ESTADOS[e.estado]}</td>
              <td class="num">${e.intentos}</td>
              <td>${e.proximoIntento ? when(e.proximoIntento) : "—"}</td>
              <td>${result(e)}</td>
              <td class="mono">${e.idempotencyKey ?? "—"}</td>
            </tr>`,
        )}
      </tbody>
    </table>`,
  );
}
