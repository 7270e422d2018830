import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { root, sourceFiles } from "./support.js";

interface Manifest {
  name?: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

interface Workspace {
  /** folder relative to the repository root, e.g. `services/mail` */
  dir: string;
  manifest: Manifest;
}

const readManifest = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) as Manifest;

const rootManifest = readManifest(".");

/** The root's workspaces, each folder pattern (`group/*` or a folder) expanded. */
function workspaces(): Workspace[] {
  const dirs = (rootManifest.workspaces ?? []).flatMap((pattern) => {
    if (!pattern.endsWith("/*")) return [pattern];
    const group = pattern.slice(0, -2);
    return readdirSync(join(root, group))
      .map((name) => `${group}/${name}`)
      .filter((dir) => existsSync(join(root, dir, "package.json")));
  });
  return dirs.map((dir) => ({ dir, manifest: readManifest(dir) }));
}

/** The root may declare tools only: compiler, linter, formatter, test runner, patch-package. */
const ROOT_TOOLS = new Set([
  "@eslint/js",
  "@types/node",
  "eslint",
  "patch-package",
  "prettier",
  "typescript",
  "typescript-eslint",
  "vitest",
]);

/** A workspace the production image carries: a service, or the program that runs them. */
const deployed = (workspace: { dir: string }) =>
  workspace.dir.startsWith("services/") || workspace.dir === "server";

/** Folders of workspaces that are never deployed: the stand-ins and launcher of `npm start`. */
const LOCAL_GROUP = "local/";

const builtins = new Set(builtinModules);

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), else undefined. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:")) {
    return undefined;
  }
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
  return builtins.has(name) ? undefined : name;
}

const IMPORT_PATTERNS = [
  // import … from "x", export … from "x" (type-only ones too: they need the package to build)
  /\bfrom\s+["']([^"']+)["']/g,
  // import "x"
  /^\s*import\s+["']([^"']+)["']/gm,
  // import("x"), import(`x/${…}`), require("x"), require.resolve("x")
  /\b(?:import|require|require\.resolve)\(\s*["'`]([^"'`$]+)/g,
];

/** The packages a source text imports, by bare specifier. */
export function importsOf(text: string): Set<string> {
  const names = new Set<string>();
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const name = packageOf(match[1]!);
      if (name !== undefined) names.add(name);
    }
  }
  return names;
}

/** This file: its examples of import forms are not imports. */
const self = fileURLToPath(import.meta.url);

/** Each package imported by files under `dirs` of a workspace, with one file that imports it. */
function importedBy(workspace: Workspace, dirs: string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const dir of dirs) {
    for (const file of sourceFiles(join(root, workspace.dir, dir))) {
      if (file === self) continue;
      for (const name of importsOf(readFileSync(file, "utf8"))) {
        if (!found.has(name)) found.set(name, file.slice(root.length + 1));
      }
    }
  }
  return found;
}

/** A workspace's folders of code besides src/: its tests and their support. */
function otherCodeDirs(workspace: Workspace): string[] {
  return readdirSync(join(root, workspace.dir)).filter(
    (name) =>
      name !== "src" &&
      name !== "dist" &&
      name !== "node_modules" &&
      statSync(join(root, workspace.dir, name)).isDirectory(),
  );
}

/** Workspaces a manifest's production `dependencies` reach, transitively, by package name. */
function productionClosure(start: Workspace, byName: Map<string, Workspace>): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.pop()!;
    for (const name of Object.keys(current.manifest.dependencies ?? {})) {
      const next = byName.get(name);
      if (next === undefined || seen.has(name)) continue;
      seen.add(name);
      queue.push(next);
    }
  }
  return seen;
}

describe("dependencies are declared where they are imported", () => {
  const all = workspaces();
  const byName = new Map(all.map((w) => [w.manifest.name ?? w.dir, w]));

  it("finds the workspaces and reads imports of every form", () => {
    expect(all.map((w) => w.dir)).toEqual(
      expect.arrayContaining(["services/mail", "shared/bus", "local/stack", "tests"]),
    );
    expect([
      ...importsOf(
        [
          'import { a } from "@scope/pkg/sub";',
          'import type { B } from "plain";',
          'export * from "re-export";',
          'import "side-effect/register";',
          "const m = await import(`templated/${version}`);",
          'const r = require.resolve("resolved/file.ttf");',
          'import { x } from "./relative.js";',
          'import { readFile } from "node:fs/promises";',
          'import { join } from "path";',
          'const b = Buffer.from("aGVsbG8=");',
        ].join("\n"),
      ),
    ]).toEqual(["@scope/pkg", "plain", "re-export", "side-effect", "templated", "resolved"]);
  });

  it("declares at the root nothing but the tools", () => {
    expect(Object.keys(rootManifest.dependencies ?? {})).toEqual([]);
    const extra = Object.keys(rootManifest.devDependencies ?? {}).filter((n) => !ROOT_TOOLS.has(n));
    expect(extra).toEqual([]);
    const rootConfigs = ["vitest.config.ts", "eslint.config.js"];
    for (const file of rootConfigs) {
      for (const name of importsOf(readFileSync(join(root, file), "utf8"))) {
        expect(ROOT_TOOLS.has(name), `${file} imports ${name}, not a root tool`).toBe(true);
      }
    }
  });

  it("has every workspace declare, itself, each package its code imports", () => {
    const problems: string[] = [];
    for (const workspace of all) {
      const own = workspace.manifest.name;
      const production = workspace.manifest.dependencies ?? {};
      const dev = workspace.manifest.devDependencies ?? {};
      const srcImports = existsSync(join(root, workspace.dir, "src"))
        ? importedBy(workspace, ["src"])
        : new Map<string, string>();
      for (const [name, file] of srcImports) {
        if (name === own || name in production) continue;
        problems.push(
          name in dev
            ? `${file}: ${name} is a devDependency of ${workspace.dir}, but src/ ships`
            : `${file}: ${name} is not in ${workspace.dir}/package.json dependencies`,
        );
      }
      for (const [name, file] of importedBy(workspace, otherCodeDirs(workspace))) {
        if (name === own || name in production || name in dev) continue;
        problems.push(`${file}: ${name} is not declared by ${workspace.dir}/package.json`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("keeps the local tools out of every deployed workspace's production dependencies", () => {
    const local = new Set(all.filter((w) => w.dir.startsWith(LOCAL_GROUP)).map((w) => w.dir));
    expect([...local].sort()).toEqual([
      "local/authority-sim",
      "local/payments-sim",
      "local/servers",
      "local/smtp-sink",
      "local/stack",
    ]);
    const problems: string[] = [];
    for (const workspace of all) {
      if (!deployed(workspace)) continue;
      for (const name of productionClosure(workspace, byName)) {
        const reached = byName.get(name)!;
        if (local.has(reached.dir)) problems.push(`${workspace.dir} reaches ${reached.dir}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("keeps the test helpers out of every deployed workspace's production dependencies", () => {
    for (const workspace of all) {
      if (!deployed(workspace)) continue;
      expect([...productionClosure(workspace, byName)], workspace.dir).not.toContain(
        "@pasarela/testing",
      );
    }
  });

  it("builds the production image from the deployed workspaces only, on Node 22", () => {
    const dockerfile = readFileSync(join(root, "Dockerfile"), "utf8");
    const froms = dockerfile.split("\n").filter((line) => /^FROM\s/.test(line));
    expect(froms.length).toBeGreaterThan(1);
    for (const line of froms) expect(line).toMatch(/^FROM node:22-bookworm-slim\b/);
    const stages = dockerfile.split(/^FROM\s/m);
    // the build stage drops the local tools, the tests and their helpers, then prunes
    expect(stages.at(-2)).toMatch(/rm -rf local tests shared\/testing[\s\S]*npm prune --omit=dev/);
    const copies = stages
      .at(-1)!
      .split("\n")
      .filter((line) => /^COPY\s/.test(line));
    expect(copies.length).toBeGreaterThan(0);
    for (const line of copies) {
      expect(line).not.toMatch(/\blocal\b|\btests\b/);
      expect(line, "the whole build tree").not.toMatch(/\s\/app\/?\s+\/app\/?$/);
    }
  });

  it("runs the stand-ins of docker-compose.yml from local/Dockerfile, the services from the image", () => {
    const compose = readFileSync(join(root, "docker-compose.yml"), "utf8");
    // the shared block builds the gateway's one image; each service names itself as its command
    expect(compose).toMatch(
      /^x-service: &service\n {2}image: pasarela:latest\n {2}build: \{ context: \., dockerfile: Dockerfile \}$/m,
    );
    const commands = [
      ...compose.matchAll(
        /^ {2}([a-z0-9-]+):\n {4}<<: \*service\n(?: {4}.*\n)*? {4}command: \[([^\]]*)\]$/gm,
      ),
    ];
    const byService = Object.fromEntries(commands.map((m) => [m[1]!, m[2]!.split(", ")]));
    expect(byService["stand-ins"]?.sort()).toEqual(["authority-sim", "mail-sink", "payments-sim"]);
    expect(compose).toMatch(/^ {4}build: \{ context: \., dockerfile: local\/Dockerfile \}$/m);
    for (const [service, args] of Object.entries(byService)) {
      if (service === "stand-ins") continue;
      expect(args, service).toEqual([service]);
      expect(existsSync(join(root, "services", service)), service).toBe(true);
    }
    expect(Object.keys(byService)).toContain("edge");
  });
});
