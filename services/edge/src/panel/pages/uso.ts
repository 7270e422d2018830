import { billing } from "@pasarela/contracts";
import { ENTORNOS, eventoRecibido, mensajeDeCodigo, numeroDocumento } from "@pasarela/formato";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { callsChart, lastDays } from "../chart.js";
import type { PanelContext } from "../context.js";
import { queryParam } from "../form.js";
import { html, type Html } from "../html.js";
import { dateRangeFields, day, notice, scrollBox, when } from "../layout.js";

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ENVIRONMENTS = ENTORNOS;
const PAGE_SIZE = 25;

/** Midnight of an Argentine calendar day, as the ISO instant the contracts take. */
const startOfDay = (fecha: string) => `${fecha}T00:00:00-03:00`;
const nextDay = (fecha: string) => {
  const d = new Date(`${fecha}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};

interface Filters {
  desde: string;
  hasta: string;
  ruta: string;
  status: string;
  entorno: string;
  cursor: string;
}

function filtersOf(request: FastifyRequest): Filters {
  const q = (name: string) => queryParam(request, name).trim().slice(0, 200);
  return {
    desde: DAY.test(q("desde")) ? q("desde") : "",
    hasta: DAY.test(q("hasta")) ? q("hasta") : "",
    ruta: q("ruta"),
    status: /^[1-5]\d\d$/.test(q("status")) ? q("status") : "",
    entorno: q("entorno") in ENVIRONMENTS ? q("entorno") : "",
    cursor: q("cursor"),
  };
}

const link = (filters: Filters, cursor: string) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...filters, cursor }))
    if (value) params.set(name, value);
  return `/panel/uso?${params.toString()}`;
};

/** A catalogue code in words, the code itself small after it; an unknown code as it is. */
export function codeCell(code: string | null): Html | string {
  if (!code) return "";
  const message = mensajeDeCodigo(code);
  return message
    ? html`${message} <small class="mono muted">${code}</small>`
    : html`<code>${code}</code>`;
}

/** What a row was: a call's method and route, or an event the gateway received, in words. */
export function callCells(call: { method: string; route: string }): Html {
  const event = call.method === "EVENT" ? eventoRecibido(call.route) : undefined;
  return event === undefined
    ? html`<td>${call.method}</td>
        <td><code>${call.route}</code></td>`
    : html`<td>Aviso</td>
        <td>${event}</td>`;
}

function quotaBar(label: string, quota: { quota: number; used: number; left: number }): Html {
  const id = `cuota-${label.toLowerCase()}`;
  return html`<div class="card">
    <label for="${id}">${label}</label>
    <meter
      id="${id}"
      min="0"
      max="${Math.max(quota.quota, 1)}"
      low="${quota.quota * 0.8}"
      high="${quota.quota * 0.95}"
      optimum="0"
      value="${quota.used}"
    >
      ${quota.used} de ${quota.quota}
    </meter>
    <p>
      <strong>${quota.used.toLocaleString("es-AR")}</strong> usadas de
      ${quota.quota.toLocaleString("es-AR")} · quedan ${quota.left.toLocaleString("es-AR")}
    </p>
  </div>`;
}

/** Uso: this period's quotas, calls per day by status, and the per-call history. */
export function registerUsoPages(app: FastifyInstance, ctx: PanelContext): void {
  app.get("/uso", async (request, reply) => {
    const filters = filtersOf(request);
    const days = lastDays(30);
    const [summary, history] = await Promise.all([
      ctx.call(request, billing.usageSummary, { from: startOfDay(days[0]!) }),
      ctx.ask(request, billing.usageList, {
        limit: PAGE_SIZE,
        ...(filters.desde ? { from: startOfDay(filters.desde) } : {}),
        ...(filters.hasta ? { to: startOfDay(nextDay(filters.hasta)) } : {}),
        ...(filters.ruta ? { route: filters.ruta } : {}),
        ...(filters.status ? { status: Number(filters.status) } : {}),
        ...(filters.entorno ? { environment: filters.entorno as keyof typeof ENVIRONMENTS } : {}),
        ...(filters.cursor ? { cursor: filters.cursor } : {}),
      }),
    ]);
    const body = html` <p class="muted">
        Período del plan <strong>${summary.plan.name}</strong>: ${day(summary.periodStart)} al
        ${day(summary.periodEnd)}. Solo producción consume cuota.
      </p>
      <div class="grid2">
        ${quotaBar("Facturas", summary.facturas)} ${quotaBar("Padrones", summary.padrones)}
      </div>
      <h2>Llamadas por día, últimos 30 días</h2>
      ${callsChart(days, summary.dias)}
      <h2>Historial de llamadas</h2>
      <form method="get" action="/panel/uso" class="card filters">
        ${dateRangeFields(filters)}
        <div>
          <label for="ruta">Ruta</label
          ><select id="ruta" name="ruta">
            <option value="">Todas</option>
            ${ctx
              .routes()
              .map(
                (route) =>
                  html`<option value="${route}" ${filters.ruta === route ? html`selected` : ""}>
                    ${route}
                  </option>`,
              )}
          </select>
        </div>
        <div>
          <label for="status">Estado HTTP</label
          ><input
            id="status"
            name="status"
            type="number"
            min="100"
            max="599"
            value="${filters.status}"
          />
        </div>
        <div>
          <label for="entorno">Entorno</label
          ><select id="entorno" name="entorno">
            <option value="">Todos</option>
            ${Object.entries(ENVIRONMENTS).map(
              ([value, label]) =>
                html`<option value="${value}" ${filters.entorno === value ? html`selected` : ""}>
                  ${label}
                </option>`,
            )}
          </select>
        </div>
        <div><button type="submit">Filtrar</button> <a href="/panel/uso">Limpiar</a></div>
      </form>
      ${
        !history.ok
          ? notice("error", history.error.message)
          : history.value.items.length === 0
            ? html`<p class="muted">No hay llamadas con esos filtros.</p>`
            : html`${scrollBox(
                  "Llamadas a la API",
                  html`<table id="historial">
                    <thead>
                      <tr>
                        <th>Cuándo</th>
                        <th>Método</th>
                        <th>Ruta</th>
                        <th>Entorno</th>
                        <th>Representada</th>
                        <th>Estado HTTP</th>
                        <th>Código</th>
                        <th class="num">Latencia</th>
                        <th>Cuota</th>
                        <th>Id</th>
                      </tr>
                    </thead>
                    <tbody>
                      ${history.value.items.map(
                        (call) =>
                          html`<tr>
                            <td>${when(call.at)}</td>
                            ${callCells(call)}
                            <td>${call.environment ? ENVIRONMENTS[call.environment] : "—"}</td>
                            <td class="mono">
                              ${call.representada ? numeroDocumento(80, call.representada) : "—"}
                            </td>
                            <td>
                              <span
                                class="badge ${call.status < 400 ? "ok" : call.status < 500 ? "warn" : "bad"}"
                                >${call.status}</span
                              >
                            </td>
                            <td>${codeCell(call.code)}</td>
                            <td class="num">${Math.round(call.latencyMs)} ms</td>
                            <td>${call.quotaConsumed ? "Sí" : ""}</td>
                            <td>
                              <a
                                class="mono"
                                href="/panel/soporte?requestId=${call.id}"
                                title="Abrir un ticket sobre esta llamada"
                                >${call.id.slice(0, 8)}</a
                              >
                            </td>
                          </tr>`,
                      )}
                    </tbody>
                  </table>`,
                )}
                <div class="pager">
                  ${filters.cursor ? html`<a href="${link(filters, "")}">Primera página</a>` : html`<span></span>`}
                  ${history.value.nextCursor ? html`<a href="${link(filters, history.value.nextCursor)}">Página siguiente</a>` : ""}
                </div>`
      }`;
    return ctx.render(reply, { title: "Uso", section: "uso", body });
  });
}
