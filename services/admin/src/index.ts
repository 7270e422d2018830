export { parseFlags, runCli, type CliOutcome, type ParsedFlags } from "./run.js";
export { commands } from "./commands/index.js";
