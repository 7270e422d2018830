import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesystemStore, openFilesystemStore } from "../src/adapters/storage.js";

describe("pdf: the filesystem store", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pdf-store-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("answers undefined for a document never stored, and the bytes once written", async () => {
    const store = filesystemStore(dir);
    expect(await store.read("a/b/1-original.pdf")).toBeUndefined();
    await store.write("a/b/1-original.pdf", Buffer.from("%PDF-1.3 one"));
    await store.write("a/b/1-original.pdf", Buffer.from("%PDF-1.3 two"));
    expect((await store.read("a/b/1-original.pdf"))?.toString()).toBe("%PDF-1.3 two");
    // nothing half-written is left behind
    expect(await readdir(join(dir, "a", "b"))).toEqual(["1-original.pdf"]);
  });

  it("refuses keys that leave its directory", async () => {
    const store = filesystemStore(dir);
    for (const key of ["../x.pdf", "a/../../x.pdf", "/etc/passwd", "a//b.pdf", ""]) {
      await expect(store.read(key)).rejects.toThrow("bad store key");
      await expect(store.write(key, Buffer.from("x"))).rejects.toThrow("bad store key");
    }
  });

  it("throws when the directory cannot be written or read", async () => {
    const file = join(dir, "a-file");
    await writeFile(file, "not a directory");
    const store = filesystemStore(join(file, "pdf"));
    await expect(store.write("a.pdf", Buffer.from("x"))).rejects.toThrow();
    await expect(store.read("a.pdf")).rejects.toThrow();
  });

  it("keeps every file 0600 and every folder 0700, tightening folders made before", async () => {
    const root = join(dir, "private");
    // a store left by an earlier version: world-readable folders
    await mkdir(join(root, "acc", "old"), { recursive: true, mode: 0o755 });
    await chmod(root, 0o755);
    await chmod(join(root, "acc"), 0o755);
    const store = await openFilesystemStore(root);
    const mode = async (path: string) => (await stat(path)).mode & 0o777;
    expect(await mode(root)).toBe(0o700);
    await store.write("acc/homologacion/1-original.pdf", Buffer.from("%PDF-1.3"));
    expect(await mode(join(root, "acc"))).toBe(0o700);
    expect(await mode(join(root, "acc", "homologacion"))).toBe(0o700);
    expect(await mode(join(root, "acc", "homologacion", "1-original.pdf"))).toBe(0o600);
    // whatever the process's umask lets through
    const previous = process.umask(0);
    try {
      await store.write("acc/produccion/2-original.pdf", Buffer.from("%PDF-1.3"));
    } finally {
      process.umask(previous);
    }
    expect(await mode(join(root, "acc", "produccion"))).toBe(0o700);
    expect(await mode(join(root, "acc", "produccion", "2-original.pdf"))).toBe(0o600);
  });

  it("creates its folder private when it does not exist", async () => {
    const root = join(dir, "new", "pdf");
    await openFilesystemStore(root);
    expect((await stat(root)).mode & 0o777).toBe(0o700);
  });
});
