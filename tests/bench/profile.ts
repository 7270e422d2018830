// Where each process of a profiled bench run spent its CPU: the `--cpu-prof` files of one
// folder, each named after the service whose code it ran, with the functions of most self
// time (by sample count) and the packages they belong to.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
}

const TOP = Number(process.env.BENCH_PROFILE_TOP ?? 25);

/** `services/edge/…` → edge; a package in node_modules → its name; node's own → node:… */
const ownerOf = (url: string, functionName: string): string => {
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (module) return module[1]!;
  const workspace = /\/(services|shared)\/([^/]+)\//.exec(url);
  if (workspace) return `${workspace[1]}/${workspace[2]}`;
  if (url.startsWith("node:")) return url;
  return url === "" ? functionName || "(native)" : "(other)";
};

/** where a function lives, short: `services/edge/dist/src/app.js`, `fastify/lib/reply.js` */
const placeOf = (url: string, owner: string): string => {
  const at = url.lastIndexOf("/node_modules/");
  if (at >= 0) return url.slice(at + "/node_modules/".length);
  const workspace = /\/((?:services|shared)\/.*)$/.exec(url);
  return workspace ? workspace[1]! : owner;
};

const serviceOf = (profile: CpuProfile): string => {
  const counts = new Map<string, number>();
  for (const node of profile.nodes) {
    const service = /\/services\/([^/]+)\//.exec(node.callFrame.url)?.[1];
    if (service) counts.set(service, (counts.get(service) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "unknown";
};

const percent = (n: number, total: number) => `${((n / total) * 100).toFixed(1)}%`;

export function summarizeProfiles(dir: string): string {
  const lines: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))) {
    const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as CpuProfile;
    const byFunction = new Map<string, number>();
    const byOwner = new Map<string, number>();
    let total = 0;
    for (const node of profile.nodes) {
      const hits = node.hitCount ?? 0;
      if (hits === 0) continue;
      const { functionName, url, lineNumber } = node.callFrame;
      const owner = ownerOf(url, functionName);
      const place = placeOf(url, owner);
      const name = `${functionName || "(anonymous)"} ${place}${url ? `:${lineNumber + 1}` : ""}`;
      byFunction.set(name, (byFunction.get(name) ?? 0) + hits);
      byOwner.set(owner, (byOwner.get(owner) ?? 0) + hits);
      total += hits;
    }
    const idle = byOwner.get("(idle)") ?? 0;
    const busy = total - idle;
    if (busy === 0) continue;
    const top = (map: Map<string, number>, n: number) =>
      [...map]
        .filter(([name]) => !name.startsWith("(idle)"))
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([name, hits]) => `  ${percent(hits, busy).padStart(6)}  ${name}`);
    lines.push(
      "",
      `## ${serviceOf(profile)} (${file}): ${busy} busy samples of ${total}`,
      "by package:",
      ...top(byOwner, 12),
      "by function (self time):",
      ...top(byFunction, TOP),
    );
  }
  return `${lines.join("\n")}\n`;
}
