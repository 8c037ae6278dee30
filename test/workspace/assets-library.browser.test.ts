import sharp from 'sharp';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { request } from '../support/http';
import { describeBrowser } from '../support/browser';
import { docx } from '../support/files';
import type { TestUser } from '../support/workspace';
import { checkAndShoot, runAs, settled, useBrowser, type Seeded } from './browser-helpers';

interface Stored {
  id: number;
  name: string;
  url: string;
  thumbnailUrl: string | null;
}

/** A picture larger than a thumbnail, so that the preview can tell the two apart. */
function picture(r: number, g: number, b: number): Promise<Buffer> {
  return sharp({ create: { width: 1200, height: 800, channels: 3, background: { r, g, b } } })
    .jpeg()
    .toBuffer();
}

/** A PDF of one empty page that a viewer can open. */
function onePagePdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj ${o} endobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer << /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body);
}

async function upload(app: Seeded, by: TestUser, fields: Record<string, number>, files: { data: Buffer; name: string; type: string }[]): Promise<Stored[]> {
  let req = request(app.ws.app).post('/api/assets').set('Authorization', `Bearer ${by.token}`);
  for (const [key, value] of Object.entries(fields)) req = req.field(key, String(value));
  for (const f of files) req = req.attach('files', f.data, { filename: f.name, contentType: f.type });
  const res = await req;
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.assets;
}

/** A library in use: pictures, a PDF and a document in two campaigns, by two people, one file with a very long name. */
async function library(app: Seeded) {
  const as = app.ws.as(app.manager);
  const [exhibition, family] = await Promise.all(
    ['Ceramics of the Silk Road', 'Family Saturdays'].map(async (name) => (await as.post('/api/campaigns').send({ name, brandId: app.brand.id })).body.campaign as { id: number; name: string }),
  );
  const jpeg = 'image/jpeg';
  const byContributor = await upload(app, app.contributor, { campaignId: exhibition.id }, [
    { data: await picture(14, 147, 132), name: 'poster-blue-bowl.jpg', type: jpeg },
    { data: await picture(181, 71, 8), name: 'poster-gallery-view.jpg', type: jpeg },
    { data: onePagePdf(), name: 'press-kit.pdf', type: 'application/pdf' },
  ]);
  const byManager = await upload(app, app.manager, { campaignId: family.id }, [
    { data: await picture(90, 60, 160), name: 'workshop-table.jpg', type: jpeg },
    { data: docx(), name: 'A very long name for the family workshop brief, written for the newsletter and the press, final version 3.docx', type: 'application/octet-stream' },
  ]);
  // Newest first on the page: the manager's files, then the contributor's in reverse order of upload.
  return { exhibition, family, byContributor, byManager };
}

/** The heights of the cards, as drawn. */
async function cardHeights(page: Page): Promise<number[]> {
  return page.locator('.asset').evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().height)));
}

const cardNames = (page: Page) => page.locator('.asset .asset-name').allTextContents();

describeBrowser('The asset library /workspace/assets in a browser', () => {
  const browser = useBrowser();

  it('when a manager searches and filters, previews and deletes three files at once in English at 1440px, then each step holds across a reload and the API agrees', () =>
    runAs(browser(), 'manager', { prepare: library }, async ({ app, page, data }) => {
      const cspViolations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
      });
      await page.goto(`${app.url}/workspace/assets`);
      await settled(page);
      expect(await page.locator('.asset').count()).toBe(5);

      // Cards of one size, whatever the name's length or the file's type.
      const heights = await cardHeights(page);
      expect(Math.max(...heights) - Math.min(...heights), JSON.stringify(heights)).toBeLessThanOrEqual(1);
      const longName = page.locator('.asset-name', { hasText: 'A very long name' });
      expect(await longName.getAttribute('title')).toBe(data.byManager[1].name);

      // Search and type, kept in the address and across a reload.
      await page.fill('#assets-q', 'POSTER');
      await page.selectOption('#assets-type', 'image');
      await page.waitForFunction(() => document.querySelectorAll('.asset').length === 2 && new URL(location.href).searchParams.get('q') === 'POSTER');
      expect(new URL(page.url()).searchParams.get('type')).toBe('image');
      await page.selectOption('#assets-campaign', String(data.exhibition.id));
      await page.waitForFunction((id) => new URL(location.href).searchParams.get('campaignId') === String(id), data.exhibition.id);
      await settled(page);
      expect((await cardNames(page)).sort()).toEqual(['poster-blue-bowl.jpg', 'poster-gallery-view.jpg']);
      await page.reload();
      await settled(page);
      expect(await page.inputValue('#assets-q')).toBe('POSTER');
      expect(await page.inputValue('#assets-type')).toBe('image');
      expect(await page.inputValue('#assets-campaign')).toBe(String(data.exhibition.id));
      expect((await cardNames(page)).sort()).toEqual(['poster-blue-bowl.jpg', 'poster-gallery-view.jpg']);
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await page.waitForFunction(() => document.querySelectorAll('.asset').length === 5);
      expect(new URL(page.url()).search).toBe('');
      expect(await page.inputValue('#assets-q')).toBe('');

      // The preview: the full picture, then the next files by the arrow keys, a PDF in a frame.
      const [blue, gallery, pdf] = data.byContributor;
      await page.getByRole('button', { name: `Preview ${gallery.name}` }).click();
      const dialog = page.locator('dialog.modal[open]');
      await dialog.waitFor();
      expect(await dialog.locator('.modal-title').textContent()).toBe(gallery.name);
      const full = dialog.locator('img.lightbox-image');
      expect(await full.getAttribute('src')).toBe(gallery.url);
      await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('dialog img.lightbox-image')?.naturalWidth ?? 0) === 1200);
      expect(await dialog.locator('.lightbox-details').textContent()).toContain('Lina Farah');
      expect(await dialog.getByRole('link', { name: `Download ${gallery.name}` }).getAttribute('href')).toBe(`/api/assets/${gallery.id}/download`);
      expect(await dialog.locator('.lightbox-position').textContent()).toBe('4 of 5');
      await checkAndShoot(page, 'workspace-assets-lightbox-en-1440');
      await page.keyboard.press('ArrowRight');
      expect(await dialog.locator('.modal-title').textContent()).toBe(blue.name);
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      expect(await dialog.locator('.modal-title').textContent()).toBe(pdf.name);
      const frame = dialog.locator('iframe.lightbox-frame');
      expect(await frame.getAttribute('src')).toBe(pdf.url);
      expect(await frame.getAttribute('title')).toBe(`Preview of ${pdf.name}`);
      const pdfAnswer = await app.ws.as(app.manager).get(pdf.url);
      expect(pdfAnswer.headers['content-type']).toBe('application/pdf');
      expect(pdfAnswer.headers['content-disposition']).toBe(`inline; filename=${pdf.name}`);
      await page.keyboard.press('ArrowLeft');
      expect(await dialog.locator('.modal-title').textContent()).toBe(data.byManager[0].name);
      await page.keyboard.press('ArrowLeft');
      expect(await dialog.locator('.modal-title').textContent()).toBe(data.byManager[1].name);
      expect(await dialog.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
      expect(await dialog.locator('.lightbox-file .file-type').getAttribute('aria-label')).toBe('DOCX file');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => document.activeElement?.closest('[data-asset-id]')?.getAttribute('data-asset-id'))).toBe(String(data.byManager[1].id));
      expect(cspViolations).toEqual([]);

      // Three files ticked by a click and a Shift-click, deleted with one confirmation.
      const workshop = data.byManager[0];
      await page.getByRole('checkbox', { name: `Select ${workshop.name}` }).click();
      await page.getByRole('checkbox', { name: `Select ${gallery.name}` }).click({ modifiers: ['Shift'] });
      expect(await page.locator('[data-selection-count]').textContent()).toBe('3 selected');
      expect(await page.locator('.asset.is-selected .asset-name').allTextContents()).toEqual([workshop.name, pdf.name, gallery.name]);
      await checkAndShoot(page, 'workspace-assets-selection-en-1440');
      await page.getByRole('button', { name: 'Delete selected' }).click();
      const confirm = page.locator('dialog.modal-danger[open]');
      expect(await confirm.locator('.modal-title').textContent()).toBe('Delete 3 files?');
      expect(await page.locator('dialog[open]').count()).toBe(1);
      await confirm.getByRole('button', { name: 'Delete 3 files' }).click();
      await confirm.waitFor({ state: 'detached' });
      await page.waitForFunction(() => document.querySelectorAll('.asset').length === 2);
      for (const gone of [workshop, pdf, gallery]) expect((await app.ws.as(app.manager).get(`/api/assets/${gone.id}`)).status).toBe(404);
      expect((await app.ws.as(app.manager).get(`/api/assets/${blue.id}`)).status).toBe(200);
      expect(await page.locator('[data-delete-selected]').isHidden()).toBe(true);
    }), 90_000);

  it.each([
    ['en', 1440],
    ['ar', 390],
  ] as const)('when a PDF named in Arabic is previewed (%s, %i px), then the viewer titles it by its name, not the stored key, and its download is saved under that name', (lang, width) =>
    runAs(browser(), 'contributor', { lang, width }, async ({ app, page }) => {
      const name = 'دليل المعرض 2026.pdf';
      const [stored] = await upload(app, app.contributor, { brandId: app.brand.id }, [{ data: onePagePdf(), name, type: 'application/pdf' }]);
      await page.goto(`${app.url}/workspace/assets`);
      await settled(page);
      await page.locator(`[data-asset-id="${stored.id}"] .asset-open`).click();
      const dialog = page.locator('dialog.modal[open]');
      await dialog.locator('iframe.lightbox-frame').waitFor();
      expect(await dialog.locator('.modal-title').textContent()).toBe(name);
      // Chromium's own PDF viewer, in the frame: its toolbar names the file as the server does.
      const viewerTitle = async () => {
        for (const frame of page.frames()) {
          if (!frame.url().startsWith('chrome-extension:')) continue;
          const title = await frame.evaluate(() => document.title).catch(() => '');
          if (title) return title;
        }
        return null;
      };
      await expect.poll(viewerTitle, { timeout: 10_000 }).toBe(name);
      const [download] = await Promise.all([page.waitForEvent('download'), dialog.locator('.lightbox-download').click()]);
      expect(download.suggestedFilename()).toBe(name);
      await download.cancel();
      await checkAndShoot(page, `workspace-assets-pdf-${lang}-${width}`);
    }),
  );

  it('when a contributor filters by uploader and previews in Arabic at 390px, then only their own files can be ticked, the arrows follow the reading direction and the page reads right to left', () =>
    runAs(browser(), 'contributor', { lang: 'ar', width: 390, prepare: library }, async ({ app, page, data }) => {
      await page.goto(`${app.url}/workspace/assets?uploadedBy=${app.contributor.id}`);
      await settled(page);
      expect(await page.getAttribute('html', 'dir')).toBe('rtl');
      expect(await page.inputValue('#assets-uploader')).toBe(String(app.contributor.id));
      expect((await cardNames(page)).sort()).toEqual(data.byContributor.map((a) => a.name).sort());
      await page.selectOption('#assets-uploader', '');
      await page.waitForFunction(() => document.querySelectorAll('.asset').length === 5);
      const heights = await cardHeights(page);
      expect(Math.max(...heights) - Math.min(...heights), JSON.stringify(heights)).toBeLessThanOrEqual(1);
      // Only the contributor's own files carry a tick box; the keyboard ticks a range with Shift+Space.
      const boxes = page.locator('.asset-check-input');
      expect(await boxes.count()).toBe(3);
      await boxes.nth(0).focus();
      await page.keyboard.press('Space');
      await boxes.nth(2).focus();
      await page.keyboard.press('Shift+Space');
      expect(await page.locator('.asset.is-selected').count()).toBe(3);
      await page.locator('[data-clear-selection]').click();
      expect(await page.locator('.asset.is-selected').count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-select-all'))).toBe(true);
      await page.locator('[data-select-all]').click();
      expect(await page.locator('.asset.is-selected').count()).toBe(3);
      expect(await page.locator('[data-selection-count]').textContent()).toContain('3');
      const bar = await page.locator('[data-selection-bar]').boundingBox();
      expect(bar!.width).toBeLessThanOrEqual(390);
      await checkAndShoot(page, 'workspace-assets-library-ar-390');

      const [blue, gallery] = data.byContributor;
      await page.locator(`[data-asset-id="${gallery.id}"] .asset-open`).click();
      const dialog = page.locator('dialog.modal[open]');
      await dialog.waitFor();
      // Right to left, the next file is to the left.
      await page.keyboard.press('ArrowLeft');
      expect(await dialog.locator('.modal-title').textContent()).toBe(blue.name);
      // The arrows of Previous and Next point along the reading direction.
      expect(await dialog.locator('[data-previous] svg').evaluate((svg) => getComputedStyle(svg).transform)).toBe('matrix(-1, 0, 0, 1, 0, 0)');
      await checkAndShoot(page, 'workspace-assets-lightbox-ar-390');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => document.activeElement?.closest('[data-asset-id]')?.getAttribute('data-asset-id'))).toBe(String(blue.id));
    }), 90_000);
});
