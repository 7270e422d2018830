import { condicionIva, fecha, isFce, nombreComprobante, tipoDocumento } from "@pasarela/formato";
import { FCE_OPCIONALES, type CopiaImpresa } from "../../domain/tables.js";
import { asociado } from "./asociado.js";
import { drawCliente } from "./exportacion.js";
import { CENTER, MARGIN, pad, WIDTH, type Sheet } from "./page.js";

/** Not part of the stored voucher: FCE is sold on account, anything else in cash. */
function condicionVenta(sheet: Sheet): string {
  return isFce(sheet.emitido.cbteTipo) ? "Cuenta Corriente" : "Contado";
}

/** Associated vouchers, FCE data and the currency, one line each. */
function receiverExtras(sheet: Sheet): [string, string][] {
  const { emitido, etiquetas } = sheet;
  const lines: [string, string][] = emitido.comprobantesAsociados.map((a) => [
    etiquetas.comprobanteAsociado,
    asociado(a, etiquetas),
  ]);
  for (const opcional of emitido.opcionales) {
    const label = FCE_OPCIONALES[opcional.id];
    if (label) lines.push([label, opcional.valor]);
  }
  return lines;
}

/** The issuer's side of the header box: the logo (or its name), then its profile. */
function drawIssuer(sheet: Sheet, y: number, leftX: number): void {
  const { pen, emitido, perfil, logo, etiquetas } = sheet;
  const leftWidth = CENTER - 30 - leftX;
  let left = y + 8;
  if (logo) {
    pen.doc.image(Buffer.from(logo), leftX, left, { fit: [130, 36] });
    left += 40;
  } else {
    pen.font(true, 13);
    pen.text(perfil?.razonSocial ?? emitido.cuit, leftX, left + 6, leftWidth);
    left += 40;
  }
  left += pen.field(etiquetas.razonSocial, perfil?.razonSocial ?? "", leftX, left, leftWidth, 2);
  left += pen.field(
    etiquetas.domicilioComercial,
    perfil?.domicilioComercial ?? "",
    leftX,
    left,
    leftWidth,
    2,
  );
  pen.field(etiquetas.condicionIva, perfil?.condicionIva ?? "", leftX, left, leftWidth);
}

/** The voucher's side of the header box: its name, number, date and the issuer's ids. */
function drawVoucher(sheet: Sheet, y: number): void {
  const { pen, emitido, perfil, etiquetas } = sheet;
  const rightX = CENTER + 30;
  const rightWidth = MARGIN + WIDTH - 8 - rightX;
  // the name on one line: the largest size, up to 16 pt, that fits
  const nombre =
    (sheet.letra === "E" ? etiquetas.titulos[emitido.cbteTipo] : undefined) ??
    nombreComprobante(emitido.cbteTipo);
  let size = 16;
  while (size > 7 && pen.font(true, size).widthOfString(nombre) > rightWidth) size -= 0.5;
  pen.text(nombre, rightX, y + 10, rightWidth);
  let right = y + 40;
  pen.field(etiquetas.puntoVenta, pad(emitido.ptoVta, 5), rightX, right, 110);
  pen.field(etiquetas.compNro, pad(emitido.cbteNro, 8), rightX + 110, right, rightWidth - 110);
  right += 14;
  pen.field(etiquetas.fechaEmision, fecha(emitido.cbteFch), rightX, right, rightWidth);
  pen.field(etiquetas.cuit, emitido.cuit, rightX, right + 14, rightWidth);
  pen.field(etiquetas.ingresosBrutos, perfil?.ingresosBrutos ?? "", rightX, right + 28, rightWidth);
  pen.field(
    etiquetas.inicioActividades,
    perfil?.inicioActividades ? fecha(perfil.inicioActividades) : "",
    rightX,
    right + 42,
    rightWidth,
  );
}

/** The service period and payment due date, when the voucher has any; answers where it ends. */
function drawPeriod(sheet: Sheet, y: number, leftX: number): number {
  const { pen, emitido, etiquetas } = sheet;
  if (!emitido.fchServDesde && !emitido.fchServHasta && !emitido.fchVtoPago) return y;
  pen.doc.rect(MARGIN, y, WIDTH, 18).stroke();
  const third = WIDTH / 3;
  if (emitido.fchServDesde) {
    pen.field(etiquetas.periodoDesde, fecha(emitido.fchServDesde), leftX, y + 5, third);
  }
  if (emitido.fchServHasta) {
    pen.field(etiquetas.periodoHasta, fecha(emitido.fchServHasta), leftX + third, y + 5, third);
  }
  if (emitido.fchVtoPago) {
    pen.field(etiquetas.vtoPago, fecha(emitido.fchVtoPago), leftX + 2 * third - 20, y + 5, third);
  }
  return y + 18;
}

/** The receiver's box; answers where the items table begins. */
function drawReceiver(sheet: Sheet, y: number, leftX: number): number {
  const { pen, emitido } = sheet;
  const receptor = emitido.receptor;
  const receiverLines = receiverExtras(sheet);
  const receiverHeight = 62 + receiverLines.length * 14;
  pen.doc.rect(MARGIN, y, WIDTH, receiverHeight).stroke();
  const full = WIDTH - 16;
  const documento =
    receptor.docTipo === 99 && receptor.docNro === "0"
      ? "Consumidor Final sin identificar"
      : receptor.docNro;
  pen.field(tipoDocumento(receptor.docTipo), documento, leftX, y + 6, CENTER - 20 - leftX);
  pen.field(
    "Condición frente al IVA",
    condicionIva(receptor.condicionIvaReceptorId),
    CENTER - 20,
    y + 6,
    MARGIN + WIDTH - 8 - (CENTER - 20),
  );
  pen.field("Apellido y Nombre / Razón Social", receptor.razonSocial ?? "", leftX, y + 20, full);
  pen.field("Domicilio", receptor.domicilio ?? "", leftX, y + 34, full);
  pen.field("Condición de venta", condicionVenta(sheet), leftX, y + 48, full);
  receiverLines.forEach(([label, value], index) => {
    pen.field(label, value, leftX, y + 62 + index * 14, full);
  });
  return y + receiverHeight + 6;
}

/**
 * The top of every page: the copy's name, the box with the class letter between the issuer
 * and the voucher, the period and the receiver. Answers where the items table begins.
 */
export function drawHeader(sheet: Sheet, copia: CopiaImpresa): number {
  const { pen, emitido } = sheet;
  const { doc } = pen;
  let y = MARGIN;
  doc.lineWidth(0.8).rect(MARGIN, y, WIDTH, 18).stroke();
  pen.font(true, 11);
  pen.text(sheet.etiquetas.copias[copia], MARGIN, y + 4, WIDTH, "center");
  y += 18;

  const boxHeight = 112;
  doc.rect(MARGIN, y, WIDTH, boxHeight).stroke();
  // the class letter in its box at the centre, its code under it
  doc.rect(CENTER - 22, y, 44, 42).stroke();
  doc
    .moveTo(CENTER, y + 42)
    .lineTo(CENTER, y + boxHeight)
    .stroke();
  pen.font(true, 24);
  pen.text(sheet.letra, CENTER - 22, y + 4, 44, "center");
  pen.font(true, 7);
  pen.text(`COD. ${pad(emitido.cbteTipo, 2)}`, CENTER - 22, y + 32, 44, "center");

  const leftX = MARGIN + 8;
  drawIssuer(sheet, y, leftX);
  drawVoucher(sheet, y);
  y += boxHeight;
  y = drawPeriod(sheet, y, leftX);
  return sheet.letra === "E" ? drawCliente(sheet, y, leftX) : drawReceiver(sheet, y, leftX);
}
