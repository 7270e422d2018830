import { cobros, environmentSchema, representadaSchema, wsfe } from "@pasarela/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { amountResponse, errorBodySchema, idParamsSchema, invalidResponse } from "./http-shapes.js";
import type { RouteDeps, RouteModule } from "./route-module.js";

const tags = ["links-de-cobro"];
const notFound = errorBodySchema.describe(
  "Link de cobro no encontrado: no existe o es de otra cuenta (misma respuesta en ambos casos)",
);
const unauthorized = z.object({ error: z.literal("No autorizado") });

/** A link as the API answers it: `monto` a JSON number, as every answered amount. */
const linkResponse = cobros.linkCobroSchema.extend({
  monto: amountResponse("Importe a cobrar en pesos, a dos decimales"),
});

const createDescription = `Crea un link de pago (Checkout Pro de Mercado Pago) para un comprobante autorizado emitido por la pasarela. monto: por omisión el total del comprobante (en pesos; uno en moneda extranjera, a su cotización), nunca más que él. vencimiento: AAAA-MM-DD, por omisión 30 días.

Cuando Mercado Pago confirma el pago (la pasarela verifica la firma de la notificación y consulta el pago en Mercado Pago, nunca confía en el cuerpo), el link pasa a estado "pagado". Requiere que el operador haya cargado la cuenta de Mercado Pago (npm run admin -- mercadopago set).`;

const listQuery = z
  .object({
    limit: z.coerce
      .number()
      .int("debe ser un entero")
      .min(1, `debe estar entre 1 y ${cobros.LINK_LIST_MAX}`)
      .max(cobros.LINK_LIST_MAX, `debe estar entre 1 y ${cobros.LINK_LIST_MAX}`)
      .default(50)
      .describe("Cantidad, la más reciente primero"),
    estado: cobros.linkEstadoSchema.optional().describe("Solo los de ese estado"),
    environment: environmentSchema.optional().describe("Solo los de comprobantes de ese entorno"),
    representada: representadaSchema.optional().describe("Solo los de esa representada"),
    ptoVta: z.coerce.number().pipe(wsfe.ptoVtaSchema).optional().describe("Punto de venta"),
    cbteTipo: z.coerce
      .number()
      .pipe(wsfe.issuedCbteTipoSchema)
      .optional()
      .describe("Tipo de comprobante"),
    cbteNro: z.coerce
      .number()
      .pipe(wsfe.cbteNroSchema)
      .optional()
      .describe("Número de comprobante"),
  })
  .strict();

/** Mercado Pago's notification: `?data.id=<payment>&type=payment`, signed in the headers. */
const webhookQuery = z.looseObject({
  "data.id": z.string().max(100).optional(),
  type: z.string().max(100).optional(),
});

/**
 * `POST /webhooks/mercadopago/<account>`: public, no API key. Everything is passed on as
 * received; the cobros service verifies the signature before trusting anything. The provider
 * gets 200 whether the notification was used or ignored (a forger learns nothing), and 502 when
 * the payment could not be fetched, so it notifies again.
 */
const publicCobrosRoutes: FastifyPluginAsyncZod<RouteDeps> = (app, { call }) => {
  app.post(
    "/webhooks/mercadopago/:cuenta",
    {
      schema: {
        summary: "Notificaciones de pago de Mercado Pago (sin API key; firma x-signature)",
        tags,
        security: [],
        params: z.object({ cuenta: z.string().max(100) }),
        querystring: webhookQuery,
        response: {
          200: z.object({ received: z.literal(true) }),
          502: errorBodySchema.describe("No se pudo consultar el pago en Mercado Pago"),
        },
      },
    },
    async (request) => {
      const header = (name: string) => {
        const value = request.headers[name];
        return typeof value === "string" ? value.slice(0, 1000) : undefined;
      };
      const xSignature = header("x-signature");
      const xRequestId = header("x-request-id")?.slice(0, 200);
      await call(request, cobros.webhookReceive, {
        cuenta: request.params.cuenta,
        ...(request.query["data.id"] !== undefined ? { dataId: request.query["data.id"] } : {}),
        ...(request.query.type !== undefined ? { type: request.query.type } : {}),
        ...(xSignature !== undefined ? { xSignature } : {}),
        ...(xRequestId !== undefined ? { xRequestId } : {}),
      });
      return { received: true as const };
    },
  );
  return Promise.resolve();
};

/** `/api/links-de-cobro`: creating one is the "links" write group. */
export const linksDeCobroRoutes: RouteModule = {
  name: "links-de-cobro",
  services: ["cobros", "wsfe"],
  publicPlugin: publicCobrosRoutes,
  plugin: (app, { call }) => {
    app.post(
      "/links-de-cobro",
      {
        config: { writeGroup: "links" },
        schema: {
          summary: "Crear un link de cobro para un comprobante",
          description: createDescription,
          tags,
          body: cobros.linkCreate.request,
          response: {
            201: linkResponse.describe("Creado, estado pendiente"),
            400: invalidResponse.describe(
              "Campo inválido: el mensaje lo nombra (monto mayor que el total, vencimiento pasado, ...)",
            ),
            401: unauthorized,
            403: errorBodySchema.describe(
              "API key de solo lectura: Esta API key es de solo lectura y no puede generar links de cobro.",
            ),
            404: errorBodySchema.describe(
              "Comprobante no encontrado: ninguno emitido por la pasarela en tu cuenta coincide con los cinco campos",
            ),
            409: errorBodySchema.describe("La cuenta no tiene cargada una cuenta de Mercado Pago"),
            422: errorBodySchema.describe("El comprobante fue rechazado por la AFIP"),
            502: errorBodySchema.describe("Mercado Pago no respondió correctamente: reintentá"),
          },
        },
      },
      async (request, reply) => {
        const link = await call(request, cobros.linkCreate, request.body);
        return reply.code(201).send(link);
      },
    );
    app.get(
      "/links-de-cobro/:id",
      {
        schema: {
          summary: "Un link de cobro y su estado",
          tags,
          params: idParamsSchema,
          response: { 200: linkResponse, 401: unauthorized, 404: notFound },
        },
      },
      (request) => call(request, cobros.linkGet, { id: request.params.id }),
    );
    app.get(
      "/links-de-cobro",
      {
        schema: {
          summary: "Links de cobro de la cuenta",
          tags,
          querystring: listQuery,
          response: {
            200: cobros.linkList.reply.extend({ items: z.array(linkResponse) }),
            400: invalidResponse,
            401: unauthorized,
          },
        },
      },
      (request) => call(request, cobros.linkList, request.query),
    );
    return Promise.resolve();
  },
};
