import type { Handler } from "@pasarela/bus";
import type { ticket } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { CertificatesRepository } from "../db/repositories/certificates.js";
import type { PerfilesRepository } from "../db/repositories/perfiles.js";
import type { RepresentadasRepository } from "../db/repositories/representadas.js";
import { emisorOf } from "../db/repositories/perfil-contract.js";
import { isCertificateUsable } from "./usable.js";
import { contingenciaOf } from "./cuenta-representadas.js";

export function makeRepresentadaGet(deps: {
  representadas: RepresentadasRepository;
  certificates: CertificatesRepository;
  perfiles: Pick<PerfilesRepository, "findEmisor">;
  now: () => Date;
}): Handler<typeof ticket.representadaGet> {
  return async ({ cuit, environment, requireActiveCertificate }, ctx) => {
    const representada = await deps.representadas.find(ctx.accountId, cuit, environment);
    if (!representada) return fail(appError("REPRESENTADA_NOT_FOUND"));
    const [active, emisor] = await Promise.all([
      deps.certificates.active(representada.id),
      deps.perfiles.findEmisor(representada.id),
    ]);
    const certificateActive = active !== undefined && isCertificateUsable(active, deps.now());
    if (requireActiveCertificate && !certificateActive) {
      return fail(appError("NO_ACTIVE_CERTIFICATE"));
    }
    return ok({
      representadaId: representada.id,
      cuit: representada.cuit,
      environment: representada.environment,
      alias: representada.alias,
      ptoVta: representada.pto_vta,
      contingencia: contingenciaOf(representada),
      certificateActive,
      emisor: emisorOf(emisor),
    });
  };
}
