import { describe, expect, it } from "vitest";
import { axisStep, callsChart, lastDays } from "../../src/panel/chart.js";
import { html, raw } from "../../src/panel/html.js";

describe("panel HTML", () => {
  it("escapes every interpolated value unless the code itself made it markup", () => {
    const name = `<script>alert("x")</script> & 'y' \`z\``;
    const page = html`<p title="${name}">${name}</p>
      ${raw("<hr />")}${[name, html`<b>ok</b>`]}`;
    expect(page.text.replace(/\n\s*/g, "")).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39; &#96;z&#96;">' +
        "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39; &#96;z&#96;</p><hr />" +
        "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39; &#96;z&#96;<b>ok</b>",
    );
    expect(html`${null}${undefined}${false}${0}`.text).toBe("0");
  });

  it("draws 30 days of calls stacked by status class, days without calls empty", () => {
    const days = lastDays(30, Date.parse("2026-11-22T15:00:00Z"));
    expect(days).toHaveLength(30);
    expect(days.at(-1)).toBe("2026-11-22");
    expect(days[0]).toBe("2026-10-24");
    const svg = callsChart(days, [
      { fecha: "2026-11-22", porStatus: { "200": 9, "404": 2, "502": 1 } },
    ]).text;
    // drawn twice, wide and phone-narrow: each drawing has the day's three bars
    const drawings = svg.split("</svg>").slice(0, -1);
    expect(drawings).toHaveLength(2);
    for (const drawing of drawings) expect(drawing.match(/<rect\s/g)).toHaveLength(3);
    expect(svg).toContain("22/11: 9 Exitosas (2xx)");
    expect(svg).toContain("22/11: 2 Errores del cliente (4xx)");
    expect(svg).not.toMatch(/style=|<script/);
  });

  it("labels the count axis with whole numbers only, the empty chart too", () => {
    expect([0, 1, 4, 5, 9, 10, 30, 45, 101, 2400].map(axisStep)).toEqual([
      2, 2, 2, 5, 5, 5, 20, 25, 100, 2000,
    ]);
    const days = lastDays(30, Date.parse("2026-11-22T15:00:00Z"));
    const labels = (counts: Parameters<typeof callsChart>[1]) =>
      [...callsChart(days, counts).text.matchAll(/text-anchor="end"[^>]*>([^<]*)</g)].map((m) =>
        m[1]!.trim(),
      );
    expect(labels([])).toEqual(["0", "2", "4", "0", "2", "4"]);
    expect(labels([{ fecha: "2026-11-20", porStatus: { "200": 5 } }])).toEqual([
      "0",
      "5",
      "10",
      "0",
      "5",
      "10",
    ]);
    expect(labels([{ fecha: "2026-11-20", porStatus: { "200": 1800, "500": 600 } }])).toEqual([
      "0",
      "2.000",
      "4.000",
      "0",
      "2.000",
      "4.000",
    ]);
  });
});
