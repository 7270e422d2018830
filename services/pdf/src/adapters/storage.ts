import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";

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
 * Vouchers name their customers and amounts: only the service's own user reads them. Folders
 * made before this rule (0755) are tightened when the store opens (its root) and on every
 * write (each folder on the way), so a file left 0644 is out of reach once its root is 0700.
 */
const FOLDER_MODE = 0o700;
const FILE_MODE = 0o600;

/** Creates the folder (and its parents) or tightens it when it exists. */
async function privateFolder(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: FOLDER_MODE });
  await chmod(path, FOLDER_MODE);
}

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
      const folder = dirname(path);
      await mkdir(folder, { recursive: true, mode: FOLDER_MODE });
      // the root and every folder under it down to the file's, whatever made them
      let current = root;
      await chmod(current, FOLDER_MODE);
      for (const part of relative(root, folder).split(sep).filter(Boolean)) {
        current = join(current, part);
        await chmod(current, FOLDER_MODE);
      }
      const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        await writeFile(temporary, bytes, { mode: FILE_MODE });
        // the mode given above applies to a new file only through the process's umask
        await chmod(temporary, FILE_MODE);
        await rename(temporary, path);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
  };
}

/** The filesystem store, its root created or tightened first: a bad directory fails the start. */
export async function openFilesystemStore(directory: string): Promise<PdfStore> {
  await privateFolder(resolve(directory));
  return filesystemStore(directory);
}
