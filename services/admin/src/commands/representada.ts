import { environmentSchema, ticket } from "@pasarela/contracts";
import { fail, logoInvalid, ok } from "@pasarela/errors";
import { z } from "zod";
import { defineCommand, flag } from "../command.js";
import { readFlagFile } from "../files.js";

export const representadaCommands = [
  defineCommand({
    resource: "representada",
    verb: "create",
    summary:
      'Registra una representada (un CUIT en un entorno) y genera su clave. Responde {"representadaId","cuit","environment","alias","csr"}: el CSR va a la autoridad, la clave privada queda cifrada en la pasarela.',
    flags: {
      account: flag(z.string(), "la cuenta", "<accountId>"),
      cuit: flag(z.string(), "el CUIT representado, 11 dígitos sin guiones", "<cuit>"),
      environment: flag(environmentSchema, "el entorno de la autoridad"),
      alias: flag(
        z.string().optional(),
        "el nombre (CN) del certificado, el alias con que se delega en la autoridad",
        "<cn>",
      ),
      "pto-vta": flag(
        z.coerce.number().int().optional(),
        "el punto de venta que se usa cuando un pedido no lo indica",
        "<n>",
      ),
      organization: flag(
        z.string().optional(),
        "la razón social que lleva el CSR (O=)",
        "<razón social>",
      ),
    },
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
    summary:
      'Lista las representadas de una cuenta con el estado de su certificado. Responde {"representadas":[...]}.',
    flags: { account: flag(z.string(), "la cuenta", "<accountId>") },
    run: (bus, flags) => bus.request(ticket.representadaList, { accountId: flags.account }),
  }),
];

/** `-` clears a field of the profile; any other value sets it. */
const CLEAR = "-";
const profileText = z.string().optional();
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
  summary:
    'Cambia el perfil de emisor que muestran los comprobantes impresos: solo las opciones dadas, y "-" borra un dato. Responde {"representadaId","cuit","environment","perfil"}.',
  flags: {
    representada: flag(z.string(), "el representadaId", "<id>"),
    "razon-social": flag(profileText, "la razón social impresa", "<texto>"),
    domicilio: flag(profileText, "el domicilio comercial", "<texto>"),
    "condicion-iva": flag(profileText, "la condición frente al IVA impresa", "<texto>"),
    iibb: flag(profileText, "el número de ingresos brutos", "<texto>"),
    "inicio-actividades": flag(profileText, "la fecha de inicio de actividades", "AAAAMMDD"),
    logo: flag(
      profileText,
      "un PNG o JPEG de hasta 200 KB, impreso en el encabezado",
      "<archivo.png|.jpg>",
    ),
    email: flag(profileText, "el e-mail de la representada", "<e-mail>"),
  },
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
