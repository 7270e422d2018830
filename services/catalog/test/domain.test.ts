import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "../src/domain/cursor.js";
import { documentoProblem, isValidCuit } from "../src/domain/documento.js";
import { isRecordId } from "../src/domain/ids.js";
import { containsPattern, foldForSearch } from "../src/domain/search.js";

describe("catalog domain", () => {
  it("accepts the reference CUITs and refuses a wrong check digit or a 10", () => {
    for (const cuit of ["20111111112", "30000000007", "33693450239", "23000000000"]) {
      expect(isValidCuit(cuit), cuit).toBe(true);
    }
    for (const cuit of ["20111111113", "2011111111", "201111111122", "30000000006"]) {
      expect(isValidCuit(cuit), cuit).toBe(false);
    }
    // 20000000010: Σ = 5·2 + 2·1 = 12, 11 − 1 = 10, never issued as such
    expect(isValidCuit("20000000010")).toBe(false);
  });

  it("checks the digit only for CUIT and CUIL, naming docNro", () => {
    expect(documentoProblem(80, "20111111113")?.message).toBe(
      "El campo docNro no es una CUIT válida: deben ser 11 dígitos con dígito verificador correcto",
    );
    expect(documentoProblem(86, "123")?.message).toContain("CUIL");
    expect(documentoProblem(96, "12345678")).toBeUndefined();
    expect(documentoProblem(99, "0")).toBeUndefined();
  });

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
