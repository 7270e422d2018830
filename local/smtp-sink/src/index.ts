import { resolve } from "node:path";
import { envPort, envString, parseConfig, z } from "@pasarela/config";
import { startMailSink } from "./sink.js";

export { startMailSink, type MailSink, type SinkEntry, type SinkOptions } from "./sink.js";

const sinkConfigSchema = z.object({
  MAIL_SINK_DIR: envString().default(".data/mail"),
  MAIL_SINK_PORT: envPort().default(2525),
  MAIL_SINK_HOST: envString().default("127.0.0.1"),
});

/**
 * The sink as `npm start` and docker-compose run it: MAIL_SINK_DIR, MAIL_SINK_PORT and
 * MAIL_SINK_HOST say where it keeps messages and where it listens.
 */
export async function startMailSinkFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ stop(): Promise<void> }> {
  const config = parseConfig(sinkConfigSchema, env);
  const directory = resolve(config.MAIL_SINK_DIR);
  const sink = await startMailSink({
    directory,
    port: config.MAIL_SINK_PORT,
    host: config.MAIL_SINK_HOST,
  });
  process.stdout.write(
    `${JSON.stringify({ level: "info", service: "mail-sink", port: sink.port, directory, msg: "SMTP sink listening" })}\n`,
  );
  return { stop: () => sink.stop() };
}
