import type { Bus } from "./bus.js";

/** A durable JetStream consumer this process reads from: its stream and its name. */
export interface DurableRef {
  readonly stream: string;
  readonly durable: string;
}

// by bus, the durables its consumers read, each counted once per running consumer
const tracked = new WeakMap<Bus, Map<string, { ref: DurableRef; count: number }>>();

/** Records a running consumer of `ref`; the function returned forgets it when it stops. */
export function trackDurable(bus: Bus, ref: DurableRef): () => void {
  let refs = tracked.get(bus);
  if (!refs) {
    refs = new Map<string, { ref: DurableRef; count: number }>();
    tracked.set(bus, refs);
  }
  const key = `${ref.stream}\u0000${ref.durable}`;
  const entry = refs.get(key) ?? { ref, count: 0 };
  entry.count++;
  refs.set(key, entry);
  let forgotten = false;
  return () => {
    if (forgotten) return;
    forgotten = true;
    if (--entry.count === 0) refs.delete(key);
  };
}

/** The durables this bus's consumers read now, events and jobs alike (for their lag). */
export function durablesOf(bus: Bus): DurableRef[] {
  return [...(tracked.get(bus)?.values() ?? [])].map(({ ref }) => ref);
}

// by bus, the stop of every durable consumer running on it
const running = new WeakMap<Bus, Set<() => Promise<void>>>();

/** Records how to stop a running consumer, so that the bus's drain stops it with the rest. */
export function stopWithBus(bus: Bus, stop: () => Promise<void>): () => void {
  let stops = running.get(bus);
  if (!stops) {
    stops = new Set();
    running.set(bus, stops);
  }
  stops.add(stop);
  return () => stops.delete(stop);
}

/**
 * Stops every durable consumer of the bus from fetching: each resolves once the batches it
 * was handling are settled.
 */
export async function stopDurables(bus: Bus): Promise<void> {
  await Promise.all([...(running.get(bus) ?? [])].map((stop) => stop()));
}
