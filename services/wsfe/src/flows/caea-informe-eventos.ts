import type { Bus } from "@pasarela/bus";
import { wsfe } from "@pasarela/contracts";
import type { Logger } from "@pasarela/telemetry";
import type { CaeaInformesRepository } from "../db/repositories/caea-informes.js";
import type { StoredComprobante } from "../db/repositories/comprobante-rows.js";
import { avisoCaeaRechazado } from "../domain/caea/aviso-informe.js";
import type { AvisoAlTitular } from "./aviso-al-titular.js";
import { voucherEventFields } from "./events.js";

/** An informing event is sent again only once its voucher has been settled this long. */
const SIN_EVENTO_AFTER_MS = 10_000;
const SIN_EVENTO_BATCH = 200;

export interface CaeaInformeEventos {
  /** the informing's events of settled vouchers (and a rejected one's owner e-mail), marked */
  publish(settled: readonly StoredComprobante[]): Promise<void>;
  /** those whose event did not get out on their pass (a crash, NATS away), sent again */
  republish(): Promise<void>;
}

/**
 * What informing tells: `comprobante.caea_informado` for an accepted voucher,
 * `comprobante.caea_rechazado` and an e-mail to the account's owner with the authority's codes
 * for a rejected one. Each event's id is one per voucher and outcome (the stream drops a
 * copy), and a voucher is marked once its event is out, so a pass cut short sends it again.
 */
export function makeCaeaInformeEventos(deps: {
  bus: Pick<Bus, "publish">;
  informes: Pick<CaeaInformesRepository, "markEventoPublicado" | "sinEvento">;
  aviso: AvisoAlTitular;
  logger: Logger;
  now: () => number;
}): CaeaInformeEventos {
  const { now, logger: log } = deps;

  async function publishOne(v: StoredComprobante): Promise<boolean> {
    const { cae } = v;
    if (!v.caea || cae === null) return false;
    const fields = {
      ...voucherEventFields(v),
      caea: cae,
      observaciones: [...v.observaciones],
    };
    const options = { accountId: v.accountId, requestId: v.requestId };
    if (v.caea.estado === "informado") {
      const informadoAt = (v.caea.informadoAt ?? new Date(now())).toISOString();
      await deps.bus.publish(
        wsfe.comprobanteCaeaInformado,
        {
          ...fields,
          id: wsfe.comprobanteEventId(v.id, "caea_informado"),
          occurredAt: informadoAt,
          informadoAt,
        },
        options,
      );
      return true;
    }
    if (v.caea.estado !== "rechazado") return false;
    const id = wsfe.comprobanteEventId(v.id, "caea_rechazado");
    await deps.bus.publish(
      wsfe.comprobanteCaeaRechazado,
      { ...fields, id, occurredAt: new Date(now()).toISOString(), errores: [...v.errores] },
      options,
    );
    // the event is out; when the owner cannot be read, both go again on a later pass (the
    // stream drops the event's copy)
    return deps.aviso(v.accountId, id, (titular) =>
      avisoCaeaRechazado({
        ...titular,
        environment: v.series.environment,
        representada: v.series.cuit,
        ptoVta: v.series.ptoVta,
        cbteTipo: v.series.cbteTipo,
        cbteNro: v.cbteNro,
        cbteFch: v.cbteFch,
        caea: cae,
        observaciones: v.observaciones,
        errores: v.errores,
      }),
    );
  }

  async function publish(settled: readonly StoredComprobante[]): Promise<void> {
    const published: string[] = [];
    for (const v of settled) {
      try {
        if (await publishOne(v)) published.push(v.id);
      } catch (error) {
        log.warn({ err: error, comprobanteId: v.id }, "CAEA informing event not published");
      }
    }
    await deps.informes.markEventoPublicado(published).catch((error: unknown) => {
      log.warn({ err: error }, "CAEA informing events not recorded as published");
    });
  }

  return {
    publish,
    async republish() {
      const left = await deps.informes.sinEvento(SIN_EVENTO_AFTER_MS, SIN_EVENTO_BATCH);
      if (left.length > 0) await publish(left);
    },
  };
}
