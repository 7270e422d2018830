import { webhooks } from "@pasarela/contracts";
import { fieldError, formError, inputField, type FormProblem } from "../fields.js";
import { html, type Html, type Interpolation } from "../html.js";
import { csrfField, notice, scrollBox, when } from "../layout.js";

/**
 * What the webhooks pages show: the list with its creation form, one endpoint with its
 * secret (once), its test button, its edit form and its delivery log, and the confirmations.
 * Pure views; the routes that fetch and change the data are in webhooks.ts.
 */

type Evento = webhooks.WebhookEvento;

/** Each event as the page names it; the code stays beside it, as the API spells it. */
export const EVENTOS: Readonly<Record<Evento, string>> = {
  "comprobante.autorizado": "Comprobante autorizado",
  "comprobante.rechazado": "Comprobante rechazado",
  "comprobante.no_emitido": "Comprobante no emitido",
  "comprobante.caea_informado": "CAEA informado",
  "comprobante.caea_rechazado": "CAEA rechazado al informar",
  "caea.no_obtenido": "CAEA no obtenido",
  "email.enviado": "E-mail enviado",
  "email.fallido": "E-mail fallido",
  "cobro.pagado": "Cobro pagado",
  "certificado.por_vencer": "Certificado por vencer",
  "certificado.vencido": "Certificado vencido",
  "cuota.alerta": "Alerta de cuota",
  "*": "Todos, también los que se agreguen",
};

/** A delivered kind in words: the subscribable events, and the test event. */
export const tipoText = (tipo: string): string =>
  tipo === webhooks.WEBHOOK_PRUEBA_TIPO
    ? "Evento de prueba"
    : ((EVENTOS as Record<string, string | undefined>)[tipo] ?? tipo);

const ESTADOS: Readonly<Record<webhooks.Entrega["status"], Html>> = {
  pending: html`<span class="badge warn">Pendiente</span>`,
  delivered: html`<span class="badge ok">Entregada</span>`,
  failed: html`<span class="badge bad">Fallida</span>`,
};

export const activoBadge = (
  activo: boolean,
  estado: Pick<webhooks.Webhook, "desactivadoAt" | "fallandoDesde"> = {
    desactivadoAt: null,
    fallandoDesde: null,
  },
): Html => {
  if (!activo) {
    return estado.desactivadoAt
      ? html`<span class="badge bad">Desactivado</span>`
      : html`<span class="badge muted">Pausado</span>`;
  }
  return estado.fallandoDesde
    ? html`<span class="badge warn">Fallando</span>`
    : html`<span class="badge ok">Activo</span>`;
};

/** Why the service disabled the endpoint, or since when its deliveries fail. */
const estadoNote = (w: webhooks.Webhook): Html | string => {
  if (!w.activo && w.desactivadoAt) {
    return html`<p class="error" role="status">
      Desactivado ${when(w.desactivadoAt)}: ${w.desactivadoMotivo ?? ""} Marcá «Activo» y guardá
      para volver a recibir eventos.
    </p>`;
  }
  if (w.fallandoDesde) {
    return html`<p class="muted" role="status">
      Sus entregas fallan desde ${when(w.fallandoDesde)}: se reintentan, y si siguen fallando
      durante 3 días el webhook se desactiva.
    </p>`;
  }
  return "";
};

/** What a form of url, events and description holds, as typed (kept when it is refused). */
export interface WebhookValues {
  url: string;
  eventos: readonly string[];
  descripcion: string;
  activo: boolean;
}

/** The fields of the creation and edit forms: a refusal about one is shown beside it. */
const FIELDS = ["url", "eventos", "descripcion"];

/** Events as checkboxes in a group; a refusal about them sits under the group. */
function eventosField(values: WebhookValues, problem: FormProblem | undefined): Html {
  const invalid = problem?.field === "eventos";
  return html`<fieldset class="checks" ${invalid ? html`aria-describedby="eventos-error"` : ""}>
    <legend>Eventos que recibe</legend>
    ${(Object.keys(EVENTOS) as Evento[]).map(
      (evento, i) =>
        html`<label
          ><input
            type="checkbox"
            name="eventos"
            value="${evento}"
            ${values.eventos.includes(evento) ? html`checked` : ""}
            ${invalid && i === 0 ? html`autofocus` : ""}
          />
          ${EVENTOS[evento]} <code>${evento}</code></label
        >`,
    )}
    ${fieldError("eventos", problem)}
  </fieldset>`;
}

/** url, events and description: the fields creation and edit share. */
const commonFields = (values: WebhookValues, problem: FormProblem | undefined): Html =>
  html`${inputField({
    name: "url",
    label: "URL que recibe los eventos (https://…)",
    value: values.url,
    problem,
    attributes: html`type="url" required maxlength="${webhooks.WEBHOOK_URL_MAX}"
    placeholder="https://mi-sistema.example.com/pasarela/eventos"`,
  })}
  ${eventosField(values, problem)}
  ${inputField({
    name: "descripcion",
    label: "Descripción (opcional)",
    value: values.descripcion,
    problem,
    attributes: html`type="text" maxlength="500"`,
  })}`;

export function createForm(csrf: string, values: WebhookValues, problem?: FormProblem): Html {
  return html`<form method="post" action="/panel/webhooks" class="card" id="nuevo">
    ${csrfField(csrf)}
    <h2>Registrar un webhook</h2>
    ${formError(problem, FIELDS)} ${commonFields(values, problem)}
    <p class="muted">
      Cada evento llega por POST, firmado con el formato Standard Webhooks; si tu receptor no
      responde 2xx se reintenta durante 3 días.
    </p>
    <div class="actions"><button type="submit">Registrar webhook</button></div>
  </form>`;
}

const eventosText = (eventos: readonly string[]): Interpolation =>
  eventos.map((evento, i) => html`${i > 0 ? ", " : ""}<code>${evento}</code>`);

/** The account's endpoints, then the form that registers one. */
export function listView(
  items: readonly webhooks.Webhook[],
  csrf: string,
  values: WebhookValues,
  problem?: FormProblem,
  message?: Interpolation,
): Html {
  return html`${message}
    <p class="muted">
      Direcciones de tu sistema que reciben los eventos de la cuenta (comprobantes, e-mails, cobros)
      apenas ocurren. Hasta ${webhooks.WEBHOOKS_PER_ACCOUNT_MAX} por cuenta.
    </p>
    <h2>Tus webhooks</h2>
    ${
      items.length === 0
        ? html`<p class="muted">Todavía no registraste ninguno.</p>`
        : scrollBox(
            "Webhooks",
            html`<table id="webhooks">
              <thead>
                <tr>
                  <th>URL</th>
                  <th>Eventos</th>
                  <th>Estado</th>
                  <th>Creado</th>
                  <th></th>
                </tr>
              </thead>
              <tbody>
                ${items.map(
                  (w) =>
                    html`<tr>
                      <td class="url">
                        ${w.url}${w.descripcion ? html`<br /><small class="muted">${w.descripcion}</small>` : ""}
                      </td>
                      <td>${eventosText(w.eventos)}</td>
                      <td>${activoBadge(w.activo, w)}</td>
                      <td>${when(w.createdAt)}</td>
                      <td><a href="/panel/webhooks/${w.id}">Administrar</a></td>
                    </tr>`,
                )}
              </tbody>
            </table>`,
          )
    }
    ${createForm(csrf, values, problem)}`;
}

/** A signing secret just made, shown this once, with a copy button. */
export function secretCard(secreto: string, anteriorVenceAt: string | undefined): Html {
  return html`<section class="card" aria-labelledby="secreto-titulo">
    <h2 id="secreto-titulo">${anteriorVenceAt ? "Tu secreto nuevo" : "Secreto de firma"}</h2>
    ${notice(
      "warn",
      "Copialo ahora y guardalo en tu receptor: no se volverá a mostrar. Si lo perdés, rotalo.",
    )}
    <div class="secret">
      <input id="secreto" type="text" readonly value="${secreto}" aria-label="Secreto de firma" />
      <button type="button" data-copy="#secreto" data-copied="Copiado">Copiar</button>
    </div>
    ${
      anteriorVenceAt
        ? html`<p>
            El secreto anterior sigue firmando junto a este hasta ${when(anteriorVenceAt)} (24
            horas): cada entrega lleva las dos firmas, así cambiás tu receptor sin perder eventos.
          </p>`
        : ""
    }
    <p class="muted">
      Con él tu receptor verifica el header <code>webhook-signature</code> de cada entrega (por
      ejemplo con el paquete <code>standardwebhooks</code>).
    </p>
  </section>`;
}

/** One endpoint's deliveries, newest first, each with its "Reenviar". */
function entregasTable(
  webhookId: string,
  csrf: string,
  page: { items: readonly webhooks.Entrega[]; nextCursor: string | null },
): Html {
  if (page.items.length === 0) {
    return html`<p class="muted">Todavía no hubo entregas a este webhook.</p>`;
  }
  return html`${scrollBox(
    "Entregas",
    html`<table id="entregas">
      <thead>
        <tr>
          <th>Evento</th>
          <th>Tipo</th>
          <th>Intentos</th>
          <th>Status HTTP</th>
          <th>Latencia</th>
          <th>Próximo intento</th>
          <th>Estado</th>
          <th></th>
        </tr>
      </thead>
      <tbody>
        ${page.items.map(
          (e) =>
            html`<tr>
              <td>
                <code>${e.eventoId}</code><br /><small class="muted">${when(e.createdAt)}</small>
              </td>
              <td>${tipoText(e.tipo)}<br /><small class="mono muted">${e.tipo}</small></td>
              <td class="num">${e.intentos}</td>
              <td class="num">${e.ultimoStatusCode ?? "—"}</td>
              <td class="num">${e.latenciaMs === null ? "—" : `${e.latenciaMs} ms`}</td>
              <td>${when(e.proximoIntentoAt)}</td>
              <td>
                ${ESTADOS[e.status]}${e.ultimoError ? html`<br /><small class="muted">${e.ultimoError}</small>` : ""}
              </td>
              <td class="action">
                <form method="post" action="/panel/webhooks/${webhookId}/entregas/${e.id}/reenviar">
                  ${csrfField(csrf)}
                  <button type="submit" class="secondary" aria-label="Reenviar ${e.eventoId}">
                    Reenviar
                  </button>
                </form>
              </td>
            </tr>`,
        )}
      </tbody>
    </table>`,
  )}
  ${
    page.nextCursor
      ? html`<div class="pager">
          <a href="/panel/webhooks/${webhookId}">Más recientes</a>
          <a href="/panel/webhooks/${webhookId}?cursor=${encodeURIComponent(page.nextCursor)}"
            >Más antiguas</a
          >
        </div>`
      : ""
  }`;
}

export interface DetailExtra {
  /** a notice above everything: what a form just did, or why it could not */
  message?: Interpolation;
  /** the secret just made (creation or rotation), shown this once */
  secret?: Html;
  /** what the edit form holds when it was refused, and why */
  values?: WebhookValues;
  problem?: FormProblem;
}

/** One endpoint: its secret (once), the test, the edit form, the log and the danger zone. */
export function detailView(
  w: webhooks.Webhook,
  entregas: { items: readonly webhooks.Entrega[]; nextCursor: string | null },
  csrf: string,
  extra: DetailExtra,
): Html {
  const base = `/panel/webhooks/${w.id}`;
  const values = extra.values ?? {
    url: w.url,
    eventos: w.eventos,
    descripcion: w.descripcion ?? "",
    activo: w.activo,
  };
  return html`${extra.message} ${extra.secret}
    <section class="card">
      <p class="url"><strong>${w.url}</strong> ${activoBadge(w.activo, w)}</p>
      ${estadoNote(w)}
      <p class="muted">
        Recibe ${eventosText(w.eventos)} · registrado ${when(w.createdAt)} · id
        <code>${w.id}</code>
      </p>
      <form method="post" action="${base}/prueba">
        ${csrfField(csrf)}
        <p>
          Un evento <code>${webhooks.WEBHOOK_PRUEBA_TIPO}</code> firmado, solo a este webhook, sin
          importar a qué eventos está suscripto: aparece en las entregas de abajo.
        </p>
        <div class="actions"><button type="submit">Enviar evento de prueba</button></div>
      </form>
    </section>
    <form method="post" action="${base}" class="card" id="editar">
      ${csrfField(csrf)}
      <h2>Modificar</h2>
      ${formError(extra.problem, FIELDS)} ${commonFields(values, extra.problem)}
      <label class="check"
        ><input type="checkbox" name="activo" value="si" ${values.activo ? html`checked` : ""} />
        Activo (sin tildar, el webhook queda pausado: no recibe eventos nuevos y sus entregas
        pendientes esperan)</label
      >
      <div class="actions"><button type="submit">Guardar cambios</button></div>
    </form>
    <h2>Entregas</h2>
    ${entregasTable(w.id, csrf, entregas)}
    <section class="card">
      <h2>Secreto y eliminación</h2>
      <p>
        Rotar genera un secreto nuevo; el actual sigue firmando 24 horas más. Eliminar borra el
        webhook, su secreto y sus entregas.
      </p>
      <div class="actions">
        <a class="button secondary" href="${base}/rotar">Rotar secreto</a>
        <a class="button secondary" href="${base}/eliminar">Eliminar webhook</a>
      </div>
    </section>
    <p><a href="/panel/webhooks">Volver a los webhooks</a></p>`;
}

/** A confirmation before rotating or deleting: the one form that does it, and a way back. */
export function confirmView(w: webhooks.Webhook, csrf: string, what: "rotar" | "eliminar"): Html {
  const base = `/panel/webhooks/${w.id}`;
  return html`<form method="post" action="${base}/${what}" class="card">
    ${csrfField(csrf)}
    ${
      what === "rotar"
        ? html`<p>¿Rotar el secreto de firma de <strong class="url">${w.url}</strong>?</p>
            ${notice(
              "warn",
              "El secreto nuevo se muestra una sola vez. El actual sigue firmando junto a él durante 24 horas, para que cambies tu receptor sin perder eventos; uno que ya había sido reemplazado deja de valer ahora.",
            )}`
        : html`<p>¿Eliminar el webhook <strong class="url">${w.url}</strong>?</p>
            ${notice(
              "warn",
              "Deja de recibir eventos ahora, y su secreto y su registro de entregas se borran. No se puede deshacer.",
            )}`
    }
    <div class="actions">
      <button type="submit" class="danger">
        ${what === "rotar" ? "Sí, rotar" : "Sí, eliminar"}
      </button>
      <a class="button secondary" href="${base}">Cancelar</a>
    </div>
  </form>`;
}
