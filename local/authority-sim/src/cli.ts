import { pathToFileURL } from "node:url";
import { commands } from "./cli-commands.js";
import {
  commandHelp,
  commandNamed,
  isHelp,
  overview,
  parseFlags,
  UsageError,
} from "./cli-flags.js";
import { makeControlClient, type ControlClient } from "./control/client.js";

export { UsageError } from "./cli-flags.js";

/**
 * Runs one command; returns what goes to stdout: JSON text, a PEM for cert/ca/tls-ca, or the
 * usage for `--help`, `-h` and `help` (of every command, or of `<command> --help`), derived
 * from the flag definitions the parser reads.
 */
export async function runCli(argv: readonly string[], client: ControlClient): Promise<string> {
  const [name, ...rest] = argv;
  if (name === undefined) throw new UsageError(`missing command; see npm run sim -- --help`);
  if (isHelp(name)) {
    // `help` alone, or `help <command>`
    return rest[0] === undefined
      ? overview(commands)
      : commandHelp(commandNamed(commands, rest[0]));
  }
  const command = commandNamed(commands, name);
  const flags = parseFlags(command, rest);
  if (flags === undefined) return commandHelp(command);
  return command.run(client, flags);
}

async function main(): Promise<void> {
  const client = makeControlClient(process.env["SIM_URL"] ?? "http://127.0.0.1:4400");
  try {
    const out = await runCli(process.argv.slice(2), client);
    process.stdout.write(out.endsWith("\n") ? out : `${out}\n`);
  } catch (error) {
    process.stderr.write(
      `${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n`,
    );
    process.exitCode = error instanceof UsageError ? 2 : 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
