import { describe, expect, it } from "vitest";
import { isRecordId } from "../src/domain/ids.js";
import { containsPattern, foldForSearch } from "../src/domain/search.js";

describe("catalog domain", () => {
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
