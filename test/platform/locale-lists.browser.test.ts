import { expect, it } from 'vitest';
import { describeBrowser, useServedApp } from '../support/browser';
import { useBrowser, type Lang } from '../workspace/browser-helpers';

/** Records each step of `public/boot/locale-lists.js`, with the turn of the event loop it ran in. */
function recordSteps() {
  const steps: [string, number][] = [];
  (window as unknown as { localeSteps: typeof steps }).localeSteps = steps;
  // A turn ends at the microtask checkpoint after its script or callback, so calls made before
  // the next checkpoint share a number.
  let turn = 0;
  let open = false;
  const mark = (step: string) => {
    if (!open) {
      turn += 1;
      open = true;
      queueMicrotask(() => {
        open = false;
      });
    }
    steps.push([step, turn]);
  };
  const wrap = <T extends object>(owner: T, key: keyof T & string, step: string) => {
    const original = owner[key] as unknown as (...args: unknown[]) => unknown;
    Object.defineProperty(owner, key, {
      value(this: unknown, ...args: unknown[]) {
        mark(step);
        return original.apply(this, args);
      },
    });
  };
  wrap(Intl, 'getCanonicalLocales', 'keywords');
  wrap(Intl.Locale.prototype, 'maximize', 'locale');
  wrap(Intl.NumberFormat, 'supportedLocalesOf', 'numbers');
  wrap(Intl.DateTimeFormat, 'supportedLocalesOf', 'dates');
  wrap(Intl.Collator, 'supportedLocalesOf', 'collator');
}

describeBrowser('the locale lists built as a page opens, in a browser', () => {
  const browser = useBrowser();
  const url = useServedApp();

  for (const lang of ['en', 'ar'] as Lang[]) {
    it(`when a page with scripts opens in ${lang}, then the locale data and lists are built in four steps, each in a task of its own`, async () => {
      const context = await browser().newContext();
      try {
        const page = await context.newPage();
        await page.addInitScript(recordSteps);
        await page.goto(`${url()}/login?lang=${lang}`);
        const stepsSoFar = () => page.evaluate(() => (window as unknown as { localeSteps: [string, number][] }).localeSteps);
        // The later steps are queued as tasks, which may run after the load event.
        await expect.poll(async () => (await stepsSoFar()).length).toBe(5);
        const steps = await stepsSoFar();
        expect(steps.map(([step]) => step)).toEqual(['keywords', 'locale', 'numbers', 'dates', 'collator']);
        const [keywords, locale, numbers, dates, collator] = steps.map(([, turn]) => turn);
        expect(new Set([keywords, locale, numbers, dates]).size).toBe(4);
        expect(collator).toBe(dates);
      } finally {
        await context.close();
      }
    });
  }
});
