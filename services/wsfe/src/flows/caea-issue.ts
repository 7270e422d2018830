import { randomUUID } from "node:crypto";
import type { wsfe } from "@pasarela/contracts";
import { appError, fail, ok, type Result } from "@pasarela/errors";
import type { VoucherAuthority } from "../adapters/voucher-authority.js";
import type { CaeasRepository } from "../db/repositories/caeas.js";
import type { CaeaComprobantesRepository } from "../db/repositories/caea-comprobantes.js";
import type { SeriesKey } from "../db/repositories/series.js";
import { momentoArgentino, quincenaDelDia } from "../domain/caea/quincena.js";
import { KEY_LAPSED, type IssuanceJob } from "./issuance-job.js";
import type { SeriesWriter } from "./series-writer.js";

/** How long a first voucher on a CAEA point of sale asks the authority for its last number. */
const FIRST_NUMBER_QUERY_MS = 3_000;

/** A domestic voucher to issue in contingency, on a CAEA point of sale. */
export type CaeaJob = Pick<
  IssuanceJob<wsfe.FacturaIssueReply>,
  | "accountId"
  | "caller"
  | "series"
  | "request"
  | "emailTo"
  | "build"
  | "reply"
  | "idempotencyKey"
  | "requestId"
  | "deadline"
  | "logger"
  | "settled"
  | "keyHeld"
> & {
  /** the voucher's date, yyyymmdd: its fortnight's CAEA authorizes it */
  readonly cbteFch: string;
};

export type CaeaIssuer = (job: CaeaJob) => Promise<Result<wsfe.FacturaIssueReply>>;

export interface CaeaIssuerDeps {
  writer: SeriesWriter;
  caeas: Pick<CaeasRepository, "find">;
  comprobantes: Pick<CaeaComprobantesRepository, "lastNumber" | "insertCaea">;
  authority: Pick<VoucherAuthority, "ultimoAutorizado">;
  now?: () => number;
}

const busy = (series: SeriesKey, reason: string) =>
  appError("SERVICE_UNAVAILABLE", { reason, ptoVta: series.ptoVta, cbteTipo: series.cbteTipo });

/**
 * Issuance in contingency: the voucher is authorized by the CAEA the authority granted in
 * advance for its date's fortnight, numbered on a CAEA point of sale as that series' only
 * writer (the lease issuance and informing share), and stored `authorized` with its CAEA,
 * awaiting informing (FECAEARegInformativo, flows of the informing job). Nothing here calls
 * the authority but, once per series the gateway never numbered, a bounded question for the
 * last number informed there (a point of sale used before); without an answer it starts at 1.
 */
export function makeCaeaIssuer(deps: CaeaIssuerDeps): CaeaIssuer {
  const now = deps.now ?? Date.now;

  /** The next number of a CAEA series: after the gateway's last, or the authority's. */
  async function nextNumber(job: CaeaJob): Promise<number> {
    const last = await deps.comprobantes.lastNumber(job.series);
    if (last !== undefined) return last + 1;
    const asked = await deps.authority.ultimoAutorizado(
      { ...job.caller, deadline: Math.min(job.deadline, now() + FIRST_NUMBER_QUERY_MS) },
      { ptoVta: job.series.ptoVta, cbteTipo: job.series.cbteTipo },
    );
    if (!asked.ok) {
      job.logger.warn(
        { ptoVta: job.series.ptoVta, cbteTipo: job.series.cbteTipo, err: asked.error },
        "first CAEA voucher of the series numbered without the authority's last",
      );
    }
    return (asked.ok ? asked.value : 0) + 1;
  }

  return async (job) => {
    const { series } = job;
    const fortnight = quincenaDelDia(job.cbteFch);
    const caea = await deps.caeas.find(
      { environment: series.environment, cuit: series.cuit },
      fortnight,
    );
    if (caea === undefined) {
      return fail(
        appError("CAEA_NOT_AVAILABLE", {
          periodo: fortnight.periodo,
          orden: fortnight.orden,
          cbteFch: job.cbteFch,
        }),
      );
    }
    const stored = await deps.writer.run(series, job.deadline, async () => {
      // a call whose key a retry may be looking up stores nothing: that retry issues it
      if (job.keyHeld?.() === false) return fail(busy(series, KEY_LAPSED));
      const cbteNro = await nextNumber(job);
      const built = job.build(cbteNro, undefined);
      const inserted = await deps.comprobantes.insertCaea({
        id: randomUUID(),
        accountId: job.accountId,
        series,
        cbteNro,
        sent: built.sent,
        summary: built.summary,
        request: job.request,
        emailTo: job.emailTo,
        idempotencyKey: job.idempotencyKey,
        requestId: job.requestId,
        caea: {
          code: caea.caea,
          vencimiento: caea.fchVigHasta,
          periodo: caea.periodo,
          orden: fortnight.orden,
          cbteFchHsGen: momentoArgentino(new Date(now())),
        },
      });
      if (inserted === "key-live") {
        return fail(busy(series, "an earlier attempt under this Idempotency-Key is still live"));
      }
      if (inserted === "number-taken") {
        job.logger.error({ series, cbteNro }, "CAEA numbering out of step");
        return fail(busy(series, "CAEA numbering out of step"));
      }
      return ok(inserted);
    });
    if (!stored.ok) return stored;
    job.settled?.(stored.value);
    return ok(
      job.reply({
        cbteNro: stored.value.cbteNro,
        cae: caea.caea,
        caeVencimiento: caea.fchVigHasta,
        observaciones: [],
        tipoAutorizacion: "CAEA",
      }),
    );
  };
}
