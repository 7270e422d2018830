#!/usr/bin/env node
// The gateway's program: `node server/dist/src/main.js [all | <service> ...]`. With no argument
// or `all`, every service in this one process; with names, those services only (one per process
// is production's topology). Each service reads its variables from the environment as it would
// alone; in a process of several, `<SERVICE>__<NAME>` is that service's own <NAME>.
import { runProcess } from "@pasarela/service";
import { gatewayServices, parseTargets, stagesOf } from "./services.js";

const USAGE = `usage: node server/dist/src/main.js [all | <service> ...]
  all (the default)  every service in this process: ${gatewayServices.join(", ")}
  <service> ...      those services only (production runs one per process)
In a process of several, <SERVICE>__<NAME> is that service's own <NAME> (WSFE__NATS_USER=wsfe).`;

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  process.stdout.write(`${USAGE}\n`);
} else {
  const targets = parseTargets(args);
  if (!targets.ok) {
    process.stderr.write(`${targets.error}\n${USAGE}\n`);
    process.exitCode = 2;
  } else {
    runProcess({ name: targets.name, stages: await stagesOf(targets.services), env: process.env });
  }
}
