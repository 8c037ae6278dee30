import { assert, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { describeBrowser } from '../support/browser';
import { checkAndShoot, runAs, settled, useBrowser } from './browser-helpers';

interface Box {
  left: number;
  right: number;
}

/**
 * Where a sentence was drawn: its direction and box, the box of each <bdi> by its text, and the
 * box of the first drawing of each character asked for.
 */
function drawn(sentence: Locator, characters: string[]) {
  return sentence.evaluate((root, wanted) => {
    const box = (r: DOMRect): Box => ({ left: r.left, right: r.right });
    const texts: Text[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text);
    const characterBox = (character: string) => {
      for (const text of texts) {
        const at = text.data.indexOf(character);
        if (at === -1) continue;
        const range = document.createRange();
        range.setStart(text, at);
        range.setEnd(text, at + character.length);
        return box(range.getBoundingClientRect());
      }
      return null;
    };
    return {
      direction: getComputedStyle(root).direction,
      box: box(root.getBoundingClientRect()),
      isolated: Object.fromEntries<Box | undefined>([...root.querySelectorAll('bdi')].map((b) => [b.textContent, box(b.getBoundingClientRect())])),
      characters: Object.fromEntries(wanted.map((c) => [c, characterBox(c)])),
    };
  }, characters);
}

describeBrowser('Titles and names in the other script, inside toasts and notifications', () => {
  const browser = useBrowser();

  it('when an English page says a task with an Arabic title changed, then the title keeps its own direction and the quotes stay outside it', () =>
    runAs(
      browser(),
      'manager',
      {
        prepare: async (app) => (await app.ws.as(app.manager).post('/api/tasks').send({ title: 'عرض 2026!', brandId: app.brand.id })).body.task as { id: number },
      },
      async ({ app, page, data }) => {
        await page.goto(`${app.url}/workspace/tasks?scope=all`);
        await settled(page);
        await page.selectOption(`#task-status-${data.id}`, 'doing');
        const toast = page.locator('#ws-toast');
        await page.waitForFunction(() => document.querySelector('#ws-toast')?.textContent.includes('is now'));
        expect(await toast.textContent()).toBe('“عرض 2026!” is now In progress.');
        const { direction, isolated, characters } = await drawn(toast, ['“', '”', '!']);
        expect(direction).toBe('ltr');
        const title = isolated['عرض 2026!'];
        assert.isDefined(title);
        expect(characters['“']!.right).toBeLessThanOrEqual(title.left + 1);
        expect(characters['”']!.left).toBeGreaterThanOrEqual(title.right - 1);
        // Read right to left, the title ends on its left.
        expect(Math.abs(characters['!']!.left - title.left)).toBeLessThanOrEqual(1);
        await checkAndShoot(page, 'workspace-toast-arabic-title-en-1440');
      },
    ));

  it('when an Arabic page lists a notification naming an English colleague and an English title, then the sentence reads right to left with each name in its own direction', () =>
    runAs(
      browser(),
      'contributor',
      {
        lang: 'ar',
        prepare: async (app) => {
          const res = await app.ws.as(app.manager).post('/api/tasks').send({ title: 'Poster (v2)!', brandId: app.brand.id, assigneeId: app.contributor.id });
          expect(res.status).toBe(201);
        },
      },
      async ({ app, page }) => {
        await page.goto(`${app.url}/workspace`);
        await settled(page);
        await page.locator('.ws-user [data-notifications-open]').click();
        const sentence = page.locator('dialog.modal[open] .notification-text');
        await sentence.waitFor();
        expect(await sentence.textContent()).toBe('أسند إليك Omar Khalil «Poster (v2)!»');
        const { direction, box, isolated, characters } = await drawn(sentence, ['«', '»', '!']);
        expect(direction).toBe('rtl');
        const title = isolated['Poster (v2)!'];
        const actor = isolated['Omar Khalil'];
        assert(title && actor, 'the title and the colleague are each in a <bdi>');
        // Right to left: the verb, then the colleague, then the quoted title further left.
        expect(actor.right).toBeLessThan(box.right);
        expect(title.right).toBeLessThanOrEqual(actor.left);
        expect(characters['«']!.left).toBeGreaterThanOrEqual(title.right - 1);
        expect(characters['»']!.right).toBeLessThanOrEqual(title.left + 1);
        // Read left to right, the title ends on its right, with its own parenthesis and stop.
        expect(Math.abs(characters['!']!.right - title.right)).toBeLessThanOrEqual(1);
        await checkAndShoot(page, 'workspace-notification-english-names-ar-1440');
      },
    ));

  it('when an English page lists a notification from a colleague with an Arabic name, then the sentence still reads left to right from that name', () =>
    runAs(
      browser(),
      'contributor',
      {
        prepare: async (app) => {
          await app.ws.members.update(app.manager.id, { name: 'عمر خليل' });
          const res = await app.ws.as(app.manager).post('/api/tasks').send({ title: 'Opening poster', brandId: app.brand.id, assigneeId: app.contributor.id });
          expect(res.status).toBe(201);
        },
      },
      async ({ app, page }) => {
        await page.goto(`${app.url}/workspace`);
        await settled(page);
        await page.locator('.ws-user [data-notifications-open]').click();
        const sentence = page.locator('dialog.modal[open] .notification-text');
        await sentence.waitFor();
        expect(await sentence.textContent()).toBe('عمر خليل assigned you “Opening poster”');
        const { direction, box, isolated } = await drawn(sentence, []);
        expect(direction).toBe('ltr');
        expect(Math.abs(isolated['عمر خليل']!.left - box.left)).toBeLessThanOrEqual(1);
        expect(isolated['Opening poster']!.left).toBeGreaterThan(isolated['عمر خليل']!.right);
      },
    ));
});
