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

/**
 * The axis's step: the smallest round whole number (1, 2, 2.5 or 5 times a power of ten) of
 * which two make at least `value`, at least 2. Calls are counted, so every label is a whole
 * number: the empty chart reads 0, 2, 4 rather than 0, 2.5, 5.
 */
export function axisStep(value: number): number {
  const half = Math.max(2, value / 2);
  const magnitude = 10 ** Math.floor(Math.log10(half));
  for (const step of [1, 2, 2.5, 5, 10]) {
    const candidate = step * magnitude;
    if (candidate >= half && Number.isInteger(candidate)) return candidate;
  }
  return 10 * magnitude;
}

/**
 * Two drawings of one chart: a wide one, and one as narrow as a phone, so that its labels are
 * still read at about their drawn size (the stylesheet shows the one that fits).
 */
const SIZES = [
  { name: "wide", width: 960, height: 260, font: 13 },
  { name: "narrow", width: 360, height: 240, font: 12 },
] as const;
type Size = (typeof SIZES)[number];

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
  const step = axisStep(Math.max(0, ...stacks.map((s) => s.reduce((a, b) => a + b, 0))));
  return html`${SIZES.map((size) => drawing(size, days, stacks, step))}
    <div class="legend">
      ${CLASSES.map((cls) => html`<span class="s${cls.name}">${cls.label}</span>`)}
    </div>`;
}

function drawing(size: Size, days: readonly string[], stacks: number[][], step: number): Html {
  const { width, height, font } = size;
  const max = 2 * step;
  const left = 48;
  const bottom = 30;
  const top = 12;
  const right = 24;
  const plotH = height - top - bottom;
  const slot = (width - left - right) / days.length;
  const barW = Math.max(4, slot * 0.7);
  const y = (v: number) => top + plotH - (v / max) * plotH;
  const titleId = `chart-title-${size.name}`;
  return html`<svg
    class="chart ${size.name}"
    viewBox="0 0 ${width} ${height}"
    role="img"
    aria-labelledby="${titleId}"
  >
    <title id="${titleId}">Llamadas por día y status, últimos ${days.length} días</title>
    ${[0, step, max].map(
      (t) =>
        html`<line
            x1="${left}"
            x2="${width - right + 4}"
            y1="${y(t)}"
            y2="${y(t)}"
            stroke="#dde1e8"
          />
          <text x="${left - 6}" y="${y(t) + 4}" text-anchor="end" font-size="${font}" fill="#5b6475"
            >${t.toLocaleString("es-AR")}</text
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
          // every fifth day counted back from today, today included
          (days.length - 1 - i) % 5 === 0
            ? html`<text
                x="${(x + barW / 2).toFixed(1)}"
                y="${height - 10}"
                text-anchor="middle"
                font-size="${font}"
                fill="#5b6475"
                >${dd}/${month}</text
              >`
            : ""
        }
      </g>`;
    })}
  </svg>`;
}
