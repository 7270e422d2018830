import { amountAnswer, catalog } from "@pasarela/contracts";
import { z } from "zod";

/**
 * HTTP shapes shared by the route groups, declared so the OpenAPI document shows every answer
 * a route can give; the bodies themselves come from the single error handler.
 */
export const errorBodySchema = z.object({
  error: z.string().describe("Mensaje para personas"),
  code: z.string().describe("Código estable del catálogo de errores"),
  details: z
    .looseObject({
      field: z
        .string()
        .optional()
        .describe(
          "El campo al que se refiere el error, con su ruta (items.0.descripcion; querystring.limit, params.id o headers.x para los de la URL o los encabezados)",
        ),
      problem: z.string().optional().describe("Qué le falta o qué tiene de más"),
    })
    .optional(),
});

const errorBody = (description: string) => errorBodySchema.describe(description);

/** The one 401 body. */
const unauthorizedResponse = z.object({ error: z.literal("No autorizado") });

/** The error answers of an authority query route of `service`; `invalid` lists its 400s. */
export const authorityQueryErrors = (service: "wsfe" | "wsfex", invalid: string) => ({
  400: errorBody(invalid),
  401: unauthorizedResponse,
  403: errorBody(
    `Representada no registrada o sin certificado activo; certificado no delegado para ${service}; certificado del otro entorno; la representada no delegó ${service}`,
  ),
  502: errorBody("Falla de la AFIP (501, timeout, WSAA no disponible): reintentar sin cambios"),
});

export const invalidResponse = errorBody(
  "Cuerpo, parámetro o campo inválido: el mensaje lo nombra, y details.field también",
);
export const readOnlyResponse = errorBody(
  "API key de solo lectura: Esta API key es de solo lectura y no puede modificar datos de la cuenta.",
);

/**
 * Any text: a malformed id answers the same 404 as an unknown one, so nothing tells whether
 * an id exists in another account.
 */
export const idParamsSchema = z
  .object({ id: z.string().describe("id (UUID) del registro") })
  .strict();

const { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } = catalog;
/**
 * `limit` and the opaque `cursor` of the previous page; the bounds are the catalog contract's,
 * coerced here because a query string carries only text.
 */
export const pageQuery = {
  limit: z.coerce
    .number()
    .int("debe ser un entero")
    .min(1, `debe estar entre 1 y ${PAGE_LIMIT_MAX}`)
    .max(PAGE_LIMIT_MAX, `debe estar entre 1 y ${PAGE_LIMIT_MAX}`)
    .default(PAGE_LIMIT_DEFAULT)
    .describe(`Tamaño de página, 1 a ${PAGE_LIMIT_MAX} (${PAGE_LIMIT_DEFAULT} por omisión)`),
  cursor: catalog.cursorSchema
    .optional()
    .describe(
      "El nextCursor de la página anterior, con los mismos filtros; uno de otra cuenta, de otra lista o de otros filtros, o alterado, responde 400",
    ),
};

/**
 * An amount of an answer (`what` names it): the services keep it as exact decimal text and
 * the answer gives it as a JSON number, the same type every route answers amounts with.
 */
export const amountResponse = (what: string) =>
  amountAnswer(`${what}: número JSON con el valor decimal exacto`);

export const noContentResponse = z.null().describe("Eliminado; sin cuerpo");
