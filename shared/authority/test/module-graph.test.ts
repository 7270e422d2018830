import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = join(dirname(fileURLToPath(import.meta.url)), "..", "src");

/** Each source file and the sibling modules it imports (`./x.js` → `x.ts`), type imports too. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of readdirSync(src).filter((f) => f.endsWith(".ts"))) {
    const text = readFileSync(join(src, file), "utf8");
    const targets = [...text.matchAll(/from\s+"\.\/([^"]+)\.js"/g)].map((m) => `${m[1]}.ts`);
    graph.set(file, targets);
  }
  return graph;
}

/** Every import cycle, each as the path that closes it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const visit = (file: string, path: string[]) => {
    for (const next of graph.get(file) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) found.push([...path.slice(at), next]);
      else visit(next, [...path, next]);
    }
  };
  for (const file of graph.keys()) visit(file, [file]);
  return found;
}

describe("@pasarela/authority module graph", () => {
  it("has no import cycle between its modules (asmx-client and soap-client share soap-failure)", () => {
    const graph = importGraph();
    expect(graph.get("asmx-client.ts")).toBeDefined();
    expect(cycles(graph)).toEqual([]);
  });
});
