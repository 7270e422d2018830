import { wsfe } from "@pasarela/contracts";
import { ENTORNOS } from "@pasarela/formato";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { PanelContext } from "../context.js";
import { queryParam } from "../form.js";
import { html } from "../html.js";
import { notice } from "../layout.js";
import { EMISION_FILTERS, emisionesTable } from "./emisiones-views.js";

const PAGE_SIZE = 25;

function filtersOf(request: FastifyRequest) {
  const q = (name: string) => queryParam(request, name).trim().slice(0, 200);
  return {
    entorno: q("entorno") === "produccion" ? ("produccion" as const) : ("homologacion" as const),
    estado: Object.hasOwn(EMISION_FILTERS, q("estado")) ? q("estado") : "",
    cursor: q("cursor"),
  };
}

/**
 * Emisiones asincrónicas, under Comprobantes: the issuances asked for with
 * `Prefer: respond-async`, waiting or ended, with their attempts and result.
 */
export function registerEmisionPages(app: FastifyInstance, ctx: PanelContext): void {
  app.get("/comprobantes/emisiones", async (request, reply) => {
    const filters = filtersOf(request);
    const result = await ctx.ask(request, wsfe.emisionList, {
      environment: filters.entorno,
      limit: PAGE_SIZE,
      ...(filters.estado ? { estado: filters.estado as keyof typeof EMISION_FILTERS } : {}),
      ...(filters.cursor ? { cursor: filters.cursor } : {}),
    });
    const link = (cursor: string) => {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries({ ...filters, cursor }))
        if (value) params.set(name, value);
      return `/panel/comprobantes/emisiones?${params.toString()}`;
    };
    const body = html`<p>
        <a href="/panel/comprobantes?entorno=${filters.entorno}">Volver a los comprobantes</a>
      </p>
      <p class="muted">
        Las emisiones pedidas con <code>Prefer: respond-async</code>: las pendientes se reintentan
        mientras la AFIP no responde; cada una se consulta con
        <code>GET /api/wsfe/facturas/{id}</code>.
      </p>
      <form method="get" action="/panel/comprobantes/emisiones" class="card filters">
        <div>
          <label for="entorno">Entorno</label
          ><select id="entorno" name="entorno">
            ${Object.entries(ENTORNOS).map(
              ([value, label]) =>
                html`<option value="${value}" ${filters.entorno === value ? html`selected` : ""}>
                  ${label}
                </option>`,
            )}
          </select>
        </div>
        <div>
          <label for="estado">Estado</label
          ><select id="estado" name="estado">
            <option value="">Todas</option>
            ${Object.entries(EMISION_FILTERS).map(
              ([value, label]) =>
                html`<option value="${value}" ${filters.estado === value ? html`selected` : ""}>
                  ${label}
                </option>`,
            )}
          </select>
        </div>
        <div><button type="submit">Filtrar</button></div>
      </form>
      ${
        !result.ok
          ? notice("error", result.error.message)
          : result.value.items.length === 0
            ? html`<p class="muted">No hay emisiones asincrónicas con esos filtros.</p>`
            : html`${emisionesTable(result.value.items)}
                <div class="pager">
                  ${filters.cursor ? html`<a href="${link("")}">Primera página</a>` : html`<span></span>`}
                  ${result.value.nextCursor ? html`<a href="${link(result.value.nextCursor)}">Página siguiente</a>` : ""}
                </div>`
      }`;
    return ctx.render(reply, {
      title: "Emisiones asincrónicas",
      section: "comprobantes",
      body,
    });
  });
}
