import { cobros, numeroComprobante, pdf, wsfe } from "@pasarela/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { statusOf } from "../../http/status.js";
import { sendPdf } from "../../routes/pdf.js";
import type { PanelContext } from "../context.js";
import { field, queryParam } from "../form.js";
import { html, type Interpolation } from "../html.js";
import { csrfField, dateRangeFields, notice } from "../layout.js";

const ENVIRONMENTS = { homologacion: "Homologación", produccion: "Producción" } as const;
const STATES = {
  authorized: html`<span class="badge ok">Autorizado</span>`,
  rejected: html`<span class="badge bad">Rechazado</span>`,
  pending: html`<span class="badge warn">Pendiente</span>`,
} as const;
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
const PAGE_SIZE = 25;

/** A voucher's identity within one environment, to pair list rows with their payment links. */
const voucherId = (c: {
  representada: string;
  ptoVta: number;
  cbteTipo: number;
  cbteNro: number;
}) => `${c.representada}/${c.ptoVta}/${c.cbteTipo}/${c.cbteNro}`;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

interface Filters {
  entorno: keyof typeof ENVIRONMENTS;
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
    estado: q("estado") in STATES ? q("estado") : "",
    cursor: q("cursor"),
  };
}

const fecha = (aaaammdd: string) =>
  /^\d{8}$/.test(aaaammdd)
    ? `${aaaammdd.slice(6, 8)}/${aaaammdd.slice(4, 6)}/${aaaammdd.slice(0, 4)}`
    : aaaammdd;

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
      ...(filters.estado ? { state: filters.estado as keyof typeof STATES } : {}),
      ...(filters.cursor ? { cursor: filters.cursor } : {}),
    });
    // the newest payment link of each authorized voucher of the page, in one call to cobros
    const authorized = result.ok ? result.value.items.filter((c) => c.state === "authorized") : [];
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
        if (!linkOf.has(voucherId(l.comprobante))) linkOf.set(voucherId(l.comprobante), l);
      }
    }
    const cobro = (c: (typeof authorized)[number]) => {
      if (c.state !== "authorized") return "—";
      if (links && !links.ok) return html`<span class="muted">No disponible</span>`;
      const l = linkOf.get(voucherId(c));
      if (!l) return "—";
      return l.estado === "pendiente"
        ? html`${COBRO.pendiente} <a href="${l.url}" rel="noopener">Link de pago</a>`
        : COBRO[l.estado];
    };
    const link = (cursor: string) => {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries({ ...filters, cursor }))
        if (value) params.set(name, value);
      return `/panel/comprobantes?${params.toString()}`;
    };
    const csrf = ctx.csrf(request);
    const body = html` ${message}
      <form method="get" action="/panel/comprobantes" class="card filters">
        <div>
          <label for="entorno">Entorno</label
          ><select id="entorno" name="entorno">
            ${Object.entries(ENVIRONMENTS).map(
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
        <div>
          <label for="tipo">Tipo</label
          ><input id="tipo" name="tipo" type="number" min="1" max="999" value="${filters.tipo}" />
        </div>
        ${dateRangeFields(filters)}
        <div>
          <label for="estado">Estado</label
          ><select id="estado" name="estado">
            <option value="">Todos</option>
            <option value="authorized" ${filters.estado === "authorized" ? html`selected` : ""}>
              Autorizado
            </option>
            <option value="rejected" ${filters.estado === "rejected" ? html`selected` : ""}>
              Rechazado
            </option>
            <option value="pending" ${filters.estado === "pending" ? html`selected` : ""}>
              Pendiente
            </option>
          </select>
        </div>
        <div><button type="submit">Filtrar</button></div>
      </form>
      ${
        !result.ok
          ? notice("error", result.error.message)
          : result.value.items.length === 0
            ? html`<p class="muted">No hay comprobantes con esos filtros.</p>`
            : html`<table id="comprobantes">
                  <thead>
                    <tr>
                      <th>Fecha</th>
                      <th>Comprobante</th>
                      <th>Representada</th>
                      <th>Receptor</th>
                      <th class="num">Total</th>
                      <th>Estado</th>
                      <th>CAE</th>
                      <th>E-mail</th>
                      <th>Cobro</th>
                      <th></th>
                    </tr>
                  </thead>
                  <tbody>
                    ${result.value.items.map((c) => {
                      const key = new URLSearchParams({
                        environment: c.environment,
                        representada: c.representada,
                        ptoVta: String(c.ptoVta),
                        cbteTipo: String(c.cbteTipo),
                        cbteNro: String(c.cbteNro),
                      });
                      return html`<tr>
                        <td>${fecha(c.cbteFch)}</td>
                        <td class="mono">
                          ${c.cbteTipo} · ${numeroComprobante(c.ptoVta, c.cbteNro)}
                        </td>
                        <td class="mono">${c.representada}</td>
                        <td>
                          ${c.receptor.razonSocial ?? `${c.receptor.docTipo} ${c.receptor.docNro}`}
                        </td>
                        <td class="num">${c.moneda} ${c.impTotal}</td>
                        <td>${STATES[c.state]}</td>
                        <td class="mono">${c.cae ?? "—"}</td>
                        <td>
                          ${c.email ? html`${EMAIL[c.email.status]} <span class="muted">${c.email.to}</span>` : "—"}
                        </td>
                        <td>${cobro(c)}</td>
                        <td>
                          ${
                            c.state === "authorized"
                              ? html`<a href="/panel/comprobantes/pdf?${key.toString()}">PDF</a>
                                  <form
                                    method="post"
                                    action="/panel/comprobantes/email"
                                    class="inline"
                                  >
                                    ${csrfField(csrf)}
                                    ${[...key].map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}
                                    <input
                                      type="email"
                                      name="to"
                                      placeholder="e-mail (opcional)"
                                      aria-label="Destinatario"
                                    />
                                    <button type="submit" class="secondary">
                                      Enviar por e-mail
                                    </button>
                                  </form>`
                              : ""
                          }
                        </td>
                      </tr>`;
                    })}
                  </tbody>
                </table>
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
    const result = await ctx.ask(request, wsfe.emailSend, {
      ...keyOf((name) => field(request, name)),
      ...(to ? { to } : {}),
    });
    const { body, status } = await listPage(
      request,
      result.ok
        ? notice("ok", html`E-mail en camino a ${result.value.to}.`)
        : notice("error", result.error.message),
      result.ok ? 200 : statusOf(result.error),
    );
    return ctx.render(reply, { title: "Comprobantes", section: "comprobantes", body }, status);
  });
}
