import { request, type HttpResponse } from '../support/http';
import { describe, expect, it } from 'vitest';
import { pdf } from '../support/files';
import { buildTeam, type TestUser, type TestWorkspace } from '../support/workspace';

type Team = Awaited<ReturnType<typeof buildTeam>>;

interface Result {
  type: string;
  id: number;
  title: string;
  snippet: string;
  marks: { title: [number, number][]; snippet: [number, number][] };
  url: string;
}

async function made(res: Promise<HttpResponse> | HttpResponse, key: string): Promise<{ id: number }> {
  const answer = await res;
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body[key];
}

/** One record of each kind in `brandId`, made by `by`, each named with `word`. */
async function oneOfEach(ws: TestWorkspace, by: TestUser, brandId: number, word: string) {
  const as = ws.as(by);
  const campaign = await made(as.post('/api/campaigns').send({ name: `${word} campaign`, brandId }), 'campaign');
  const post = await made(as.post('/api/posts').send({ title: `${word} post`, brandId }), 'post');
  const task = await made(as.post('/api/tasks').send({ title: `${word} task`, brandId }), 'task');
  const project = await made(as.post('/api/projects').send({ name: `${word} project`, brandId }), 'project');
  const upload = await as.post('/api/assets').field('brandId', String(brandId)).attach('files', pdf(), `${word} file.pdf`);
  expect(upload.status, JSON.stringify(upload.body)).toBe(201);
  return { campaign, post, task, project, asset: upload.body.assets[0] as { id: number } };
}

async function search(ws: TestWorkspace, by: TestUser, q: string): Promise<Result[]> {
  const res = await ws.as(by).get(`/api/search?q=${encodeURIComponent(q)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results;
}

const keys = (results: Result[]) => results.map((r) => `${r.type}:${r.id}`).sort();

async function taskBy(t: Team, by: TestUser, body: object) {
  return made(t.ws.as(by).post('/api/tasks').send({ brandId: t.brand.id, ...body }), 'task');
}

describe('GET /api/search', () => {
  it('when nobody is signed in, then 401', async () => {
    const { ws } = await buildTeam();
    const res = await request(ws.app).get('/api/search?q=museum');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(expect.objectContaining({ error: expect.any(String) }));
  });

  it.each([
    ['missing', ''],
    ['empty', '?q='],
    ['one character', '?q=a'],
    ['one character between spaces', `?q=${encodeURIComponent('  a  ')}`],
    ['201 characters', `?q=${'a'.repeat(201)}`],
    ['given twice', '?q=ab&q=cd'],
    ['on two lines', `?q=${encodeURIComponent('ab\ncd')}`],
    ['sent with an unknown parameter', '?q=museum&type=post'],
  ])('when q is %s, then 400 VALIDATION', async (_name, query) => {
    const { ws, contributor } = await buildTeam();
    const res = await ws.as(contributor).get(`/api/search${query}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION');
  });

  it('when q is 2 or 200 characters once trimmed, then 200', async () => {
    const { ws, contributor } = await buildTeam();
    expect((await ws.as(contributor).get(`/api/search?q=${encodeURIComponent('  ab  ')}`)).status).toBe(200);
    expect((await ws.as(contributor).get(`/api/search?q=${'a'.repeat(200)}`)).status).toBe(200);
  });

  it('when each kind of record holds the text, then each comes back with its type, title, snippet and the page that shows it', async () => {
    const t = await buildTeam();
    const made = await oneOfEach(t.ws, t.manager, t.brand.id, 'Lantern');
    const results = await search(t.ws, t.contributor, 'lantern');
    const byType = Object.fromEntries(results.map(({ marks: _marks, ...r }) => [r.type, r]));
    for (const { title, marks } of results) expect(marks.title.map(([start, end]) => title.slice(start, end))).toEqual(['Lantern']);
    expect(byType).toEqual({
      campaign: { type: 'campaign', id: made.campaign.id, title: 'Lantern campaign', snippet: 'Lantern campaign', url: `/workspace/campaigns?campaign=${made.campaign.id}` },
      post: { type: 'post', id: made.post.id, title: 'Lantern post', snippet: 'Lantern post', url: `/workspace?post=${made.post.id}` },
      task: { type: 'task', id: made.task.id, title: 'Lantern task', snippet: 'Lantern task', url: `/workspace/tasks?task=${made.task.id}` },
      project: { type: 'project', id: made.project.id, title: 'Lantern project', snippet: 'Lantern project', url: `/workspace/projects?project=${made.project.id}` },
      asset: { type: 'asset', id: made.asset.id, title: 'Lantern file.pdf', snippet: 'Lantern file.pdf', url: `/workspace/assets?asset=${made.asset.id}` },
    });
    expect(results).toHaveLength(5);
  });

  it('when only a description or caption holds the text, then the record comes back with the part of it around the text as its snippet', async () => {
    const t = await buildTeam();
    const as = t.ws.as(t.manager);
    const long = `${'Opening words of a long description. '.repeat(6)}The gallery of sundials opens in May. ${'Closing words. '.repeat(10)}`;
    const campaign = await made(as.post('/api/campaigns').send({ name: 'Spring', description: long, brandId: t.brand.id }), 'campaign');
    const post = await made(as.post('/api/posts').send({ title: 'Teaser', caption: 'Come and see the SUNDIALS', brandId: t.brand.id }), 'post');
    const task = await made(as.post('/api/tasks').send({ title: 'Signs', description: 'Print the sundial signs', brandId: t.brand.id }), 'task');
    const project = await made(as.post('/api/projects').send({ name: 'Garden', description: 'Sundial garden', brandId: t.brand.id }), 'project');
    const results = await search(t.ws, t.contributor, 'sundial');
    expect(keys(results)).toEqual(keys([
      { type: 'campaign', id: campaign.id },
      { type: 'post', id: post.id },
      { type: 'task', id: task.id },
      { type: 'project', id: project.id },
    ] as Result[]));
    const spring = results.find((r) => r.type === 'campaign')!;
    expect(spring.title).toBe('Spring');
    expect(spring.snippet).toContain('The gallery of sundials opens in May.');
    expect(spring.snippet.startsWith('…')).toBe(true);
    expect(spring.snippet.endsWith('…')).toBe(true);
    expect(spring.snippet.length).toBeLessThanOrEqual(122);
    expect(results.find((r) => r.type === 'post')!.snippet).toBe('Come and see the SUNDIALS');
  });

  it('when the text sits in a long body with line breaks and emoji, then the snippet is one line of whole characters around it', async () => {
    const t = await buildTeam();
    const as = t.ws.as(t.manager);
    const lines = `${'Colour study\n'.repeat(12)}The astrolabe room opens.\n${'More words here\n'.repeat(12)}`;
    // Its end falls inside an emoji (a pair of UTF-16 units), where a plain cut would split it or run one past the length.
    const emoji = `${'🎨'.repeat(16)}xxxxxx needle ${'🏛️ a'.repeat(16)}`;
    await made(as.post('/api/posts').send({ title: 'Lines', caption: lines, brandId: t.brand.id }), 'post');
    await made(as.post('/api/posts').send({ title: 'Emoji', caption: emoji, brandId: t.brand.id }), 'post');
    const [byLines] = (await search(t.ws, t.contributor, 'astrolabe')).map((r) => r.snippet);
    const [byEmoji] = (await search(t.ws, t.contributor, 'needle')).map((r) => r.snippet);
    expect(byLines).toContain('Colour study The astrolabe room opens. More words here');
    expect(byLines).not.toContain('\n');
    expect(byEmoji).toContain('xxxxxx needle 🏛️ a');
    const [emojiHit] = await search(t.ws, t.contributor, 'needle');
    expect(emojiHit.marks.snippet.map(([start, end]) => emojiHit.snippet.slice(start, end))).toEqual(['needle']);
    for (const snippet of [byLines, byEmoji]) {
      expect(snippet.isWellFormed()).toBe(true);
      expect(snippet.length).toBeLessThanOrEqual(122);
      expect(snippet.startsWith('…') && snippet.endsWith('…')).toBe(true);
    }
  });

  it('when titles and bodies both match, then title matches come first, and among them the newest', async () => {
    const t = await buildTeam();
    const as = t.ws.as(t.manager);
    const inBody = await made(as.post('/api/posts').send({ title: 'Quiet post', caption: 'about the comet', brandId: t.brand.id }), 'post');
    t.ws.clock.advance(60_000);
    const olderTitle = await made(as.post('/api/posts').send({ title: 'Comet night', brandId: t.brand.id }), 'post');
    t.ws.clock.advance(60_000);
    const newerTitle = await made(as.post('/api/tasks').send({ title: 'Comet poster', brandId: t.brand.id }), 'task');
    t.ws.clock.advance(60_000);
    const newestBody = await made(as.post('/api/projects').send({ name: 'Sky', description: 'comet', brandId: t.brand.id }), 'project');
    const results = await search(t.ws, t.contributor, 'comet');
    expect(results.map((r) => `${r.type}:${r.id}`)).toEqual([`task:${newerTitle.id}`, `post:${olderTitle.id}`, `project:${newestBody.id}`, `post:${inBody.id}`]);
  });

  it('when many records match, then at most 20 of one kind and 50 in all come back', async () => {
    const t = await buildTeam();
    const as = t.ws.as(t.manager);
    for (let i = 0; i < 22; i++) {
      await made(as.post('/api/posts').send({ title: `Poster ${i}`, brandId: t.brand.id }), 'post');
      await made(as.post('/api/tasks').send({ title: `Poster task ${i}`, brandId: t.brand.id }), 'task');
      await made(as.post('/api/projects').send({ name: `Poster project ${i}`, brandId: t.brand.id }), 'project');
    }
    const results = await search(t.ws, t.contributor, 'poster');
    expect(results).toHaveLength(50);
    for (const type of ['post', 'task', 'project']) expect(results.filter((r) => r.type === type).length).toBeLessThanOrEqual(20);
  });

  it("when a member of one brand searches for words of another brand's records, then none of them comes back; a superadmin finds both", async () => {
    const t = await buildTeam();
    const rival = await t.ws.user('manager', { brandIds: [t.other.id] });
    const mine = await oneOfEach(t.ws, t.manager, t.brand.id, 'Orchid');
    const theirs = await oneOfEach(t.ws, rival, t.other.id, 'Orchid');
    const ids = (set: typeof mine) => Object.entries(set).map(([type, r]) => `${type}:${r.id}`).sort();
    expect(keys(await search(t.ws, t.contributor, 'orchid'))).toEqual(ids(mine));
    expect(keys(await search(t.ws, t.manager, 'orchid'))).toEqual(ids(mine));
    expect(keys(await search(t.ws, rival, 'orchid'))).toEqual(ids(theirs));
    expect(keys(await search(t.ws, t.admin, 'orchid'))).toEqual([...ids(mine), ...ids(theirs)].sort());
    const outsider = await t.ws.user('contributor', { brandIds: [] });
    expect(await search(t.ws, outsider, 'orchid')).toEqual([]);
  });

  it('when a task is private, then only its creator, its assignee and superadmins find it, as the task list shows it', async () => {
    const t = await buildTeam();
    const hidden = await taskBy(t, t.contributor, { title: 'Secret gift list', visibility: 'private', assigneeId: t.colleague.id });
    const open = await taskBy(t, t.contributor, { title: 'Open gift list', visibility: 'brand' });
    const bodyOnly = await taskBy(t, t.manager, { title: 'Hidden', description: 'the gift list', visibility: 'private' });
    const found = async (who: TestUser) => (await search(t.ws, who, 'gift list')).map((r) => r.id).sort((a, b) => a - b);
    const listed = async (who: TestUser) => {
      const res = await t.ws.as(who).get('/api/tasks?scope=all');
      return res.body.tasks.map((task: { id: number }) => task.id).sort((a: number, b: number) => a - b);
    };
    const sorted = (...ids: number[]) => ids.sort((a, b) => a - b);
    expect(await found(t.contributor)).toEqual(sorted(hidden.id, open.id));
    expect(await found(t.colleague)).toEqual(sorted(hidden.id, open.id));
    expect(await found(t.manager)).toEqual(sorted(open.id, bodyOnly.id));
    expect(await found(t.admin)).toEqual(sorted(hidden.id, open.id, bodyOnly.id));
    for (const who of [t.contributor, t.colleague, t.manager, t.admin]) expect(await found(who)).toEqual(await listed(who));
  });

  it('when q holds %, _ or \\, then each matches only itself, never any text', async () => {
    const t = await buildTeam();
    const as = t.ws.as(t.manager);
    const percent = await made(as.post('/api/posts').send({ title: 'Tickets 50% off', brandId: t.brand.id }), 'post');
    await made(as.post('/api/posts').send({ title: 'Tickets 500 off', brandId: t.brand.id }), 'post');
    const underscore = await made(as.post('/api/posts').send({ title: 'file_name', brandId: t.brand.id }), 'post');
    await made(as.post('/api/posts').send({ title: 'file name', brandId: t.brand.id }), 'post');
    const backslash = await made(as.post('/api/posts').send({ title: 'C:\\docs', brandId: t.brand.id }), 'post');
    await made(as.post('/api/posts').send({ title: 'C:docs', brandId: t.brand.id }), 'post');
    const ids = async (q: string) => (await search(t.ws, t.contributor, q)).map((r) => r.id);
    expect(await ids('0%')).toEqual([percent.id]);
    expect(await ids('%%')).toEqual([]);
    expect(await ids('e_n')).toEqual([underscore.id]);
    expect(await ids('__')).toEqual([]);
    expect(await ids(':\\d')).toEqual([backslash.id]);
    expect(await ids('\\%')).toEqual([]);
  });

  it('when q is Arabic, then records holding it as written come back, and Arabic snippets keep their letters', async () => {
    const t = await buildTeam();
    const as = t.ws.as(t.manager);
    const campaign = await made(as.post('/api/campaigns').send({ name: 'حملة الربيع في المتحف', brandId: t.brand.id }), 'campaign');
    const task = await made(as.post('/api/tasks').send({ title: 'Poster', description: 'تصميم ملصق لحملة الربيع', brandId: t.brand.id }), 'task');
    await made(as.post('/api/posts').send({ title: 'حملة الصيف', brandId: t.brand.id }), 'post');
    const results = await search(t.ws, t.contributor, 'الربيع');
    expect(results.map((r) => `${r.type}:${r.id}`)).toEqual([`campaign:${campaign.id}`, `task:${task.id}`]);
    expect(results[0].snippet).toBe('حملة الربيع في المتحف');
    expect(results[1].snippet).toBe('تصميم ملصق لحملة الربيع');
  });

  it('when q spells an Arabic word another way (hamza, alef, taa marbuta, alef maqsura, tashkeel, tatweel), then it finds the stored spelling, and the marks cover the stored letters', async () => {
    const t = await buildTeam();
    const as = t.ws.as(t.manager);
    const view = await made(as.post('/api/posts').send({ title: 'إطلالة على المتحف', brandId: t.brand.id }), 'post');
    const meet = await made(as.post('/api/tasks').send({ title: 'Visit', description: 'تعرّفوا على مجموعتنا', brandId: t.brand.id }), 'task');
    const hall = await made(as.post('/api/campaigns').send({ name: 'قاعة مُوسى الكبرى', brandId: t.brand.id }), 'campaign');
    const question = await made(as.post('/api/projects').send({ name: 'سؤال الزوّار', brandId: t.brand.id }), 'project');
    const found = async (q: string) => (await search(t.ws, t.contributor, q)).map((r) => `${r.type}:${r.id}`);
    for (const q of ['اطلالة', 'إطلاله', 'أطلالة', 'اطـلالـة', 'إِطْلَالَةٌ']) expect(await found(q), q).toEqual([`post:${view.id}`]);
    for (const q of ['تعرفوا', 'تَعَرَّفُوا', 'تعرّفوا']) expect(await found(q), q).toEqual([`task:${meet.id}`]);
    for (const q of ['قاعه موسي', 'موسى', 'قاعة موسى']) expect(await found(q), q).toEqual([`campaign:${hall.id}`]);
    expect(await found('سوال')).toEqual([`project:${question.id}`]);
    // The marks fall on the stored letters, mark and all, whatever spelling found them.
    const [hit] = await search(t.ws, t.contributor, 'اطلالة');
    expect(hit.marks.title.map(([start, end]) => hit.title.slice(start, end))).toEqual(['إطلالة']);
    const [byBody] = await search(t.ws, t.contributor, 'تعرفوا');
    expect(byBody.marks.snippet.map(([start, end]) => byBody.snippet.slice(start, end))).toEqual(['تعرّفوا']);
    expect(byBody.marks.title).toEqual([]);
  });

  it('when q is only tatweel, then nothing matches rather than everything; only tashkeel, which shows nothing, is 400', async () => {
    const t = await buildTeam();
    await made(t.ws.as(t.manager).post('/api/posts').send({ title: 'إطلالة', brandId: t.brand.id }), 'post');
    expect(await search(t.ws, t.contributor, 'ــ')).toEqual([]);
    const marks = await t.ws.as(t.contributor).get(`/api/search?q=${encodeURIComponent('َُ')}`);
    expect(marks.status).toBe(400);
    expect(marks.body.code).toBe('VALIDATION');
  });

  it('when the asset library is filtered by a name spelled another way, then the file is found', async () => {
    const t = await buildTeam();
    const upload = await t.ws.as(t.manager).post('/api/assets').field('brandId', String(t.brand.id)).attach('files', pdf(), 'دليل المكتبة.pdf');
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    const res = await t.ws.as(t.contributor).get(`/api/assets?q=${encodeURIComponent('مكتبه')}`);
    expect(res.status).toBe(200);
    expect(res.body.assets.map((a: { id: number }) => a.id)).toEqual([upload.body.assets[0].id]);
  });

  it('when q differs from the stored text only in the case of Latin letters, then it matches', async () => {
    const t = await buildTeam();
    const as = t.ws.as(t.manager);
    const post = await made(as.post('/api/posts').send({ title: 'Night At The MUSEUM', brandId: t.brand.id }), 'post');
    for (const q of ['museum', 'MUSEUM', 'mUsEuM', 'night at']) {
      const results = await search(t.ws, t.contributor, q);
      expect(results.map((r) => r.id), q).toEqual([post.id]);
      expect(results[0].marks.title.map(([start, end]) => results[0].title.slice(start, end).toLowerCase()), q).toEqual([q.toLowerCase()]);
    }
    expect(await search(t.ws, t.contributor, 'museums')).toEqual([]);
  });

  it('when a cookie session searches, then it answers like a token', async () => {
    const t = await buildTeam();
    await made(t.ws.as(t.manager).post('/api/posts').send({ title: 'Cookie jar', brandId: t.brand.id }), 'post');
    const { cookie } = await t.ws.signIn(t.contributor.email);
    const res = await t.ws.withCookie(cookie).get('/api/search?q=cookie');
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: Result) => r.title)).toEqual(['Cookie jar']);
  });
});
