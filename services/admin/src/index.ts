export { parseFlags, runCli, type CliOutcome } from "./run.js";
