import { numeroComprobante } from "@pasarela/contracts";
import { fecha, letraComprobante, nombreComprobante } from "@pasarela/formato";
import type { Etiquetas } from "../../domain/etiquetas.js";
import type { Sheet } from "./page.js";

type Asociado = Sheet["emitido"]["comprobantesAsociados"][number];

/** An associated voucher in one line: "Factura A N° 00003-00000042 del 20/11/2026". */
export function asociado(a: Asociado, etiquetas: Etiquetas): string {
  const tipo =
    etiquetas.tipos[a.cbteTipo] ??
    `${nombreComprobante(a.cbteTipo)} ${letraComprobante(a.cbteTipo)}`;
  const numero = numeroComprobante(a.ptoVta, a.cbteNro);
  const del = a.cbteFch ? ` ${etiquetas.del} ${fecha(a.cbteFch)}` : "";
  return `${tipo} ${etiquetas.numero} ${numero}${del}${a.cuit ? ` (CUIT ${a.cuit})` : ""}`;
}
