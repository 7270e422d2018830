import { authorityNow } from "@pasarela/authority";
import type { Bus } from "@pasarela/bus";
import { ticket, wsfe } from "@pasarela/contracts";
import { gauge } from "@pasarela/telemetry";
import type { Logger } from "@pasarela/telemetry";
import { startPeriodic, type PeriodicPass } from "./periodic.js";
import type { WsfeCaeaAdapter } from "../adapters/wsfe-caea.js";
import type { WsfeCaller } from "../adapters/wsfe.js";
import type {
  CaeaFaltante,
  CaeaFaltantesRepository,
  CaeasRepository,
} from "../db/repositories/caeas.js";
import { avisoCaeaFaltante } from "../domain/caea/aviso.js";
import { makeAvisoAlTitular } from "./aviso-al-titular.js";
import { inicioDelDia, quincenaDe, siguiente, type Quincena } from "../domain/caea/quincena.js";

/** A fortnight starting within this long without its CAEA is missing (the alert's lead). */
const FALTANTE_ANTES_MS = 86_400_000;

/** The representadas, by environment, whose CAEA is missing for a fortnight about to start. */
const faltantes = new Map<string, number>();
gauge(
  "pasarela_caea_faltante",
  "Representadas with CAEA contingency on whose current fortnight, or the next one starting within a day, has no CAEA yet",
  ["environment"],
  {
    service: "wsfe",
    collect() {
      this.reset();
      for (const [environment, count] of faltantes) this.set({ environment }, count);
    },
  },
);

export interface CaeaObtainer {
  /** one pass over every representada with contingency on; never throws */
  run(): Promise<void>;
  /** no further pass starts; resolves once the pass under way (if any) has ended */
  stop(): Promise<void>;
}

/**
 * Obtains each fortnight's CAEA for every representada with CAEA contingency on: the current
 * fortnight's and the next one's, asked for on every pass until granted. The authority decides
 * when a fortnight's window opens (15006 until 5 days before it starts), so the next CAEA is
 * obtained on the first pass after it opens whatever the clocks say; a CAEA granted before
 * (15008: a pass that crashed after asking) is looked up with FECAEAConsultar. Failures are
 * retried on the next pass, every `intervalMs`, inside the window.
 */
export function startCaeaObtainer(deps: {
  bus: Pick<Bus, "request" | "publish">;
  caea: WsfeCaeaAdapter;
  caeas: Pick<CaeasRepository, "find" | "store">;
  /** the fortnights found without their CAEA: each alerted once (event and owner's e-mail) */
  faltantes: Pick<CaeaFaltantesRepository, "record" | "pending" | "alerted">;
  logger: Logger;
  intervalMs: number;
  now?: () => number;
}): CaeaObtainer {
  const now = deps.now ?? Date.now;
  const aviso = makeAvisoAlTitular({ bus: deps.bus, logger: deps.logger, now });
  // a pass checks it between steps (passes run only once `periodic` below exists)
  const stopping = () => periodic.stopped;

  /** Whether the fortnight's CAEA is stored now (obtained on this pass or before). */
  async function obtain(caller: WsfeCaller, q: Quincena): Promise<boolean> {
    const owner = { environment: caller.environment, cuit: caller.cuit };
    if (await deps.caeas.find(owner, q)) return true;
    const asked = await deps.caea.solicitar(caller, q);
    if (!asked.ok) {
      deps.logger.warn(
        { cuit: caller.cuit, periodo: q.periodo, orden: q.orden, error: asked.error.message },
        "CAEA not obtained yet",
      );
      return false;
    }
    if (asked.value.kind === "fuera_de_ventana") return false;
    const granted = asked.value.kind === "otorgado" ? asked.value.caea : await lookUp(caller, q);
    if (!granted) return false;
    await deps.caeas.store(owner, granted);
    deps.logger.info(
      { cuit: caller.cuit, periodo: q.periodo, orden: q.orden, fchTopeInf: granted.fchTopeInf },
      "CAEA obtained",
    );
    return true;
  }

  async function lookUp(caller: WsfeCaller, q: Quincena) {
    const found = await deps.caea.consultar(caller, q);
    return found.ok ? found.value : undefined;
  }

  async function pass(): Promise<void> {
    const listed = await deps.bus.request(ticket.contingenciaList, {});
    if (!listed.ok) {
      deps.logger.warn({ error: listed.error.message }, "representadas in contingency not read");
      return;
    }
    const missing = new Map<string, number>();
    for (const { accountId, cuit, environment } of listed.value.representadas) {
      if (stopping()) return;
      // the fortnights are the authority's: by its clock, as its answers show it
      const at = deps.now?.() ?? authorityNow(environment);
      const caller: WsfeCaller = { accountId, cuit, environment };
      const actual = quincenaDe(new Date(at));
      const proxima = siguiente(actual);
      const hasActual = await obtain(caller, actual);
      const hasProxima = await obtain(caller, proxima);
      const startsSoon = inicioDelDia(proxima.desde).getTime() - at <= FALTANTE_ANTES_MS;
      const sinCaea = [
        ...(hasActual ? [] : [actual]),
        ...(startsSoon && !hasProxima ? [proxima] : []),
      ];
      if (sinCaea.length > 0) missing.set(environment, (missing.get(environment) ?? 0) + 1);
      for (const q of sinCaea) {
        await deps.faltantes.record({
          accountId,
          environment,
          cuit,
          periodo: q.periodo,
          orden: q.orden,
          fchVigDesde: q.desde,
          fchVigHasta: q.hasta,
        });
      }
    }
    faltantes.clear();
    for (const [environment, count] of missing) faltantes.set(environment, count);
    for (const f of await deps.faltantes.pending()) {
      if (stopping()) return;
      await alert(f);
    }
  }

  /**
   * A fortnight without its CAEA: `evt.wsfe.caea.no_obtenido` (the webhook `caea.no_obtenido`)
   * and an e-mail to the account's owner, then marked alerted. Both carry ids of their own, so
   * sent again after a failure in between they are dropped by the stream.
   */
  async function alert(f: CaeaFaltante): Promise<void> {
    const id = wsfe.caeaNoObtenidoEventId(f.accountId, f.environment, f.cuit, f.periodo, f.orden);
    await deps.bus.publish(wsfe.caeaNoObtenido, {
      id,
      version: 1,
      accountId: f.accountId,
      environment: f.environment,
      representada: f.cuit,
      periodo: f.periodo,
      orden: f.orden,
      fchVigDesde: f.fchVigDesde,
      fchVigHasta: f.fchVigHasta,
      occurredAt: new Date(now()).toISOString(),
    });
    // tried again on the next pass when the owner cannot be read now
    const told = await aviso(f.accountId, id, (titular) =>
      avisoCaeaFaltante({
        ...titular,
        environment: f.environment,
        representada: f.cuit,
        periodo: f.periodo,
        orden: f.orden,
        fchVigDesde: f.fchVigDesde,
        fchVigHasta: f.fchVigHasta,
      }),
    );
    if (!told) return;
    await deps.faltantes.alerted(f);
    deps.logger.warn(
      { cuit: f.cuit, environment: f.environment, periodo: f.periodo, orden: f.orden },
      "CAEA missing for a fortnight: alerted",
    );
  }

  const periodic: PeriodicPass = startPeriodic({
    pass,
    intervalMs: deps.intervalMs,
    logger: deps.logger,
    what: "CAEA pass",
  });
  return periodic;
}
