import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";

/**
 * Where rendered documents are kept. `read` answers undefined for a document never stored;
 * any other failure throws (the caller answers PDF_STORAGE_FAILED).
 */
export interface PdfStore {
  read(key: string): Promise<Buffer | undefined>;
  write(key: string, bytes: Buffer): Promise<void>;
}

const KEY = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/;

/**
 * A directory of files, one per key. A write goes to a temporary name first and is renamed
 * into place, so a reader never sees half a document.
 */
export function filesystemStore(directory: string): PdfStore {
  const root = resolve(directory);
  const pathOf = (key: string) => {
    if (!KEY.test(key) || key.split("/").includes("..")) throw new Error(`bad store key: ${key}`);
    return join(root, key);
  };
  return {
    async read(key) {
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if ((error as { code?: unknown }).code === "ENOENT") return undefined;
        throw error;
      }
    },
    async write(key, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        await writeFile(temporary, bytes);
        await rename(temporary, path);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
  };
}
