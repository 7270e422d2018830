import { billing } from "@pasarela/contracts";
import { z } from "zod";
import { defineCommand } from "../command.js";

/** Plans and their assignment to accounts, and what an account used this period. */
export const planCommands = [
  defineCommand({
    resource: "plan",
    verb: "create",
    usage: `plan create --name <name> --facturas <n> --padrones <n> [--periodo ${Object.keys(billing.PERIODOS).join("|")}] [--rechazos-por-hora <n>]`,
    flags: z
      .object({
        name: z.string(),
        facturas: z.coerce.number().int(),
        padrones: z.coerce.number().int(),
        periodo: billing.periodoSchema.default("mensual"),
        "rechazos-por-hora": z.coerce.number().int().optional(),
      })
      .strict(),
    run: (bus, flags) =>
      bus.request(billing.planCreate, {
        name: flags.name,
        facturas: flags.facturas,
        padrones: flags.padrones,
        periodo: flags.periodo,
        ...(flags["rechazos-por-hora"] === undefined
          ? {}
          : { rejectionCapPerHour: flags["rechazos-por-hora"] }),
      }),
  }),
  defineCommand({
    resource: "plan",
    verb: "list",
    usage: "plan list",
    flags: z.object({}).strict(),
    run: (bus) => bus.request(billing.planList, {}),
  }),
  defineCommand({
    resource: "account",
    verb: "plan",
    usage: "account plan --account <accountId> --plan <name>",
    flags: z.object({ account: z.string(), plan: z.string() }).strict(),
    run: (bus, flags) =>
      bus.request(billing.planAssign, { accountId: flags.account, plan: flags.plan }),
  }),
  defineCommand({
    resource: "account",
    verb: "usage",
    usage: "account usage --account <accountId>",
    flags: z.object({ account: z.string() }).strict(),
    run: (bus, flags) => bus.request(billing.accountUsage, { accountId: flags.account }),
  }),
];
