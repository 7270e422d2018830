import type { Command } from "../command.js";
import { accountCommands } from "./account.js";
import { certificateCommands } from "./certificate.js";
import { keyCommands } from "./key.js";
import { representadaCommands } from "./representada.js";

/** Every operator command; a service adds its own file here. */
export const commands: Command[] = [
  ...accountCommands,
  ...keyCommands,
  ...representadaCommands,
  ...certificateCommands,
];
