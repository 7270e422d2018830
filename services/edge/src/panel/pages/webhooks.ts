import { webhooks } from "@pasarela/contracts";
import { appError } from "@pasarela/errors";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { EdgeError } from "../../http/edge-error.js";
import { statusOf } from "../../http/status.js";
import type { PanelContext } from "../context.js";
import { problemOf, type FormProblem } from "../fields.js";
import { field, isUuid, queryParam } from "../form.js";
import { html } from "../html.js";
import { notice } from "../layout.js";
import {
  confirmView,
  detailView,
  listView,
  secretCard,
  type DetailExtra,
  type WebhookValues,
} from "./webhooks-views.js";

/** How many deliveries one page of the log shows. */
const ENTREGAS_PAGE = 20;

/** What the redirect after creating or rotating carries, sealed, to the page that shows it. */
const newSecretSchema = z.object({
  id: z.string(),
  secreto: z.string(),
  anteriorVenceAt: z.string().optional(),
});

const EMPTY: WebhookValues = { url: "", eventos: [], descripcion: "", activo: true };

/** Every value a form sent under `name` (checkboxes send one each). */
function fieldValues(request: FastifyRequest, name: string): string[] {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  const list = Array.isArray(value) ? (value as unknown[]) : [value];
  return list.filter((item): item is string => typeof item === "string");
}

/** The url, events and description a form sent, as typed. */
const valuesOf = (request: FastifyRequest): WebhookValues => ({
  url: field(request, "url").trim(),
  eventos: fieldValues(request, "eventos"),
  descripcion: field(request, "descripcion").trim(),
  activo: field(request, "activo") !== "",
});

/** A refusal about one of the events (`eventos.1`) is shown beside the whole group. */
const formProblem = (problem: FormProblem): FormProblem =>
  problem.field?.startsWith("eventos.") ? { ...problem, field: "eventos" } : problem;

/**
 * Webhooks: list and register endpoints (the secret shown once), change, pause, test, rotate
 * and delete one, and read and re-send its deliveries. The same contracts as /api/webhooks,
 * for the session's account; another account's ids are the 404 page.
 */
export function registerWebhookPages(app: FastifyInstance, ctx: PanelContext): void {
  const listPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    values: WebhookValues,
    problem?: FormProblem,
    status = 200,
  ) => {
    const { items } = await ctx.call(request, webhooks.endpointList, {});
    const message = queryParam(request, "eliminado")
      ? notice("ok", "Eliminaste el webhook: no recibirá más eventos.")
      : "";
    const body = listView(items, ctx.csrf(request), values, problem, message);
    return ctx.render(reply, { title: "Webhooks", section: "webhooks", body }, status);
  };

  app.get("/webhooks", (request, reply) => listPage(request, reply, EMPTY));

  app.post("/webhooks", async (request, reply) => {
    const values = valuesOf(request);
    const result = await ctx.ask(request, webhooks.endpointCreate, {
      url: values.url,
      // the service checks each one against the catalogue of events
      eventos: values.eventos as webhooks.WebhookEvento[],
      ...(values.descripcion ? { descripcion: values.descripcion } : {}),
    });
    if (!result.ok) {
      const problem = formProblem(problemOf(result.error));
      return listPage(request, reply, values, problem, statusOf(result.error));
    }
    const { id, secreto } = result.value;
    const flashId = await ctx.sessions.putFlash(request.panelSessionId!, { id, secreto });
    return reply.redirect(`/panel/webhooks/${id}?secreto=${flashId}`, 303);
  });

  type ById = { Params: { id: string } };

  /** the account's endpoint with this id; anything else is the 404 page */
  async function own(request: FastifyRequest<ById>): Promise<webhooks.Webhook> {
    if (!isUuid(request.params.id)) throw new EdgeError(appError("PANEL_NOT_FOUND"));
    return ctx.call(request, webhooks.endpointGet, { id: request.params.id });
  }

  /** The secret the creation or rotation just made, once; a notice when it was already shown. */
  async function secretOf(request: FastifyRequest<ById>): Promise<DetailExtra> {
    const flashId = queryParam(request, "secreto");
    if (!flashId) return {};
    const kept =
      isUuid(flashId) && request.panelSessionId
        ? newSecretSchema.safeParse(await ctx.sessions.takeFlash(request.panelSessionId, flashId))
        : undefined;
    if (kept?.success && kept.data.id === request.params.id) {
      return { secret: secretCard(kept.data.secreto, kept.data.anteriorVenceAt) };
    }
    return {
      message: notice("warn", "El secreto ya se mostró una vez y no se volverá a mostrar."),
    };
  }

  const detailPage = async (
    request: FastifyRequest<ById>,
    reply: FastifyReply,
    w: webhooks.Webhook,
    extra: DetailExtra & { status?: number } = {},
  ) => {
    const cursor = queryParam(request, "cursor");
    const entregas = await ctx.call(request, webhooks.entregaList, {
      id: w.id,
      limit: ENTREGAS_PAGE,
      ...(cursor && request.method === "GET" ? { cursor } : {}),
    });
    const body = detailView(w, entregas, ctx.csrf(request), extra);
    return ctx.render(
      reply,
      { title: "Webhook", section: "webhooks", body, script: extra.secret !== undefined },
      extra.status ?? 200,
    );
  };

  app.get<ById>("/webhooks/:id", async (request, reply) => {
    const w = await own(request);
    return detailPage(request, reply, w, await secretOf(request));
  });

  app.post<ById>("/webhooks/:id", async (request, reply) => {
    const w = await own(request);
    const values = valuesOf(request);
    const result = await ctx.ask(request, webhooks.endpointUpdate, {
      id: w.id,
      changes: {
        url: values.url,
        eventos: values.eventos as webhooks.WebhookEvento[],
        descripcion: values.descripcion || null,
        activo: values.activo,
      },
    });
    if (!result.ok) {
      return detailPage(request, reply, w, {
        values,
        problem: formProblem(problemOf(result.error)),
        status: statusOf(result.error),
      });
    }
    return detailPage(request, reply, result.value, {
      message: notice("ok", "Cambios guardados."),
    });
  });

  app.post<ById>("/webhooks/:id/prueba", async (request, reply) => {
    const w = await own(request);
    const result = await ctx.ask(request, webhooks.pruebaEnviar, { id: w.id });
    if (!result.ok) {
      return detailPage(request, reply, w, {
        message: notice("error", result.error.message),
        status: statusOf(result.error),
      });
    }
    return detailPage(request, reply, w, {
      message: notice(
        "ok",
        html`Enviamos un evento de prueba (<code>${result.value.eventoId}</code>): su entrega
        aparece abajo.`,
      ),
    });
  });

  app.post<{ Params: { id: string; entregaId: string } }>(
    "/webhooks/:id/entregas/:entregaId/reenviar",
    async (request, reply) => {
      const w = await own(request);
      if (!isUuid(request.params.entregaId)) throw new EdgeError(appError("PANEL_NOT_FOUND"));
      const entrega = await ctx.call(request, webhooks.entregaReenviar, {
        id: w.id,
        entregaId: request.params.entregaId,
      });
      return detailPage(request, reply, w, {
        message: notice(
          "ok",
          html`La entrega de <code>${entrega.eventoId}</code> sale de nuevo ahora, con el mismo id y
            el mismo cuerpo.`,
        ),
      });
    },
  );

  for (const what of ["rotar", "eliminar"] as const) {
    app.get<ById>(`/webhooks/:id/${what}`, async (request, reply) => {
      const w = await own(request);
      const title = what === "rotar" ? "Rotar secreto" : "Eliminar webhook";
      const body = confirmView(w, ctx.csrf(request), what);
      return ctx.render(reply, { title, section: "webhooks", body });
    });
  }

  app.post<ById>("/webhooks/:id/rotar", async (request, reply) => {
    const w = await own(request);
    const rotated = await ctx.call(request, webhooks.secretoRotate, { id: w.id });
    const flashId = await ctx.sessions.putFlash(request.panelSessionId!, {
      id: w.id,
      secreto: rotated.secreto,
      anteriorVenceAt: rotated.anteriorVenceAt,
    });
    return reply.redirect(`/panel/webhooks/${w.id}?secreto=${flashId}`, 303);
  });

  app.post<ById>("/webhooks/:id/eliminar", async (request, reply) => {
    const w = await own(request);
    await ctx.call(request, webhooks.endpointDelete, { id: w.id });
    return reply.redirect("/panel/webhooks?eliminado=1", 303);
  });
}
