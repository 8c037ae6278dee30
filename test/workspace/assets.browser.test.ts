import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeBrowser } from '../support/browser';
import { checkAndShoot, runAs, settled, useBrowser } from './browser-helpers';

/** An image of random pixels: noise does not compress, so the file is big enough to show progress. */
async function photo(width: number, height: number, format: 'jpeg' | 'png'): Promise<Buffer> {
  const raw = randomBytes(width * height * 3);
  const image = sharp(raw, { raw: { width, height, channels: 3 } });
  return format === 'jpeg' ? image.jpeg({ quality: 95 }).toBuffer() : image.png().toBuffer();
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** Records every value each upload progress bar takes, keyed by the file name in its row. */
async function watchProgress(page: Page) {
  await page.evaluate(() => {
    const seen: Record<string, number[]> = {};
    (window as unknown as { progressSeen: typeof seen }).progressSeen = seen;
    new MutationObserver((records) => {
      for (const record of records) {
        const bar = record.target as HTMLProgressElement;
        if (bar.tagName !== 'PROGRESS') continue;
        const name = bar.closest('.upload-item')?.querySelector('.upload-name')?.textContent ?? '?';
        (seen[name] ??= []).push(bar.value);
      }
    }).observe(document.querySelector('[data-uploads]')!, { attributes: true, subtree: true, attributeFilter: ['value'] });
  });
}

describeBrowser('Assets /workspace/assets in a browser', () => {
  const browser = useBrowser();

  it('when several files are chosen at once, then each shows its own progress, images get thumbnails, others a type icon, and refused files say why', () =>
    runAs(browser(), 'contributor', { env: { UPLOAD_MAX_MB: '2' } }, async ({ app, page, context }) => {
      await page.goto(`${app.url}/workspace/assets`);
      await settled(page);
      expect(await page.textContent('.ws-state')).toContain('No files yet');
      await watchProgress(page);
      // Slow the upload down, so that progress events arrive between 0 and 100 percent.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 10, downloadThroughput: -1, uploadThroughput: 1024 * 1024 });

      const big = await photo(900, 600, 'png');
      expect(big.length).toBeGreaterThan(1024 * 1024);
      expect(big.length).toBeLessThan(2 * 1024 * 1024);
      await page.setInputFiles('#upload-files', [
        { name: 'gallery-hall.png', mimeType: 'image/png', buffer: big },
        { name: 'poster.jpg', mimeType: 'image/jpeg', buffer: await photo(400, 300, 'jpeg') },
        { name: 'programme.pdf', mimeType: 'application/pdf', buffer: PDF },
        { name: 'script.png', mimeType: 'image/png', buffer: Buffer.from('#!/bin/sh\necho not an image\n') },
        { name: 'huge-video.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(3 * 1024 * 1024, 1) },
      ]);
      const rows = page.locator('.upload-item');
      await page.waitForFunction(() => document.querySelectorAll('.upload-item.is-done, .upload-item.is-failed').length === 5, undefined, { timeout: 30_000 });
      expect(await rows.count()).toBe(5);
      expect(await page.locator('.upload-item.is-done').count()).toBe(3);
      const refused = await page.locator('.upload-item.is-failed .upload-status').allTextContents();
      expect(refused).toEqual(
        expect.arrayContaining([
          expect.stringContaining('“script.png” is not a type of file the workspace accepts'),
          expect.stringContaining('“huge-video.mp4” is larger than 2 MB'),
        ]),
      );
      const seen = await page.evaluate(() => (window as unknown as { progressSeen: Record<string, number[]> }).progressSeen);
      expect(seen['gallery-hall.png'].some((v) => v > 0 && v < 100), JSON.stringify(seen)).toBe(true);
      expect(seen['gallery-hall.png'].at(-1)).toBe(100);
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

      const cards = page.locator('.asset');
      expect(await cards.count()).toBe(3);
      const images = page.locator('.asset-thumb img');
      expect(await images.count()).toBe(2);
      await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.asset-thumb img')].every((img) => img.complete && img.naturalWidth > 0));
      const pdfCard = cards.filter({ hasText: 'programme.pdf' });
      expect(await pdfCard.locator('.file-type-pdf').getAttribute('aria-label')).toBe('PDF file');
      expect(await cards.filter({ hasText: 'gallery-hall.png' }).textContent()).toMatch(/1\.\d MB/);
      expect(await cards.filter({ hasText: 'poster.jpg' }).textContent()).toContain('Uploaded by Lina Farah');
      const stored = (await app.ws.as(app.contributor).get('/api/assets')).body.assets as { id: number; name: string }[];
      const pdf = stored.find((a) => a.name === 'programme.pdf')!;
      expect(await pdfCard.getByRole('link', { name: 'Download programme.pdf' }).getAttribute('href')).toBe(`/api/assets/${pdf.id}/download`);
      await checkAndShoot(page, 'workspace-assets-uploaded-en-1440');

      await pdfCard.getByRole('button', { name: 'Delete programme.pdf' }).click();
      const modal = page.locator('dialog.modal-danger[open]');
      expect(await modal.locator('.modal-message').textContent()).toContain('“programme.pdf” will be deleted');
      await modal.locator('.button-danger').click();
      await pdfCard.waitFor({ state: 'detached' });
      expect((await app.ws.as(app.contributor).get(`/api/assets/${pdf.id}`)).status).toBe(404);
    }), 60_000);

  it('when files are dropped on the page in Arabic, then they upload into the chosen campaign and the grid reads right to left', () =>
    runAs(browser(), 'manager', {
      lang: 'ar', width: 390,
      prepare: async (app) => {
        const campaign = (await app.ws.as(app.manager).post('/api/campaigns').send({ name: 'معرض الخط العربي', brandId: app.brand.id })).body.campaign;
        return { campaign };
      },
    }, async ({ app, page, data: { campaign } }) => {
      await page.goto(`${app.url}/workspace/assets`);
      await settled(page);
      await page.selectOption('#upload-campaign', String(campaign.id));
      const jpeg = (await photo(300, 200, 'jpeg')).toString('base64');
      const transfer = await page.evaluateHandle((data) => {
        const dt = new DataTransfer();
        const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
        dt.items.add(new File([bytes], 'خط-عربي.jpg', { type: 'image/jpeg' }));
        dt.items.add(new File([bytes], 'لوحة.jpg', { type: 'image/jpeg' }));
        return dt;
      }, jpeg);
      await page.dispatchEvent('[data-dropzone]', 'dragenter', { dataTransfer: transfer });
      expect(await page.getAttribute('[data-dropzone]', 'class')).toContain('is-over');
      await page.dispatchEvent('[data-dropzone]', 'drop', { dataTransfer: transfer });
      await page.waitForFunction(() => document.querySelectorAll('.upload-item.is-done').length === 2);
      expect(await page.locator('.asset').count()).toBe(2);
      const stored = (await app.ws.as(app.manager).get(`/api/assets?campaignId=${campaign.id}`)).body.assets;
      expect(stored.map((a: { name: string }) => a.name).sort()).toEqual(['خط-عربي.jpg', 'لوحة.jpg'].sort());
      await checkAndShoot(page, 'workspace-assets-uploaded-ar-390');
    }));
});
