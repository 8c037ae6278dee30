import sharp from 'sharp';
import { expect, it } from 'vitest';
import { request } from '../support/http';
import { describeBrowser, seriousViolations } from '../support/browser';
import { checkAndShoot, runAs, settled, useBrowser, type Seeded } from './browser-helpers';

/** Seven pictures in the brand's library, enough to fill the picker's grid. */
async function library(app: Seeded) {
  for (let i = 1; i <= 7; i += 1) {
    const data = await sharp({ create: { width: 640, height: 400, channels: 3, background: { r: 30 * i, g: 120, b: 140 } } }).jpeg().toBuffer();
    const res = await request(app.ws.app)
      .post('/api/assets')
      .set('Authorization', `Bearer ${app.contributor.token}`)
      .field('brandId', String(app.brand.id))
      .attach('files', data, { filename: `poster-${i}.jpg`, contentType: 'image/jpeg' });
    expect(res.status).toBe(201);
  }
}

const STRINGS = {
  en: { newPost: 'New post', fromLibrary: 'Add from Assets', add: 'Add' },
  ar: { newPost: 'منشور جديد', fromLibrary: 'إضافة من الأصول', add: 'إضافة' },
} as const;

describeBrowser('The media picker of the post composer in a browser', () => {
  const browser = useBrowser();

  it.each(['en', 'ar'] as const)(
    'when "Add from Assets" is pressed right after the composer opens at 390 px (%s), then only the form\'s body scrolls: the title and × stay in view, with no blank space below',
    (lang) =>
      runAs(browser(), 'contributor', { lang, width: 390, prepare: library }, async ({ app, page }) => {
        // The dialog's opening animation runs, as it does for most people: the jump showed while it played.
        await page.emulateMedia({ reducedMotion: 'no-preference' });
        await page.goto(`${app.url}/workspace`);
        await settled(page);
        await page.getByRole('button', { name: STRINGS[lang].newPost }).click();
        const modal = page.locator('dialog.modal[open]');
        await modal.getByRole('button', { name: STRINGS[lang].fromLibrary }).click();
        await modal.locator('.media-choice').first().waitFor();
        await page.waitForFunction(() => document.activeElement?.matches('dialog .media-library input[type="search"]'));
        const layout = await modal.evaluate((dialog) => {
          const box = (selector: string) => dialog.querySelector(selector)!.getBoundingClientRect();
          return {
            scrollTop: dialog.scrollTop,
            overflow: dialog.scrollHeight - dialog.clientHeight,
            dialogTop: dialog.getBoundingClientRect().top,
            titleTop: box('.modal-title').top,
            closeTop: box('.modal-close').top,
            formBottom: box('.modal-form').bottom,
            dialogBottom: dialog.getBoundingClientRect().bottom,
            bodyScrolled: dialog.querySelector('.modal-body')!.scrollTop,
          };
        });
        expect(layout.scrollTop).toBe(0);
        expect(layout.overflow).toBeLessThanOrEqual(0);
        expect(layout.titleTop).toBeGreaterThan(layout.dialogTop);
        expect(layout.closeTop).toBeGreaterThan(layout.dialogTop);
        expect(Math.abs(layout.dialogBottom - layout.formBottom)).toBeLessThanOrEqual(1);
        // The body is what moved, to bring the search into view.
        expect(layout.bodyScrolled).toBeGreaterThan(0);
        await checkAndShoot(page, `workspace-media-picker-${lang}-390`);
      }),
  );

  it.each([
    ['en', 1440],
    ['ar', 390],
  ] as const)('when the library is open (%s, %i px), then every choice is named by the text it shows and axe finds nothing serious', (lang, width) =>
    runAs(browser(), 'contributor', { lang, width, prepare: library }, async ({ app, page }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      await page.getByRole('button', { name: STRINGS[lang].newPost }).click();
      const modal = page.locator('dialog.modal[open]');
      await modal.getByRole('button', { name: STRINGS[lang].fromLibrary }).click();
      await modal.locator('.media-choice').nth(6).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      // What a sighted user reads on each choice (the hidden verb aside) is inside its name.
      const shown = await modal.locator('.media-choice').evaluateAll((buttons) =>
        buttons.map((b) => {
          const copy = b.cloneNode(true) as HTMLElement;
          copy.querySelectorAll('.sr-only').forEach((n) => n.remove());
          return { label: b.getAttribute('aria-label'), text: [...copy.children].map((c) => c.textContent).filter(Boolean).join(' ') };
        }),
      );
      expect(shown).toHaveLength(7);
      for (const { label, text } of shown) {
        expect(label).toBeNull();
        expect(await modal.getByRole('button', { name: `${STRINGS[lang].add} ${text}`, exact: true }).count(), text).toBe(1);
      }
      await modal.getByRole('button', { name: `${STRINGS[lang].add} poster-3.jpg` }).click();
      await modal.locator('.media-item', { hasText: 'poster-3.jpg' }).waitFor();
      expect(await modal.locator('.media-choice').count()).toBe(6);
    }),
  );
});
