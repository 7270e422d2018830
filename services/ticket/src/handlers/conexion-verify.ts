import type { Handler } from "@pasarela/bus";
import type { ticket } from "@pasarela/contracts";
import {
  appError,
  delegationFix,
  fail,
  ok,
  representadaNotDelegated,
  WEB_SERVICES,
  type AppError,
  type WebService,
} from "@pasarela/errors";
import type { CertificatesRepository } from "../db/repositories/certificates.js";
import type { RepresentadasRepository } from "../db/repositories/representadas.js";
import { tokenRelations } from "../domain/cuenta.js";
import { isCertificateUsable } from "./usable.js";

/**
 * `ticket.conexion.verify`: one access ticket per web service through `ticket.access.get`'s own
 * handler (a valid stored TA is reused, a login is single-flight and leased as for any query),
 * then the representada looked up in the TA's relations. Services are probed together.
 */
export function makeConexionVerify(deps: {
  representadas: RepresentadasRepository;
  certificates: CertificatesRepository;
  accessGet: Handler<typeof ticket.accessGet>;
  now: () => Date;
}): Handler<typeof ticket.conexionVerify> {
  return async ({ representadaId }, ctx) => {
    const row = await deps.representadas.findForAccount(ctx.accountId, representadaId);
    if (!row) return fail(appError("REPRESENTADA_ID_NOT_FOUND"));
    const active = await deps.certificates.active(row.id);
    if (!active || !isCertificateUsable(active, deps.now())) {
      return fail(appError("NO_ACTIVE_CERTIFICATE"));
    }
    const target = { environment: row.environment, alias: row.alias, cuit: row.cuit };
    const refused = (service: WebService, error: AppError): ticket.ConexionServicio => ({
      service,
      ok: false,
      code: error.code,
      error: error.message,
      fix: delegationFix(error.code, { ...target, service }),
    });
    const probe = async (service: WebService): Promise<ticket.ConexionServicio> => {
      const answer = await deps.accessGet(
        { cuit: row.cuit, environment: row.environment, service },
        ctx,
      );
      if (!answer.ok) return refused(service, answer.error);
      const relations = tokenRelations(answer.value.token);
      if (relations !== undefined && !relations.includes(row.cuit)) {
        return refused(
          service,
          representadaNotDelegated(
            row.cuit,
            service,
            row.environment,
            `No apareció CUIT en lista de relaciones: ${row.cuit}`,
          ),
        );
      }
      return { service, ok: true };
    };
    const servicios = await Promise.all(WEB_SERVICES.map(probe));
    ctx.logger.info(
      {
        representadaId: row.id,
        refused: servicios.filter((s) => !s.ok).map((s) => s.service),
      },
      "connection probed",
    );
    return ok({
      representadaId: row.id,
      cuit: row.cuit,
      environment: row.environment,
      alias: row.alias,
      ok: servicios.every((s) => s.ok),
      servicios,
    });
  };
}
