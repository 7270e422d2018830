import { fecha } from "@pasarela/formato";
import { CENTER, FOOTER_TOP, MARGIN, WIDTH, type Sheet } from "./page.js";
import { drawQr } from "./qr.js";

/** A run of pages of one copy: [from, to). */
export interface PageRange {
  readonly from: number;
  readonly to: number;
}

/** QR, CAE (or CAEA, for a voucher issued in contingency) and page x/y at the foot of each page of one copy. */
export function drawFooters(sheet: Sheet, range: PageRange): void {
  const { pen, emitido, etiquetas } = sheet;
  const { doc } = pen;
  const total = range.to - range.from;
  for (let index = range.from; index < range.to; index++) {
    doc.switchToPage(index);
    const y = FOOTER_TOP;
    doc.lineWidth(0.8).rect(MARGIN, y, WIDTH, 96).stroke();
    if (emitido.qr) drawQr(doc, emitido.qr, MARGIN + 4, y + 4, 88);
    const textX = MARGIN + 100;
    pen.font(true, 10);
    pen.text(etiquetas.autorizado, textX, y + 14, 200);
    pen.font(false, 6.5);
    doc.text(etiquetas.descargo, textX, y + 30, { width: 200 });
    const rightX = MARGIN + WIDTH - 200;
    const caea = emitido.tipoAutorizacion === "CAEA";
    pen.field(caea ? etiquetas.caea : etiquetas.cae, emitido.cae ?? "", rightX, y + 14, 192);
    pen.field(
      caea ? etiquetas.vtoCaea : etiquetas.vtoCae,
      emitido.caeVencimiento ? fecha(emitido.caeVencimiento) : "",
      rightX,
      y + 28,
      192,
    );
    pen.font(true, 8);
    pen.text(
      `${etiquetas.pagina} ${index - range.from + 1}/${total}`,
      CENTER - 40,
      y + 78,
      80,
      "center",
    );
  }
}
