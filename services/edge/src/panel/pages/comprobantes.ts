import { cobros, pdf, wsfe } from "@pasarela/contracts";
import { comprobante, ENTORNOS } from "@pasarela/formato";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { statusOf } from "../../http/status.js";
import { sendPdf } from "../../routes/pdf.js";
import type { PanelContext } from "../context.js";
import { field, queryParam } from "../form.js";
import { html, type Interpolation } from "../html.js";
import { dateRangeFields, notice } from "../layout.js";
import {
  cobroCell,
  comprobantesTable,
  isHeld,
  numberKey,
  STATE_FILTERS,
  tipoSelect,
} from "./comprobantes-views.js";

const PAGE_SIZE = 25;
/** EMAIL_RECIPIENT_MISSING in the panel's words: the form's field is the e-mail box. */
const RECIPIENT_MISSING =
  "Escribí el e-mail de destino: el cliente receptor no tiene e-mail y la emisión no trajo uno.";
const DAY = /^\d{4}-\d{2}-\d{2}$/;

interface Filters {
  entorno: keyof typeof ENTORNOS;
  representada: string;
  tipo: string;
  desde: string;
  hasta: string;
  estado: string;
  cursor: string;
}

function filtersOf(request: FastifyRequest): Filters {
  const q = (name: string) => queryParam(request, name).trim().slice(0, 200);
  return {
    entorno: q("entorno") === "produccion" ? "produccion" : "homologacion",
    representada: /^\d{11}$/.test(q("representada")) ? q("representada") : "",
    tipo: /^\d{1,3}$/.test(q("tipo")) ? q("tipo") : "",
    desde: DAY.test(q("desde")) ? q("desde") : "",
    hasta: DAY.test(q("hasta")) ? q("hasta") : "",
    estado: Object.hasOwn(STATE_FILTERS, q("estado")) ? q("estado") : "",
    cursor: q("cursor"),
  };
}

/** The five fields that name a voucher, from a query string or a form. */
function keyOf(read: (name: string) => string) {
  return {
    environment: read("environment") === "produccion" ? "produccion" : "homologacion",
    representada: read("representada"),
    ptoVta: Number(read("ptoVta")),
    cbteTipo: Number(read("cbteTipo")),
    cbteNro: Number(read("cbteNro")),
  } as const;
}

/** Comprobantes: the vouchers issued through the gateway, their PDF and e-mail. */
export function registerComprobantePages(app: FastifyInstance, ctx: PanelContext): void {
  const listPage = async (request: FastifyRequest, message?: Interpolation, status = 200) => {
    const filters = filtersOf(request);
    const result = await ctx.ask(request, wsfe.comprobanteList, {
      environment: filters.entorno,
      limit: PAGE_SIZE,
      ...(filters.representada ? { representada: filters.representada } : {}),
      ...(filters.tipo ? { cbteTipo: Number(filters.tipo) } : {}),
      ...(filters.desde ? { desde: filters.desde.replaceAll("-", "") } : {}),
      ...(filters.hasta ? { hasta: filters.hasta.replaceAll("-", "") } : {}),
      ...(filters.estado ? { state: filters.estado as keyof typeof STATE_FILTERS } : {}),
      ...(filters.cursor ? { cursor: filters.cursor } : {}),
    });
    // the newest payment link of each authorized voucher of the page, in one call to cobros
    const authorized = result.ok ? result.value.items.filter(isHeld) : [];
    const links =
      authorized.length === 0
        ? undefined
        : await ctx.ask(request, cobros.linkList, {
            environment: filters.entorno,
            limit: cobros.LINK_LIST_MAX,
            comprobantes: authorized.map(({ representada, ptoVta, cbteTipo, cbteNro }) => ({
              representada,
              ptoVta,
              cbteTipo,
              cbteNro,
            })),
          });
    const linkOf = new Map<string, cobros.LinkCobro>();
    if (links?.ok) {
      for (const l of links.value.items) {
        if (!linkOf.has(numberKey(l.comprobante))) linkOf.set(numberKey(l.comprobante), l);
      }
    }
    const link = (cursor: string) => {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries({ ...filters, cursor }))
        if (value) params.set(name, value);
      return `/panel/comprobantes?${params.toString()}`;
    };
    const csrf = ctx.csrf(request);
    const body = html` ${message}
      <p>
        <a href="/panel/comprobantes/emisiones?entorno=${filters.entorno}"
          >Emisiones asincrónicas (pendientes y terminadas)</a
        >
      </p>
      <form method="get" action="/panel/comprobantes" class="card filters">
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
          <label for="representada">Representada (CUIT)</label
          ><input
            id="representada"
            name="representada"
            type="text"
            maxlength="11"
            value="${filters.representada}"
          />
        </div>
        <div><label for="tipo">Tipo</label>${tipoSelect(wsfe.ISSUED_CBTE_TIPOS, filters.tipo)}</div>
        ${dateRangeFields(filters)}
        <div>
          <label for="estado">Estado</label
          ><select id="estado" name="estado">
            <option value="">Todos</option>
            ${Object.entries(STATE_FILTERS).map(
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
            ? html`<p class="muted">No hay comprobantes con esos filtros.</p>`
            : html`${comprobantesTable({
                  items: result.value.items,
                  csrf,
                  cobro: (c) => cobroCell(c, links, linkOf),
                })}
                <div class="pager">
                  ${filters.cursor ? html`<a href="${link("")}">Primera página</a>` : html`<span></span>`}
                  ${result.value.nextCursor ? html`<a href="${link(result.value.nextCursor)}">Página siguiente</a>` : ""}
                </div>`
      }`;
    return { body, status };
  };

  app.get("/comprobantes", async (request, reply) => {
    const { body, status } = await listPage(request);
    return ctx.render(reply, { title: "Comprobantes", section: "comprobantes", body }, status);
  });

  // the account's printed voucher, inside the session: no public link is minted per click;
  // another account's is the 404 page
  app.get("/comprobantes/pdf", { config: { panelDocument: true } }, async (request, reply) => {
    const document = await ctx.call(
      request,
      pdf.comprobanteRender,
      keyOf((name) => queryParam(request, name)),
    );
    return sendPdf(reply, document, "inline");
  });

  app.post("/comprobantes/email", async (request, reply) => {
    const to = field(request, "to").trim();
    const key = keyOf((name) => field(request, name));
    const result = await ctx.ask(request, wsfe.emailSend, { ...key, ...(to ? { to } : {}) });
    // the notice names the voucher of its row; the API's field name is not the panel's word
    const voucher = comprobante(key);
    const { body, status } = await listPage(
      request,
      result.ok
        ? notice("ok", html`${voucher}: e-mail en camino a ${result.value.to}.`)
        : notice(
            "error",
            `${voucher}: ${result.error.code === "EMAIL_RECIPIENT_MISSING" ? RECIPIENT_MISSING : result.error.message}`,
          ),
      result.ok ? 200 : statusOf(result.error),
    );
    return ctx.render(reply, { title: "Comprobantes", section: "comprobantes", body }, status);
  });
}
