import { webhooks } from "@pasarela/contracts";
import { z } from "zod";
import {
  errorBodySchema,
  idParamsSchema,
  invalidResponse,
  noContentResponse,
  pageQuery,
  readOnlyResponse,
} from "./http-shapes.js";
import type { RouteModule } from "./route-module.js";

const tags = ["webhooks"];
const notFound = errorBodySchema.describe(
  "Webhook no encontrado: no existe o es de otra cuenta (misma respuesta en ambos casos)",
);
const eventos = webhooks.WEBHOOK_EVENTOS.join(", ");
const invalid = invalidResponse.describe(
  `Campo inválido, el mensaje lo nombra: url que no es https/http absoluta, con usuario:clave@, de más de ${webhooks.WEBHOOK_URL_MAX} caracteres o cuyo host es o resuelve a una dirección privada, local o reservada; evento fuera de la lista (${eventos}); ningún evento`,
);

const entregaNotFound = errorBodySchema.describe(
  "Webhook o entrega no encontrados: no existen o son de otra cuenta (misma respuesta en ambos casos)",
);
const entregaParams = z
  .object({
    id: z.string().describe("id (UUID) del webhook"),
    entregaId: z.string().describe("id (UUID) de la entrega"),
  })
  .strict();
const entregasQuery = z.object({ ...pageQuery }).strict();

const example = {
  url: "https://mi-sistema.example.com/pasarela/eventos",
  eventos: ["comprobante.autorizado", "comprobante.rechazado", "cobro.pagado"],
  descripcion: "ERP de producción",
};

const createBody = webhooks.webhookInputSchema.meta({
  "x-examples": {
    algunos: { summary: "Algunos eventos", value: example },
    todos: {
      summary: 'Todos los eventos, también los que se agreguen ("*")',
      value: { url: "https://mi-sistema.example.com/pasarela/eventos", eventos: ["*"] },
    },
  },
});

const changesBody = webhooks.webhookChangesSchema.meta({
  "x-examples": {
    pausar: { summary: "Pausar las entregas", value: { activo: false } },
    eventos: {
      summary: "Cambiar los eventos",
      value: { eventos: ["comprobante.autorizado", "email.fallido"] },
    },
  },
});

const createDescription = `Registra una dirección que recibirá eventos de la cuenta por POST. Eventos: ${eventos} ("*" son todos, también los que se agreguen). La url es https (o http) absoluta, sin usuario ni contraseña, de hasta ${webhooks.WEBHOOK_URL_MAX} caracteres, y su host no puede ser ni resolver a una dirección privada, local o reservada (loopback, redes privadas, link-local, CGNAT, multicast, metadatos). Hasta ${webhooks.WEBHOOKS_PER_ACCOUNT_MAX} webhooks por cuenta.

La respuesta trae el secreto de firma (whsec_…, formato Standard Webhooks): es la única vez que se muestra; guardalo. Las consultas nunca lo devuelven; si lo perdés, rotalo.`;

/**
 * `/api/webhooks`: the account's webhook endpoints. Registering, changing, deleting,
 * rotating, re-sending and test events belong to the "datos" write group: a read_only key is refused before the service
 * is asked; reading works with any key.
 */
export const webhooksRoutes: RouteModule = {
  name: "webhooks",
  services: ["webhooks"],
  plugin: (app, { call }) => {
    app.post(
      "/webhooks",
      {
        config: { writeGroup: "datos" },
        schema: {
          summary: "Registrar un webhook",
          description: createDescription,
          tags,
          body: createBody,
          response: {
            201: webhooks.endpointCreate.reply.describe(
              "Registrado y activo; secreto se muestra solo en esta respuesta",
            ),
            400: invalid,
            403: readOnlyResponse,
            409: errorBodySchema.describe(
              `La cuenta ya tiene ${webhooks.WEBHOOKS_PER_ACCOUNT_MAX} webhooks: eliminá uno para registrar otro`,
            ),
          },
        },
      },
      async (request, reply) => {
        const created = await call(request, webhooks.endpointCreate, request.body);
        return reply.code(201).send(created);
      },
    );

    app.get(
      "/webhooks",
      {
        schema: {
          summary: "Listar los webhooks",
          description: "Los webhooks de la cuenta, el más antiguo primero; nunca sus secretos.",
          tags,
          response: { 200: webhooks.endpointList.reply.describe("Los webhooks de la cuenta") },
        },
      },
      (request) => call(request, webhooks.endpointList, {}),
    );

    app.get(
      "/webhooks/:id",
      {
        schema: {
          summary: "Obtener un webhook",
          description: "Sin su secreto: solo se muestra al registrarlo o rotarlo.",
          tags,
          params: idParamsSchema,
          response: { 200: webhooks.webhookSchema.describe("El webhook"), 404: notFound },
        },
      },
      (request) => call(request, webhooks.endpointGet, { id: request.params.id }),
    );

    app.patch(
      "/webhooks/:id",
      {
        config: { writeGroup: "datos" },
        schema: {
          summary: "Modificar un webhook",
          description:
            "Actualización parcial de url, eventos, descripcion (null la borra) y activo (false pausa el webhook sin perderlo). La url sigue las mismas reglas que al registrarlo.",
          tags,
          params: idParamsSchema,
          body: changesBody,
          response: {
            200: webhooks.webhookSchema.describe("El webhook"),
            400: invalid,
            403: readOnlyResponse,
            404: notFound,
          },
        },
      },
      (request) =>
        call(request, webhooks.endpointUpdate, { id: request.params.id, changes: request.body }),
    );

    app.delete(
      "/webhooks/:id",
      {
        config: { writeGroup: "datos" },
        schema: {
          summary: "Eliminar un webhook",
          description: "Definitivo: el webhook y sus secretos se borran.",
          tags,
          params: idParamsSchema,
          response: { 204: noContentResponse, 403: readOnlyResponse, 404: notFound },
        },
      },
      async (request, reply) => {
        await call(request, webhooks.endpointDelete, { id: request.params.id });
        return reply.code(204).send(null);
      },
    );

    app.post(
      "/webhooks/:id/rotar-secreto",
      {
        config: { writeGroup: "datos" },
        schema: {
          summary: "Rotar el secreto de firma",
          description:
            "Genera un secreto nuevo y lo devuelve (única vez que se muestra). El anterior sigue firmando junto al nuevo durante 24 horas, hasta anteriorVenceAt, para que el receptor cambie sin perder eventos; uno que ya había sido reemplazado deja de valer.",
          tags,
          params: idParamsSchema,
          response: {
            200: webhooks.secretoRotate.reply.describe("El secreto nuevo"),
            403: readOnlyResponse,
            404: notFound,
          },
        },
      },
      (request) => call(request, webhooks.secretoRotate, { id: request.params.id }),
    );

    app.get(
      "/webhooks/:id/entregas",
      {
        schema: {
          summary: "Listar las entregas de un webhook",
          description:
            "Cada evento enviado (o por enviar) a este webhook, el más reciente primero: su id (el header webhook-id), tipo, intentos, status (pending, delivered, failed), status HTTP y error del último intento, latencia y cuándo se reintenta. Página siguiente con cursor = nextCursor.",
          tags,
          params: idParamsSchema,
          querystring: entregasQuery,
          response: {
            200: webhooks.entregaList.reply.describe("Una página"),
            400: invalidResponse,
            404: notFound,
          },
        },
      },
      (request) => call(request, webhooks.entregaList, { id: request.params.id, ...request.query }),
    );

    app.post(
      "/webhooks/:id/entregas/:entregaId/reenviar",
      {
        config: { writeGroup: "datos" },
        schema: {
          summary: "Reenviar una entrega",
          description:
            "La envía de nuevo ahora, con el mismo cuerpo y el mismo webhook-id (el receptor puede reconocerla como repetida), aunque ya se haya entregado o haya fallado; si falla, sigue con los reintentos.",
          tags,
          params: entregaParams,
          response: {
            200: webhooks.entregaSchema.describe("La entrega, pendiente de envío"),
            403: readOnlyResponse,
            404: entregaNotFound,
          },
        },
      },
      (request) =>
        call(request, webhooks.entregaReenviar, {
          id: request.params.id,
          entregaId: request.params.entregaId,
        }),
    );
    app.post(
      "/webhooks/:id/prueba",
      {
        config: { writeGroup: "datos" },
        schema: {
          summary: "Enviar un evento de prueba",
          description: `Encola una entrega de un evento nuevo de tipo ${webhooks.WEBHOOK_PRUEBA_TIPO} solo a este webhook, aunque no esté suscripto a ningún evento en particular: cuerpo {id, tipo, createdAt, data: {webhookId, mensaje}}, firmado, reintentado y registrado en sus entregas como cualquier otro. Cada llamada es un evento con id nuevo. Un webhook pausado (activo: false) se rechaza con 409: sus entregas esperan a que se active.`,
          tags,
          params: idParamsSchema,
          response: {
            202: webhooks.pruebaEnviar.reply.describe("Encolada: sale enseguida"),
            403: readOnlyResponse,
            404: notFound,
            409: errorBodySchema.describe(
              "El webhook está pausado: activalo (PATCH activo: true) para enviarle la prueba",
            ),
          },
        },
      },
      async (request, reply) => {
        const queued = await call(request, webhooks.pruebaEnviar, { id: request.params.id });
        return reply.code(202).send(queued);
      },
    );
    return Promise.resolve();
  },
};
