/** One sample of a Prometheus text exposition. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text format → samples (comments skipped; label values unescaped). */
export function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, raw] of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[key!] = raw!.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/**
 * The samples served now at a metrics URL; with `service`, only that service's series (a
 * process that runs every service serves them all, each labelled with its service).
 */
export async function scrapeMetrics(url: string, service?: string): Promise<Sample[]> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  const samples = parsePrometheus(await response.text());
  return service === undefined ? samples : samples.filter((s) => s.labels.service === service);
}

/**
 * Each `consumer on STREAM` whose lag a service reports, the stream named without the
 * deployment's (lower-case) subject prefix: `mail on MAIL_JOBS`.
 */
export function laggingConsumers(samples: readonly Sample[]): string[] {
  return samples
    .filter((s) => s.name === "pasarela_jetstream_consumer_pending")
    .map(
      (s) =>
        `${s.labels.consumer} on ${s.labels.stream?.replace(/^[a-z0-9][a-z0-9_-]*_(?=[A-Z])/, "")}`,
    )
    .sort();
}
