import {
  CUIT_FORMAT,
  environmentSchema,
  isValidCuit,
  representadaSchema,
  ticket,
  wsfe,
  type RequestOf,
} from "@pasarela/contracts";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import {
  errorBodySchema,
  idParamsSchema,
  invalidResponse,
  readOnlyResponse,
} from "./http-shapes.js";
import type { RouteModule } from "./route-module.js";

const tags = ["representadas"];
const notFound = errorBodySchema.describe(
  "Representada no encontrada: no existe o es de otra cuenta (misma respuesta en ambos casos)",
);

const cuitSchema = representadaSchema
  .refine(isValidCuit, "no tiene un dígito verificador válido")
  .meta({
    description: "CUIT de la representada: 11 dígitos sin guiones, con dígito verificador válido",
    format: CUIT_FORMAT,
  });

const createBodySchema = z
  .object({
    environment: environmentSchema,
    cuit: cuitSchema,
    alias: ticket.aliasSchema
      .optional()
      .describe(
        "CN del certificado (el computador fiscal que se delega en la AFIP); si falta, la pasarela genera uno",
      ),
    ptoVta: ticket.cuentaRepresentadaCreate.request.shape.ptoVta.describe(
      "Punto de venta que usan las consultas que no lo indican",
    ),
  })
  .strict();

const certificadoBodySchema = z
  .object({
    certificado: z
      .string()
      .min(1)
      .max(64_000)
      .describe(
        "El certificado PEM (-----BEGIN CERTIFICATE-----) que emitió la AFIP para el CSR, o uno generado fuera de la pasarela",
      ),
    clavePrivada: z
      .string()
      .min(1)
      .max(64_000)
      .optional()
      .describe(
        "Con un certificado generado fuera de la pasarela: su clave privada RSA PEM sin cifrar. El pedido (CSR) pendiente queda cancelado",
      ),
  })
  .strict();

const { representadaId: _id, ...updateFields } = ticket.cuentaRepresentadaUpdate.request.shape;
const updateBodySchema = z.object(updateFields).strict();

/** A representada with its contingency's CAEAs: the current fortnight's and the next one's. */
const representadaConCaeaSchema = ticket.cuentaRepresentadaGet.reply
  .extend({
    caea: wsfe.caeaList.reply
      .nullable()
      .describe(
        "Con la contingencia CAEA encendida: el CAEA de la quincena actual y el de la próxima (null mientras no se obtuvo); null si está apagada",
      ),
  })
  .describe("La representada");

type RepresentadaDetalle = z.output<typeof ticket.cuentaRepresentadaGet.reply>;

const listQuerySchema = z
  .object({ environment: environmentSchema.optional().describe("Solo las de este entorno") })
  .strict();

/**
 * `/api/representadas`: the account's representadas, their certificates, issuer
 * profiles and the "probar conexión" check. Writes belong to the "datos" group; the probe
 * changes nothing and is open to read_only keys. Another account's id is an unknown one.
 */
export const representadasRoutes: RouteModule = {
  name: "representadas",
  services: ["ticket", "wsfe"],
  plugin: (app, { call }) => {
    /** The representada with its CAEAs, asked of wsfe only while its contingency is on. */
    const withCaea = async (request: FastifyRequest, representada: RepresentadaDetalle) => ({
      ...representada,
      caea: representada.contingencia.caea
        ? await call(request, wsfe.caeaList, {
            environment: representada.environment,
            representada: representada.cuit,
          })
        : null,
    });

    app.get(
      "/representadas",
      {
        schema: {
          summary: "Listar las representadas de la cuenta",
          description:
            "Cada una con el estado de su certificado: pendiente (solo el CSR), activo, por_vencer (vence en menos de 30 días) o vencido.",
          tags,
          querystring: listQuerySchema,
          response: {
            200: ticket.cuentaRepresentadaList.reply.describe("Las representadas"),
            400: invalidResponse,
          },
        },
      },
      (request) => call(request, ticket.cuentaRepresentadaList, request.query),
    );

    app.post(
      "/representadas",
      {
        config: { writeGroup: "datos" },
        schema: {
          summary: "Registrar una representada",
          description:
            "Genera la clave privada (queda cifrada en la pasarela) y responde el pedido de certificado (csr, PEM) para presentar en la AFIP; después se sube el certificado con POST /api/representadas/{id}/certificado.",
          tags,
          body: createBodySchema,
          response: {
            201: ticket.cuentaRepresentadaCreate.reply.describe("La representada y su CSR"),
            400: invalidResponse,
            403: readOnlyResponse,
            409: errorBodySchema.describe("La representada ya está registrada en ese entorno"),
          },
        },
      },
      async (request, reply) => {
        const { environment, cuit, alias, ptoVta } = request.body;
        const body: RequestOf<typeof ticket.cuentaRepresentadaCreate> = {
          environment,
          cuit,
          ...(alias === undefined ? {} : { alias }),
          ...(ptoVta === undefined ? {} : { ptoVta }),
        };
        const created = await call(request, ticket.cuentaRepresentadaCreate, body);
        return reply.code(201).send(created);
      },
    );

    app.get(
      "/representadas/:id",
      {
        schema: {
          summary: "Obtener una representada",
          description:
            "Con el estado y las fechas del certificado, el perfil de emisor y, mientras esté pendiente, el CSR.",
          tags,
          params: idParamsSchema,
          response: {
            200: representadaConCaeaSchema,
            404: notFound,
          },
        },
      },
      async (request) =>
        withCaea(
          request,
          await call(request, ticket.cuentaRepresentadaGet, { representadaId: request.params.id }),
        ),
    );

    app.patch(
      "/representadas/:id",
      {
        config: { writeGroup: "datos" },
        schema: {
          summary: "Modificar el punto de venta, el perfil de emisor o la contingencia",
          description:
            "Actualización parcial: los campos ausentes no cambian, null borra uno. El perfil (razonSocial, domicilioComercial, condicionIva, ingresosBrutos, inicioActividades, logo, email) es lo que se imprime en los comprobantes. contingencia {caea: true, puntosDeVenta: [N, …]} enciende la contingencia con CAEA: cada punto de venta tiene que figurar en la AFIP con EmisionTipo CAEA (FEParamGetPtosVenta), si no, 400 nombrándolo y nada cambia; desde entonces la pasarela obtiene el CAEA de cada quincena en cuanto se abre su ventana (5 días antes). {caea: false} la apaga.",
          tags,
          params: idParamsSchema,
          body: updateBodySchema,
          response: {
            200: representadaConCaeaSchema,
            400: invalidResponse,
            403: readOnlyResponse,
            404: notFound,
          },
        },
      },
      async (request) => {
        const { contingencia } = request.body;
        if (contingencia?.caea) {
          // judged with the authority's list before anything is written
          const current = await call(request, ticket.cuentaRepresentadaGet, {
            representadaId: request.params.id,
          });
          await call(request, wsfe.contingenciaValidate, {
            environment: current.environment,
            representada: current.cuit,
            puntosDeVenta: contingencia.puntosDeVenta,
          });
        }
        const updated = await call(request, ticket.cuentaRepresentadaUpdate, {
          ...request.body,
          representadaId: request.params.id,
        });
        return withCaea(request, updated);
      },
    );

    app.post(
      "/representadas/:id/certificado",
      {
        config: { writeGroup: "datos" },
        schema: {
          summary: "Subir el certificado",
          description:
            "El certificado que la AFIP emitió para el CSR de la representada, o un certificado generado fuera de la pasarela con su clave privada (cancela el CSR pendiente). Subir el CSR en lugar del certificado se rechaza; un certificado de la AC del otro entorno se guarda con una advertencia (warning): la AFIP lo rechazará en este entorno.",
          tags,
          params: idParamsSchema,
          body: certificadoBodySchema,
          response: {
            200: ticket.cuentaCertificadoCreate.reply.describe("El certificado activo"),
            400: errorBodySchema.describe(
              "CSR en lugar del certificado, no es un certificado PEM, no corresponde a la clave, vencido, clave privada inválida",
            ),
            403: readOnlyResponse,
            404: notFound,
          },
        },
      },
      (request) =>
        call(request, ticket.cuentaCertificadoCreate, {
          representadaId: request.params.id,
          certificate: request.body.certificado,
          ...(request.body.clavePrivada === undefined
            ? {}
            : { privateKey: request.body.clavePrivada }),
        }),
    );

    app.post(
      "/representadas/:id/probar",
      {
        schema: {
          summary: "Probar la conexión con la AFIP",
          description:
            "Pide a WSAA un ticket de acceso para wsfe, wsfex, ws_sr_padron_a13, ws_sr_padron_a10 y ws_sr_constancia_inscripcion (reusa uno vigente) y verifica que la representada figure entre sus relaciones. Responde, por servicio, ok o el error que daría una consulta, con el paso a seguir en la AFIP (fix).",
          tags,
          params: idParamsSchema,
          response: {
            200: ticket.conexionVerify.reply.describe("El resultado por servicio"),
            403: errorBodySchema.describe("La representada no tiene certificado activo"),
            404: notFound,
          },
        },
      },
      (request) => call(request, ticket.conexionVerify, { representadaId: request.params.id }),
    );
    return Promise.resolve();
  },
};
