import type { ticket, wsfe, ReplyOf } from "@pasarela/contracts";
import { html, type Html } from "../html.js";
import { day, notice, scrollBox, when } from "../layout.js";

/**
 * A representada's contingency card: whether issuing with CAEA is on and for which points of
 * sale, the fortnights' CAEAs, and the way to the vouchers still to be informed. A pure view;
 * representadas.ts reads the CAEAs.
 */

/** The representada, as the card reads it. */
type Representada = ReplyOf<typeof ticket.cuentaRepresentadaGet>;

/** The fortnights' CAEAs of a representada with contingency on, or why they could not be read. */
export type Caeas = ReplyOf<typeof wsfe.caeaList> | { readonly error: string };

const MESES = [
  "enero",
  "febrero",
  "marzo",
  "abril",
  "mayo",
  "junio",
  "julio",
  "agosto",
  "septiembre",
  "octubre",
  "noviembre",
  "diciembre",
];

/** A fortnight as people say it: "2.ª quincena de diciembre de 2026". */
const quincena = (periodo: number, orden: number): string =>
  `${orden === 1 ? "1.ª" : "2.ª"} quincena de ${MESES[(periodo % 100) - 1] ?? String(periodo % 100)} de ${Math.floor(periodo / 100)}`;

/** One fortnight's row: its CAEA and dates, or that it was not obtained yet. */
const caeaRow = (label: string, c: wsfe.Caea | null): Html =>
  c
    ? html`<tr>
        <th scope="row">${label}</th>
        <td>${quincena(c.periodo, c.orden)}</td>
        <td class="mono">${c.caea}</td>
        <td>${day(c.fchVigDesde)} al ${day(c.fchVigHasta)}</td>
        <td>${day(c.fchTopeInf)}</td>
        <td>${when(c.obtenidoAt)}</td>
      </tr>`
    : html`<tr>
        <th scope="row">${label}</th>
        <td colspan="5"><span class="badge warn">Todavía no se obtuvo</span></td>
      </tr>`;

/**
 * Contingency with CAEA: whether it is on and for which points of sale, the current and next
 * fortnights' CAEAs with their dates, and the way to the vouchers still to be informed or
 * refused at informing.
 */
export function contingenciaView(r: Representada, caeas: Caeas | undefined): Html {
  const { contingencia } = r;
  const comprobantes = (estado: string) =>
    `/panel/comprobantes?${new URLSearchParams({ entorno: r.environment, representada: r.cuit, estado }).toString()}`;
  return html`<section class="card" aria-labelledby="contingencia-titulo">
    <h2 id="contingencia-titulo">Contingencia (CAEA)</h2>
    <p>
      ${
        contingencia.caea
          ? html`<span class="badge ok">Encendida</span> · puntos de venta CAEA:
              <strong>${contingencia.puntosDeVenta.join(", ")}</strong>`
          : html`<span class="badge muted">Apagada</span>`
      }
    </p>
    ${
      !contingencia.caea
        ? html`<p class="muted">
            Con la contingencia encendida, cuando la AFIP no responde se emite con el CAEA de la
            quincena y se informa después. Se enciende con
            <code>PATCH /api/representadas/${r.representadaId}</code>.
          </p>`
        : caeas === undefined || "error" in caeas
          ? notice("error", `No se pudieron leer los CAEA: ${caeas?.error ?? "sin respuesta"}`)
          : scrollBox(
              "CAEA de la quincena actual y de la próxima",
              html`<table id="caeas">
                <thead>
                  <tr>
                    <th scope="col"></th>
                    <th scope="col">Quincena</th>
                    <th scope="col">CAEA</th>
                    <th scope="col">Vigencia</th>
                    <th scope="col">Informar hasta</th>
                    <th scope="col">Obtenido</th>
                  </tr>
                </thead>
                <tbody>
                  ${caeaRow("Actual", caeas.actual)} ${caeaRow("Próxima", caeas.proxima)}
                </tbody>
              </table>`,
            )
    }
    <p>
      <a href="${comprobantes("caea_pendiente")}">Comprobantes CAEA pendientes de informar</a> ·
      <a href="${comprobantes("caea_rechazado")}">Comprobantes CAEA rechazados al informar</a>
    </p>
  </section>`;
}
