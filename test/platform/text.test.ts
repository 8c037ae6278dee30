import { describe, expect, it } from 'vitest';
import { foldedMatches, foldForSearch, multiLine, singleLine } from '../../src/platform/text';
import { request } from '../support/http';
import { buildWorkspace } from '../support/workspace';
import { buildApp, cookieFrom } from '../support/app';

describe('singleLine', () => {
  it.each([
    ['NUL', '\u0000nul'],
    ['CR LF', 'a\r\nb'],
    ['a line feed', 'a\nb'],
    ['a tab', 'a\tb'],
    ['a C1 control', 'a\u0085b'],
    ['a line separator', 'a\u2028b'],
    ['a lone high surrogate', '\ud800'],
    ['a lone low surrogate', 'x\udc00'],
  ])('when a name holds %s, then it is refused', (_label, value) => {
    expect(singleLine(200).safeParse(value).success).toBe(false);
  });

  it('when a name is Arabic, has an emoji or spaces around it, then it is kept, trimmed', () => {
    expect(singleLine(200).parse('  متحف الفن 🏛️ ')).toBe('متحف الفن 🏛️');
  });

  it.each([
    ['zero-width spaces', '\u200b\u200b'],
    ['a zero-width joiner and a byte-order mark', '\u200d\ufeff'],
    ['left-to-right and right-to-left marks', '\u200e\u200f'],
    ['a word joiner between spaces', ' \u2060 '],
    ['Hangul fillers', '\u3164\uffa0'],
    ['a blank Braille pattern', '\u2800'],
    ['combining marks with nothing to sit on', '\u0301\u064e'],
  ])('when a name is made only of %s, then it is refused', (_label, value) => {
    expect(singleLine(200).safeParse(value).success).toBe(false);
    // An optional text (a job title) may be empty, but not invisible.
    expect(singleLine(200, 0).safeParse(value).success).toBe(false);
  });

  it.each([
    ['LRE', '\u202a'],
    ['RLE', '\u202b'],
    ['PDF', '\u202c'],
    ['LRO', '\u202d'],
    ['RLO', '\u202e'],
    ['LRI', '\u2066'],
    ['RLI', '\u2067'],
    ['FSI', '\u2068'],
    ['PDI', '\u2069'],
  ])('when a name holds the bidirectional control %s, then it is refused', (_label, control) => {
    expect(singleLine(200).safeParse(`invoice${control}fdp.exe`).success).toBe(false);
  });

  it('when a name holds visible text beside zero-width characters or a right-to-left mark, then it is kept', () => {
    expect(singleLine(200).parse('\u200fمعرض 2026')).toBe('\u200fمعرض 2026');
    expect(singleLine(200).parse('Ca\u200bfé')).toBe('Ca\u200bfé');
    // White space of any script trims away: an optional text is then empty, a required one refused.
    expect(singleLine(200, 0).parse(' \u3000\u00a0')).toBe('');
    expect(singleLine(200).safeParse('\u3000\u00a0').success).toBe(false);
  });
});

describe('foldForSearch', () => {
  it.each([
    ['alef with hamza above, below, madda and wasla', 'أإآٱ', 'اااا'],
    ['hamza on waw and on yaa', 'سؤال رئيس', 'سوال رييس'],
    ['taa marbuta', 'مدرسة', 'مدرسه'],
    ['alef maqsura and the Persian yaa', 'موسى ی', 'موسي ي'],
    ['tashkeel, shadda, tanween and the dagger alef', 'تَعَرَّفُوا كِتابٌ هٰذا', 'تعرفوا كتاب هذا'],
    ['tatweel', 'متـــحف', 'متحف'],
    ['Latin letters', 'MUSÉE Night', 'musée night'],
  ])('when text holds %s, then it folds to one spelling', (_label, text, folded) => {
    expect(foldForSearch(text)).toBe(folded);
  });
});

describe('foldedMatches', () => {
  it('when the needle is spelled another way, then the places are those of the stored letters, their marks included', () => {
    const text = 'زوروا إطلالةً على تعرّفوا';
    const places = (needle: string) => foldedMatches(text, needle).map(([start, end]) => text.slice(start, end));
    expect(places('اطلاله')).toEqual(['إطلالةً']);
    expect(places('تعرفوا')).toEqual(['تعرّفوا']);
    expect(places('ا')).toEqual(['ا', 'إ', 'ا', 'ا']);
  });

  it('when the text holds characters beyond one UTF-16 unit, then the places still fall on the match', () => {
    const text = '🎨🎨 needle 🏛️ NEEDLE';
    expect(foldedMatches(text, 'needle').map(([start, end]) => text.slice(start, end))).toEqual(['needle', 'NEEDLE']);
  });

  it('when the needle folds to nothing, then there is no match', () => {
    expect(foldedMatches('متحف', 'ـ')).toEqual([]);
  });
});

describe('multiLine', () => {
  it('when text has CR LF or CR line breaks, then they are stored as LF, and tabs are kept', () => {
    expect(multiLine(100).parse('one\r\ntwo\rthree\n\tfour')).toBe('one\ntwo\nthree\n\tfour');
  });

  it.each([
    ['NUL', 'a\u0000b'],
    ['an escape character', 'a\u001bb'],
    ['a lone surrogate', 'a\ud83db'],
  ])('when text holds %s, then it is refused', (_label, value) => {
    expect(multiLine(100).safeParse(value).success).toBe(false);
  });
});

describe('the text rule in both applications', () => {
  it.each([['\u0000nul'], ['a\r\nb'], ['\ud800']])('when a post title is %j, then 400 and nothing is stored', async (title) => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const user = await ws.user('manager', { brandIds: [brand.id] });
    const res = await ws.as(user).post('/api/posts').send({ title, brandId: brand.id });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION');
    expect((await ws.as(user).get('/api/posts')).body.posts).toEqual([]);
  });

  it.each([
    ['invisible characters only', '\u200b\u2060\u200b'],
    ['a right-to-left override', 'Report\u202egnp.exe'],
    ['a first-strong isolate', 'Sale \u2068now\u2069'],
  ])('when a post, campaign, task, project, brand or member name holds %s, then 400 VALIDATION and nothing is stored', async (_label, name) => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const admin = await ws.user('superadmin');
    const as = ws.as(admin);
    const refused = [
      await as.post('/api/posts').send({ title: name, brandId: brand.id }),
      await as.post('/api/campaigns').send({ name, brandId: brand.id }),
      await as.post('/api/tasks').send({ title: name, brandId: brand.id }),
      await as.post('/api/projects').send({ name, brandId: brand.id }),
      await as.post('/api/brands').send({ name }),
      await as.patch('/api/auth/me').send({ name }),
    ];
    for (const res of refused) {
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION');
    }
    expect((await as.get('/api/posts')).body.posts).toEqual([]);
    expect((await as.get('/api/campaigns')).body.campaigns).toEqual([]);
    expect((await as.get('/api/tasks')).body.tasks).toEqual([]);
    expect((await as.get('/api/brands')).body.brands.map((b: { name: string }) => b.name)).toEqual([brand.name]);
  });

  it('when a caption has Windows line breaks, then it is stored with \\n', async () => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const user = await ws.user('manager', { brandIds: [brand.id] });
    const res = await ws.as(user).post('/api/posts').send({ title: 'Launch', caption: 'Line one\r\nLine two', brandId: brand.id });
    expect(res.status).toBe(201);
    expect(res.body.post.caption).toBe('Line one\nLine two');
  });

  it('when a dashboard user or season name breaks the rule, then 400', async () => {
    const { app } = await buildApp();
    const login = await request(app).post('/auth/login').send({ pin: '999999' });
    const cookie = `service_session=${cookieFrom(login, 'service_session')}`;
    const admin = (path: string) => request(app).post(path).set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
    expect((await admin('/api/users').send({ name: 'Two\nlines', role: 'viewer' })).status).toBe(400);
    expect((await admin('/api/users').send({ name: 'Fine', role: 'viewer', allowedMuseums: ['Fort\u0000'] })).status).toBe(400);
    expect((await admin('/api/seasons').send({ name: '\ud800', startDate: '2025-01-01', endDate: '2025-01-31' })).status).toBe(400);
    for (const name of ['\u200b\u200c', 'Spring \u202eemit']) {
      for (const res of [
        await admin('/api/users').send({ name, role: 'viewer' }),
        await admin('/api/seasons').send({ name, startDate: '2025-01-01', endDate: '2025-01-31' }),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('VALIDATION');
      }
    }
  });
});
