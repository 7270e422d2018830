import { randomUUID } from "node:crypto";
import type { Bus, Handler, HandlerContext } from "@pasarela/bus";
import { ticket, type ReplyInputOf } from "@pasarela/contracts";
import { appError, catalogue, fail, ok, type Result } from "@pasarela/errors";
import type { Activation, CertificatesRepository } from "../db/repositories/certificates.js";
import type { RepresentadaRow, RepresentadasRepository } from "../db/repositories/representadas.js";
import { sealingContext } from "../domain/aliases.js";
import { readCertificate, readPrivateKey } from "../domain/certificate.js";
import type { Sealer } from "../domain/sealing.js";

interface UploadDeps {
  certificates: CertificatesRepository;
  sealer: Sealer;
  bus: Pick<Bus, "publish">;
  now: () => Date;
}

type UploadReply = ReplyInputOf<typeof ticket.certificateCreate>;

/** Operator: any representada, by id. */
export function makeCertificateCreate(
  deps: UploadDeps & { representadas: RepresentadasRepository },
): Handler<typeof ticket.certificateCreate> {
  const upload = makeCertificateUpload(deps);
  return async (request, ctx) => {
    const representada = await deps.representadas.findById(request.representadaId);
    if (!representada) return fail(appError("REPRESENTADA_NOT_FOUND"));
    return upload(representada, request, ctx);
  };
}

/** The account's own upload: another account's id is an unknown one. */
export function makeCuentaCertificadoCreate(
  deps: UploadDeps & { representadas: RepresentadasRepository },
): Handler<typeof ticket.cuentaCertificadoCreate> {
  const upload = makeCertificateUpload(deps);
  return async (request, ctx) => {
    const representada = await deps.representadas.findForAccount(
      ctx.accountId,
      request.representadaId,
    );
    if (!representada) return fail(appError("REPRESENTADA_ID_NOT_FOUND"));
    return upload(representada, request, ctx);
  };
}

/**
 * Reads the upload, checks it against the pending key (or the key sent with it), activates it
 * and announces the change. Shared by the operator's and the account's subjects.
 */
function makeCertificateUpload(deps: UploadDeps) {
  return async (
    representada: RepresentadaRow,
    request: { certificate: string; privateKey?: string | undefined },
    ctx: HandlerContext,
  ): Promise<Result<UploadReply>> => {
    const read = readCertificate(request.certificate, deps.now());
    if (!read.ok) return read;
    const certificate = read.value;

    let target: Activation["target"];
    if (request.privateKey !== undefined) {
      // a pair generated outside the gateway: it must match itself, not the pending CSR
      const key = readPrivateKey(request.privateKey);
      if (!key.ok) return key;
      if (!certificate.matchesKey(key.value)) return fail(appError("CERTIFICATE_KEY_MISMATCH"));
      const id = randomUUID();
      target = {
        kind: "new",
        id,
        privateKeySealed: deps.sealer.seal(key.value, sealingContext.privateKey(id)),
      };
    } else {
      const pending = await deps.certificates.pending(representada.id);
      if (!pending) return fail(appError("CERTIFICATE_NEEDS_KEY"));
      const keyPem = deps.sealer.open(
        pending.private_key_sealed,
        sealingContext.privateKey(pending.id),
      );
      if (!certificate.matchesKey(keyPem)) return fail(appError("CERTIFICATE_KEY_MISMATCH"));
      target = { kind: "pending", id: pending.id };
    }

    const activatedAt = await deps.certificates.activate({
      representadaId: representada.id,
      target,
      certificatePem: certificate.pem,
      fingerprint: certificate.fingerprint,
      notBefore: certificate.notBefore,
      notAfter: certificate.notAfter,
    });
    // Stored first, then announced, and answered once the stream holds the event: when the
    // operator sees the new certificate active, callers have been told to drop the old TAs.
    try {
      await deps.bus.publish(
        ticket.certificadoActivado,
        {
          id: `certificado-activado-${target.id}`,
          version: 1,
          representadaId: representada.id,
          accountId: representada.account_id,
          cuit: representada.cuit,
          environment: representada.environment,
          fingerprint: certificate.fingerprint,
          notAfter: certificate.notAfter.toISOString(),
          activatedAt: activatedAt.toISOString(),
        },
        { requestId: ctx.requestId },
      );
    } catch (error) {
      // the activation stands (an upload cannot be repeated once the CSR is used); callers
      // still stop using the old certificate at their next reconnection or the TA's expiry
      ctx.logger.error(
        { err: error, representadaId: representada.id },
        "certificate activated but the change could not be announced",
      );
    }
    const otherCa =
      certificate.issuerEnvironment !== undefined &&
      certificate.issuerEnvironment !== representada.environment
        ? certificate.issuerEnvironment
        : undefined;
    ctx.logger.info(
      {
        representadaId: representada.id,
        fingerprint: certificate.fingerprint,
        notAfter: certificate.notAfter.toISOString(),
        pair: target.kind === "new",
        ...(otherCa ? { issuerEnvironment: otherCa } : {}),
      },
      "certificate activated",
    );
    return ok({
      representadaId: representada.id,
      cuit: representada.cuit,
      environment: representada.environment,
      status: "active" as const,
      notBefore: certificate.notBefore.toISOString(),
      notAfter: certificate.notAfter.toISOString(),
      subject: certificate.subject,
      issuer: certificate.issuer,
      ...(otherCa
        ? {
            warning: {
              code: "CERTIFICATE_WRONG_ENVIRONMENT" as const,
              message: catalogue.CERTIFICATE_WRONG_ENVIRONMENT.message,
              issuerEnvironment: otherCa,
            },
          }
        : {}),
    });
  };
}
