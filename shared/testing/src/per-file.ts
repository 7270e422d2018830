import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { createLogger, type Logger } from "@pasarela/telemetry";
import { inject } from "vitest";
export type { ProvidedContext } from "vitest";
import { cloneDatabase } from "./databases.js";

declare module "vitest" {
  export interface ProvidedContext {
    natsUrl: string;
    databaseServerUrl: string;
    templateDatabase: string;
  }
}

export interface FileInfra {
  natsUrl: string;
  /** this file's own database, cloned from the migrated template */
  databaseUrl: string;
  /** this file's own subject prefix: its services answer only its requests */
  prefix: string;
  cleanup(): Promise<void>;
}

/** Infrastructure private to one test file; call `cleanup` in afterAll. */
export async function fileInfra(): Promise<FileInfra> {
  const natsUrl = inject("natsUrl");
  const serverUrl = inject("databaseServerUrl");
  const database = await cloneDatabase(serverUrl, inject("templateDatabase"));
  const prefix = `t${randomBytes(5).toString("hex")}`;
  return {
    natsUrl,
    databaseUrl: database.url,
    prefix,
    async cleanup() {
      await database.drop();
      const nc = await connect({ servers: natsUrl });
      try {
        const jsm = await jetstreamManager(nc);
        for await (const name of jsm.streams.names()) {
          if (name.startsWith(`${prefix}_`)) await jsm.streams.delete(name);
        }
      } finally {
        await nc.close();
      }
    },
  };
}

/** A logger whose lines are kept in memory, for assertions on what was (not) logged. */
export function capturingLogger(service = "test"): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger({ service, level: "debug", destination }), lines };
}
