import type { wsfe } from "@pasarela/contracts";
import { fail, ok, totalsInvalid, type AppError, type Result } from "@pasarela/errors";

/** The national currency: its rate is 1 and it is never "the same foreign currency". */
export const PESOS = "PES";

/** Export invoices; 20 and 21 are the notes that adjust them. */
export const FACTURA_E = 19;
const ASSOCIABLE: readonly number[] = [19, 20, 21];

type RulesRequest = Pick<
  wsfe.ExportacionBody,
  "cbteTipo" | "tipoExpo" | "permisoExistente" | "permisos" | "formaPago" | "incoterms"
>;

/**
 * What the type of voucher and the kind of export require [1550, 1620, 1640, 1720–1750]: an
 * invoice (19) says how it is paid; an invoice of goods (tipoExpo 1) names its Incoterms and
 * whether a shipping permit exists ("S" or "N"), and no other voucher says so; "S" lists the
 * permits, each once, and "N" or no answer lists none.
 */
export function exportRulesProblem(request: RulesRequest): AppError | undefined {
  const { cbteTipo, tipoExpo, permisoExistente } = request;
  const permisos = request.permisos ?? [];
  const goodsInvoice = cbteTipo === FACTURA_E && tipoExpo === 1;
  if (cbteTipo === FACTURA_E && request.formaPago === undefined) {
    return totalsInvalid("formaPago", "es obligatorio en facturas de exportación (tipo 19)");
  }
  if (goodsInvoice && request.incoterms === undefined) {
    return totalsInvalid(
      "incoterms",
      "es obligatorio en facturas de exportación (19) de bienes (tipoExpo 1)",
    );
  }
  if (goodsInvoice && permisoExistente === undefined) {
    return totalsInvalid(
      "permisoExistente",
      'es obligatorio en facturas de exportación (19) de bienes (tipoExpo 1): "S" si hay permiso de embarque, "N" si no',
    );
  }
  if (!goodsInvoice && permisoExistente !== undefined) {
    return totalsInvalid(
      "permisoExistente",
      `solo se informa en facturas de exportación (19) de bienes (tipoExpo 1), no en el tipo ${cbteTipo} con tipoExpo ${tipoExpo}`,
    );
  }
  if (permisoExistente === "S" && permisos.length === 0) {
    return totalsInvalid(
      "permisos",
      'debe tener al menos un permiso de embarque con permisoExistente "S"',
    );
  }
  if (permisoExistente !== "S" && permisos.length > 0) {
    return totalsInvalid(
      "permisos",
      permisoExistente === "N"
        ? 'no se admite con permisoExistente "N": sin permiso de embarque no hay permisos que informar'
        : 'solo se informa con permisoExistente "S"',
    );
  }
  const seen = new Set<string>();
  for (const [index, permiso] of permisos.entries()) {
    const key = `${permiso.idPermiso}-${permiso.dstMerc}`;
    if (seen.has(key)) return totalsInvalid(`permisos.${index}`, "repite un permiso anterior");
    seen.add(key);
  }
  return undefined;
}

/**
 * Associated vouchers [1680–1700]: a note (20, 21) names at least one export voucher it adjusts
 * (19, 20 or 21), without repeats; an invoice names none.
 */
export function asociadosProblem(
  cbteTipo: number,
  asociados: readonly wsfe.ExportacionAsociado[],
): AppError | undefined {
  if (cbteTipo === FACTURA_E) {
    return asociados.length > 0
      ? totalsInvalid(
          "comprobantesAsociados",
          "no se admite en facturas de exportación (tipo 19): solo las notas de débito y crédito (20, 21) se asocian",
        )
      : undefined;
  }
  if (asociados.length === 0) {
    return totalsInvalid(
      "comprobantesAsociados",
      `debe tener al menos un comprobante: una nota de exportación (tipo ${cbteTipo}) se asocia al comprobante que ajusta`,
    );
  }
  const seen = new Set<string>();
  for (const [index, asociado] of asociados.entries()) {
    const field = `comprobantesAsociados.${index}`;
    if (!ASSOCIABLE.includes(asociado.cbteTipo)) {
      return totalsInvalid(
        `${field}.cbteTipo`,
        `${asociado.cbteTipo} no puede asociarse a una nota de exportación: tipos asociables ${ASSOCIABLE.join(", ")}`,
      );
    }
    const key = `${asociado.cbteTipo}-${asociado.ptoVta}-${asociado.cbteNro}-${asociado.cuit ?? ""}`;
    if (seen.has(key)) return totalsInvalid(field, "repite un comprobante asociado anterior");
    seen.add(key);
  }
  return undefined;
}

const DAY_MS = 86_400_000;
/** `yyyymmdd` moved by whole days. */
function addDays(yyyymmdd: string, days: number): string {
  const ms = Date.UTC(
    Number(yyyymmdd.slice(0, 4)),
    Number(yyyymmdd.slice(4, 6)) - 1,
    Number(yyyymmdd.slice(6, 8)),
  );
  return new Date(ms + days * DAY_MS).toISOString().slice(0, 10).replaceAll("-", "");
}

export interface ExportacionDates {
  readonly cbteFch: string;
  readonly fechaPago?: string;
}

/**
 * `cbteFch` defaults to `today` (in Argentina) and must be within five days of it either way
 * [1500]. `fechaPago` goes with invoices (19) of services or other exports (tipoExpo 2 or 4)
 * and only with them [1672, 1673], never before the voucher [1674].
 */
export function resolveExportDates(
  request: Pick<wsfe.ExportacionBody, "cbteTipo" | "tipoExpo" | "cbteFch" | "fechaPago">,
  today: string,
): Result<ExportacionDates> {
  const cbteFch = request.cbteFch ?? today;
  const { fechaPago } = request;
  const from = addDays(today, -5);
  const to = addDays(today, 5);
  if (cbteFch < from || cbteFch > to) {
    return fail(
      totalsInvalid(
        "cbteFch",
        `debe estar entre ${from} y ${to} (hoy ± 5 días; hoy es ${today} en la Argentina)`,
      ),
    );
  }
  const paidLater = request.cbteTipo === FACTURA_E && request.tipoExpo !== 1;
  if (paidLater && fechaPago === undefined) {
    return fail(
      totalsInvalid(
        "fechaPago",
        `es obligatorio en facturas de exportación (19) de servicios u otros (tipoExpo ${request.tipoExpo})`,
      ),
    );
  }
  if (!paidLater && fechaPago !== undefined) {
    return fail(
      totalsInvalid(
        "fechaPago",
        "solo se informa en facturas de exportación (19) de servicios u otros (tipoExpo 2 o 4)",
      ),
    );
  }
  if (fechaPago !== undefined && fechaPago < cbteFch) {
    return fail(
      totalsInvalid(
        "fechaPago",
        `debe ser igual o posterior a la fecha del comprobante (${cbteFch})`,
      ),
    );
  }
  return ok({ cbteFch, ...(fechaPago !== undefined ? { fechaPago } : {}) });
}

/**
 * The voucher's currency. `cotizacion` undefined means "the authority's rate of the day":
 * whoever calls the authority asks for it and passes it on.
 */
export interface ExportacionMoneda {
  readonly id: string;
  readonly cotizacion?: string;
  /** sent only when the caller said it */
  readonly canMisMonExt?: "S" | "N";
}

/**
 * PES goes at 1 [1601] and is never "the same foreign currency" [1603–1605]; a foreign currency
 * keeps the caller's rate or waits for the authority's.
 */
export function resolveExportMoneda(
  request: Pick<wsfe.ExportacionBody, "moneda" | "cotizacion" | "canMisMonExt">,
): Result<ExportacionMoneda> {
  const { moneda: id, cotizacion, canMisMonExt } = request;
  if (id === PESOS) {
    if (cotizacion !== undefined && cotizacion !== "1") {
      return fail(totalsInvalid("cotizacion", `debe ser 1 para PES, no ${cotizacion}`));
    }
    if (canMisMonExt !== undefined) {
      return fail(
        totalsInvalid(
          "canMisMonExt",
          "no se admite con PES: es para comprobantes en moneda extranjera",
        ),
      );
    }
    return ok({ id, cotizacion: "1" });
  }
  return ok({
    id,
    ...(cotizacion !== undefined ? { cotizacion } : {}),
    ...(canMisMonExt !== undefined ? { canMisMonExt } : {}),
  });
}
