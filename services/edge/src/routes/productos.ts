import { catalog } from "@pasarela/contracts";
import { z } from "zod";
import {
  amountResponse,
  errorBodySchema,
  idParamsSchema,
  invalidResponse,
  noContentResponse,
  pageQuery,
  readOnlyResponse,
} from "./http-shapes.js";
import type { RouteModule } from "./route-module.js";

const tags = ["productos"];
const notFound = errorBodySchema.describe(
  "Producto no encontrado: no existe, es de otra cuenta o fue eliminado (misma respuesta en los tres casos)",
);

/** A product as the API answers it: `precioUnitario` a JSON number, as every answered amount. */
const productoResponse = catalog.productoSchema.extend({
  precioUnitario: amountResponse("Precio unitario sin IVA, hasta 6 decimales"),
});

const listQuery = z
  .object({
    ...pageQuery,
    codigo: catalog.codigoSchema.optional().describe("Código exacto"),
    q: catalog.searchSchema
      .optional()
      .describe("Busca en la descripción y el código, sin distinguir mayúsculas ni acentos"),
  })
  .strict();

/**
 * `/api/productos`: an account's products, referenced by id at issuance (`productoId`). Writes
 * belong to the "datos" group: a read_only key is refused before the catalog is asked.
 */
export const productosRoutes: RouteModule = {
  name: "productos",
  services: ["catalog"],
  plugin: (app, { call }) => {
    app.post(
      "/productos",
      {
        config: { writeGroup: "datos" },
        schema: {
          summary: "Crear un producto",
          description:
            'precioUnitario se envía como decimal en texto ("1210.50", hasta 6 decimales y 15 dígitos significativos) y se responde como número JSON, como todo importe; alicuotaIva es opcional al guardar y, si viene, una de 0, 2.5, 5, 10.5, 21, 27.',
          tags,
          body: catalog.productoInputSchema,
          response: {
            201: productoResponse.describe("Producto creado"),
            400: invalidResponse,
            403: readOnlyResponse,
          },
        },
      },
      async (request, reply) => {
        const producto = await call(request, catalog.productoCreate, request.body);
        return reply.code(201).send(producto);
      },
    );

    app.get(
      "/productos",
      {
        schema: {
          summary: "Listar productos",
          description:
            "En orden de creación, paginado con cursor: pedí la página siguiente con `cursor` = `nextCursor` hasta que sea null.",
          tags,
          querystring: listQuery,
          response: {
            200: catalog.productoList.reply
              .extend({ items: z.array(productoResponse) })
              .describe("Una página"),
            400: invalidResponse,
          },
        },
      },
      (request) => call(request, catalog.productoList, request.query),
    );

    app.get(
      "/productos/:id",
      {
        schema: {
          summary: "Obtener un producto",
          tags,
          params: idParamsSchema,
          response: { 200: productoResponse.describe("El producto"), 404: notFound },
        },
      },
      (request) => call(request, catalog.productoGet, { id: request.params.id }),
    );

    app.patch(
      "/productos/:id",
      {
        config: { writeGroup: "datos" },
        schema: {
          summary: "Modificar un producto",
          description:
            "Actualización parcial: los campos ausentes no cambian, null borra un campo opcional (codigo, alicuotaIva, unidadMedida).",
          tags,
          params: idParamsSchema,
          body: catalog.productoChangesSchema,
          response: {
            200: productoResponse.describe("El producto"),
            400: invalidResponse,
            403: readOnlyResponse,
            404: notFound,
          },
        },
      },
      (request) =>
        call(request, catalog.productoUpdate, { id: request.params.id, changes: request.body }),
    );

    app.delete(
      "/productos/:id",
      {
        config: { writeGroup: "datos" },
        schema: {
          summary: "Eliminar un producto",
          description: "Baja lógica: el id deja de resolverse y no se puede restaurar.",
          tags,
          params: idParamsSchema,
          response: { 204: noContentResponse, 403: readOnlyResponse, 404: notFound },
        },
      },
      async (request, reply) => {
        await call(request, catalog.productoDelete, { id: request.params.id });
        return reply.code(204).send(null);
      },
    );
    return Promise.resolve();
  },
};
