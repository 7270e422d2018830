import { authorityNow } from "@pasarela/authority";
import type { Bus } from "@pasarela/bus";
import { ticket } from "@pasarela/contracts";
import type { Logger } from "@pasarela/telemetry";
import type { WsfeCaeaInformeAdapter } from "../adapters/wsfe-caea-informe.js";
import type { WsfeCaller } from "../adapters/wsfe.js";
import type { CaeaInformesRepository } from "../db/repositories/caea-informes.js";
import type { CaeasRepository } from "../db/repositories/caeas.js";
import { finDelPlazo, puntosSinMovimiento, quincenasTerminadas } from "../domain/caea/informe.js";

/**
 * Declares, for every fortnight that ended (by the authority's clock) and until its FchTopeInf,
 * the contingency points of sale of each representada that issued nothing under its CAEA
 * (FECAEASinMovimientoInformar), once: FECAEASinMovimientoConsultar first, so a declaration
 * whose answer was lost is recorded rather than sent again. One pass; `stopping` cuts it short.
 */
export function makeSinMovimiento(deps: {
  bus: Pick<Bus, "request">;
  informe: Pick<WsfeCaeaInformeAdapter, "sinMovimientoConsultar" | "sinMovimientoInformar">;
  informes: Pick<CaeaInformesRepository, "conMovimiento" | "declarados" | "recordSinMovimiento">;
  caeas: Pick<CaeasRepository, "find">;
  logger: Logger;
  /** a test's clock; by default, the authority's */
  now?: () => number;
}): (stopping: () => boolean) => Promise<void> {
  const log = deps.logger;

  async function declare(
    caller: WsfeCaller,
    q: { periodo: number; orden: number; caea: string },
    ptoVta: number,
  ): Promise<void> {
    const where = { cuit: caller.cuit, ptoVta, periodo: q.periodo, orden: q.orden };
    const record = (
      resultado: string,
      fchProceso: string | null,
      errores: readonly { code: number; msg: string }[],
    ) =>
      deps.informes.recordSinMovimiento({
        environment: caller.environment,
        cuit: caller.cuit,
        periodo: q.periodo,
        orden: q.orden,
        ptoVta,
        resultado,
        fchProceso,
        errores,
      });
    // a declaration whose answer was lost is there already: recorded, not sent again
    const known = await deps.informe.sinMovimientoConsultar(caller, { ptoVta, caea: q.caea });
    if (!known.ok) {
      log.warn({ ...where, error: known.error.message }, "no-movement declaration not checked");
      return;
    }
    if (known.value === "declarado") {
      await record("A", null, []);
      log.info(where, "CAEA point of sale found declared without movement");
      return;
    }
    if (known.value === "con_comprobantes") {
      // vouchers were informed under it outside the gateway: there is nothing to declare
      await record("R", null, [
        { code: 10105, msg: "El punto de venta registra comprobantes informados." },
      ]);
      return;
    }
    const answer = await deps.informe.sinMovimientoInformar(caller, { ptoVta, caea: q.caea });
    if (!answer.ok) {
      log.warn({ ...where, error: answer.error.message }, "no-movement declaration not made yet");
      return;
    }
    await record(answer.value.resultado, answer.value.fchProceso || null, answer.value.errores);
    if (answer.value.resultado === "A") {
      log.info(where, "CAEA point of sale declared without movement");
    } else {
      log.warn(
        { ...where, codes: answer.value.errores.map((e) => e.code) },
        "no-movement declaration refused by the authority",
      );
    }
  }

  return async (stopping) => {
    const listed = await deps.bus.request(ticket.contingenciaList, {});
    if (!listed.ok) {
      log.warn({ error: listed.error.message }, "representadas in contingency not read");
      return;
    }
    for (const r of listed.value.representadas) {
      const at = new Date(deps.now?.() ?? authorityNow(r.environment));
      const owner = { environment: r.environment, cuit: r.cuit };
      const caller: WsfeCaller = { accountId: r.accountId, ...owner };
      for (const q of quincenasTerminadas(at)) {
        if (stopping()) return;
        const caea = await deps.caeas.find(owner, q);
        // no CAEA, nothing issued under it; past FchTopeInf, too late to declare
        if (!caea || at >= finDelPlazo(caea.fchTopeInf)) continue;
        const puntos = puntosSinMovimiento(
          r.puntosDeVenta,
          await deps.informes.conMovimiento(owner, q),
          await deps.informes.declarados(owner, q),
        );
        for (const ptoVta of puntos) {
          await declare(caller, { ...q, caea: caea.caea }, ptoVta);
        }
      }
    }
  };
}
