import { resolve } from "node:path";
import { envPort, envString, parseConfig, z } from "@pasarela/config";
import { runMain } from "@pasarela/service";
import { startMailSink } from "./sink.js";

const sinkConfigSchema = z.object({
  MAIL_SINK_DIR: envString().default(".data/mail"),
  MAIL_SINK_PORT: envPort().default(2525),
  MAIL_SINK_HOST: envString().default("127.0.0.1"),
});

runMain("mail-sink", async () => {
  const config = parseConfig(sinkConfigSchema);
  const directory = resolve(config.MAIL_SINK_DIR);
  const sink = await startMailSink({
    directory,
    port: config.MAIL_SINK_PORT,
    host: config.MAIL_SINK_HOST,
  });
  process.stdout.write(
    `${JSON.stringify({ level: "info", service: "mail-sink", port: sink.port, directory, msg: "SMTP sink listening" })}\n`,
  );
  const stop = () => {
    void sink.stop().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
});
