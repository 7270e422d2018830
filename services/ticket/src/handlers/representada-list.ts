import type { Handler } from "@pasarela/bus";
import type { ticket } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import type { CertificatesRepository } from "../db/repositories/certificates.js";
import type { RepresentadasRepository } from "../db/repositories/representadas.js";

export function makeRepresentadaList(deps: {
  representadas: RepresentadasRepository;
  certificates: CertificatesRepository;
}): Handler<typeof ticket.representadaList> {
  return async ({ accountId }) => {
    const rows = await deps.representadas.listByAccount(accountId);
    const current = await deps.certificates.current(rows.map((row) => row.id));
    return ok({
      representadas: rows.map((row) => {
        const certificate = current.get(row.id);
        return {
          representadaId: row.id,
          cuit: row.cuit,
          environment: row.environment,
          alias: row.alias,
          ptoVta: row.pto_vta,
          certificate: certificate
            ? {
                status: certificate.status,
                notAfter: certificate.not_after?.toISOString() ?? null,
              }
            : null,
          createdAt: row.created_at.toISOString(),
        };
      }),
    });
  };
}
