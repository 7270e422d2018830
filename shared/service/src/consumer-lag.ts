import { jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import type { Bus } from "@pasarela/bus";
import { gauge } from "@pasarela/telemetry";

/**
 * JetStream consumer lag as Prometheus gauges, read from the server when metrics are scraped:
 * for each durable consumer of the event stream that this service owns (its durable name
 * begins with the service's name), the events not yet delivered and those delivered but not
 * yet acknowledged.
 */
export function watchConsumerLag(bus: Bus, service: string): void {
  const owned = (name: string) => name === service || name.startsWith(`${service}-`);
  // made once (it asks the server whether JetStream is enabled), again after a failure
  let manager: Promise<JetStreamManager> | undefined;
  const jsm = () => (manager ??= jetstreamManager(bus.connection));
  const forget = () => {
    manager = undefined;
  };
  // one read of the server per scrape fills both gauges (this one is registered, and so
  // collected, first)
  gauge(
    "pasarela_jetstream_consumer_pending",
    "Events of the stream not yet delivered to the service's durable consumer",
    ["consumer"],
    async function collect() {
      const lag = await readLag(bus, jsm, forget, owned);
      this.reset();
      ackPending.reset();
      for (const { consumer, pending, ack } of lag) {
        this.set({ consumer }, pending);
        ackPending.set({ consumer }, ack);
      }
    },
  );
  const ackPending = gauge(
    "pasarela_jetstream_consumer_ack_pending",
    "Events delivered to the service's durable consumer and not yet acknowledged",
    ["consumer"],
  );
}

async function readLag(
  bus: Bus,
  jsm: () => Promise<JetStreamManager>,
  forget: () => void,
  owned: (name: string) => boolean,
): Promise<{ consumer: string; pending: number; ack: number }[]> {
  if (!bus.isConnected()) return [];
  try {
    const out: { consumer: string; pending: number; ack: number }[] = [];
    for await (const info of (await jsm()).consumers.list(bus.eventStreamName())) {
      const name = info.config.durable_name ?? info.name;
      if (!owned(name)) continue;
      out.push({ consumer: name, pending: info.num_pending, ack: info.num_ack_pending });
    }
    return out;
  } catch {
    // no stream yet, or NATS unreachable: nothing to report rather than a failed scrape
    forget();
    return [];
  }
}
