import type { LogoCheck, LogoMediaType } from "@pasarela/logo";
import { describe, expect, it } from "vitest";
import { makeLogoJudge } from "../../src/flows/emisores.js";

describe("the logo judge of the pdf service", () => {
  it("decodes each logo once and judges the same bytes again from memory", async () => {
    const judged: string[] = [];
    const judge = makeLogoJudge((mediaType: LogoMediaType, bytes: Buffer): Promise<LogoCheck> => {
      judged.push(`${mediaType}:${bytes.toString("hex")}`);
      return Promise.resolve(
        bytes[0] === 1 ? { ok: false, problem: "está dañado" } : { ok: true, width: 1, height: 1 },
      );
    });
    const bad = Buffer.from([1, 2, 3]);
    const good = Buffer.from([2, 3, 4]);
    expect(await judge("image/png", bad)).toEqual({ ok: false, problem: "está dañado" });
    expect(await judge("image/png", Buffer.from(bad))).toEqual({
      ok: false,
      problem: "está dañado",
    });
    expect((await judge("image/png", good)).ok).toBe(true);
    // the same bytes declared as another type are another question
    await judge("image/jpeg", good);
    await judge("image/png", good);
    expect(judged).toEqual(["image/png:010203", "image/png:020304", "image/jpeg:020304"]);
  });
});
