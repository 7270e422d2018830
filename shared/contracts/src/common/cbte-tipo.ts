import { unsupportedCbteTipo } from "@pasarela/errors";
import { z } from "zod";
import { issueParams } from "./catalogue-issue.js";

/**
 * `cbteTipo` as one web service accepts it. The one definition of "a type
 * this service takes": the contract's request schema refuses any other with the 400 that
 * lists `accepted`, so the edge (validating the body) and the service (parsing the request
 * off the bus) answer the same, before the authority is called.
 */
export function acceptedCbteTipoSchema(accepted: readonly number[]) {
  return (
    z
      .number()
      .int()
      .superRefine((cbteTipo, ctx) => {
        if (accepted.includes(cbteTipo)) return;
        const error = unsupportedCbteTipo(cbteTipo, accepted);
        ctx.addIssue({ code: "custom", message: error.message, params: issueParams(error) });
      })
      // the document lists them; the refinement above answers any other with its own error
      .meta({
        description: `Tipo de comprobante. Tipos aceptados: ${accepted.join(", ")}`,
        enum: [...accepted],
      })
  );
}

/** "00003-00000042": a voucher's point of sale and number as the authority prints them. */
export const numeroComprobante = (ptoVta: number, cbteNro: number): string =>
  `${String(ptoVta).padStart(5, "0")}-${String(cbteNro).padStart(8, "0")}`;
