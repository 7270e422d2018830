import {
  catalog,
  CUIT_FORMAT,
  documentoDocument,
  documentoProblem,
  environmentField,
  padron,
  representadaField,
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

const autocompletarOnly = "solo se usa con autocompletar: true";
const withAutocompletar = "es obligatorio con autocompletar";

/**
 * A field of the autocompletar form, refused in the other: a well-formed value is told where
 * it belongs, a malformed one what is wrong with it.
 */
const onlyWithAutocompletar = (field: z.ZodType) =>
  z
    .never({
      error: (issue) => field.safeParse(issue.input).error?.issues[0]?.message ?? autocompletarOnly,
    })
    .optional()
    .describe(autocompletarOnly);

/** Without `autocompletar` the body is the customer itself, name included. */
const manualBodySchema = catalog.clienteInputSchema
  .extend({
    razonSocial: catalog.razonSocialField(
      "es obligatorio (o pedí autocompletar: true con una CUIT o CUIL)",
    ),
    autocompletar: z
      .literal(false)
      .optional()
      .describe("Sin autocompletar (o false): razonSocial es obligatorio"),
    // present so that sending them is answered as a mistake of this form, not an unknown field
    environment: onlyWithAutocompletar(environmentField()),
    representada: onlyWithAutocompletar(representadaField()),
  })
  .strict()
  .meta(documentoDocument);

const autocompletarDocTipo = "debe ser 80 (CUIT) u 86 (CUIL) para autocompletar desde el padrón";

/**
 * `autocompletar: true`: a CUIT or CUIL and where to ask the padrón; what the body sends wins
 * over the constancia.
 */
const autocompletarBodySchema = catalog.clienteInputSchema
  .extend({
    docTipo: catalog.docTipoSchema.meta({ description: "80 (CUIT) u 86 (CUIL)", enum: [80, 86] }),
    docNro: catalog.docNroSchema.meta({ format: CUIT_FORMAT }),
    razonSocial: catalog.razonSocialSchema.optional(),
    autocompletar: z
      .literal(true)
      .describe(
        "true: completa razonSocial, domicilio y condicionIvaReceptorId desde la constancia de inscripción (docTipo 80 u 86); los campos enviados prevalecen",
      ),
    environment: environmentField(withAutocompletar).describe("Entorno de la consulta al padrón"),
    representada: representadaField(withAutocompletar).describe(
      "CUIT representada que consulta el padrón",
    ),
  })
  .strict()
  // checked after the fields, so a malformed field is answered before the document's kind
  .refine((body) => body.docTipo === 80 || body.docTipo === 86, {
    error: autocompletarDocTipo,
    path: ["docTipo"],
  });

/**
 * The body of POST /api/clientes: a customer, or `autocompletar: true` with a CUIT or CUIL,
 * `environment` and `representada`, the gateway filling `razonSocial`, `domicilio` and
 * `condicionIvaReceptorId` from the constancia. Explicit fields win, null included. Each form
 * is one branch, so the document states what each one requires.
 */
const clienteCreateBodySchema = z.discriminatedUnion("autocompletar", [
  manualBodySchema,
  autocompletarBodySchema,
]);
type AutocompletarBody = z.output<typeof autocompletarBodySchema>;

/**
 * `autocompletar`: the customer the catalog is asked to store, its gaps filled from
 * the constancia. A customer that already exists answers 409 before a lookup is spent; a name
 * the registry does not give (errorConstancia) must come in the body.
 */
async function fromRegistry(
  call: Caller,
  request: FastifyRequest,
  body: AutocompletarBody,
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
        const { body } = request;
        let input: catalog.ClienteInput;
        if (body.autocompletar === true) {
          input = await fromRegistry(call, request, body);
        } else {
          // the manual form never carries these: its schema refuses them
          const { autocompletar: _off, environment: _e, representada: _r, ...fields } = body;
          input = fields;
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
