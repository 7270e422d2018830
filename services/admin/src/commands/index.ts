import type { Command } from "../command.js";
import { accountCommands } from "./account.js";
import { certificateCommands } from "./certificate.js";
import { cobrosCommands } from "./cobros.js";
import { keyCommands } from "./key.js";
import { planCommands } from "./plan.js";
import { mailCommands } from "./mail.js";
import { representadaCommands, representadaProfileCommand } from "./representada.js";
import { soporteCommands } from "./soporte.js";
import { userCommands } from "./user.js";

/** Every operator command; a service adds its own file here. */
export const commands: Command[] = [
  ...accountCommands,
  ...keyCommands,
  ...representadaCommands,
  representadaProfileCommand,
  ...certificateCommands,
  ...planCommands,
  ...mailCommands,
  ...cobrosCommands,
  ...userCommands,
  ...soporteCommands,
];
