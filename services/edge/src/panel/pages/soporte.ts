import { billing } from "@pasarela/contracts";
import { appError } from "@pasarela/errors";
import type { FastifyInstance } from "fastify";
import { EdgeError } from "../../http/edge-error.js";
import { statusOf } from "../../http/status.js";
import type { PanelContext } from "../context.js";
import {
  fieldError,
  formError,
  inputField,
  invalidAttributes,
  problemOf,
  type FormProblem,
} from "../fields.js";
import { field, isUuid, queryParam } from "../form.js";
import { html } from "../html.js";
import { csrfField, notice, scrollBox, when } from "../layout.js";

const ESTADOS = {
  abierto: html`<span class="badge warn">Esperando respuesta</span>`,
  respondido: html`<span class="badge ok">Respondido</span>`,
  cerrado: html`<span class="badge muted">Cerrado</span>`,
} as const;

/** The new ticket's fields: a refusal about one of them is shown beside it. */
const TICKET_FIELDS = ["asunto", "mensaje", "requestId"];

/** Soporte: open a ticket, read one's tickets and the operator's replies, answer them. */
export function registerSoportePages(app: FastifyInstance, ctx: PanelContext): void {
  const listPage = async (
    request: Parameters<PanelContext["csrf"]>[0],
    values: { asunto: string; mensaje: string; requestId: string },
    problem?: FormProblem,
  ) => {
    const { tickets } = await ctx.call(request, billing.soporteList, {});
    return html` ${formError(problem, TICKET_FIELDS)}
      <form method="post" action="/panel/soporte" class="card">
        ${csrfField(ctx.csrf(request))}
        <h2>Abrir un ticket</h2>
        ${inputField({
          name: "asunto",
          label: "Asunto",
          value: values.asunto,
          problem,
          attributes: html`type="text" required maxlength="200"`,
        })}
        <label for="mensaje">Mensaje</label>
        <textarea
          id="mensaje"
          name="mensaje"
          required
          maxlength="10000"
          ${invalidAttributes("mensaje", problem)}
        >
${values.mensaje}</textarea>
        ${fieldError("mensaje", problem)}
        ${inputField({
          name: "requestId",
          label: "Id de la llamada (opcional, de la tabla de Uso)",
          value: values.requestId,
          problem,
          attributes: html`type="text" maxlength="200"`,
        })}
        <div class="actions"><button type="submit">Enviar</button></div>
      </form>
      <h2>Tus tickets</h2>
      ${
        tickets.length === 0
          ? html`<p class="muted">No abriste ningún ticket.</p>`
          : scrollBox(
              "Tus tickets",
              html`<table>
                <thead>
                  <tr>
                    <th>Asunto</th>
                    <th>Estado</th>
                    <th>Abierto</th>
                    <th>Última actividad</th>
                  </tr>
                </thead>
                <tbody>
                  ${tickets.map(
                    (t) =>
                      html`<tr>
                        <td><a href="/panel/soporte/${t.id}">${t.asunto}</a></td>
                        <td>${ESTADOS[t.estado]}</td>
                        <td>${when(t.createdAt)}</td>
                        <td>${when(t.updatedAt)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>`,
            )
      }`;
  };

  app.get("/soporte", async (request, reply) =>
    ctx.render(reply, {
      title: "Soporte",
      section: "soporte",
      body: await listPage(request, {
        asunto: "",
        mensaje: "",
        requestId: queryParam(request, "requestId").slice(0, 200),
      }),
    }),
  );

  app.post("/soporte", async (request, reply) => {
    const session = ctx.session(request);
    const values = {
      asunto: field(request, "asunto"),
      mensaje: field(request, "mensaje"),
      requestId: field(request, "requestId").trim(),
    };
    const result = await ctx.ask(request, billing.soporteCreate, {
      userId: session.userId,
      asunto: values.asunto,
      mensaje: values.mensaje,
      ...(values.requestId ? { requestId: values.requestId } : {}),
    });
    if (!result.ok) {
      return ctx.render(
        reply,
        {
          title: "Soporte",
          section: "soporte",
          body: await listPage(request, values, problemOf(result.error)),
        },
        statusOf(result.error),
      );
    }
    return reply.redirect(`/panel/soporte/${result.value.id}`, 303);
  });

  app.get<{ Params: { id: string } }>("/soporte/:id", async (request, reply) => {
    if (!isUuid(request.params.id)) throw new EdgeError(appError("PANEL_NOT_FOUND"));
    const ticket = await ctx.call(request, billing.soporteGet, { id: request.params.id });
    const body = html` <p>
        ${ESTADOS[ticket.estado]} · abierto
        ${when(ticket.createdAt)}${ticket.requestId ? html` · llamada <code>${ticket.requestId}</code>` : ""}
      </p>
      ${ticket.messages.map(
        (m) =>
          html`<article class="card">
            <p class="muted">
              ${m.autor === "operador" ? "Soporte de pasarela" : "Vos"} · ${when(m.at)}
            </p>
            <p class="mensaje">
              ${m.mensaje.split("\n").map((line, i) => (i === 0 ? line : html`<br />${line}`))}
            </p>
          </article>`,
      )}
      ${
        ticket.estado === "cerrado"
          ? notice("warn", "El ticket está cerrado. Si necesitás más ayuda, abrí uno nuevo.")
          : html`<form method="post" action="/panel/soporte/${ticket.id}" class="card">
              ${csrfField(ctx.csrf(request))}
              <label for="mensaje">Responder</label>
              <textarea id="mensaje" name="mensaje" required maxlength="10000"></textarea>
              <div class="actions"><button type="submit">Enviar respuesta</button></div>
            </form>`
      }
      <p><a href="/panel/soporte">Volver a tus tickets</a></p>`;
    return ctx.render(reply, { title: ticket.asunto, section: "soporte", body });
  });

  app.post<{ Params: { id: string } }>("/soporte/:id", async (request, reply) => {
    if (!isUuid(request.params.id)) throw new EdgeError(appError("PANEL_NOT_FOUND"));
    await ctx.call(request, billing.soporteReply, {
      id: request.params.id,
      mensaje: field(request, "mensaje"),
    });
    return reply.redirect(`/panel/soporte/${request.params.id}`, 303);
  });
}
