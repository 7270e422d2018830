import { billing } from "@pasarela/contracts";
import { z } from "zod";
import { defineCommand, flag } from "../command.js";

const account = flag(z.string(), "la cuenta", "<accountId>");

/** Plans and their assignment to accounts, and what an account used this period. */
export const planCommands = [
  defineCommand({
    resource: "plan",
    verb: "create",
    summary:
      'Crea un plan. Responde {"name","facturas","padrones","periodo","rejectionCapPerHour"}.',
    flags: {
      name: flag(z.string(), "el nombre del plan, único"),
      facturas: flag(
        z.coerce.number().int(),
        "cuántos comprobantes de producción permite por período",
        "<n>",
      ),
      padrones: flag(
        z.coerce.number().int(),
        "cuántas consultas al padrón de producción permite por período",
        "<n>",
      ),
      periodo: flag(billing.periodoSchema.default("mensual"), "cada cuánto se renueva la cuota"),
      "rechazos-por-hora": flag(
        z.coerce.number().int().optional(),
        "cuántas emisiones rechazadas por hora antes de responder 429 (50 si no se da)",
        "<n>",
      ),
    },
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
    summary: 'Lista los planes, el inicial entre ellos. Responde {"plans":[...]}.',
    flags: {},
    run: (bus) => bus.request(billing.planList, {}),
  }),
  defineCommand({
    resource: "account",
    verb: "plan",
    summary:
      'Asigna un plan a una cuenta; rige en el acto y el período conserva su inicio. Responde {"accountId","plan":{...}}.',
    flags: { account, plan: flag(z.string(), "el nombre del plan", "<name>") },
    run: (bus, flags) =>
      bus.request(billing.planAssign, { accountId: flags.account, plan: flags.plan }),
  }),
  defineCommand({
    resource: "account",
    verb: "usage",
    summary:
      'Lo que una cuenta usó en este período. Responde {"plan","periodStart","periodEnd","facturas":{"quota","used","left"},"padrones":{...}}.',
    flags: { account },
    run: (bus, flags) => bus.request(billing.accountUsage, { accountId: flags.account }),
  }),
];
