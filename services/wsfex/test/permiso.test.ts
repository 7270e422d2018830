import { describe, expect, it } from "vitest";
import { permisoStatus } from "../src/domain/permiso.js";

describe("shipping permit status", () => {
  it("normalises a valid permit to A and passes other states through", () => {
    expect(permisoStatus("OK")).toBe("A");
    expect(permisoStatus("A")).toBe("A");
    expect(permisoStatus("NO")).toBe("NO");
  });
});
