import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Page } from "playwright-core";

/** axe-core's browser bundle, evaluated in each page as a test of the page, never served. */
const axeSource = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

/** The phone and the laptop every page is checked at, and the widths in between. */
export const LAPTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;
/** the browser of a user in Argentina: dd/mm/aaaa in date fields, the country's clock */
export const ARGENTINA = { locale: "es-AR", timezoneId: "America/Argentina/Buenos_Aires" } as const;
export const OTHER_WIDTHS = [1024, 801, 800, 600, 360] as const;

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * The serious and critical accessibility violations axe-core finds in the page as it is now
 * laid out, one line each. The bundle is evaluated through the DevTools protocol, which the
 * page's Content-Security-Policy does not govern (the policy itself stays on).
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate<boolean>("typeof window.axe === 'object'"))) {
    await page.evaluate(axeSource);
  }
  const violations = await page.evaluate<Violation[]>(
    `axe.run(document, { resultTypes: ["violations"] }).then((result) =>
      result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(" ")),
      })),
    )`,
  );
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `axe ${v.id} (${v.impact}): ${v.help} at ${v.targets.join(", ")}`);
}

/** Whether the document is wider than the viewport, that is, the page scrolls sideways. */
export async function sidewaysScroll(page: Page): Promise<string | undefined> {
  const { scrollWidth, innerWidth } = await page.evaluate<{
    scrollWidth: number;
    innerWidth: number;
  }>("({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })");
  return scrollWidth > innerWidth ? `${scrollWidth} px wide in ${innerWidth} px` : undefined;
}

/**
 * What the browser reports as going wrong in a page: console errors (a CSP violation among
 * them), uncaught exceptions and any answer of 400 or more (a missing favicon, say). `take`
 * returns them since the last call.
 */
export function watchErrors(page: Page): { take(): string[] } {
  let errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`exception: ${error.message}`));
  page.on("response", (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} for ${response.url()}`);
  });
  return {
    take() {
      const taken = errors;
      errors = [];
      return taken;
    },
  };
}

/** The pages pictured in docs/panel.md. */
const PICTURED = new Set(["comprobantes", "uso", "representadas", "claves", "webhooks"]);

/**
 * With PANEL_SCREENSHOTS=<dir>, saves the viewport of a pictured page as
 * <dir>/panel-<name>-<width>.png (the pictures in docs/img); without it, writes nothing.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.PANEL_SCREENSHOTS;
  if (!dir || !PICTURED.has(name)) return;
  mkdirSync(dir, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: join(dir, `panel-${name}-${width}.png`) });
}

/**
 * Each page at 1280×800 and 390×844 (and the widths between, for width only): never wider
 * than the viewport, no serious or critical axe-core violation, no console error, no answer of
 * 400 or more. The problems of every page, gathered to be reported together.
 */
export async function auditPages(
  page: Page,
  url: (path: string) => string,
  paths: Record<string, string>,
  errors: { take(): string[] },
): Promise<string[]> {
  const problems: string[] = [];
  const between = OTHER_WIDTHS.map((width) => ({ width, height: LAPTOP.height }));
  for (const [name, path] of Object.entries(paths)) {
    await page.setViewportSize(LAPTOP);
    await page.goto(url(path));
    for (const viewport of [LAPTOP, ...between, PHONE]) {
      await page.setViewportSize(viewport);
      const wide = await sidewaysScroll(page);
      if (wide) problems.push(`${name} at ${viewport.width}: ${wide}`);
      if (viewport === LAPTOP || viewport === PHONE) {
        for (const found of await seriousViolations(page)) {
          problems.push(`${name} at ${viewport.width}: ${found}`);
        }
        await screenshot(page, name);
      }
    }
    problems.push(...errors.take().map((found) => `${name}: ${found}`));
  }
  return problems;
}
