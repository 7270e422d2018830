import { environmentSchema, ticket } from "@pasarela/contracts";
import { fail, logoInvalid, ok } from "@pasarela/errors";
import { z } from "zod";
import { defineCommand } from "../command.js";
import { readFlagFile } from "../files.js";

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

/** `-` clears a field of the profile; any other value sets it. */
const CLEAR = "-";
const field = (value: string | undefined) =>
  value === undefined ? undefined : value === CLEAR ? null : value;

const LOGO_TYPES: Record<string, "image/png" | "image/jpeg"> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
};

export const representadaProfileCommand = defineCommand({
  resource: "representada",
  verb: "profile",
  usage:
    "representada profile --representada <id> [--razon-social <texto>] [--domicilio <texto>] [--condicion-iva <texto>] [--iibb <texto>] [--inicio-actividades AAAAMMDD] [--logo <archivo.png|.jpg>] [--email <e-mail>] (- borra un dato)",
  flags: z
    .object({
      representada: z.string(),
      "razon-social": z.string().optional(),
      domicilio: z.string().optional(),
      "condicion-iva": z.string().optional(),
      iibb: z.string().optional(),
      "inicio-actividades": z.string().optional(),
      logo: z.string().optional(),
      email: z.string().optional(),
    })
    .strict(),
  run: async (bus, flags) => {
    let logo: ticket.Logo | null | undefined;
    if (flags.logo === CLEAR) logo = null;
    else if (flags.logo !== undefined) {
      const extension = /\.([a-z]+)$/i.exec(flags.logo)?.[1]?.toLowerCase() ?? "";
      const mediaType = LOGO_TYPES[extension];
      if (!mediaType) return fail(logoInvalid("no termina en .png, .jpg ni .jpeg"));
      const bytes = await readFlagFile("logo", flags.logo);
      if (!bytes.ok) return bytes;
      logo = { mediaType, data: bytes.value.toString("base64") };
    }
    const set = await bus.request(ticket.perfilSet, {
      representadaId: flags.representada,
      razonSocial: field(flags["razon-social"]),
      domicilioComercial: field(flags.domicilio),
      condicionIva: field(flags["condicion-iva"]),
      ingresosBrutos: field(flags.iibb),
      inicioActividades: field(flags["inicio-actividades"]),
      logo,
      email: field(flags.email),
    });
    if (!set.ok) return set;
    const { perfil, ...representada } = set.value;
    // the logo is summarised, never printed whole
    const logoBytes = perfil.logo ? Buffer.from(perfil.logo.data, "base64").length : null;
    return ok({
      ...representada,
      perfil: {
        ...perfil,
        logo: perfil.logo ? { mediaType: perfil.logo.mediaType, bytes: logoBytes } : null,
      },
    });
  },
});
