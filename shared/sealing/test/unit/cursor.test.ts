import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { makePageCursors, type CursorScope } from "../../src/index.js";

describe("page cursors", () => {
  const cursors = makePageCursors(randomBytes(32).toString("base64"));
  const scope: CursorScope = {
    list: "wsfe.comprobante.list",
    accountId: "0b6e2c4a-3f1d-4d7e-9a53-6f0c8e2d1b47",
    filters: { environment: "homologacion", state: "authorized", representada: undefined },
  };
  const position = "2026-11-22T21:40:01.123456Z|8f14e45f-ceea-467f-a8f6-0c1b2d3e4f50";

  it("gives back the position under the scope it was issued for, and hides it", () => {
    const cursor = cursors.issue(scope, position);
    expect(cursors.read(scope, cursor)).toBe(position);
    // opaque: neither the text nor its base64 shows the position
    expect(cursor).not.toContain("8f14e45f");
    expect(Buffer.from(cursor, "base64url").toString("latin1")).not.toContain("8f14e45f");
    // the same filters in another order, or with unset ones left out, are the same list
    const reordered = { ...scope, filters: { state: "authorized", environment: "homologacion" } };
    expect(cursors.read(reordered, cursor)).toBe(position);
  });

  it("refuses it under another account, list or filters", () => {
    const cursor = cursors.issue(scope, position);
    expect(cursors.read({ ...scope, accountId: "another" }, cursor)).toBeUndefined();
    expect(cursors.read({ ...scope, list: "billing.usage.list" }, cursor)).toBeUndefined();
    expect(
      cursors.read({ ...scope, filters: { ...scope.filters, state: "rejected" } }, cursor),
    ).toBeUndefined();
    expect(
      cursors.read({ ...scope, filters: { ...scope.filters, ptoVta: 3 } }, cursor),
    ).toBeUndefined();
  });

  it("refuses every altered character, a truncated one and text it never issued", () => {
    const cursor = cursors.issue(scope, position);
    for (let i = 0; i < cursor.length; i++) {
      const swapped = cursor[i] === "A" ? "B" : "A";
      const altered = `${cursor.slice(0, i)}${swapped}${cursor.slice(i + 1)}`;
      expect(cursors.read(scope, altered), `character ${i}`).toBeUndefined();
    }
    expect(cursors.read(scope, cursor.slice(0, -1))).toBeUndefined();
    expect(cursors.read(scope, cursor.slice(0, 40))).toBeUndefined();
    expect(cursors.read(scope, `${cursor}A`)).toBeUndefined();
    expect(cursors.read(scope, `${cursor}=`)).toBeUndefined();
    expect(cursors.read(scope, "")).toBeUndefined();
    expect(cursors.read(scope, "abc")).toBeUndefined();
    expect(cursors.read(scope, Buffer.from(position).toString("base64url"))).toBeUndefined();
  });

  it("opens only under the key it was sealed with", () => {
    const cursor = cursors.issue(scope, position);
    const otherKey = makePageCursors(randomBytes(32).toString("base64"));
    expect(otherKey.read(scope, cursor)).toBeUndefined();
  });

  it("fits the contracts' 200-character bound for the longest position a list writes", () => {
    expect(cursors.issue(scope, position).length).toBeLessThanOrEqual(200);
  });
});
