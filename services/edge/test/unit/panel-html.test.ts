import { describe, expect, it } from "vitest";
import { callsChart, lastDays } from "../../src/panel/chart.js";
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
    expect(svg.match(/<rect\s/g)).toHaveLength(3);
    expect(svg).toContain("22/11: 9 Exitosas (2xx)");
    expect(svg).toContain("22/11: 2 Errores del cliente (4xx)");
    expect(svg).not.toMatch(/style=|<script/);
  });
});
