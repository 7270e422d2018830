import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse, parseAllDocuments } from "yaml";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const deployDir = join(root, "deploy");

export function readYaml(path: string): unknown {
  return parse(readFileSync(path, "utf8"));
}

/** Every document of a multi-document YAML file, empty ones (comments only) left out. */
export function readYamlDocuments(path: string): unknown[] {
  return parseAllDocuments(readFileSync(path, "utf8"))
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${path}: ${doc.errors[0]!.message}`);
      return doc.toJS() as unknown;
    })
    .filter((doc) => doc !== null && doc !== undefined);
}

/** The path of an executable on PATH (or among `extra`), undefined when not installed. */
export function which(name: string): string | undefined {
  const result = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  const found = result.stdout.trim();
  return result.status === 0 && found ? found : undefined;
}

export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): { status: number | null; output: string } {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? root,
    env: { ...process.env, ...options.env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** TypeScript sources under `dir`, recursively (no declaration files, no builds). */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist") continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** Names of the Prometheus series the services register (`pasarela_*`), read from src/. */
export function definedSeries(): Set<string> {
  const names = new Set<string>();
  for (const group of ["shared", "services"]) {
    for (const pkg of readdirSync(join(root, group))) {
      const src = join(root, group, pkg, "src");
      if (!statSync(join(root, group, pkg)).isDirectory()) continue;
      try {
        statSync(src);
      } catch {
        continue;
      }
      for (const file of sourceFiles(src)) {
        for (const match of readFileSync(file, "utf8").matchAll(/"(pasarela_[a-z_]+)"/g)) {
          names.add(match[1]!);
        }
      }
    }
  }
  return names;
}

/** The `pasarela_*` series a PromQL expression reads (histogram suffixes stripped). */
export function seriesIn(expr: string): string[] {
  return [...expr.matchAll(/\b(pasarela_[a-z_]+)/g)].map((m) =>
    m[1]!.replace(/_(bucket|sum|count)$/, ""),
  );
}
