import { randomUUID } from "node:crypto";
import type { Handler } from "@pasarela/bus";
import { isValidCuit, type ticket } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { RepresentadasRepository } from "../db/repositories/representadas.js";
import { generateAlias, sealingContext } from "../domain/aliases.js";
import { generateKeyAndCsr } from "../domain/csr.js";
import type { Sealer } from "../domain/sealing.js";

export function makeRepresentadaCreate(deps: {
  representadas: RepresentadasRepository;
  sealer: Sealer;
}): Handler<typeof ticket.representadaCreate> {
  return async (request, ctx) => {
    const { accountId, cuit, environment } = request;
    if (!isValidCuit(cuit)) return fail(appError("INVALID_CUIT", { cuit }));
    // checked before the key is generated; the unique constraint settles races
    if (await deps.representadas.find(accountId, cuit, environment)) {
      return fail(appError("REPRESENTADA_DUPLICATE", { cuit, environment }));
    }
    const alias = request.alias ?? generateAlias(cuit);
    const { keyPem, csrPem } = await generateKeyAndCsr({
      cuit,
      alias,
      organization: request.organization,
      country: request.country,
    });
    const representadaId = randomUUID();
    const certificateId = randomUUID();
    const inserted = await deps.representadas.insertWithPendingKey(
      {
        id: representadaId,
        account_id: accountId,
        cuit,
        environment,
        alias,
        pto_vta: request.ptoVta ?? null,
      },
      {
        id: certificateId,
        private_key_sealed: deps.sealer.seal(keyPem, sealingContext.privateKey(certificateId)),
        csr_pem: csrPem,
      },
    );
    if (inserted === "duplicate") {
      return fail(appError("REPRESENTADA_DUPLICATE", { cuit, environment }));
    }
    ctx.logger.info({ representadaId, cuit, environment, alias }, "representada created");
    return ok({ representadaId, cuit, environment, alias, csr: csrPem });
  };
}
