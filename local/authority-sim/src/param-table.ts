/**
 * A parameter table of the authority's web services (WSFEv1's FEParamGet*, WSFEXv1's
 * FEXGetPARAM_*): rows with an id, a description and the day from which each is in force.
 * Every row the simulator publishes is still in force: its end is written as NO_END.
 */
export interface ParamRow {
  readonly id: string;
  readonly desc: string;
  /** yyyymmdd */
  readonly desde: string;
}

export type ParamTable = readonly ParamRow[];

/** How both services write the end of a row still in force. */
export const NO_END = "NULL";

export const paramRow = (id: number | string, desc: string, desde: string): ParamRow => ({
  id: String(id),
  desc,
  desde,
});
