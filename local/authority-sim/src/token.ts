import { createHmac, timingSafeEqual } from "node:crypto";
import { child, childrenNamed, parseXml, isReadError } from "./soap/xml.js";
import { dotnetUtc } from "./time.js";

export interface TokenFields {
  source: string;
  service: string;
  uniqueId: number;
  genTimeSec: number;
  expTimeSec: number;
  entity: string;
  uid: string;
  relations: readonly string[];
}

export function buildToken(t: TokenFields): string {
  const relations = t.relations.map((r) => `<relation key="${r}" reltype="4"/>`).join("");
  const xml =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sso version="2.0">\n` +
    `    <id src="${t.source}" dst="CN=${t.service}, O=AFIP, C=AR" unique_id="${t.uniqueId}"` +
    ` gen_time="${t.genTimeSec}" exp_time="${t.expTimeSec}"/>\n` +
    `    <operation type="login" value="granted">\n` +
    `        <login entity="${t.entity}" service="${t.service}" uid="${t.uid}"` +
    ` authmethod="cms" regmethod="22">\n` +
    `            <relations>${relations}</relations>\n` +
    `        </login>\n    </operation>\n</sso>\n`;
  return Buffer.from(xml, "utf8").toString("base64");
}

export function signToken(secret: string, token: string): string {
  return createHmac("sha256", secret).update(token, "utf8").digest("base64");
}

export type TokenCheck =
  | { ok: true; relations: readonly string[] }
  | { ok: false; kind: "relations" | "other"; message: string };

/**
 * The business services' token validation, in the authority's order: parse, dates, hash,
 * service id, relations. Messages are the text after "ValidacionDeToken: ".
 */
export function checkToken(args: {
  token: string;
  sign: string;
  secret: string;
  service: string;
  cuit: string;
  nowMs: number;
}): TokenCheck {
  const fail = (message: string): TokenCheck => ({ ok: false, kind: "other", message });
  if (args.token.trim() === "") return fail("Parametro nulo o vacio (token)");
  if (args.sign.trim() === "") return fail("Parametro nulo o vacio (sign)");
  const doc = parseXml(Buffer.from(args.token.trim(), "base64").toString("utf8"));
  if (isReadError(doc) || doc.name !== "sso") {
    return fail("Error al verificar hash: Token con formato invalido");
  }
  const id = child(doc, "", "id");
  const login = child(child(doc, "", "operation"), "", "login");
  const gen = Number(id?.attrs["gen_time"]);
  const exp = Number(id?.attrs["exp_time"]);
  if (login === undefined || !Number.isFinite(gen) || !Number.isFinite(exp)) {
    return fail("Error al verificar hash: Token con formato invalido");
  }
  const nowSec = Math.floor(args.nowMs / 1000);
  if (nowSec < gen || nowSec > exp) {
    return fail(
      `No validaron las fechas del token GenTime, ExpTime, NowUTC: ${gen} (${dotnetUtc(gen * 1000)}), ` +
        `${exp} (${dotnetUtc(exp * 1000)}), ${dotnetUtc(args.nowMs)}`,
    );
  }
  const expected = Buffer.from(signToken(args.secret, args.token.trim()), "base64");
  const given = Buffer.from(args.sign.trim(), "base64");
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return fail("Error al verificar hash: La firma no corresponde al token");
  }
  const service = login.attrs["service"] ?? "";
  if (service !== args.service) {
    return fail(`No valido Id Sistema: ${args.service}(Id Sistema de token es: ${service})`);
  }
  const relations = childrenNamed(child(login, "", "relations"), "", "relation").map(
    (r) => r.attrs["key"] ?? "",
  );
  if (!relations.includes(args.cuit)) {
    return {
      ok: false,
      kind: "relations",
      message: `No apareció CUIT en lista de relaciones: ${args.cuit}`,
    };
  }
  return { ok: true, relations };
}
