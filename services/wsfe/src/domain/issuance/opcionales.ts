import type { wsfe } from "@pasarela/contracts";
import { fail, ok, totalsInvalid, type Result } from "@pasarela/errors";
import {
  FCE_OPCIONALES,
  REPEATABLE_OPCIONALES,
  isFce,
  isFceInvoice,
  type VoucherClass,
} from "./voucher-types.js";

/** One `Opcionales/Opcional` as sent to the authority. */
export interface Opcional {
  readonly id: string;
  readonly valor: string;
}

type FceField = keyof typeof FCE_OPCIONALES;
const fceFieldOf: ReadonlyMap<string, FceField> = new Map(
  Object.entries(FCE_OPCIONALES).map(([field, id]) => [id, field as FceField]),
);

/** What each FCE opcional may hold, so a raw one cannot bypass it. */
const fceValues: Readonly<Record<FceField, { test: (valor: string) => boolean; rule: string }>> = {
  cbu: { test: (v) => /^\d{22}$/.test(v), rule: "un CBU de 22 dígitos" },
  alias: { test: (v) => /^[A-Za-z0-9.-]{6,20}$/.test(v), rule: "un alias de 6 a 20 caracteres" },
  opcionTransferencia: { test: (v) => v === "SCA" || v === "ADC", rule: '"SCA" o "ADC"' },
  anulacion: { test: (v) => v === "S" || v === "N", rule: '"S" o "N"' },
};

/** The `fce` block as the opcionales the authority expects. */
export function fceOpcionales(fce: wsfe.Fce): Opcional[] {
  const out: Opcional[] = [];
  if (fce.cbu !== undefined) out.push({ id: FCE_OPCIONALES.cbu, valor: fce.cbu });
  if (fce.alias !== undefined) out.push({ id: FCE_OPCIONALES.alias, valor: fce.alias });
  if (fce.opcionTransferencia !== undefined) {
    out.push({ id: FCE_OPCIONALES.opcionTransferencia, valor: fce.opcionTransferencia });
  }
  if (fce.anulacion !== undefined) {
    out.push({ id: FCE_OPCIONALES.anulacion, valor: fce.anulacion ? "S" : "N" });
  }
  return out;
}

/**
 * The voucher's `Opcionales`: the raw ones in the caller's order, then those the `fce` block
 * adds. Refused (422, naming the field): an `fce` block or an FCE opcional (2101, 2102, 22, 27)
 * on a non-FCE type [10169]; a raw opcional that contradicts the block; an id repeated where
 * the authority forbids it [10054]; and what FCE types require: invoices carry a CBU (2101) and
 * a transfer option (27) and no annulment flag; notes carry the annulment flag (22) and none of
 * the invoice's payment data.
 */
export function resolveOpcionales(
  cbteTipo: number,
  clase: VoucherClass,
  raw: readonly wsfe.Opcional[],
  fce: wsfe.Fce | undefined,
): Result<Opcional[]> {
  const fceType = isFce(cbteTipo);
  if (fce !== undefined && !fceType) {
    return fail(
      totalsInvalid(
        "fce",
        `solo se admite en comprobantes FCE MiPyME (tipos 201 a 213); el tipo ${cbteTipo} (clase ${clase}) no lo es`,
      ),
    );
  }
  const seen = new Map<string, string[]>();
  for (const [index, opcional] of raw.entries()) {
    const field = `opcionales.${index}`;
    const fceField = fceFieldOf.get(opcional.id);
    if (fceField !== undefined) {
      if (!fceType) {
        return fail(
          totalsInvalid(
            `${field}.id`,
            `${opcional.id} es un opcional de FCE MiPyME: solo se admite en los tipos 201 a 213`,
          ),
        );
      }
      const { test, rule } = fceValues[fceField];
      if (!test(opcional.valor)) {
        return fail(
          totalsInvalid(`${field}.valor`, `debe ser ${rule} para el opcional ${opcional.id}`),
        );
      }
    }
    const values = seen.get(opcional.id) ?? [];
    const repeatable = REPEATABLE_OPCIONALES.has(opcional.id);
    if (values.length > 0 && (!repeatable || values.includes(opcional.valor))) {
      return fail(
        totalsInvalid(
          `${field}.id`,
          repeatable
            ? `${opcional.id} repite un valor ya informado`
            : `${opcional.id} está repetido: la AFIP admite cada opcional una vez (salvo 23, 1801, 1802, 2901 y 2902)`,
        ),
      );
    }
    seen.set(opcional.id, [...values, opcional.valor]);
  }

  const merged: Opcional[] = raw.map(({ id, valor }) => ({ id, valor }));
  for (const added of fce === undefined ? [] : fceOpcionales(fce)) {
    const index = raw.findIndex((o) => o.id === added.id);
    const fceField = fceFieldOf.get(added.id) ?? "cbu";
    if (index === -1) merged.push(added);
    else if (raw[index]?.valor !== added.valor) {
      return fail(
        totalsInvalid(
          `opcionales.${index}.valor`,
          `contradice fce.${fceField}: el opcional ${added.id} sale de fce.${fceField} ("${added.valor}"); enviá uno solo de los dos`,
        ),
      );
    }
  }
  if (!fceType) return ok(merged);

  const has = (field: FceField) => merged.some((o) => o.id === FCE_OPCIONALES[field]);
  if (isFceInvoice(cbteTipo)) {
    if (!has("cbu")) {
      return fail(
        totalsInvalid(
          "fce.cbu",
          "es obligatorio en facturas FCE (tipos 201, 206 y 211): el CBU del emisor (opcional 2101)",
        ),
      );
    }
    if (!has("opcionTransferencia")) {
      return fail(
        totalsInvalid(
          "fce.opcionTransferencia",
          'es obligatorio en facturas FCE (tipos 201, 206 y 211): "SCA" o "ADC" (opcional 27)',
        ),
      );
    }
    if (has("anulacion")) {
      return fail(
        totalsInvalid(
          "fce.anulacion",
          "solo se informa en notas FCE, no en facturas (opcional 22)",
        ),
      );
    }
    return ok(merged);
  }
  for (const field of ["cbu", "alias", "opcionTransferencia"] as const) {
    if (has(field)) {
      return fail(
        totalsInvalid(
          `fce.${field}`,
          `no se informa en notas FCE (opcional ${FCE_OPCIONALES[field]}): es un dato de pago de la factura`,
        ),
      );
    }
  }
  if (!has("anulacion")) {
    return fail(
      totalsInvalid(
        "fce.anulacion",
        "es obligatorio en notas FCE: true si la nota anula el comprobante asociado, false si no (opcional 22)",
      ),
    );
  }
  return ok(merged);
}
