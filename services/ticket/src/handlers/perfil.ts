import type { Handler } from "@pasarela/bus";
import type { ticket } from "@pasarela/contracts";
import { appError, fail, logoInvalid, ok, type Result } from "@pasarela/errors";
import { checkLogo } from "@pasarela/logo";
import type { PerfilesRepository } from "../db/repositories/perfiles.js";
import type { RepresentadasRepository } from "../db/repositories/representadas.js";
import { perfilChanges, perfilOf } from "../db/repositories/perfil-contract.js";

interface PerfilDeps {
  representadas: Pick<RepresentadasRepository, "find" | "findById">;
  perfiles: PerfilesRepository;
}

/**
 * The bytes of a logo sent to the profile once they decode and print (LOGO_INVALID naming
 * what is wrong otherwise); null clears the logo, undefined leaves it.
 */
export async function uploadedLogo(
  logo: ticket.Logo | null | undefined,
): Promise<Result<Buffer | null | undefined>> {
  if (!logo) return ok(logo);
  const bytes = Buffer.from(logo.data, "base64");
  const checked = await checkLogo(logo.mediaType, bytes);
  return checked.ok ? ok(bytes) : fail(logoInvalid(checked.problem));
}

/** Operator: changes the fields sent of the representada's issuer profile. */
export function makePerfilSet(deps: PerfilDeps): Handler<typeof ticket.perfilSet> {
  return async ({ representadaId, ...fields }) => {
    const representada = await deps.representadas.findById(representadaId);
    if (!representada) return fail(appError("REPRESENTADA_NOT_FOUND"));
    const logo = await uploadedLogo(fields.logo);
    if (!logo.ok) return logo;
    const row = await deps.perfiles.upsert(representada.id, perfilChanges(fields, logo.value));
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
    const representada = await deps.representadas.find(ctx.accountId, cuit, environment);
    if (!representada) return fail(appError("REPRESENTADA_NOT_FOUND"));
    const row = await deps.perfiles.find(representada.id);
    return ok({ perfil: row ? perfilOf(row) : null });
  };
}

/** A logo the account's representada had, by its SHA-256, even when the profile changed since. */
export function makeLogoGet(deps: PerfilDeps): Handler<typeof ticket.logoGet> {
  return async ({ cuit, environment, sha256 }, ctx) => {
    const representada = await deps.representadas.find(ctx.accountId, cuit, environment);
    if (!representada) return fail(appError("REPRESENTADA_NOT_FOUND"));
    const found = await deps.perfiles.findLogo(representada.id, sha256);
    return ok({
      representadaId: representada.id,
      logo: found ? { mediaType: found.media_type, data: found.data.toString("base64") } : null,
    });
  };
}
