import {
  databaseConfig,
  envInt,
  envString,
  envUrl,
  natsConfig,
  parseConfig,
  telemetryConfig,
  z,
} from "@pasarela/config";

export const pdfConfigSchema = z.object({
  ...natsConfig,
  ...databaseConfig,
  ...telemetryConfig,
  /**
   * where rendered vouchers are kept (filesystem store), relative to the working directory;
   * `npm start` uses `.data/pdf`
   */
  PDF_STORAGE_DIR: envString().default(".data/pdf"),
  /** the public base URL links are built on: `<base>/comprobantes/<token>.pdf` */
  PDF_PUBLIC_URL: envUrl().default("http://127.0.0.1:3000"),
  /** how long a shareable link works */
  PDF_LINK_TTL_DAYS: envInt().pipe(z.number().min(1).max(3650)).default(30),
});

export type PdfConfig = z.output<typeof pdfConfigSchema>;

export const loadConfig = (env: Record<string, string | undefined> = process.env): PdfConfig =>
  parseConfig(pdfConfigSchema, env);
