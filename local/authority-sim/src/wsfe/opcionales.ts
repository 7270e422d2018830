import type { DetailCheck, Findings } from "./findings.js";
import { FCE_OPCIONALES, OPCIONALES, REPEATABLE_OPCIONALES, isFce } from "./tables.js";

/**
 * Opcionales: a published Id (10053), not repeated but 1801/1802, 2901/2902 and
 * 23 with distinct values (10054), a Valor (10055), the FCE ones only on FCE vouchers (10169),
 * and the FCE values' shapes: 2101 a 22-digit CBU, 2102 an alias of 6–20 characters, 22 S or N,
 * 27 SCA or ADC (10215). The manual calls the alias "alphanumeric", the manuals' word for a
 * text field: the characters accepted are a bank alias's (letters, digits, dots, hyphens). Which FCE opcional goes on which FCE voucher is fce.ts's.
 * 10165 is numbered after a third-party transcription; 10170 and 10175, whose rules the
 * manual states without a number, are the simulator's.
 */
export function checkOpcionales(c: DetailCheck, f: Findings): void {
  const ops = c.detail.opcionales;
  if (ops === undefined) return;
  if (ops.some((o) => !OPCIONALES.some((t) => t.id === o.id))) {
    f.reject(10053, "Campo Id de Opcionales invalido. Consultar metodo FEParamGetTiposOpcional.");
  }
  const seen = new Set<string>();
  const repeated = ops.some((o) => {
    const key = o.id === "23" ? `23|${o.valor}` : o.id;
    if (REPEATABLE_OPCIONALES.has(o.id)) return false;
    if (seen.has(key)) return true;
    seen.add(key);
    return false;
  });
  if (repeated) f.reject(10054, "No se puede repetir el Id de Opcionales.");
  if (ops.some((o) => o.valor.trim() === "")) {
    f.reject(10055, "Campo Valor de Opcionales es obligatorio.");
  }
  if (!isFce(c.cbteTipo) && ops.some((o) => FCE_OPCIONALES.has(o.id))) {
    f.reject(
      10169,
      "Los Opcionales 2101, 2102, 22 y 27 solo pueden informarse en comprobantes MiPyMEs (FCE).",
    );
    return;
  }
  const valores = (id: string): string[] =>
    ops.filter((o) => o.id === id && o.valor.trim() !== "").map((o) => o.valor.trim());
  if (valores("2101").some((v) => !/^\d{22}$/.test(v))) {
    f.reject(10165, "El CBU informado en el Opcional 2101 debe tener 22 digitos numericos.");
  }
  if (valores("2102").some((v) => !/^[A-Za-z0-9.-]{6,20}$/.test(v))) {
    f.reject(
      10170,
      "El Alias informado en el Opcional 2102 debe tener entre 6 y 20 caracteres (letras, numeros, puntos o guiones).",
    );
  }
  if (valores("22").some((v) => v !== "S" && v !== "N")) {
    f.reject(10175, "El Opcional 22 (Anulacion) solo admite los valores S o N.");
  }
  if (valores("27").some((v) => v !== "SCA" && v !== "ADC")) {
    f.reject(10215, "El Opcional 27 (Transferencia) solo admite los valores SCA o ADC.");
  }
}
