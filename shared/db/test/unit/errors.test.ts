import { describe, expect, it } from "vitest";
import { isConnectionFailure, isUniqueViolation } from "../../src/index.js";

describe("what a database failure means", () => {
  const duplicate = { code: "23505", constraint_name: "users_email_key" };

  it("tells a unique violation, of any index or of the one named", () => {
    expect(isUniqueViolation(duplicate)).toBe(true);
    expect(isUniqueViolation(duplicate, "users_email_key")).toBe(true);
    expect(isUniqueViolation(duplicate, "comprobantes_series_nro_key")).toBe(false);
  });

  it("leaves every other failure as it is", () => {
    expect(isUniqueViolation({ code: "23503", constraint_name: "users_email_key" })).toBe(false);
    expect(isUniqueViolation(new Error("23505"))).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
    expect(isUniqueViolation("23505")).toBe(false);
    expect(isConnectionFailure(duplicate)).toBe(false);
    expect(isConnectionFailure({ code: "57P01" })).toBe(true);
  });

  it("tells a lost connection wrapped by another error or gathered in an AggregateError", () => {
    const lost = Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" });
    expect(isConnectionFailure(new Error("rollback failed", { cause: lost }))).toBe(true);
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    expect(isConnectionFailure(new AggregateError([refused, refused]))).toBe(true);
    expect(isConnectionFailure(new AggregateError([refused, duplicate]))).toBe(false);
    expect(isConnectionFailure(new Error("wrapped", { cause: duplicate }))).toBe(false);
    expect(isConnectionFailure(new AggregateError([]))).toBe(false);
  });
});
