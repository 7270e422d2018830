export { defineCommand, type Command } from "./command.js";
export { parseFlags, runCli, type CliOutcome } from "./run.js";
