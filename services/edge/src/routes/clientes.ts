import { catalog } from "@pasarela/contracts";
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

const tags = ["clientes"];
const notFound = errorBodySchema.describe(
  "Cliente no encontrado: no existe, es de otra cuenta o fue eliminado (misma respuesta en los tres casos)",
);
const duplicate = errorBodySchema.describe(
  "Ya tenés un cliente con ese documento (docTipo + docNro de un cliente vigente)",
);

const listQuery = z
  .object({
    ...pageQuery,
    docTipo: z.coerce
      .number()
      .pipe(catalog.docTipoSchema)
      .optional()
      .describe("Tipo de documento exacto"),
    docNro: catalog.docNroSchema.optional().describe("Número de documento exacto"),
    q: catalog.searchSchema
      .optional()
      .describe("Busca en la razón social, sin distinguir mayúsculas ni acentos"),
  })
  .strict();

/**
 * `/api/clientes`: an account's customers, referenced by id at issuance (`clienteId`). Writes
 * belong to the "datos" group: a read_only key is refused before the catalog is asked.
 */
export const clientesRoutes: RouteModule = {
  name: "clientes",
  services: ["catalog"],
  plugin: (app, { call }) => {
    app.post(
      "/clientes",
      {
        config: { writeGroup: "datos" },
        schema: {
          summary: "Crear un cliente",
          description:
            "docTipo + docNro es único entre los clientes vigentes de la cuenta; una CUIT (80) o CUIL (86) debe tener dígito verificador válido.",
          tags,
          body: catalog.clienteInputSchema,
          response: {
            201: catalog.clienteSchema.describe("Cliente creado"),
            400: invalidResponse,
            403: readOnlyResponse,
            409: duplicate,
          },
        },
      },
      async (request, reply) => {
        const cliente = await call(request, catalog.clienteCreate, request.body);
        return reply.code(201).send(cliente);
      },
    );

    app.get(
      "/clientes",
      {
        schema: {
          summary: "Listar clientes",
          description:
            "En orden de creación, paginado con cursor: pedí la página siguiente con `cursor` = `nextCursor` hasta que sea null.",
          tags,
          querystring: listQuery,
          response: {
            200: catalog.pageOf(catalog.clienteSchema).describe("Una página"),
            400: invalidResponse,
          },
        },
      },
      (request) => call(request, catalog.clienteList, request.query),
    );

    app.get(
      "/clientes/:id",
      {
        schema: {
          summary: "Obtener un cliente",
          tags,
          params: idParamsSchema,
          response: { 200: catalog.clienteSchema.describe("El cliente"), 404: notFound },
        },
      },
      (request) => call(request, catalog.clienteGet, { id: request.params.id }),
    );

    app.patch(
      "/clientes/:id",
      {
        config: { writeGroup: "datos" },
        schema: {
          summary: "Modificar un cliente",
          description:
            "Actualización parcial: los campos ausentes no cambian, null borra un campo opcional (condicionIvaReceptorId, email, domicilio).",
          tags,
          params: idParamsSchema,
          body: catalog.clienteChangesSchema,
          response: {
            200: catalog.clienteSchema.describe("El cliente"),
            400: invalidResponse,
            403: readOnlyResponse,
            404: notFound,
            409: duplicate,
          },
        },
      },
      (request) =>
        call(request, catalog.clienteUpdate, { id: request.params.id, changes: request.body }),
    );

    app.delete(
      "/clientes/:id",
      {
        config: { writeGroup: "datos" },
        schema: {
          summary: "Eliminar un cliente",
          description:
            "Baja lógica: el id deja de resolverse, no se puede restaurar y su documento queda libre para otro cliente.",
          tags,
          params: idParamsSchema,
          response: { 204: noContentResponse, 403: readOnlyResponse, 404: notFound },
        },
      },
      async (request, reply) => {
        await call(request, catalog.clienteDelete, { id: request.params.id });
        return reply.code(204).send(null);
      },
    );
    return Promise.resolve();
  },
};
