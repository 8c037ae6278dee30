import { expect, it } from 'vitest';
import { describeBrowser, useServedApp } from '../support/browser';
import { checkAndShoot, useBrowser, WIDTHS, type Lang } from '../workspace/browser-helpers';

describeBrowser('the API reference page', () => {
  const browser = useBrowser();
  const url = useServedApp();

  for (const lang of ['en', 'ar'] as Lang[]) {
    it(`when a developer opens /api/docs in ${lang} and unfolds an operation, then every feature is listed and the page is axe clean at 390 and 1440 px`, async () => {
      for (const width of WIDTHS) {
        const context = await browser().newContext({ viewport: { width, height: 900 } });
        try {
          const page = await context.newPage();
          await page.goto(`${url()}/api/docs?lang=${lang}`);
          expect(await page.getAttribute('html', 'dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
          await page.getByRole('link', { name: 'posts', exact: true }).click();
          const operation = page.locator('#tag-posts details').filter({ has: page.locator('summary', { hasText: /^POST \/api\/posts$/ }) });
          await operation.locator('summary').click();
          await expect.poll(() => operation.getAttribute('open')).not.toBeNull();
          expect(await operation.locator('pre').innerText()).toContain('"title"');
          await checkAndShoot(page, `api-docs-${lang}-${width}`);
        } finally {
          await context.close();
        }
      }
    }, 90_000);
  }
});
