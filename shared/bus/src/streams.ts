import { jetstreamManager, JetStreamApiCodes, JetStreamApiError } from "@nats-io/jetstream";
import type { StreamConfig } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/nats-core";

/** What a stream of the gateway is made of; the rest takes the server's defaults. */
export type WantedStream = Pick<StreamConfig, "name" | "subjects" | "num_replicas"> &
  Partial<Pick<StreamConfig, "retention" | "duplicate_window" | "max_age">>;

/**
 * How long a JetStream management call (a stream or a durable created, looked up, updated)
 * may take. The client's default, 5 s, is too short on a cluster: a stream or consumer with 3
 * replicas is created by the metadata leader, which may be electing itself after a server was
 * lost or be slow on a busy machine, and a process that gives up at start exits.
 */
export const JETSTREAM_ADMIN_TIMEOUT_MS = 20_000;

/**
 * Creates the stream, or brings an existing one to the subjects and replicas wanted (its
 * retention and history stay as they are), so a deployment moved onto a cluster gets its
 * streams replicated. A server that cannot create them with those replicas (a single server
 * asked for 3) refuses, and the process fails to start saying so.
 */
export async function ensureStream(
  connection: NatsConnection,
  wanted: WantedStream,
): Promise<void> {
  const jsm = await jetstreamManager(connection, { timeout: JETSTREAM_ADMIN_TIMEOUT_MS });
  const existing = await jsm.streams.info(wanted.name).catch((error: unknown) => {
    if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound) {
      return null;
    }
    throw error;
  });
  try {
    if (!existing) {
      await jsm.streams.add(wanted);
      return;
    }
    const { subjects, num_replicas } = existing.config;
    if (subjects.join() !== wanted.subjects.join() || num_replicas !== wanted.num_replicas) {
      await jsm.streams.update(wanted.name, {
        ...existing.config,
        subjects: wanted.subjects,
        num_replicas: wanted.num_replicas,
      });
    }
  } catch (error) {
    // (another instance creating it at the same moment with the same settings is no error)
    throw new Error(
      `JetStream stream ${wanted.name} (${wanted.num_replicas} replica(s)): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}
