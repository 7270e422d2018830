import { readFile } from "node:fs/promises";
import { fail, invalidField, ok, type Result } from "@pasarela/errors";

/** The bytes of the file a flag names, or the 400 naming the flag and why it could not be read. */
export async function readFlagFile(flag: string, path: string): Promise<Result<Buffer>> {
  try {
    return ok(await readFile(path));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const reason =
      code === "ENOENT" ? "no existe" : error instanceof Error ? error.message : String(error);
    return fail(
      invalidField(`--${flag}`, `apunta a un archivo que no se pudo leer (${path}: ${reason})`),
    );
  }
}

/** The text of the file a flag names (UTF-8). */
export async function readFlagText(flag: string, path: string): Promise<Result<string>> {
  const bytes = await readFlagFile(flag, path);
  return bytes.ok ? ok(bytes.value.toString("utf8")) : bytes;
}
