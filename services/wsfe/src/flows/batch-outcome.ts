import {
  authorityRejected,
  authorityUnavailable,
  fail,
  issuanceOutcomeUnknown,
  ok,
  type AppError,
} from "@pasarela/errors";
import type { CaeOutcome } from "../adapters/wsfe.js";
import type { ComprobantesRepository, StoredComprobante } from "../db/repositories/comprobantes.js";
import type { LeaseFence, SeriesKey, SeriesRepository } from "../db/repositories/series.js";
import type { CaeDetalleRespuesta } from "../domain/cae-answer.js";
import type { SentVoucher, VoucherSummary } from "../domain/voucher-summary.js";
import type { Waiting } from "./issuance-job.js";
import type { VoucherEvents } from "./events.js";

/** A waiting voucher with the number, row id and detail it is sent with. */
export interface Numbered {
  readonly waiting: Waiting;
  readonly id: string;
  readonly cbteNro: number;
  readonly detalle: SentVoucher;
  readonly summary: VoucherSummary;
}

/** What each detail of a judged batch came to, in the order they were numbered. */
type Verdict =
  | { kind: "authorized"; answer: CaeDetalleRespuesta }
  | { kind: "rejected"; answer: CaeDetalleRespuesta }
  /** rejected only because an earlier detail was: the numbering moved, it goes again */
  | { kind: "resend" }
  | { kind: "missing" };

/**
 * Each detail of a batch has its own Resultado. After the first one rejected the
 * authority's numbering no longer matches the following details (10016), so a later R says
 * nothing about that voucher: it is sent again in the next batch, never reported.
 */
export function judgeBatch(
  numbers: readonly number[],
  detalles: readonly CaeDetalleRespuesta[],
): Verdict[] {
  let blocked = false;
  return numbers.map((cbteNro): Verdict => {
    const answer = detalles.find((d) => d.cbteDesde === cbteNro);
    if (!answer) return { kind: "missing" };
    if (answer.resultado === "A") return { kind: "authorized", answer };
    if (blocked) return { kind: "resend" };
    blocked = true;
    return { kind: "rejected", answer };
  });
}

export interface BatchOutcomeDeps {
  comprobantes: Pick<
    ComprobantesRepository,
    "markManyAuthorized" | "markRejected" | "markUnknown" | "markManyUnresolved" | "endSend"
  >;
  series: Pick<SeriesRepository, "flagReconciliation">;
  events: Pick<VoucherEvents, "publishOutcome" | "publishOutcomes">;
}

/**
 * Stores what one FECAESolicitar of a batch came to and answers each caller; answers the
 * vouchers to send again in the next batch (their numbers given back).
 *
 * An authorization is stored whatever happened to the lease meanwhile: a CAE is the
 * authority's own word. Any other outcome is written only while the lease still holds
 * (`fence`): when it was lost mid-call, a later holder may already be sending these vouchers
 * again, and a "rejected" or "not issued" written now could contradict what its send gets.
 * Those vouchers are left unsettled for it, and their callers told the outcome is unknown,
 * which a retry with the same Idempotency-Key resolves.
 */
export async function settleBatch(
  deps: BatchOutcomeDeps,
  series: SeriesKey,
  numbered: readonly Numbered[],
  outcome: CaeOutcome,
  fence: LeaseFence | undefined,
): Promise<{ again: Waiting[]; toPublish: StoredComprobante[] }> {
  const { ptoVta, cbteTipo } = series;
  const ids = numbered.map((n) => n.id);
  const ref = (n: Numbered) => ({ ptoVta, cbteTipo, cbteNro: n.cbteNro });
  const unknownTo = (members: readonly Numbered[], cause: AppError) => {
    for (const n of members) n.waiting.answer(fail(issuanceOutcomeUnknown(ref(n), cause)));
  };
  const none = { again: [] as Waiting[], toPublish: [] as StoredComprobante[] };

  if (outcome.kind === "refused") {
    const changed = await deps.comprobantes.markManyUnresolved(
      ids,
      "not_issued",
      outcome.error,
      fence,
    );
    for (const n of numbered) {
      if (changed.includes(n.id)) n.waiting.answer(fail(outcome.error));
    }
    unknownTo(
      numbered.filter((n) => !changed.includes(n.id)),
      outcome.error,
    );
    return none;
  }
  if (outcome.kind === "unknown") {
    await deps.comprobantes.markManyUnresolved(ids, "unknown", outcome.error);
    // the only send of these vouchers cannot land any more: reconciliation may then call a
    // number the authority never used "never issued" without sending it again
    if (outcome.over) await deps.comprobantes.endSend(ids, null, fence);
    await deps.series.flagReconciliation(series, true);
    unknownTo(numbered, outcome.error);
    return none;
  }

  const verdicts = judgeBatch(
    numbered.map((n) => n.cbteNro),
    outcome.detalles,
  );
  // the authorized ones in one statement (one commit for the whole batch), each caller
  // answered once its voucher is stored; the events follow, off the series' path
  const granted = numbered.flatMap((n, i) => {
    const verdict = verdicts[i]!;
    return verdict.kind === "authorized" ? [{ n, answer: verdict.answer }] : [];
  });
  const authorized = await deps.comprobantes.markManyAuthorized(
    granted.map(({ n, answer }) => ({
      id: n.id,
      cae: answer.cae,
      caeVencimiento: answer.caeFchVto,
      observaciones: answer.observaciones,
      eventos: outcome.eventos,
    })),
  );
  const toPublish: StoredComprobante[] = [];
  /** the issuance waiting for a voucher publishes its event, with the answer it gives */
  const handOver = (n: Numbered, row: StoredComprobante) => {
    if (n.waiting.job.settled) n.waiting.job.settled(row);
    else toPublish.push(row);
  };
  for (const { n, answer } of granted) {
    const { job } = n.waiting;
    const row = authorized.find((v) => v.id === n.id);
    if (row) handOver(n, row);
    else job.logger.error({ ...ref(n), id: n.id }, "authorized voucher was already settled");
    n.waiting.answer(
      ok(
        job.reply({
          cbteNro: n.cbteNro,
          cae: answer.cae,
          caeVencimiento: answer.caeFchVto,
          observaciones: answer.observaciones,
        }),
      ),
    );
  }

  const resend: Numbered[] = [];
  const laterDetails = (i: number) => verdicts.slice(i + 1).some((v) => v.kind === "resend");
  await Promise.all(
    numbered.map(async (n, i) => {
      const verdict = verdicts[i]!;
      switch (verdict.kind) {
        case "authorized":
          return;
        case "rejected": {
          // a 10016 the details after this one caused is theirs, not this voucher's
          const own = verdict.answer.observaciones.length > 0 && laterDetails(i);
          const rejection = {
            observaciones: verdict.answer.observaciones,
            errores: own ? outcome.errores.filter((e) => e.code !== 10016) : outcome.errores,
            eventos: outcome.eventos,
          };
          const error = authorityRejected(rejection);
          const rejected = await deps.comprobantes.markRejected(n.id, rejection, fence);
          if (rejected) {
            handOver(n, rejected);
            n.waiting.answer(fail({ ...error, details: { ...error.details, ...ref(n) } }));
          } else {
            await deps.comprobantes.markUnknown(n.id, error);
            unknownTo([n], authorityUnavailable("la serie cambió de emisor durante el envío"));
          }
          return;
        }
        case "resend":
          resend.push(n);
          return;
        case "missing": {
          const cause = authorityUnavailable(
            `la respuesta de FECAESolicitar no trae el comprobante ${n.cbteNro}`,
          );
          await deps.comprobantes.markUnknown(n.id, cause);
          await deps.series.flagReconciliation(series, true);
          unknownTo([n], cause);
          return;
        }
      }
    }),
  );
  // the numbers of the re-sent ones are given back; they go first in the next batch, in order
  const givenBack = await deps.comprobantes.markManyUnresolved(
    resend.map((n) => n.id),
    "not_issued",
    { reason: "re-sent: an earlier voucher of its batch was rejected" },
    fence,
  );
  const again = resend.filter((n) => givenBack.includes(n.id));
  for (const n of resend.filter((x) => !givenBack.includes(x.id))) {
    await deps.comprobantes.markUnknown(n.id, { reason: "lease lost before it was given back" });
    unknownTo([n], authorityUnavailable("la serie cambió de emisor durante el envío"));
  }
  // what the authority answered cannot land again: the ones still unsettled may be reconciled
  // without being sent again
  await deps.comprobantes.endSend(
    numbered.filter((_, i) => verdicts[i]!.kind === "missing").map((n) => n.id),
    null,
    fence,
  );
  return { again: again.map((n) => n.waiting), toPublish };
}
