import { environmentSchema, ticket } from "@pasarela/contracts";
import { z } from "zod";
import { defineCommand } from "../command.js";

export const representadaCommands = [
  defineCommand({
    resource: "representada",
    verb: "create",
    usage:
      "representada create --account <accountId> --cuit <cuit> --environment homologacion|produccion [--alias <cn>] [--pto-vta <n>] [--organization <razón social>]",
    flags: z
      .object({
        account: z.string(),
        cuit: z.string(),
        environment: environmentSchema,
        alias: z.string().optional(),
        "pto-vta": z.coerce.number().int().optional(),
        organization: z.string().optional(),
      })
      .strict(),
    // the reply is already the printed shape: representadaId, cuit, environment, alias, csr
    run: (bus, flags) =>
      bus.request(ticket.representadaCreate, {
        accountId: flags.account,
        cuit: flags.cuit,
        environment: flags.environment,
        ...(flags.alias === undefined ? {} : { alias: flags.alias }),
        ...(flags["pto-vta"] === undefined ? {} : { ptoVta: flags["pto-vta"] }),
        ...(flags.organization === undefined
          ? {}
          : { organization: flags.organization, country: "AR" }),
      }),
  }),
  defineCommand({
    resource: "representada",
    verb: "list",
    usage: "representada list --account <accountId>",
    flags: z.object({ account: z.string() }).strict(),
    run: (bus, flags) => bus.request(ticket.representadaList, { accountId: flags.account }),
  }),
];
