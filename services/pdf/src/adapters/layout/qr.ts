import QRCode from "qrcode";

type Doc = PDFKit.PDFDocument;

/** Draws a dark module per rectangle, runs of a row merged: crisp at any resolution. */
export function drawQr(doc: Doc, url: string, x: number, y: number, size: number): void {
  // one byte segment: the URL's own mode, without searching for a cheaper mix of segments
  const qr = QRCode.create([{ data: Buffer.from(url, "utf8"), mode: "byte" }], {
    errorCorrectionLevel: "M",
  });
  const count = qr.modules.size;
  const quiet = 4;
  const module = size / (count + 2 * quiet);
  doc.save().fillColor("black");
  for (let row = 0; row < count; row++) {
    let start = -1;
    for (let col = 0; col <= count; col++) {
      const dark = col < count && qr.modules.get(row, col) === 1;
      if (dark && start < 0) start = col;
      if (!dark && start >= 0) {
        doc.rect(
          x + (quiet + start) * module,
          y + (quiet + row) * module,
          (col - start) * module,
          module,
        );
        start = -1;
      }
    }
  }
  doc.fill().restore();
}
