import { execFileSync } from "node:child_process";

/**
 * What a printed voucher says, read with the tools a person would use: pdftotext for its text
 * and zbarimg for the QR of its first page (poppler-utils and zbar-tools).
 */

/** The PDF's text, laid out as printed. */
export const pdfText = (file: string): string =>
  execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });

/** The text the QR on the PDF's first page decodes to. */
export function pdfQr(file: string): string {
  execFileSync("pdftoppm", ["-png", "-r", "150", "-f", "1", "-l", "1", "-singlefile", file, file]);
  return execFileSync("zbarimg", ["--raw", "-q", `${file}.png`], {
    encoding: "utf8",
    // zbarimg complains on stderr when there is no D-Bus; the decoded text is on stdout
    stdio: ["ignore", "pipe", "ignore"],
  }).trim();
}

/** The RG 4892 JSON a QR URL carries in `p`. */
export function qrPayload(url: string): Record<string, unknown> {
  const p = new URL(url).searchParams.get("p")!;
  return JSON.parse(Buffer.from(p, "base64").toString("utf8")) as Record<string, unknown>;
}
