import { describe, expect, it } from 'vitest';
import { multiLine, singleLine } from '../../src/platform/text';
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
  });
});
