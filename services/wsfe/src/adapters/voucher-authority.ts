import {
  xmlChild,
  xmlString,
  type FexAuthorizeOutcome,
  type WsfexAdapter,
  type XmlObject,
} from "@pasarela/authority";
import { wsfe as contracts, wsfex } from "@pasarela/contracts";
import { appError, authorityUnavailable, fail, ok, type Result } from "@pasarela/errors";
import type { Logger } from "@pasarela/telemetry";
import type { ExportacionIdsRepository } from "../db/repositories/exportacion-ids.js";
import type { StoredComprobante } from "../db/repositories/comprobantes.js";
import { isSameExportacion, type HeldExportacion } from "../domain/exportacion/index.js";
import type { FECAEDetRequest } from "../domain/issuance/index.js";
import { isSameVoucher } from "../domain/reconciliation.js";
import type { SentVoucher } from "../domain/voucher-summary.js";
import type { CaeOutcome, WsfeAdapter, WsfeCaller } from "./wsfe.js";

/** What the authority holds under a stored voucher's number, compared with what was sent. */
export type HeldVoucher =
  | { readonly kind: "absent" }
  | { readonly kind: "same"; readonly cae: string; readonly caeVencimiento: string }
  | { readonly kind: "other"; readonly authority: unknown };

/**
 * The authority as the issuance sees it, whichever service numbers the series: WSFEv1 for
 * domestic types, WSFEXv1 for export ones (19–21). The series writer, the coalesced batches,
 * reconciliation and the sweep run on these four operations alone, so export vouchers are
 * issued exactly once by the same code as domestic ones.
 */
export interface VoucherAuthority {
  /** the last number the authority authorized on the series (0 when none yet) */
  ultimoAutorizado: (
    caller: WsfeCaller,
    series: { ptoVta: number; cbteTipo: number },
  ) => Promise<Result<number>>;
  /** the most vouchers one send may carry on the series */
  perRequest: (caller: WsfeCaller, cbteTipo: number) => Promise<Result<number>>;
  /**
   * Sends vouchers of one series, numbers (and, for export, request Ids) included. Never
   * fails: the outcome says what became of them (see CaeOutcome).
   */
  solicitar: (
    caller: WsfeCaller,
    request: { ptoVta: number; cbteTipo: number; detalles: readonly SentVoucher[] },
    options?: { mayStart?: () => boolean },
  ) => Promise<CaeOutcome>;
  /** the voucher the authority holds under the stored voucher's number, compared with it */
  comparar: (caller: WsfeCaller, voucher: StoredComprobante) => Promise<Result<HeldVoucher>>;
  /**
   * The first of `count` request Ids for FEXAuthorize on the caller's CUIT: seeded once from
   * FEXGetLast_ID, then taken locally.
   */
  requestIds: (caller: WsfeCaller, count: number) => Promise<Result<number>>;
}

const isExport = contracts.isExportCbteTipo;

/** FEXGetCMP's `FEXResultGet` as reconciliation compares it, with the CAE's due date. */
function heldExport(
  result: XmlObject,
): (HeldExportacion & { readonly caeVencimiento: string }) | undefined {
  const get = xmlChild(result, "FEXResultGet");
  if (!get) return undefined;
  const read = (name: string) => xmlString(get, name)?.trim() ?? "";
  const cbteNro = Number(read("Cbte_nro"));
  const cuitPais = read("Cuit_pais_cliente");
  const idImpositivo = read("Id_impositivo");
  return {
    resultado: read("Resultado"),
    cae: read("Cae"),
    caeVencimiento: read("Fch_venc_Cae"),
    cbteNro: Number.isSafeInteger(cbteNro) ? cbteNro : -1,
    fechaCbte: read("Fecha_cbte"),
    impTotal: read("Imp_total"),
    monedaId: read("Moneda_Id"),
    ...(cuitPais !== "" && cuitPais !== "0" ? { cuitPaisCliente: cuitPais } : {}),
    ...(idImpositivo !== "" ? { idImpositivo } : {}),
  };
}

export function makeVoucherAuthority(deps: {
  wsfe: Pick<WsfeAdapter, "ultimoAutorizado" | "solicitar" | "consultar" | "totXRequest">;
  wsfex: Pick<WsfexAdapter, "ultimoComprobante" | "comprobante" | "authorize" | "ultimoId">;
  ids: ExportacionIdsRepository;
  logger: Logger;
}): VoucherAuthority {
  const perEnvironment = new Map<string, number>();

  /** The answer of one FEXAuthorize as the batch reads a send's. */
  async function exportOutcome(
    caller: WsfeCaller,
    sent: wsfex.FexCmp,
    outcome: FexAuthorizeOutcome,
  ): Promise<CaeOutcome> {
    if (outcome.kind !== "judged") return outcome;
    if (outcome.reproceso && outcome.cbteNro !== sent.Cbte_nro) {
      // the Id was authorized before for another voucher (ours of an Id sequence restarted,
      // or someone else's on this CUIT): nothing was issued for this one; Ids move past the
      // authority's highest so the next voucher gets a free one
      deps.logger.warn(
        { id: sent.Id, cbteNro: sent.Cbte_nro, answered: outcome.cbteNro },
        "FEXAuthorize Id already used for another voucher",
      );
      const last = await deps.wsfex.ultimoId(caller);
      if (last.ok) await deps.ids.seed(caller.environment, caller.cuit, last.value);
      return {
        kind: "refused",
        error: authorityUnavailable(
          `la AFIP ya había usado el Id ${sent.Id} para el comprobante ${outcome.cbteNro}; el comprobante no se emitió`,
          { id: sent.Id },
        ),
      };
    }
    return {
      kind: "judged",
      resultado: outcome.resultado,
      detalles: [
        {
          cbteDesde: sent.Cbte_nro,
          cbteHasta: sent.Cbte_nro,
          cbteFch: outcome.fechaCbte || sent.Fecha_cbte,
          resultado: outcome.resultado,
          cae: outcome.cae,
          caeFchVto: outcome.caeVencimiento,
          observaciones: outcome.observaciones,
        },
      ],
      errores: outcome.errores,
      eventos: outcome.eventos,
    };
  }

  return {
    ultimoAutorizado(caller, { ptoVta, cbteTipo }) {
      return isExport(cbteTipo)
        ? deps.wsfex.ultimoComprobante(caller, { ptoVta, cbteTipo })
        : deps.wsfe.ultimoAutorizado(caller, { ptoVta, cbteTipo });
    },
    async perRequest(caller, cbteTipo) {
      // FEXAuthorize takes one voucher; FCE goes one at a time
      if (
        isExport(cbteTipo) ||
        (contracts.FCE_CBTE_TIPOS as readonly number[]).includes(cbteTipo)
      ) {
        return ok(1);
      }
      const known = perEnvironment.get(caller.environment);
      if (known !== undefined) return ok(known);
      const asked = await deps.wsfe.totXRequest(caller);
      if (asked.ok) perEnvironment.set(caller.environment, asked.value);
      return asked;
    },
    async solicitar(caller, { ptoVta, cbteTipo, detalles }, options) {
      if (!isExport(cbteTipo)) {
        return deps.wsfe.solicitar(
          caller,
          { ptoVta, cbteTipo, detalles: detalles as readonly FECAEDetRequest[] },
          options,
        );
      }
      const parsed = wsfex.fexCmpSchema.safeParse(detalles[0]);
      if (detalles.length !== 1 || !parsed.success) {
        // a defect of ours: nothing leaves
        return { kind: "refused", error: appError("INTERNAL") };
      }
      const outcome = await deps.wsfex.authorize(caller, parsed.data, options);
      return exportOutcome(caller, parsed.data, outcome);
    },
    async comparar(caller, voucher) {
      const { ptoVta, cbteTipo } = voucher.series;
      const query = { ptoVta, cbteTipo, cbteNro: voucher.cbteNro };
      if (!isExport(cbteTipo)) {
        const lookup = await deps.wsfe.consultar(caller, query);
        if (!lookup.ok) return lookup;
        const authority = lookup.value;
        if (authority === undefined) return ok({ kind: "absent" });
        return ok(
          isSameVoucher(voucher.sent as FECAEDetRequest, authority)
            ? {
                kind: "same",
                cae: authority.codAutorizacion,
                caeVencimiento: authority.fchVto ?? "",
              }
            : { kind: "other", authority },
        );
      }
      const lookup = await deps.wsfex.comprobante(caller, query);
      if (!lookup.ok) return lookup;
      if (lookup.value === undefined) return ok({ kind: "absent" });
      const held = heldExport(lookup.value);
      const sent = wsfex.fexCmpSchema.safeParse(voucher.sent);
      if (!held) return fail(authorityUnavailable("FEXGetCMP sin FEXResultGet"));
      return ok(
        sent.success && isSameExportacion(sent.data, held)
          ? { kind: "same", cae: held.cae, caeVencimiento: held.caeVencimiento }
          : { kind: "other", authority: held },
      );
    },
    async requestIds(caller, count) {
      const taken = await deps.ids.take(caller.environment, caller.cuit, count);
      if (taken !== undefined) return ok(taken);
      const last = await deps.wsfex.ultimoId(caller);
      if (!last.ok) return last;
      await deps.ids.seed(caller.environment, caller.cuit, last.value);
      const first = await deps.ids.take(caller.environment, caller.cuit, count);
      return first === undefined ? fail(appError("INTERNAL")) : ok(first);
    },
  };
}
