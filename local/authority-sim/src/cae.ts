import { randomInt } from "node:crypto";

/** A fresh 14-digit CAE, the shape both WSFEv1 and WSFEXv1 hand out. */
export function newCae(): string {
  return `7${String(randomInt(0, 1e6)).padStart(6, "0")}${String(randomInt(0, 1e7)).padStart(7, "0")}`;
}
