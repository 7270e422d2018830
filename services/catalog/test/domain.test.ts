import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "../src/domain/cursor.js";
import { isRecordId } from "../src/domain/ids.js";
import { containsPattern, foldForSearch } from "../src/domain/search.js";

describe("catalog domain", () => {
  it("round-trips cursors naming a record id and refuses ones it never issued", () => {
    const id = "1b4e28ba-2fa1-11d2-883f-0016d3cca427";
    expect(decodeCursor(encodeCursor(id))).toBe(id);
    expect(decodeCursor("garbage")).toBeUndefined();
    // the former cursors carried a sequence shared by every account
    expect(decodeCursor(Buffer.from("s1:42").toString("base64url"))).toBeUndefined();
    expect(decodeCursor(Buffer.from("r1:42").toString("base64url"))).toBeUndefined();
  });

  it("folds case and accents and takes LIKE wildcards literally", () => {
    expect(foldForSearch("MUÑOZ Pérez")).toBe("munoz perez");
    expect(containsPattern("50%_a\\")).toBe("%50\\%\\_a\\\\%");
  });

  it("recognises only UUIDs as record ids", () => {
    expect(isRecordId("1b4e28ba-2fa1-11d2-883f-0016d3cca427")).toBe(true);
    expect(isRecordId("1")).toBe(false);
    expect(isRecordId("' or 1=1 --")).toBe(false);
  });
});
