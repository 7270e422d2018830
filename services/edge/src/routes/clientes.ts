import {
  catalog,
  documentoProblem,
  environmentSchema,
  padron,
  representadaSchema,
  type Environment,
} from "@pasarela/contracts";
import { appError, invalidField } from "@pasarela/errors";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { EdgeError } from "../http/edge-error.js";
import {
  errorBodySchema,
  idParamsSchema,
  invalidResponse,
  noContentResponse,
  pageQuery,
  readOnlyResponse,
} from "./http-shapes.js";
import { registryLookup } from "./padron.js";
import type { Caller, RouteModule } from "./route-module.js";

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
 * The body of POST /api/clientes: a customer, or `autocompletar: true` with a CUIT
 * or CUIL,
 * `environment` and `representada`, the gateway filling `razonSocial`, `domicilio` and
 * `condicionIvaReceptorId` from the constancia. Explicit fields win, null included.
 */
const clienteCreateBodySchema = catalog.clienteInputSchema
  .extend({
    razonSocial: catalog.razonSocialSchema.optional(),
    autocompletar: z
      .boolean()
      .optional()
      .describe(
        "true: completa razonSocial, domicilio y condicionIvaReceptorId desde la constancia de inscripción (docTipo 80 u 86); los campos enviados prevalecen",
      ),
    environment: environmentSchema
      .optional()
      .describe("Con autocompletar: entorno de la consulta al padrón"),
    representada: representadaSchema
      .optional()
      .describe("Con autocompletar: CUIT representada que consulta el padrón"),
  })
  .strict()
  .superRefine((body, ctx) => {
    const issue = (field: string, message: string) =>
      ctx.addIssue({ code: "custom", path: [field], message });
    if (body.autocompletar === true) {
      if (body.docTipo !== 80 && body.docTipo !== 86) {
        issue("docTipo", "debe ser 80 (CUIT) u 86 (CUIL) para autocompletar desde el padrón");
      }
      if (body.environment === undefined) issue("environment", "es obligatorio con autocompletar");
      if (body.representada === undefined)
        issue("representada", "es obligatorio con autocompletar");
      return;
    }
    if (body.razonSocial === undefined) {
      issue("razonSocial", "es obligatorio (o pedí autocompletar: true con una CUIT o CUIL)");
    }
    for (const field of ["environment", "representada"] as const) {
      if (body[field] !== undefined) issue(field, "solo se usa con autocompletar: true");
    }
  });
type ClienteCreateBody = z.output<typeof clienteCreateBodySchema>;

/**
 * `autocompletar`: the customer the catalog is asked to store, its gaps filled from
 * the constancia. A customer that already exists answers 409 before a lookup is spent; a name
 * the registry does not give (errorConstancia) must come in the body.
 */
async function fromRegistry(
  call: Caller,
  request: FastifyRequest,
  body: ClienteCreateBody & { environment: Environment; representada: string },
): Promise<catalog.ClienteInput> {
  const { docTipo, docNro, environment, representada } = body;
  const problem = documentoProblem(docTipo, docNro);
  if (problem) throw new EdgeError(problem);
  const existing = await call(request, catalog.clienteList, { limit: 1, docTipo, docNro });
  if (existing.items.length > 0) throw new EdgeError(appError("CLIENTE_DUPLICATE"));
  const constancia = await registryLookup(call, request, padron.constanciaGet, {
    environment,
    representada,
    idPersona: docNro,
  });
  const registered = padron.clienteDesdeConstancia(constancia);
  const razonSocial = body.razonSocial ?? registered.razonSocial;
  if (razonSocial === null) {
    throw new EdgeError(
      invalidField(
        "razonSocial",
        "es obligatorio: la constancia de esta clave no trae su nombre (errorConstancia); envialo en el cuerpo",
      ),
    );
  }
  return {
    docTipo,
    docNro,
    razonSocial,
    condicionIvaReceptorId:
      body.condicionIvaReceptorId !== undefined
        ? body.condicionIvaReceptorId
        : registered.condicionIvaReceptorId,
    domicilio: body.domicilio !== undefined ? body.domicilio : registered.domicilio,
    ...(body.email !== undefined ? { email: body.email } : {}),
  };
}

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
            "docTipo + docNro es único entre los clientes vigentes de la cuenta; una CUIT (80) o CUIL (86) debe tener dígito verificador válido. Con autocompletar: true (docTipo 80 CUIT u 86 CUIL, environment y representada) la pasarela consulta la constancia de inscripción y completa razonSocial, domicilio (el fiscal, en una línea) y condicionIvaReceptorId (null si el padrón no la informa); los campos enviados prevalecen, null incluido. La consulta requiere ws_sr_constancia_inscripcion delegado y cuenta como consulta al padrón.",
          tags,
          body: clienteCreateBodySchema,
          response: {
            201: catalog.clienteSchema.describe("Cliente creado"),
            400: invalidResponse,
            402: errorBodySchema.describe(
              "Con autocompletar: cuota de padrones del período agotada",
            ),
            403: readOnlyResponse.describe(
              "API key de solo lectura; con autocompletar, también los 403 de /api/padron/constancia",
            ),
            404: errorBodySchema.describe("Con autocompletar: No existe persona con ese Id"),
            409: duplicate,
            502: errorBodySchema.describe("Con autocompletar: falla de la AFIP; reintentar"),
          },
        },
      },
      async (request, reply) => {
        const { autocompletar, environment, representada, ...fields } = request.body;
        const { razonSocial } = fields;
        let input: catalog.ClienteInput;
        if (autocompletar === true && environment !== undefined && representada !== undefined) {
          input = await fromRegistry(call, request, { ...request.body, environment, representada });
        } else if (razonSocial !== undefined) {
          input = { ...fields, razonSocial };
        } else {
          // the body schema already refuses this; kept so no customer is ever sent without a name
          throw new EdgeError(invalidField("razonSocial", "es obligatorio"));
        }
        const cliente = await call(request, catalog.clienteCreate, input);
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
