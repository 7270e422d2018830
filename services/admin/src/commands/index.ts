import type { Command } from "../command.js";
import { accountCommands } from "./account.js";
import { keyCommands } from "./key.js";

/** Every operator command; a service adds its own file here. */
export const commands: Command[] = [...accountCommands, ...keyCommands];
