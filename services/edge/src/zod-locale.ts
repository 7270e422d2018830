import { z } from "zod";

let configured = false;

/**
 * Validation messages in Spanish, like the rest of the API; a missing field says so plainly
 * instead of "expected string, received undefined".
 */
export function configureZodMessages(): void {
  if (configured) return;
  configured = true;
  z.config(z.locales.es());
  z.config({
    customError: (issue) => {
      if (issue.code === "invalid_type" && issue.input === undefined) return "es obligatorio";
      return undefined;
    },
  });
}
