import { randomUUID } from "node:crypto";
import {
  billing,
  padron,
  type Contract,
  type Environment,
  type ReplyOf,
  type RequestOf,
} from "@pasarela/contracts";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { noteQuotaConsumed } from "../http/usage.js";
import { errorBodySchema } from "./http-shapes.js";
import type { Caller, RouteModule } from "./route-module.js";

const tags = ["padron"];

/**
 * The registry quota (402 `Cuota de padrones del período agotada`): a successful
 * production lookup counts once, a test lookup or a failed one never. Every registry lookup
 * of the edge goes through `registryLookup`, the four /api/padron routes and the
 * `autocompletar` of /api/clientes alike, so this is the one place a lookup is metered.
 */
export interface RegistryQuota {
  /**
   * Takes one lookup of the account's registry quota for `environment` before the authority
   * is asked, or throws the 402 (as an EdgeError) when none is left.
   */
  reserve: (call: Caller, request: FastifyRequest, environment: Environment) => Promise<QuotaHold>;
}

export interface QuotaHold {
  /** the lookup answered 200: it counts */
  commit: () => Promise<void>;
  /** the lookup failed: it never counts */
  release: () => Promise<void>;
}

const nothingHeld: QuotaHold = {
  commit: () => Promise.resolve(),
  release: () => Promise.resolve(),
};

/** No lookup is metered (tests of routes without billing's quota). */
export const unmeteredRegistry: RegistryQuota = { reserve: () => Promise.resolve(nothingHeld) };

/**
 * Billing's registry quota: a unit reserved before the authority is asked (402
 * when none is left), committed on a 200, released otherwise. A commit or release that does
 * not reach billing is logged and left to the reservation's expiry: the answer stands.
 */
export const billingRegistryQuota: RegistryQuota = {
  reserve: async (call, request, environment) => {
    const ref = `padron:${randomUUID()}`;
    const { metered } = await call(request, billing.quotaReserve, {
      resource: "padrones",
      environment,
      ref,
    });
    if (!metered) return nothingHeld;
    const settle = async (contract: typeof billing.quotaCommit | typeof billing.quotaRelease) => {
      try {
        await call(request, contract, { ref });
      } catch (error) {
        request.log.warn({ err: error, requestId: request.id, ref }, "registry quota not settled");
      }
    };
    return {
      commit: async () => {
        noteQuotaConsumed(request);
        await settle(billing.quotaCommit);
      },
      release: () => settle(billing.quotaRelease),
    };
  },
};

export const registryQuota: RegistryQuota = billingRegistryQuota;

/** One registry lookup for an HTTP request, metered by `quota`. */
export async function registryLookup<C extends Contract>(
  call: Caller,
  request: FastifyRequest,
  contract: C,
  body: RequestOf<C> & { environment: Environment },
  quota: RegistryQuota = registryQuota,
): Promise<ReplyOf<C>> {
  const hold = await quota.reserve(call, request, body.environment);
  let reply: ReplyOf<C>;
  try {
    reply = await call(request, contract, body);
  } catch (error) {
    await hold.release();
    throw error;
  }
  await hold.commit();
  return reply;
}

const errorBody = (description: string) => errorBodySchema.describe(description);

/** The error answers of a lookup route that needs `service` delegated. */
const errors = (service: string) => ({
  400: errorBody(
    "Cuerpo o campo inválido (environment, representada, idPersona o documento): el mensaje lo nombra",
  ),
  401: z.object({ error: z.literal("No autorizado") }),
  402: errorBody("Cuota de padrones del período agotada (solo consultas exitosas en producción)"),
  403: errorBody(
    `Representada no registrada o sin certificado activo; certificado no delegado para ${service} (el mensaje nombra el servicio y el entorno); certificado del otro entorno; la representada no delegó ${service} ("Este token no le permite actuar en representacion de la CUIT")`,
  ),
  404: errorBody(
    "No existe persona con ese Id (PERSONA_NOT_FOUND); clave inactiva (PERSONA_INACTIVA; la constancia la muestra)",
  ),
  502: errorBody("Falla de la AFIP (caída, timeout, WSAA no disponible): reintentar sin cambios"),
});

/**
 * `/api/padron/*`: registry lookups. They read, so a read_only key may use them;
 * each needs its own web service delegated: delegating one does not enable another.
 */
export const padronRoutes: RouteModule = {
  name: "padron",
  services: ["padron", "ticket"],
  plugin: (app, { call }) => {
    app.post(
      "/padron/a13",
      {
        schema: {
          summary: "Persona del padrón A13 (getPersona)",
          description:
            "Identidad, tipo de persona, estado de la clave, nombres, todos los domicilios y la actividad principal. Requiere ws_sr_padron_a13 delegado.",
          tags,
          body: padron.a13Get.request,
          response: { 200: padron.personaA13Schema, ...errors("ws_sr_padron_a13") },
        },
      },
      (request) => registryLookup(call, request, padron.a13Get, request.body),
    );
    app.post(
      "/padron/documento",
      {
        schema: {
          summary: "CUIT/CUIL de un documento (A13 getIdPersonaListByDocumento)",
          description:
            "Todas las claves registradas para ese documento, inactivas incluidas; {idPersonas: []} si no hay ninguna. Requiere ws_sr_padron_a13 delegado.",
          tags,
          body: padron.documentoList.request,
          response: { 200: padron.documentoReplySchema, ...errors("ws_sr_padron_a13") },
        },
      },
      (request) => registryLookup(call, request, padron.documentoList, request.body),
    );
    app.post(
      "/padron/a10",
      {
        schema: {
          summary: "Persona del padrón A10 (getPersona)",
          description:
            "Identidad, dependencia, domicilios y actividad principal. Requiere ws_sr_padron_a10 delegado.",
          tags,
          body: padron.a10Get.request,
          response: { 200: padron.personaA10Schema, ...errors("ws_sr_padron_a10") },
        },
      },
      (request) => registryLookup(call, request, padron.a10Get, request.body),
    );
    app.post(
      "/padron/constancia",
      {
        schema: {
          summary: "Constancia de inscripción (getPersona_v2) y condición frente al IVA",
          description:
            "Datos generales, domicilio fiscal, régimen general (impuestos, actividades) o monotributo (categoría), y condicionIvaReceptorId derivada para emitirle directamente. Los errores parciales del padrón (errorConstancia, errorMonotributo, errorRegimenGeneral) llegan como datos en un 200. Requiere ws_sr_constancia_inscripcion delegado.",
          tags,
          body: padron.constanciaGet.request,
          response: { 200: padron.constanciaSchema, ...errors("ws_sr_constancia_inscripcion") },
        },
      },
      (request) => registryLookup(call, request, padron.constanciaGet, request.body),
    );
    return Promise.resolve();
  },
};
