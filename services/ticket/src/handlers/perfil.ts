import type { Handler } from "@pasarela/bus";
import type { ticket } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { PerfilesRepository } from "../db/repositories/perfiles.js";
import type { RepresentadasRepository } from "../db/repositories/representadas.js";
import { logoBytes, perfilChanges, perfilOf } from "../domain/perfil.js";

interface PerfilDeps {
  representadas: Pick<RepresentadasRepository, "find" | "findById">;
  perfiles: PerfilesRepository;
}

/** Operator: changes the fields sent of the representada's issuer profile. */
export function makePerfilSet(deps: PerfilDeps): Handler<typeof ticket.perfilSet> {
  return async ({ representadaId, ...fields }) => {
    const representada = await deps.representadas.findById(representadaId);
    if (!representada) return fail(appError("REPRESENTADA_NOT_FOUND"));
    const logo = fields.logo ? logoBytes(fields.logo) : null;
    if (logo === undefined) return fail(appError("LOGO_INVALID"));
    const row = await deps.perfiles.upsert(representada.id, perfilChanges(fields, logo));
    return ok({
      representadaId: representada.id,
      cuit: representada.cuit,
      environment: representada.environment,
      perfil: perfilOf(row),
    });
  };
}

/** The account's representada's profile; null when none was ever set. */
export function makePerfilGet(deps: PerfilDeps): Handler<typeof ticket.perfilGet> {
  return async ({ cuit, environment }, ctx) => {
    if (!ctx.accountId) return fail(appError("REPRESENTADA_NOT_FOUND"));
    const representada = await deps.representadas.find(ctx.accountId, cuit, environment);
    if (!representada) return fail(appError("REPRESENTADA_NOT_FOUND"));
    const row = await deps.perfiles.find(representada.id);
    return ok({ perfil: row ? perfilOf(row) : null });
  };
}
