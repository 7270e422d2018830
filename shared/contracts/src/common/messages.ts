import { z } from "zod";

let configured = false;

const typeNames: Record<string, string> = {
  number: "un número",
  int: "un número entero",
  string: "un texto",
  boolean: "true o false",
  object: "un objeto",
  array: "una lista",
  null: "null",
};

const described = (value: unknown) =>
  typeof value === "string" ? `"${value}"` : (JSON.stringify(value) ?? String(value));

/**
 * Validation messages in Spanish that complete "El campo <campo> …", like the rest of the
 * API; the Spanish locale covers whatever is not worded here.
 */
export function configureZodMessages(): void {
  if (configured) return;
  configured = true;
  z.config(z.locales.es());
  z.config({
    customError: (issue) => {
      // only the common issues are reworded; the Spanish locale words the rest
      if (issue.code === "invalid_type") {
        if (issue.input === undefined) return "es obligatorio";
        return `debe ser ${typeNames[issue.expected] ?? issue.expected}`;
      }
      if (issue.code === "too_small") {
        const minimum = String(issue.minimum);
        if (issue.origin === "string") return `debe tener al menos ${minimum} caracteres`;
        if (issue.origin === "array") return `debe tener al menos ${minimum} elementos`;
        return `debe ser ${issue.inclusive ? "mayor o igual a" : "mayor que"} ${minimum}`;
      }
      if (issue.code === "too_big") {
        const maximum = String(issue.maximum);
        if (issue.origin === "string") return `debe tener como máximo ${maximum} caracteres`;
        if (issue.origin === "array") return `debe tener como máximo ${maximum} elementos`;
        return `debe ser ${issue.inclusive ? "menor o igual a" : "menor que"} ${maximum}`;
      }
      if (issue.code === "invalid_value")
        return `debe ser ${issue.values.map(described).join(" o ")}`;
      // a body of several forms chosen by one field: that field names the forms it has
      if (issue.code === "invalid_union" && issue.discriminator !== undefined) {
        const options: readonly unknown[] =
          "options" in issue && Array.isArray(issue.options) ? issue.options : [];
        const values = options.filter((value) => value !== undefined);
        return values.every((value) => typeof value === "boolean")
          ? `debe ser ${typeNames.boolean}`
          : `debe ser ${values.map(described).join(" o ")}`;
      }
      return undefined;
    },
  });
}
