/** A plain e-mail billing sends through the mail service. */
export interface Message {
  to: string;
  subject: string;
  text: string;
}

/** Sends a message; the adapter in adapters/mail.ts queues it for the mail service. */
export type SendMessage = (message: Message) => Promise<void>;

/** A header is one line: breaks and runs of blanks become one space. */
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

export function passwordResetMessage(input: {
  to: string;
  name: string;
  link: string;
  minutes: number;
}): Message {
  return {
    to: input.to,
    subject: "Restablecé tu contraseña de la pasarela",
    text: [
      `Hola ${oneLine(input.name)}:`,
      "",
      "Recibimos un pedido para restablecer la contraseña de tu usuario en el panel de la pasarela.",
      `Para elegir una nueva, abrí este enlace (vale por ${input.minutes} minutos y se puede usar una sola vez):`,
      "",
      input.link,
      "",
      "Si no lo pediste vos, ignorá este mensaje: tu contraseña sigue siendo la misma.",
      "",
    ].join("\n"),
  };
}

export function soporteReplyMessage(input: {
  to: string;
  name: string;
  asunto: string;
  mensaje: string;
}): Message {
  return {
    to: input.to,
    subject: `Respuesta a tu consulta: ${oneLine(input.asunto)}`,
    text: [
      `Hola ${oneLine(input.name)}:`,
      "",
      `El equipo de soporte respondió tu consulta «${oneLine(input.asunto)}»:`,
      "",
      input.mensaje,
      "",
      "Podés ver la conversación y responder desde el panel de la pasarela, en Soporte.",
      "",
    ].join("\n"),
  };
}
