import { authorityNow } from "@pasarela/authority";
import { gauge, type Logger } from "@pasarela/telemetry";
import type { CaeaInformesRepository } from "../db/repositories/caea-informes.js";
import { avisoCaeaPorVencer } from "../domain/caea/aviso-informe.js";
import { porVencer } from "../domain/caea/informe.js";
import type { AvisoAlTitular } from "./aviso-al-titular.js";

/** The CAEA vouchers, by environment, still uninformed within 48 h of their FchTopeInf. */
const porVencerGauge = new Map<string, number>();
gauge(
  "pasarela_caea_sin_informar_por_vencer",
  "Vouchers issued under a CAEA still not informed to the authority within 48 h of the CAEA's FchTopeInf (or past it)",
  ["environment"],
  {
    service: "wsfe",
    collect() {
      this.reset();
      for (const [environment, count] of porVencerGauge) this.set({ environment }, count);
    },
  },
);

/**
 * The deadline alert: vouchers still uninformed 48 h before the end of their CAEA's FchTopeInf
 * (by the authority's clock) are counted in the gauge, and the account's owner is e-mailed
 * once per representada and fortnight. One pass; `stopping` stops the e-mails.
 */
export function makePorVencer(deps: {
  informes: Pick<CaeaInformesRepository, "sinInformar" | "markAvisado">;
  aviso: AvisoAlTitular;
  logger: Logger;
  /** a test's clock; by default, the authority's */
  now?: () => number;
}): (stopping: () => boolean) => Promise<void> {
  return async (stopping) => {
    const counts = new Map<string, number>();
    for (const f of await deps.informes.sinInformar()) {
      const at = new Date(deps.now?.() ?? authorityNow(f.environment));
      const { fchTopeInf } = f;
      if (fchTopeInf === undefined || !porVencer(fchTopeInf, at)) continue;
      counts.set(f.environment, (counts.get(f.environment) ?? 0) + f.pendientes);
      if (f.avisado || stopping()) continue;
      const eventId = `caea.por_vencer.${f.accountId}.${f.environment}.${f.cuit}.${f.periodo}.${f.orden}`;
      const told = await deps.aviso(f.accountId, eventId, (titular) =>
        avisoCaeaPorVencer({
          ...titular,
          environment: f.environment,
          representada: f.cuit,
          periodo: f.periodo,
          orden: f.orden,
          fchTopeInf,
          pendientes: f.pendientes,
        }),
      );
      if (!told) continue;
      await deps.informes.markAvisado(f);
      deps.logger.warn(
        { cuit: f.cuit, periodo: f.periodo, orden: f.orden, pendientes: f.pendientes, fchTopeInf },
        "CAEA vouchers uninformed near FchTopeInf: alerted",
      );
    }
    porVencerGauge.clear();
    for (const [environment, count] of counts) porVencerGauge.set(environment, count);
  };
}
