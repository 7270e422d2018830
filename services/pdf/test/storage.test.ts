import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesystemStore } from "../src/adapters/storage.js";

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
});
