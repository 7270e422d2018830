import { isValidCuit } from "../cuit.js";
import type { DetailCheck, Findings } from "./findings.js";
import { CREDIT_NOTES, cbteClass, isFce } from "./tables.js";

/** The "no categorizado" placeholder: never looked up in the registry. */
const NO_CATEGORIZADO = "23000000000";

/** Real text, recorded with an A. */
const MSG_10217 =
  "El credito fiscal discriminado en el presente comprobante solo podra ser computado a efectos " +
  "del Procedimiento permanente de transicion al Regimen General.";

/**
 * The receiver: document type and number, then the registry. A class B receiver
 * identified by CUIT/CUIL/CDI must exist (10015); a class A one that does not exist is observed
 * (10017), as is any other class's (10238, the manual's "unknown receiver CUIT", whose scope it
 * does not give). An inactive key rejects (10247) but on credit notes, where it is observed. A
 * class A receiver outside VAT and monotributo is observed (10063), a monotributista with the
 * recorded 10217 text. The observation texts but 10217's are the simulator's wording.
 */
export function checkReceptor(c: DetailCheck, f: Findings): void {
  const d = c.detail;
  const clase = cbteClass(c.cbteTipo);
  const fce = isFce(c.cbteTipo);
  if ((clase === "A" || clase === "M") && d.docTipo !== 80) {
    f.reject(10013, "Para comprobantes clase A y M el campo DocTipo debe ser igual a 80 (CUIT).");
  } else if (fce && d.docTipo !== 80) {
    // The manual gives no code of its own for FCE's DocTipo 80: the class A one.
    f.reject(10013, "Para comprobantes MiPyMEs (FCE) el campo DocTipo debe ser igual a 80 (CUIT).");
  }
  if ([80, 86].includes(d.docTipo) && !isValidCuit(d.docNro)) {
    f.reject(10015, "Campo DocNro invalido. El numero de CUIT/CUIL informado no es valido.");
    return;
  }
  if (d.docTipo === 80 && String(d.docNro) === c.cuit) {
    f.reject(10069, "El receptor del comprobante no puede ser igual al emisor.");
    return;
  }
  const docNro = String(d.docNro);
  if (![80, 86, 87].includes(d.docTipo) || docNro === NO_CATEGORIZADO) return;

  const person = c.known.person(docNro);
  if (person === undefined) {
    if (clase === "B") {
      f.reject(
        10015,
        "Campo DocNro invalido. El numero de documento informado no se encuentra registrado en el padron de AFIP.",
      );
    } else if (clase === "A") {
      f.observe(
        10017,
        "El receptor del comprobante no se encuentra registrado en el padron de AFIP.",
      );
    } else {
      f.observe(10238, "El CUIT del receptor informado en DocNro no existe en el padron de AFIP.");
    }
    return;
  }
  if (person.estadoClave === "INACTIVO") {
    const msg = "El CUIT del receptor se encuentra inactivo en el padron de AFIP.";
    if (CREDIT_NOTES.has(c.cbteTipo)) f.observe(10247, msg);
    else f.reject(10247, msg);
    return;
  }
  if (clase !== "A") return;
  if (person.condicionIva === "monotributo") f.observe(10217, MSG_10217);
  else if (person.condicionIva !== "responsable_inscripto") {
    f.observe(
      10063,
      "Para comprobantes clase A el receptor debe estar activo en el IVA o en el Monotributo.",
    );
  }
}
