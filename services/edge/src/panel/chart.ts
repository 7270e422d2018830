import { html, type Html } from "./html.js";

export interface DayCounts {
  fecha: string;
  porStatus: Record<string, number>;
}

const CLASSES = [
  { name: "2xx", label: "Exitosas (2xx)", color: "#2f8f4e", test: (s: number) => s < 400 },
  {
    name: "4xx",
    label: "Errores del cliente (4xx)",
    color: "#d08700",
    test: (s: number) => s >= 400 && s < 500,
  },
  {
    name: "5xx",
    label: "Errores del servidor (5xx)",
    color: "#c0392b",
    test: (s: number) => s >= 500,
  },
] as const;

/** The `count` days up to today in Argentina (AAAA-MM-DD), oldest first. */
export function lastDays(count: number, now = Date.now()): string[] {
  const today = new Date(now - 3 * 3_600_000);
  return Array.from({ length: count }, (_, i) => {
    const d = new Date(today);
    d.setUTCDate(d.getUTCDate() - (count - 1 - i));
    return d.toISOString().slice(0, 10);
  });
}

const niceMax = (value: number) => {
  if (value <= 5) return 5;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
};

/**
 * Calls per day, stacked by status class, as inline SVG drawn on the server: no script, and
 * the Content-Security-Policy allows nothing else.
 */
export function callsChart(days: readonly string[], counts: readonly DayCounts[]): Html {
  const byDay = new Map(counts.map((c) => [c.fecha, c.porStatus]));
  const stacks = days.map((fecha) => {
    const statuses = byDay.get(fecha) ?? {};
    return CLASSES.map((cls) =>
      Object.entries(statuses)
        .filter(([status]) => cls.test(Number(status)))
        .reduce((sum, [, n]) => sum + n, 0),
    );
  });
  const max = niceMax(Math.max(0, ...stacks.map((s) => s.reduce((a, b) => a + b, 0))));
  const width = 960;
  const height = 260;
  const left = 44;
  const bottom = 28;
  const top = 10;
  const plotH = height - top - bottom;
  const slot = (width - left - 8) / days.length;
  const barW = Math.max(4, slot * 0.7);
  const y = (v: number) => top + plotH - (v / max) * plotH;
  const ticks = [0, max / 2, max];
  return html`<svg
      class="chart"
      viewBox="0 0 ${width} ${height}"
      role="img"
      aria-labelledby="chart-title"
    >
      <title id="chart-title">Llamadas por día y status, últimos ${days.length} días</title>
      ${ticks.map(
        (t) =>
          html`<line x1="${left}" x2="${width - 4}" y1="${y(t)}" y2="${y(t)}" stroke="#dde1e8" />
            <text x="${left - 6}" y="${y(t) + 4}" text-anchor="end" font-size="11" fill="#5b6475"
              >${Math.round(t)}</text
            >`,
      )}
      ${days.map((fecha, i) => {
        const x = left + i * slot + (slot - barW) / 2;
        let base = 0;
        const [, month, dd] = fecha.split("-");
        return html`<g>
          ${CLASSES.map((cls, k) => {
            const n = stacks[i]![k]!;
            if (n === 0) return "";
            const y0 = y(base);
            base += n;
            const y1 = y(base);
            return html`<rect
              x="${x.toFixed(1)}"
              y="${y1.toFixed(1)}"
              width="${barW.toFixed(1)}"
              height="${Math.max(1, y0 - y1).toFixed(1)}"
              fill="${cls.color}"
              ><title>${dd}/${month}: ${n} ${cls.label}</title></rect
            >`;
          })}
          ${
            i % 5 === days.length % 5 || i === days.length - 1
              ? html`<text
                  x="${(x + barW / 2).toFixed(1)}"
                  y="${height - 10}"
                  text-anchor="middle"
                  font-size="11"
                  fill="#5b6475"
                  >${dd}/${month}</text
                >`
              : ""
          }
        </g>`;
      })}
    </svg>
    <div class="legend">
      ${CLASSES.map((cls) => html`<span class="s${cls.name}">${cls.label}</span>`)}
    </div>`;
}
