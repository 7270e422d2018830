import { sql, type ExpressionBuilder } from "kysely";
import type { WsfeDatabase } from "../database.js";
import type { LeaseFence } from "./series.js";

/**
 * The lease `fence` names is still its owner's and unexpired, by the database's clock. The
 * series row is read FOR SHARE: a takeover (an UPDATE of that row) waits until the statement
 * commits, so what the statement writes is there when the next holder reads the series.
 */
export function leaseHeld(eb: ExpressionBuilder<WsfeDatabase, "comprobantes">, fence: LeaseFence) {
  const { series, owner } = fence;
  return eb.exists(
    eb
      .selectFrom("series")
      .select(sql<number>`1`.as("held"))
      .where("series.environment", "=", series.environment)
      .where("series.cuit", "=", series.cuit)
      .where("series.pto_vta", "=", series.ptoVta)
      .where("series.cbte_tipo", "=", series.cbteTipo)
      .where("series.writer_owner", "=", owner)
      .where("series.writer_lease_until", ">", sql<Date>`now()`)
      .forShare(),
  );
}

export const msFromNow = (ms: number) => sql<Date>`now() + ${ms} * interval '1 millisecond'`;
