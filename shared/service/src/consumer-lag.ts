import { jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import { durablesOf, type Bus } from "@pasarela/bus";
import { gauge } from "@pasarela/telemetry";

interface Lag {
  /** the service whose bus reads the consumer */
  service: string;
  stream: string;
  consumer: string;
  pending: number;
  ack: number;
}

// the buses of this process whose consumers are reported (one per service it runs), each
// with its JetStream manager once made (making one asks the server whether JetStream is on);
// a bus leaves when its connection has closed
const watched = new Map<Bus, Promise<JetStreamManager> | undefined>();

/**
 * JetStream consumer lag as Prometheus gauges, read from the server when metrics are scraped:
 * for each durable consumer this process reads (event consumers and job work queues alike),
 * the messages not yet delivered and those delivered but not yet acknowledged. Each is read
 * with the consumer's own INFO subject, which the service's NATS grant already holds.
 */
export function watchConsumerLag(bus: Bus): void {
  watched.set(bus, undefined);
  // one read of the server per scrape fills both gauges (this one is registered, and so
  // collected, first)
  gauge(
    "pasarela_jetstream_consumer_pending",
    "Messages of the stream not yet delivered to the service's durable consumer",
    ["stream", "consumer"],
    {
      async collect() {
        const lag = (await Promise.all([...watched.keys()].map(readLag))).flat();
        this.reset();
        ackPending.reset();
        for (const { service, stream, consumer, pending, ack } of lag) {
          this.set({ service, stream, consumer }, pending);
          ackPending.set({ service, stream, consumer }, ack);
        }
      },
    },
  );
  const ackPending = gauge(
    "pasarela_jetstream_consumer_ack_pending",
    "Messages delivered to the service's durable consumer and not yet acknowledged",
    ["stream", "consumer"],
  );
}

async function readLag(bus: Bus): Promise<Lag[]> {
  if (bus.connection.isClosed()) {
    watched.delete(bus);
    return [];
  }
  const durables = durablesOf(bus);
  if (durables.length === 0 || !bus.isConnected()) return [];
  let manager: JetStreamManager;
  try {
    let made = watched.get(bus);
    if (!made) watched.set(bus, (made = jetstreamManager(bus.connection)));
    manager = await made;
  } catch {
    // NATS unreachable: nothing to report rather than a failed scrape; made again next time
    watched.set(bus, undefined);
    return [];
  }
  const read = await Promise.all(
    durables.map(async ({ stream, durable }): Promise<Lag | undefined> => {
      try {
        const info = await manager.consumers.info(stream, durable);
        return {
          service: bus.name,
          stream,
          consumer: durable,
          pending: info.num_pending,
          ack: info.num_ack_pending,
        };
      } catch {
        // the consumer or its stream is gone (being recreated): no sample for it this time
        return undefined;
      }
    }),
  );
  return read.filter((lag) => lag !== undefined);
}
