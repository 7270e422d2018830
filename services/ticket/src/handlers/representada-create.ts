import { randomUUID } from "node:crypto";
import type { Handler, HandlerContext } from "@pasarela/bus";
import { isValidCuit, type ReplyInputOf, type ticket } from "@pasarela/contracts";
import { appError, fail, ok, type Result } from "@pasarela/errors";
import type { RepresentadasRepository } from "../db/repositories/representadas.js";
import { generateAlias, sealingContext } from "../domain/aliases.js";
import { generateKeyAndCsr } from "../domain/csr.js";
import type { Sealer } from "../domain/sealing.js";

type CreateRequest = Omit<
  ReturnType<typeof ticket.representadaCreate.request.parse>,
  "organization" | "country"
> & { organization?: string | undefined; country?: string | undefined };

/**
 * Registers (account, cuit, environment) with a fresh key (sealed) and its pending CSR. Shared
 * by the operator's subject and the account's own.
 */
export async function createRepresentada(
  deps: { representadas: RepresentadasRepository; sealer: Sealer },
  request: CreateRequest,
  ctx: Pick<HandlerContext, "logger">,
): Promise<Result<ReplyInputOf<typeof ticket.representadaCreate>>> {
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
}

export function makeRepresentadaCreate(deps: {
  representadas: RepresentadasRepository;
  sealer: Sealer;
}): Handler<typeof ticket.representadaCreate> {
  return (request, ctx) => createRepresentada(deps, request, ctx);
}
