/**
 * The html report in a real browser: headless Chromium (Debian's `chromium`, or CHROMIUM_PATH) driven by
 * playwright-core opens the CLI's report of samples/ (plus one 3,000-component dependency tree, for clusters) from a
 * file:// address, and checks what a person relies on: no console errors or policy violations, no request at all,
 * filters that change the findings shown and live in the address, a graph that draws and expands, keyboard focus
 * that reaches the controls, and dark mode. BOMWRIGHT_SCREENSHOT=FILE also writes a screenshot (docs/report.png).
 */
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { loadGenerateBom } from '../author/fixtures.js';
import { runCli, SAMPLES, tempDir } from '../helpers.js';

/**
 * The few browser globals the page-side callbacks use: the project is typed for Node, without the DOM. Each
 * callback runs in the page (serialized), so each casts globalThis itself.
 */
interface PageElement {
  id: string;
  value?: string;
  tagName: string;
  hidden: boolean;
  textContent: string | null;
  getAttribute(name: string): string | null;
  closest(selector: string): PageElement | null;
  querySelector(selector: string): PageElement | null;
}
interface Page$ {
  document: {
    activeElement: PageElement | null;
    body: PageElement;
    querySelectorAll(selector: string): Iterable<PageElement>;
    addEventListener(type: string, listener: (event: { violatedDirective: string; blockedURI: string }) => void): void;
  };
  getComputedStyle(element: PageElement): { outlineStyle: string; backgroundColor: string };
  violations: string[];
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const TITLE = HAVE_CHROMIUM
  ? 'the html report in Chromium'
  : `the html report in Chromium (skipped: no Chromium at ${CHROMIUM}; apt-get install chromium, or set CHROMIUM_PATH)`;

// Said once, plainly, whatever the reporter shows of a skipped file.
if (!HAVE_CHROMIUM) console.warn(TITLE);

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

describe.skipIf(!HAVE_CHROMIUM)(TITLE, () => {
  let context: BrowserContext;
  let page: Page;
  let url: string;
  const problems: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    // The samples and one 3,000-component document shaped like a real dependency tree (four dependencies each).
    const dir = tempDir('bomwright-browser-');
    cpSync(SAMPLES, path.join(dir, 'samples'), { recursive: true });
    mkdirSync(path.join(dir, 'sboms'));
    const generateBom = await loadGenerateBom();
    const big = generateBom(3000);
    const components = big.components as Record<string, unknown>[];
    const ref = (i: number) => components[i]!['bom-ref'] as string;
    big.dependencies = [
      { ref: 'root-app', dependsOn: [ref(0)] },
      ...components.map((_, i) => ({
        ref: ref(i),
        dependsOn: [1, 2, 3, 4]
          .map((k) => 4 * i + k)
          .filter((j) => j < components.length)
          .map(ref),
      })),
    ];
    // Two findings deep in the tree: their nodes are pinned outside the collapsed clusters.
    components[1500]!.version = 15;
    (big.dependencies as { dependsOn: string[] }[])[2500]!.dependsOn.push('pkg:npm/ghost@1.0.0');
    writeFileSync(path.join(dir, 'sboms/app.json'), JSON.stringify(big, null, 2));
    const report = path.join(dir, 'report.html');
    const run = await runCli(['validate', 'samples', 'sboms', '--format', 'html', '-o', report], { cwd: dir });
    expect(run.code, run.stderr).toBe(1);
    url = pathToFileURL(report).href;

    context = await chromium.launchPersistentContext(tempDir('bomwright-chromium-'), {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 1280, height: 900 },
      colorScheme: 'light',
    });
    // Collected from the page itself: a policy violation also reaches the console, but not always as an error.
    await context.addInitScript(() => {
      const seen: string[] = [];
      const $ = globalThis as unknown as Page$;
      $.violations = seen;
      $.document.addEventListener('securitypolicyviolation', (e) =>
        seen.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(url);
  }, 60_000);

  afterAll(async () => {
    await context?.close();
  });

  const visibleFindings = () => page.locator('tr.finding:visible');

  it('loads with no console error, no policy violation and no request but the page itself', async () => {
    await expect.poll(() => page.locator('#filter-status').textContent()).toMatch(/^Showing \d+ of \d+ findings/);
    expect(problems).toEqual([]);
    expect(await page.evaluate(() => (globalThis as unknown as Page$).violations)).toEqual([]);
    expect(requests.every((r) => r.split('#')[0] === url.split('#')[0])).toBe(true);
  });

  it('filters the findings by severity and by rule, and keeps the filters in the address', async () => {
    const all = await page.locator('tr.finding').count();
    expect(await visibleFindings().count()).toBe(all);

    await page.getByLabel('errors', { exact: true }).uncheck();
    const warnings = await visibleFindings().count();
    expect(warnings).toBeGreaterThan(0);
    expect(warnings).toBeLessThan(all);
    const severities = await visibleFindings().evaluateAll((rows) => rows.map((r) => r.getAttribute('data-severity')));
    expect(new Set(severities)).toEqual(new Set(['warning']));
    expect(new URL(page.url()).hash).toBe('#severity=warning');

    await page.getByRole('button', { name: 'Show all' }).click();
    await page.locator('#filter-rule').selectOption('ref/unresolved');
    const rules = await visibleFindings().evaluateAll((rows) => rows.map((r) => r.getAttribute('data-rule')));
    expect(rules.length).toBeGreaterThan(1);
    expect(new Set(rules)).toEqual(new Set(['ref/unresolved']));
    // Documents without a matching finding are hidden as well.
    const sections = await page.evaluate(() => {
      const all = [...(globalThis as unknown as Page$).document.querySelectorAll('section.doc')];
      return {
        all: all.length,
        shown: all.filter((s) => !s.hidden).length,
        matching: all.filter((s) => s.querySelector('tr.finding:not([hidden])') !== null).length,
      };
    });
    expect(sections.shown).toBe(sections.matching);
    expect(sections.shown).toBeLessThan(sections.all);

    // A link keeps the filters.
    const kept = page.url();
    await page.goto('about:blank');
    await page.goto(kept);
    expect(await page.locator('#filter-rule').inputValue()).toBe('ref/unresolved');
    expect(await visibleFindings().count()).toBe(rules.length);
    await page.getByRole('button', { name: 'Show all' }).click();
    expect(await visibleFindings().count()).toBe(all);
  });

  it('reaches the controls with the keyboard, with a visible focus', async () => {
    await page.goto(url);
    const reached = new Set<string>();
    for (let i = 0; i < 120 && !reached.has('filter-reset'); i++) {
      await page.keyboard.press('Tab');
      const id = await page.evaluate(() => {
        const active = (globalThis as unknown as Page$).document.activeElement;
        return active?.id || active?.value || active?.tagName || '';
      });
      reached.add(id);
    }
    expect([...reached]).toEqual(expect.arrayContaining(['error', 'warning', 'filter-rule', 'filter-reset']));
    const outline = await page.evaluate(() => {
      const $ = globalThis as unknown as Page$;
      return $.getComputedStyle($.document.activeElement!).outlineStyle;
    });
    expect(outline).not.toBe('none');
  });

  it('draws a small graph whole, and a large one in clusters that expand', async () => {
    const full = page.locator('section.doc', { hasText: 'valid-full-1.6.json' }).locator('details.graph');
    await full.locator('summary').click();
    await expect.poll(() => full.locator('.node').count()).toBeGreaterThan(1);
    expect(await full.locator('.node.cluster').count()).toBe(0);

    const big = page.locator('section.doc', { hasText: 'sboms/app.json' }).locator('details.graph');
    // Opened from the keyboard: the summary, then Enter.
    await big.locator('summary').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => big.locator('.node').count()).toBeGreaterThan(1);
    const clusters = big.locator('.node.cluster');
    expect(await clusters.count()).toBeGreaterThan(1);
    // The offending nodes are drawn even though their clusters are collapsed.
    expect(await big.locator('.node.err').count()).toBe(2);
    expect(await big.locator('.node.missing').count()).toBe(1);

    const before = await big.locator('.node').count();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (globalThis as unknown as Page$).document.activeElement?.textContent)).toBe(
      'Collapse all',
    );
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(
      () => (globalThis as unknown as Page$).document.activeElement?.getAttribute('data-key') ?? '',
    );
    // The root, drawn as itself; then its subtrees.
    expect(focused).toBe('n0');
    await clusters.first().focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => big.locator('.node').count()).toBeGreaterThan(before);
    // Focus moves into what the cluster opened into.
    expect(
      await page.evaluate(
        () => (globalThis as unknown as Page$).document.activeElement?.closest('.graph-view') !== null,
      ),
    ).toBe(true);

    await big.locator('.node.err').first().click();
    await expect.poll(() => big.locator('.graph-info').textContent()).toContain('error schema/type: Must be a string');
    expect(problems).toEqual([]);
    if (process.env.BOMWRIGHT_SCREENSHOT) {
      await page
        .locator('section.doc', { hasText: 'sboms/app.json' })
        .locator('h2')
        .evaluate((h) => h.scrollIntoView());
      await big.locator('.graph-view').evaluate((view) => view.scrollTo(0, 0));
      await page.screenshot({ path: process.env.BOMWRIGHT_SCREENSHOT });
    }
  });

  it('reads in dark mode', async () => {
    const light = await page.evaluate(() => {
      const $ = globalThis as unknown as Page$;
      return $.getComputedStyle($.document.body).backgroundColor;
    });
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await page.evaluate(() => {
      const $ = globalThis as unknown as Page$;
      return $.getComputedStyle($.document.body).backgroundColor;
    });
    expect(light).toBe('rgb(255, 255, 255)');
    expect(dark).toBe('rgb(13, 17, 23)');
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
