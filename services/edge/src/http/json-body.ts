import { inexactNumber, invalidJson, unsupportedCharset } from "@pasarela/errors";
import type { FastifyInstance } from "fastify";
import { EdgeError } from "./edge-error.js";
import { findInexactNumber } from "./json-numbers.js";
import { printable } from "./text-guard.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });

const UTF8_NAMES = new Set(["utf-8", "utf8"]);

/**
 * The first `charset` parameter of a Content-Type that does not name UTF-8 (unquoted, as
 * sent); undefined when every one does or there is none, which means UTF-8 for JSON.
 */
export function foreignCharset(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const parameters = contentType.split(";");
  for (let i = 1; i < parameters.length; i++) {
    const parameter = parameters[i]!;
    const equals = parameter.indexOf("=");
    if (equals < 0 || parameter.slice(0, equals).trim().toLowerCase() !== "charset") continue;
    let value = parameter.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
      value = value.slice(1, -1).replace(/\\(.)/g, "$1");
    }
    if (!UTF8_NAMES.has(value.toLowerCase())) return value;
  }
  return undefined;
}

/**
 * The one parser of JSON bodies, for every route. In order: a body declared in a charset other
 * than UTF-8 is a 415 (reading UTF-16 or Latin-1 bytes as UTF-8 would garble every accent); a
 * body that is not valid UTF-8 is a 400, never silently read with U+FFFD in place of its bytes;
 * then fastify's own JSON parser (prototype poisoning refused); then a number literal that a
 * double does not hold exactly is a 400 naming its field (json-numbers.ts).
 *
 * Only JSON is read: any other media type, text/plain included, is the 400 of the error
 * handler naming the Content-Type, never a string handed to the route.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser(["application/json", "text/plain"]);
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    const charset = foreignCharset(request.headers["content-type"]);
    if (charset !== undefined) {
      done(new EdgeError(unsupportedCharset(charset)), undefined);
      return;
    }
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(new EdgeError(invalidJson("el cuerpo no es texto UTF-8 válido")), undefined);
      return;
    }
    // synchronous: it calls back before returning
    void parseJson(request, text, (error, value) => {
      if (error) {
        done(error, undefined);
        return;
      }
      const inexact = findInexactNumber(text);
      if (inexact) {
        const field = inexact.path.length > 0 ? inexact.path.map(printable).join(".") : "(cuerpo)";
        done(new EdgeError(inexactNumber(field, inexact.literal)), undefined);
        return;
      }
      done(null, value);
    });
  });
}
