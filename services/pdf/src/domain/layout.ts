import { numeroComprobante, type ticket, type wsfe } from "@pasarela/contracts";
import type { Font } from "fontkit";
import PDFDocument from "pdfkit";
import { drawQr } from "./qr-drawing.js";
import {
  conIva,
  decimal,
  enPesos,
  fecha,
  importe,
  isPositive,
  porcentaje,
  suma,
} from "./format.js";
import {
  condicionIva,
  CONSUMIDOR_FINAL,
  COPIAS_IMPRESAS,
  FCE_OPCIONALES,
  isFce,
  letraComprobante,
  nombreComprobante,
  nombreMoneda,
  PESOS,
  tipoDocumento,
  TRIBUTOS_NACIONALES_INDIRECTOS,
  type CopiaImpresa,
} from "./tables.js";

/** The TrueType fonts embedded in every document (subset to the glyphs used), parsed. */
export interface Fonts {
  readonly regular: Font;
  readonly bold: Font;
}

/** What a printed voucher is made of: the stored voucher, its issuer and the issuer's logo. */
export interface Impresion {
  readonly emitido: wsfe.Emitido;
  readonly perfil: ticket.Emisor | null;
  /** the logo's bytes, already known to decode; none prints the issuer's name instead */
  readonly logo?: Uint8Array | null;
  readonly copias: readonly CopiaImpresa[];
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 20;
const WIDTH = A4[0] - 2 * MARGIN;
const CENTER = A4[0] / 2;
/** where the footer (QR, CAE, page number) begins on every page */
const FOOTER_TOP = A4[1] - MARGIN - 96;
const ROW_FONT = 7;
const LINE = 11;

type Doc = PDFKit.PDFDocument;

interface Column {
  readonly title: string;
  readonly width: number;
  readonly align: "left" | "right";
  readonly value: (item: wsfe.Emitido["items"][number]) => string;
}

const alicuotaTexto = (rate: string): string =>
  rate === "exento" ? "Exento" : rate === "no_gravado" ? "No gravado" : porcentaje(rate);

const commonColumns = (descripcionWidth: number): Column[] => [
  { title: "Código", width: 50, align: "left", value: (i) => i.codigo ?? "" },
  {
    title: "Producto / Servicio",
    width: descripcionWidth,
    align: "left",
    value: (i) => i.descripcion,
  },
  { title: "Cantidad", width: 48, align: "right", value: (i) => decimal(i.cantidad) },
  { title: "U. Medida", width: 45, align: "left", value: (i) => i.unidadMedida ?? "" },
  { title: "Precio Unit.", width: 58, align: "right", value: (i) => decimal(i.precioUnitario) },
  { title: "Bonif.", width: 45, align: "right", value: (i) => importe(i.bonificacion) },
  { title: "Subtotal", width: 58, align: "right", value: (i) => importe(i.importe) },
];

/** Class A (and M) show each line's rate and its amount with VAT; the others do not. */
function columnsFor(letra: string): Column[] {
  if (letra !== "A" && letra !== "M") return commonColumns(WIDTH - 304);
  return [
    ...commonColumns(WIDTH - 304 - 108),
    {
      title: "Alíc. IVA",
      width: 46,
      align: "right",
      value: (i) => alicuotaTexto(i.alicuotaIva),
    },
    {
      title: "Subtotal c/IVA",
      width: 62,
      align: "right",
      value: (i) =>
        importe(/^\d/.test(i.alicuotaIva) ? conIva(i.importe, i.alicuotaIva) : i.importe),
    },
  ];
}

interface TotalLine {
  readonly label: string;
  readonly amount: string;
  readonly bold?: boolean;
}

/** Net taxed, one line per VAT rate, other taxes, exempt and non-taxed where present, total. */
function totalLines(emitido: wsfe.Emitido, letra: string): TotalLine[] {
  const { totales } = emitido;
  const lines: TotalLine[] = [];
  if (letra === "C") lines.push({ label: "Subtotal", amount: totales.impNeto });
  else {
    lines.push({ label: "Importe Neto Gravado", amount: totales.impNeto });
    for (const iva of emitido.iva) {
      lines.push({ label: `IVA ${porcentaje(iva.alicuota)}`, amount: iva.importe });
    }
  }
  for (const tributo of emitido.tributos) {
    const name = tributo.descripcion ?? `Tributo ${tributo.id}`;
    lines.push({ label: `${name} (${porcentaje(tributo.alicuota)})`, amount: tributo.importe });
  }
  lines.push({ label: "Importe Otros Tributos", amount: totales.impTrib });
  if (isPositive(totales.impOpEx)) lines.push({ label: "Importe Exento", amount: totales.impOpEx });
  if (isPositive(totales.impTotConc)) {
    lines.push({ label: "Importe No Gravado", amount: totales.impTotConc });
  }
  lines.push({ label: "Importe Total", amount: totales.impTotal, bold: true });
  return lines;
}

/** Ley 27.743: class B to a final consumer shows the VAT and national indirect taxes it contains. */
function transparencia(emitido: wsfe.Emitido, letra: string): TotalLine[] {
  if (letra !== "B" || emitido.receptor.condicionIvaReceptorId !== CONSUMIDOR_FINAL) return [];
  const otros = suma(
    emitido.tributos.filter((t) => TRIBUTOS_NACIONALES_INDIRECTOS.has(t.id)).map((t) => t.importe),
  );
  return [
    { label: "IVA Contenido", amount: emitido.totales.impIVA },
    { label: "Otros Impuestos Nacionales Indirectos", amount: otros },
  ];
}

const pad = (value: number, width: number) => String(value).padStart(width, "0");

class Printer {
  private readonly doc: Doc;
  private readonly emitido: wsfe.Emitido;
  private readonly perfil: ticket.Emisor | null;
  private readonly logo: Uint8Array | null;
  private readonly letra: string;
  private readonly columns: Column[];
  private y = 0;
  private pages = 0;

  constructor(doc: Doc, impresion: Impresion) {
    this.doc = doc;
    this.emitido = impresion.emitido;
    this.perfil = impresion.perfil;
    this.logo = impresion.logo ?? null;
    this.letra = letraComprobante(impresion.emitido.cbteTipo);
    this.columns = columnsFor(this.letra);
  }

  private font(bold: boolean, size: number): Doc {
    return this.doc.font(bold ? "bold" : "regular").fontSize(size);
  }

  private text(
    value: string,
    x: number,
    y: number,
    width: number,
    align: "left" | "center" | "right" = "left",
  ): void {
    this.doc.text(value, x, y, {
      width,
      align,
      lineBreak: false,
      ellipsis: true,
      height: LINE,
    });
  }

  /**
   * "Etiqueta: valor", the label in bold, on one line; with `lines` > 1 the value may wrap to
   * that many lines (the rest is cut with an ellipsis). Answers the height it took.
   */
  private field(
    label: string,
    value: string,
    x: number,
    y: number,
    width: number,
    lines = 1,
  ): number {
    this.font(true, 8);
    const labelWidth = this.doc.widthOfString(`${label}: `);
    this.text(`${label}:`, x, y, labelWidth + 2);
    this.font(false, 8);
    const valueWidth = Math.max(width - labelWidth, 10);
    if (lines === 1 || this.doc.widthOfString(value) <= valueWidth) {
      this.text(value, x + labelWidth, y, valueWidth);
      return 14;
    }
    const height = Math.min(
      this.doc.heightOfString(value, { width: valueWidth }),
      this.doc.currentLineHeight(true) * lines,
    );
    this.doc.text(value, x + labelWidth, y, { width: valueWidth, height, ellipsis: true });
    return height + 5;
  }

  /** One copy: as many pages as its items need, header on each, totals on the last. */
  printCopy(copia: CopiaImpresa, first: boolean): { from: number; to: number } {
    const from = this.pages;
    this.startPage(copia, first);
    for (const item of this.emitido.items) {
      const height = this.rowHeight(item);
      if (this.y + height > FOOTER_TOP - 6) this.startPage(copia, false);
      this.drawRow(item, height);
    }
    const lines = [...totalLines(this.emitido, this.letra)];
    const extra = transparencia(this.emitido, this.letra);
    const totalsHeight =
      (lines.length + (extra.length ? extra.length + 1.5 : 0)) * LINE + this.monedaHeight() + 16;
    if (this.y + totalsHeight > FOOTER_TOP - 6) this.startPage(copia, false);
    this.drawTotals(lines, extra);
    return { from, to: this.pages };
  }

  private startPage(copia: CopiaImpresa, first: boolean): void {
    if (!first) this.doc.addPage({ size: A4, margin: 0 });
    this.pages += 1;
    this.drawHeader(copia);
    this.drawTableHeader();
  }

  private drawHeader(copia: CopiaImpresa): void {
    const { doc, emitido, perfil, logo } = this;
    let y = MARGIN;
    doc.lineWidth(0.8).rect(MARGIN, y, WIDTH, 18).stroke();
    this.font(true, 11);
    this.text(COPIAS_IMPRESAS[copia], MARGIN, y + 4, WIDTH, "center");
    y += 18;

    const boxHeight = 112;
    doc.rect(MARGIN, y, WIDTH, boxHeight).stroke();
    // the class letter in its box at the centre, its code under it
    doc.rect(CENTER - 22, y, 44, 42).stroke();
    doc
      .moveTo(CENTER, y + 42)
      .lineTo(CENTER, y + boxHeight)
      .stroke();
    this.font(true, 24);
    this.text(this.letra, CENTER - 22, y + 4, 44, "center");
    this.font(true, 7);
    this.text(`COD. ${pad(emitido.cbteTipo, 2)}`, CENTER - 22, y + 32, 44, "center");

    // issuer (left)
    const leftX = MARGIN + 8;
    const leftWidth = CENTER - 30 - leftX;
    let left = y + 8;
    if (logo) {
      doc.image(Buffer.from(logo), leftX, left, { fit: [130, 36] });
      left += 40;
    } else {
      this.font(true, 13);
      this.text(perfil?.razonSocial ?? emitido.cuit, leftX, left + 6, leftWidth);
      left += 40;
    }
    left += this.field("Razón Social", perfil?.razonSocial ?? "", leftX, left, leftWidth, 2);
    left += this.field(
      "Domicilio Comercial",
      perfil?.domicilioComercial ?? "",
      leftX,
      left,
      leftWidth,
      2,
    );
    this.field("Condición frente al IVA", perfil?.condicionIva ?? "", leftX, left, leftWidth);

    // voucher (right)
    const rightX = CENTER + 30;
    const rightWidth = MARGIN + WIDTH - 8 - rightX;
    // the name on one line: the largest size, up to 16 pt, that fits
    const nombre = nombreComprobante(emitido.cbteTipo);
    let size = 16;
    while (size > 7 && this.font(true, size).widthOfString(nombre) > rightWidth) size -= 0.5;
    this.text(nombre, rightX, y + 10, rightWidth);
    let right = y + 40;
    this.field("Punto de Venta", pad(emitido.ptoVta, 5), rightX, right, 110);
    this.field("Comp. Nro", pad(emitido.cbteNro, 8), rightX + 110, right, rightWidth - 110);
    right += 14;
    this.field("Fecha de Emisión", fecha(emitido.cbteFch), rightX, right, rightWidth);
    this.field("CUIT", emitido.cuit, rightX, right + 14, rightWidth);
    this.field("Ingresos Brutos", perfil?.ingresosBrutos ?? "", rightX, right + 28, rightWidth);
    this.field(
      "Fecha de Inicio de Actividades",
      perfil?.inicioActividades ? fecha(perfil.inicioActividades) : "",
      rightX,
      right + 42,
      rightWidth,
    );
    y += boxHeight;

    // service period and payment due date
    if (emitido.fchServDesde || emitido.fchServHasta || emitido.fchVtoPago) {
      doc.rect(MARGIN, y, WIDTH, 18).stroke();
      const third = WIDTH / 3;
      if (emitido.fchServDesde) {
        this.field("Período Facturado Desde", fecha(emitido.fchServDesde), leftX, y + 5, third);
      }
      if (emitido.fchServHasta) {
        this.field("Hasta", fecha(emitido.fchServHasta), leftX + third, y + 5, third);
      }
      if (emitido.fchVtoPago) {
        this.field(
          "Fecha de Vto. para el pago",
          fecha(emitido.fchVtoPago),
          leftX + 2 * third - 20,
          y + 5,
          third,
        );
      }
      y += 18;
    }

    // receiver
    const receptor = emitido.receptor;
    const receiverLines = this.receiverExtras();
    const receiverHeight = 62 + receiverLines.length * 14;
    doc.rect(MARGIN, y, WIDTH, receiverHeight).stroke();
    const full = WIDTH - 16;
    const documento =
      receptor.docTipo === 99 && receptor.docNro === "0"
        ? "Consumidor Final sin identificar"
        : receptor.docNro;
    this.field(tipoDocumento(receptor.docTipo), documento, leftX, y + 6, CENTER - 20 - leftX);
    this.field(
      "Condición frente al IVA",
      condicionIva(receptor.condicionIvaReceptorId),
      CENTER - 20,
      y + 6,
      MARGIN + WIDTH - 8 - (CENTER - 20),
    );
    this.field("Apellido y Nombre / Razón Social", receptor.razonSocial ?? "", leftX, y + 20, full);
    this.field("Domicilio", receptor.domicilio ?? "", leftX, y + 34, full);
    this.field("Condición de venta", this.condicionVenta(), leftX, y + 48, full);
    receiverLines.forEach(([label, value], index) => {
      this.field(label, value, leftX, y + 62 + index * 14, full);
    });
    this.y = y + receiverHeight + 6;
  }

  /** Not part of the stored voucher: FCE is sold on account, anything else in cash. */
  private condicionVenta(): string {
    return isFce(this.emitido.cbteTipo) ? "Cuenta Corriente" : "Contado";
  }

  /** Associated vouchers, FCE data and the currency, one line each. */
  private receiverExtras(): [string, string][] {
    const { emitido } = this;
    const lines: [string, string][] = emitido.comprobantesAsociados.map((a) => [
      "Comprobante Asociado",
      `${nombreComprobante(a.cbteTipo)} ${letraComprobante(a.cbteTipo)} N° ${numeroComprobante(a.ptoVta, a.cbteNro)}${a.cbteFch ? ` del ${fecha(a.cbteFch)}` : ""}${a.cuit ? ` (CUIT ${a.cuit})` : ""}`,
    ]);
    for (const opcional of emitido.opcionales) {
      const label = FCE_OPCIONALES[opcional.id];
      if (label) lines.push([label, opcional.valor]);
    }
    return lines;
  }

  private monedaHeight(): number {
    return this.emitido.moneda.id === PESOS ? 0 : 2 * LINE;
  }

  private drawTableHeader(): void {
    const { doc } = this;
    doc.save().rect(MARGIN, this.y, WIDTH, 16).fillAndStroke("#d9d9d9", "black").restore();
    this.font(true, ROW_FONT);
    let x = MARGIN;
    for (const column of this.columns) {
      this.text(column.title, x + 2, this.y + 5, column.width - 4, column.align);
      x += column.width;
    }
    this.y += 18;
  }

  private rowHeight(item: wsfe.Emitido["items"][number]): number {
    this.font(false, ROW_FONT);
    const description = this.columns[1]!;
    const height = this.doc.heightOfString(item.descripcion, { width: description.width - 4 });
    return Math.max(height, ROW_FONT + 2) + 4;
  }

  private drawRow(item: wsfe.Emitido["items"][number], height: number): void {
    this.font(false, ROW_FONT);
    let x = MARGIN;
    for (const column of this.columns) {
      const value = column.value(item);
      if (column.title === "Producto / Servicio") {
        this.doc.text(value, x + 2, this.y + 2, { width: column.width - 4 });
      } else {
        this.text(value, x + 2, this.y + 2, column.width - 4, column.align);
      }
      x += column.width;
    }
    this.y += height;
    this.doc
      .save()
      .strokeColor("#bbbbbb")
      .lineWidth(0.3)
      .moveTo(MARGIN, this.y - 1)
      .lineTo(MARGIN + WIDTH, this.y - 1)
      .stroke()
      .restore();
  }

  private drawTotals(lines: TotalLine[], extra: TotalLine[]): void {
    const { emitido } = this;
    const symbol = emitido.moneda.id === PESOS ? "$" : emitido.moneda.id;
    const x = MARGIN + WIDTH - 300;
    let y = this.y + 8;
    for (const line of lines) {
      this.font(line.bold === true, line.bold ? 10 : 8);
      this.text(`${line.label}:`, x, y, 196, "right");
      this.text(`${symbol} ${importe(line.amount)}`, x + 196, y, 96, "right");
      y += line.bold ? LINE + 3 : LINE;
    }
    if (emitido.moneda.id !== PESOS) {
      this.font(false, 8);
      this.text(
        `Moneda: ${nombreMoneda(emitido.moneda.id)} (${emitido.moneda.id}) — Tipo de cambio: ${decimal(emitido.moneda.cotizacion)}`,
        MARGIN + 8,
        y,
        WIDTH - 16,
        "right",
      );
      y += LINE;
      this.text(
        `Importe Total en Pesos: $ ${importe(enPesos(emitido.totales.impTotal, emitido.moneda.cotizacion))}`,
        MARGIN + 8,
        y,
        WIDTH - 16,
        "right",
      );
      y += LINE;
    }
    if (extra.length) {
      y += LINE / 2;
      this.font(true, 8);
      this.text(
        "Régimen de Transparencia Fiscal al Consumidor (Ley 27.743)",
        MARGIN + 8,
        y,
        WIDTH - 16,
      );
      y += LINE;
      for (const line of extra) {
        this.font(false, 8);
        this.text(`${line.label}: $ ${importe(line.amount)}`, MARGIN + 8, y, WIDTH - 16);
        y += LINE;
      }
    }
    this.y = y;
  }

  /** QR, CAE and page x/y at the foot of each page of one copy. */
  drawFooters(range: { from: number; to: number }): void {
    const { doc, emitido } = this;
    const total = range.to - range.from;
    for (let index = range.from; index < range.to; index++) {
      doc.switchToPage(index);
      const y = FOOTER_TOP;
      doc.lineWidth(0.8).rect(MARGIN, y, WIDTH, 96).stroke();
      if (emitido.qr) drawQr(doc, emitido.qr, MARGIN + 4, y + 4, 88);
      const textX = MARGIN + 100;
      this.font(true, 10);
      this.text("Comprobante Autorizado", textX, y + 14, 200);
      this.font(false, 6.5);
      doc.text(
        "Esta Administración Federal no se responsabiliza por los datos ingresados en el detalle de la operación",
        textX,
        y + 30,
        { width: 200 },
      );
      const rightX = MARGIN + WIDTH - 200;
      this.field("CAE N°", emitido.cae ?? "", rightX, y + 14, 192);
      this.field(
        "Fecha de Vto. de CAE",
        emitido.caeVencimiento ? fecha(emitido.caeVencimiento) : "",
        rightX,
        y + 28,
        192,
      );
      this.font(true, 8);
      this.text(`Pág. ${index - range.from + 1}/${total}`, CENTER - 40, y + 78, 80, "center");
    }
  }
}

/** The document's fixed creation date: the voucher's own date, so a re-render is identical. */
function creationDate(cbteFch: string): Date {
  return new Date(`${cbteFch.slice(0, 4)}-${cbteFch.slice(4, 6)}-${cbteFch.slice(6, 8)}T12:00:00Z`);
}

/**
 * The printed voucher as the authority's "Comprobantes en línea" lays it out, one A4 page per
 * copy (more when the items need them). Deterministic: the same voucher and profile give the
 * same bytes.
 */
export function renderComprobante(impresion: Impresion, fonts: Fonts): Promise<Buffer> {
  const { emitido } = impresion;
  const titulo = `${nombreComprobante(emitido.cbteTipo)} ${letraComprobante(emitido.cbteTipo)} ${numeroComprobante(emitido.ptoVta, emitido.cbteNro)}`;
  const doc = new PDFDocument({
    size: A4,
    margin: 0,
    bufferPages: true,
    autoFirstPage: true,
    info: {
      Title: titulo,
      Author: impresion.perfil?.razonSocial ?? emitido.cuit,
      Creator: "pasarela",
      Producer: "pasarela",
      CreationDate: creationDate(emitido.cbteFch),
    },
  });
  // pdfkit takes a parsed fontkit font as a source as well (its declarations only list files
  // and buffers)
  doc.registerFont("regular", fonts.regular as unknown as Buffer);
  doc.registerFont("bold", fonts.bold as unknown as Buffer);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const printer = new Printer(doc, impresion);
  const ranges = impresion.copias.map((copia, index) => printer.printCopy(copia, index === 0));
  for (const range of ranges) printer.drawFooters(range);
  doc.end();
  return done;
}
