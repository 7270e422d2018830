import { pdf } from "@pasarela/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorBodySchema } from "./http-shapes.js";
import type { Caller, RouteDeps, RouteModule } from "./route-module.js";

const tags = ["pdf"];
const errorBody = (description: string) => errorBodySchema.describe(description);

const notFound = errorBody(
  "COMPROBANTE_NOT_FOUND: ningún comprobante emitido por tu cuenta a través de la pasarela coincide en los cinco campos (environment, representada, ptoVta, cbteTipo, cbteNro); la misma respuesta para el de otra cuenta",
);
const rejected = errorBody(
  "COMPROBANTE_RECHAZADO: no existe representación impresa de un comprobante rechazado",
);
const failed = errorBody(
  "PDF_RENDER_FAILED o PDF_STORAGE_FAILED: falló el generador o el almacenamiento del PDF; reintentá sin cambios",
);

/** The PDF itself, with its download name (the API's answer and the dashboard's). */
export function sendPdf(
  reply: FastifyReply,
  document: pdf.PdfDocument,
  disposition: "attachment" | "inline",
): FastifyReply {
  return reply
    .type("application/pdf")
    .header("content-disposition", `${disposition}; filename="${document.filename}"`)
    .header("cache-control", "private, no-store")
    .send(Buffer.from(document.pdf, "base64"));
}

/**
 * The issuance answer's `pdfUrl`: a shareable link to the voucher just authorized, left out
 * when it cannot be made (the voucher is issued all the same; POST /pdf-link makes one later).
 */
export async function pdfUrlFor(
  call: Caller,
  request: FastifyRequest,
  issued: { environment: pdf.ComprobanteKey["environment"]; representada: string },
  reply: { ptoVta: number; cbteTipo: number; cbteNro: number },
): Promise<{ pdfUrl?: string }> {
  const { environment, representada } = issued;
  const { ptoVta, cbteTipo, cbteNro } = reply;
  try {
    const link = await call(request, pdf.linkCreate, {
      environment,
      representada,
      ptoVta,
      cbteTipo,
      cbteNro,
    });
    return { pdfUrl: link.url };
  } catch (error) {
    request.log.warn({ err: error }, "issuance answered without pdfUrl");
    return {};
  }
}

/** The last segment of `/comprobantes/<token>.pdf`; any other shape is the unknown link's 404. */
const linkParams = z.object({ file: z.string() });

/**
 * `GET /comprobantes/<token>.pdf`: the public side of the links, outside /api and without an
 * API key. An unknown, altered or expired token is PDF_LINK_NOT_FOUND (404).
 */
export const publicPdfRoutes: FastifyPluginAsyncZod<RouteDeps> = (app, { call }) => {
  app.get(
    "/comprobantes/:file",
    {
      schema: {
        summary: "PDF de un link compartido (sin API key)",
        tags,
        security: [],
        params: linkParams,
        response: {
          404: errorBody("PDF_LINK_NOT_FOUND: el link no existe, fue alterado o venció"),
          502: failed,
        },
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      const token = file.endsWith(".pdf") ? file.slice(0, -".pdf".length) : "";
      const document = await call(request, pdf.linkOpen, { token: token || "-" });
      return sendPdf(reply, document, "inline");
    },
  );
  return Promise.resolve();
};

/**
 * `/api/wsfe/comprobantes/pdf` and `/api/wsfe/comprobantes/pdf-link`. Printing
 * reads, so a read_only key may use them.
 */
export const pdfRoutes: RouteModule = {
  name: "pdf",
  services: ["pdf", "wsfe", "ticket"],
  publicPlugin: publicPdfRoutes,
  plugin: (app, { call }) => {
    app.post(
      "/wsfe/comprobantes/pdf",
      {
        schema: {
          summary: "PDF de un comprobante emitido por la pasarela",
          description:
            "La representación impresa (una página A4 por copia, con el QR de la RG 4892), como application/pdf con Content-Disposition <cuit>_<tipo>_<ptoVta>-<nro>.pdf. copia: original (por defecto), duplicado, triplicado o todas. Se genera una vez y luego se sirve guardado.",
          tags,
          body: pdf.comprobanteRender.request,
          response: {
            400: errorBody("Cuerpo o campo inválido: el mensaje lo nombra"),
            401: z.object({ error: z.literal("No autorizado") }),
            404: notFound,
            422: rejected,
            502: failed,
          },
        },
      },
      async (request, reply) => {
        const document = await call(request, pdf.comprobanteRender, request.body);
        return sendPdf(reply, document, "attachment");
      },
    );
    app.post(
      "/wsfe/comprobantes/pdf-link",
      {
        schema: {
          summary: "Link para compartir el PDF de un comprobante",
          description:
            "Una URL GET /comprobantes/<token>.pdf que no pide API key y vence (30 días por defecto). El token es aleatorio: no se puede adivinar ni convertir en el link de otro comprobante.",
          tags,
          body: pdf.linkCreate.request,
          response: {
            200: pdf.pdfLinkSchema,
            400: errorBody("Cuerpo o campo inválido: el mensaje lo nombra"),
            401: z.object({ error: z.literal("No autorizado") }),
            404: notFound,
            422: rejected,
          },
        },
      },
      (request) => call(request, pdf.linkCreate, request.body),
    );
    return Promise.resolve();
  },
};
