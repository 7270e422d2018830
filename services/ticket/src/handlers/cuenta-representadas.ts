import type { Handler } from "@pasarela/bus";
import type { ticket } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { CertificatesRepository } from "../db/repositories/certificates.js";
import type { PerfilesRepository } from "../db/repositories/perfiles.js";
import type { RepresentadaRow, RepresentadasRepository } from "../db/repositories/representadas.js";
import { certificadoEstado } from "../domain/cuenta.js";
import { perfilChanges, perfilOf } from "../db/repositories/perfil-contract.js";
import type { Sealer } from "../domain/sealing.js";
import { uploadedLogo } from "./perfil.js";
import { createRepresentada } from "./representada-create.js";

interface CuentaDeps {
  representadas: RepresentadasRepository;
  certificates: CertificatesRepository;
  perfiles: PerfilesRepository;
  now: () => Date;
}

type Cuenta = ticket.RepresentadaCuenta;

/** A representada's contingency as the contracts carry it. */
export const contingenciaOf = (row: RepresentadaRow): ticket.Contingencia => ({
  caea: row.contingencia_caea,
  puntosDeVenta: row.contingencia_ptos_venta,
});

/** `ticket.contingencia.list`: every representada with CAEA contingency on. */
export function makeContingenciaList(deps: {
  representadas: Pick<RepresentadasRepository, "withContingencia">;
}): Handler<typeof ticket.contingenciaList> {
  return async () => {
    const rows = await deps.representadas.withContingencia();
    return ok({
      representadas: rows.map((row) => ({
        accountId: row.account_id,
        cuit: row.cuit,
        environment: row.environment,
        puntosDeVenta: row.contingencia_ptos_venta,
      })),
    });
  };
}

/** The account's view of a representada and its current key/certificate. */
async function viewsOf(deps: CuentaDeps, rows: readonly RepresentadaRow[]): Promise<Cuenta[]> {
  const current = await deps.certificates.current(rows.map((row) => row.id));
  const now = deps.now();
  return rows.map((row) => {
    const certificate = current.get(row.id);
    const estado = certificadoEstado(certificate, now);
    return {
      representadaId: row.id,
      cuit: row.cuit,
      environment: row.environment,
      alias: row.alias,
      ptoVta: row.pto_vta,
      contingencia: contingenciaOf(row),
      certificado:
        certificate && estado
          ? {
              estado,
              notBefore: certificate.not_before?.toISOString() ?? null,
              notAfter: certificate.not_after?.toISOString() ?? null,
            }
          : null,
      createdAt: row.created_at.toISOString(),
    };
  });
}

/** The view with the issuer profile and the pending CSR. */
async function detailOf(deps: CuentaDeps, row: RepresentadaRow) {
  const [[view], perfil, pending] = await Promise.all([
    viewsOf(deps, [row]),
    deps.perfiles.find(row.id),
    deps.certificates.pending(row.id),
  ]);
  return { ...view!, perfil: perfilOf(perfil), csr: pending?.csr_pem ?? null };
}

export function makeCuentaRepresentadaList(
  deps: CuentaDeps,
): Handler<typeof ticket.cuentaRepresentadaList> {
  return async ({ environment }, ctx) => {
    const rows = await deps.representadas.listByAccount(ctx.accountId, environment);
    return ok({ representadas: await viewsOf(deps, rows) });
  };
}

export function makeCuentaRepresentadaGet(
  deps: CuentaDeps,
): Handler<typeof ticket.cuentaRepresentadaGet> {
  return async ({ representadaId }, ctx) => {
    const row = await deps.representadas.findForAccount(ctx.accountId, representadaId);
    if (!row) return fail(appError("REPRESENTADA_ID_NOT_FOUND"));
    return ok(await detailOf(deps, row));
  };
}

export function makeCuentaRepresentadaCreate(
  deps: CuentaDeps & { sealer: Sealer },
): Handler<typeof ticket.cuentaRepresentadaCreate> {
  return async (request, ctx) => {
    // the bus header is the only account this subject acts for
    const created = await createRepresentada(deps, { ...request, accountId: ctx.accountId }, ctx);
    if (!created.ok) return created;
    const row = await deps.representadas.findForAccount(
      ctx.accountId,
      created.value.representadaId,
    );
    if (!row) throw new Error("the representada just created does not read back");
    const detail = await detailOf(deps, row);
    return ok({ ...detail, csr: created.value.csr });
  };
}

export function makeCuentaRepresentadaUpdate(
  deps: CuentaDeps,
): Handler<typeof ticket.cuentaRepresentadaUpdate> {
  return async ({ representadaId, ptoVta, contingencia, ...fields }, ctx) => {
    const row = await deps.representadas.findForAccount(ctx.accountId, representadaId);
    if (!row) return fail(appError("REPRESENTADA_ID_NOT_FOUND"));
    const logo = await uploadedLogo(fields.logo);
    if (!logo.ok) return logo;
    const changes = perfilChanges(fields, logo.value);
    if (Object.keys(changes).length > 0) await deps.perfiles.upsert(row.id, changes);
    if (ptoVta !== undefined) await deps.representadas.setPtoVta(row.id, ptoVta);
    if (contingencia !== undefined) {
      // off keeps no points of sale: turned on again, they are named again
      await deps.representadas.setContingencia(
        row.id,
        contingencia.caea ? contingencia : { caea: false, puntosDeVenta: [] },
      );
    }
    const updated = await deps.representadas.findForAccount(ctx.accountId, row.id);
    return ok(await detailOf(deps, updated ?? row));
  };
}
