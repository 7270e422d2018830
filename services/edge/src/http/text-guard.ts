import { forbiddenCharacter, invalidField } from "@pasarela/errors";
import type { FastifyInstance } from "fastify";
import { EdgeError } from "./edge-error.js";

/**
 * Anything outside XML 1.0's Char production: NUL and the other C0 controls but tab, LF and
 * CR; lone surrogates (the `u` flag matches them as code points); U+FFFE and U+FFFF.
 * PostgreSQL refuses NUL, a lone surrogate would be stored as U+FFFD, and the authority's
 * SOAP cannot carry any of them.
 */
const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

export interface ForbiddenText {
  /** where the text is: keys and indexes from the root */
  path: string[];
  codePoint: number;
}

const forbiddenIn = (text: string): number | undefined => {
  const match = FORBIDDEN.exec(text);
  return match ? match[0].codePointAt(0) : undefined;
};

/** Shows a key that itself holds a forbidden character without printing the character. */
export const printable = (key: string) =>
  key.replace(
    new RegExp(FORBIDDEN.source, "gu"),
    (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, "0")}`,
  );

/** A place in the value being walked; the path is rebuilt only for the one reported. */
interface Place {
  readonly value: unknown;
  readonly key?: string;
  readonly parent?: Place;
}

function pathOf(place: Place | undefined): string[] {
  const path: string[] = [];
  for (let at = place; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The first string (value or key) anywhere in `value` holding a forbidden character. Walks
 * with its own stack and linked places: a body nested as deep as the body limit allows must
 * neither overflow the call stack nor cost more than linear time.
 */
export function findForbiddenText(value: unknown): ForbiddenText | undefined {
  const pending: Place[] = [{ value }];
  for (let place = pending.pop(); place; place = pending.pop()) {
    const current = place.value;
    if (typeof current === "string") {
      const codePoint = forbiddenIn(current);
      if (codePoint !== undefined) return { path: pathOf(place), codePoint };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) {
        pending.push({ value: current[i], key: String(i), parent: place });
      }
    } else if (typeof current === "object" && current !== null) {
      const entries = Object.entries(current as Record<string, unknown>);
      for (const [key] of entries) {
        const codePoint = forbiddenIn(key);
        if (codePoint !== undefined) return { path: [...pathOf(place), printable(key)], codePoint };
      }
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        pending.push({ value: child, key, parent: place });
      }
    }
  }
  return undefined;
}

/**
 * The name of the first query-string parameter whose percent-encoding is not UTF-8 (`%ZZ`,
 * `%ED%A0%80`): the query parser would hand it on undecoded, as if it were the caller's text.
 */
export function badlyEncodedQueryParameter(url: string): string | undefined {
  const start = url.indexOf("?");
  if (start < 0) return undefined;
  for (const part of url.slice(start + 1).split("&")) {
    const equals = part.indexOf("=");
    const name = equals < 0 ? part : part.slice(0, equals);
    const value = equals < 0 ? "" : part.slice(equals + 1);
    let decodedName: string;
    try {
      decodedName = decodeURIComponent(name);
    } catch {
      return printable(name);
    }
    try {
      decodeURIComponent(value);
    } catch {
      return printable(decodedName);
    }
  }
  return undefined;
}

/**
 * The one place every query string and path parameter, and every parsed body, passes before
 * any route sees it: no text may hold a forbidden character; that is a 400 naming the field,
 * before validation, services or the authority. (The body's bytes are checked by its parser:
 * json-body.ts.)
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook("preValidation", (request, _reply, done) => {
    const badlyEncoded = badlyEncodedQueryParameter(request.url);
    if (badlyEncoded !== undefined) {
      done(
        new EdgeError(
          invalidField(
            `querystring.${badlyEncoded}`,
            "no está bien codificado: usá %XX sobre los bytes UTF-8 del texto",
          ),
        ),
      );
      return;
    }
    const parts: [prefix: string, value: unknown][] = [
      ["params.", request.params],
      ["querystring.", request.query],
      ["", request.body],
    ];
    for (const [prefix, value] of parts) {
      const found = findForbiddenText(value);
      if (found) {
        const field = found.path.length > 0 ? `${prefix}${found.path.join(".")}` : "(cuerpo)";
        done(new EdgeError(invalidField(field, forbiddenCharacter(found.codePoint))));
        return;
      }
    }
    done();
  });
}
