import { beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { buildApp } from '../support/app';
import { describeBrowser, launchBrowser, screenshot, serve, seriousViolations } from '../support/browser';

describeBrowser('PIN page /dashboard/login in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
    return () => browser.close();
  });

  it('when a wrong PIN is entered, then the error shows inline; with the right PIN, then the dashboard opens', async () => {
    const { app } = await buildApp();
    const server = await serve(app);
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    try {
      await page.goto(`${server.url}/dashboard`);
      expect(new URL(page.url()).pathname).toBe('/dashboard/login');
      expect(await page.getAttribute('#pin', 'inputmode')).toBe('numeric');
      await page.fill('#pin', '1234');
      await page.click('button[type="submit"]');
      await page.waitForSelector('#pin-error:not([hidden])');
      expect(await page.textContent('#pin-error')).toContain('not right');
      await screenshot(page, 'dashboard-login-error-en-390');
      await page.fill('#pin', '999999');
      await page.click('button[type="submit"]');
      await page.waitForURL(`${server.url}/dashboard`);
      expect(await page.textContent('h1')).toContain('Admin');
    } finally {
      await page.close();
      await server.close();
    }
  });

  it('when the language is Arabic, then the page is right-to-left, translated and has no serious accessibility violation', async () => {
    const { app } = await buildApp();
    const server = await serve(app);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    try {
      await page.goto(`${server.url}/dashboard/login?lang=ar`);
      expect(await page.getAttribute('html', 'dir')).toBe('rtl');
      expect(await page.getAttribute('html', 'lang')).toBe('ar');
      expect(await page.textContent('h1')).toContain('تسجيل الدخول');
      await page.click('button[type="submit"]');
      expect(await page.textContent('#pin-error')).toContain('أدخل');
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'dashboard-login-ar-1440');
      await page.goto(`${server.url}/dashboard/login?lang=en`);
      expect(await page.getAttribute('html', 'dir')).toBe('ltr');
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'dashboard-login-en-1440');
    } finally {
      await page.close();
      await server.close();
    }
  });
});
