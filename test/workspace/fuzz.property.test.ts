import fc from 'fast-check';
import { request, type HttpResponse } from '../support/http';
import { describe, expect, it } from 'vitest';
import { CAMPAIGN_STATUSES, PLATFORMS, POST_STATUSES, ROLES } from '../../src/workspace/domain';
import { buildWorkspace, PASSWORD, snapshot, type TestWorkspace } from '../support/workspace';

/**
 * Throws bodies, ids and queries that are wrong by construction at every workspace route,
 * signed in as a superadmin so that only input checks can refuse them: every answer must
 * be a 4xx with an error string, and the database must not change.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

// ## Values of the wrong kind

/** Text that trimming cannot shorten, so a length limit really is exceeded. */
const longText = (min: number) => fc.string({ unit: fc.constantFrom('a', 'ب', '7', '-'), minLength: min, maxLength: min + 40 });
// Infinity would be sent as null (JSON has no such number), and null is valid for some fields.
const notAString = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.array(fc.jsonValue(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue(), { maxKeys: 3 }),
);
const blank = fc.stringMatching(/^[ \t\n]{0,4}$/);
const badScalarId = fc.oneof(
  fc.integer({ max: 0 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n)),
  fc.constant(Number.MAX_SAFE_INTEGER + 2),
  fc.string({ maxLength: 6 }),
  fc.boolean(),
);
const badId = fc.oneof(badScalarId, fc.array(fc.nat(), { maxLength: 2 }));
const otherThan = (allowed: readonly string[]) => fc.oneof(notAString, fc.string({ maxLength: 12 }).filter((s) => !allowed.includes(s)));
const notA = (pattern: RegExp) => fc.oneof(notAString, fc.string({ maxLength: 30 }).filter((s) => !pattern.test(s)));

const BAD = {
  name: fc.oneof(notAString, fc.constant(null), blank, longText(201)),
  shortText: fc.oneof(notAString, longText(201)),
  longText: fc.oneof(notAString, longText(10_001)),
  id: fc.oneof(badId, fc.constant(null)),
  nullableId: badId,
  ids: fc.oneof(badScalarId, fc.constant(null), fc.array(badScalarId, { minLength: 1, maxLength: 3 })),
  day: notA(/^\d{4}-\d{2}-\d{2}$/),
  moment: notA(/^\d{4}-\d{2}-\d{2}T/),
  bool: fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null), fc.array(fc.boolean(), { maxLength: 2 })),
  email: fc.oneof(notAString, fc.constant(null), fc.string({ maxLength: 20 }).filter((s) => !s.includes('@')), longText(255).map((s) => `${s}@x.test`)),
  password: fc.oneof(notAString, fc.constant(null), fc.string({ maxLength: 9 }), fc.constant('é'.repeat(40))),
  loginEmail: fc.oneof(notAString, fc.constant(null), blank, longText(255)),
  loginPassword: fc.oneof(notAString, fc.constant(null), fc.constant(''), longText(1001)),
  avatar: fc.oneof(notAString, fc.constantFrom('javascript:alert(1)', 'data:text/html,<b>', '//evil.example/a.png', 'ftp://x/y'), longText(2001)),
  phone: fc.oneof(notAString, fc.string({ minLength: 1, maxLength: 10 }).filter((s) => s.trim() !== '' && !/^[+0-9 ().-]{3,40}$/.test(s.trim()))),
  link: fc.oneof(notAString, fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== '' && !/^https?:\/\/\S+$/i.test(s.trim()))),
  language: otherThan(['en', 'ar']),
  role: otherThan(ROLES),
  campaignStatus: otherThan(CAMPAIGN_STATUSES),
  postStatus: otherThan(POST_STATUSES),
  platform: otherThan(PLATFORMS),
} satisfies Record<string, fc.Arbitrary<unknown>>;

type Kind = keyof typeof BAD;

// ## The routes that take a body

interface Fixture {
  ws: TestWorkspace;
  /** A superadmin's bearer token. */
  token: string;
  brandId: number;
  campaignId: number;
  trackId: number;
  postId: number;
  memberId: number;
}

interface BodyRoute {
  method: 'post' | 'patch';
  path: (f: Fixture) => string;
  /** A body the route would accept; every generated body breaks it on purpose. */
  valid: (f: Fixture) => Record<string, unknown>;
  fields: Record<string, Kind>;
}

const campaignFields: Record<string, Kind> = { name: 'name', description: 'longText', startDate: 'day', endDate: 'day', status: 'campaignStatus' };
const trackFields: Record<string, Kind> = { name: 'name', channel: 'shortText', startDate: 'day', endDate: 'day', goal: 'longText' };
const postFields: Record<string, Kind> = {
  title: 'name',
  caption: 'longText',
  platform: 'platform',
  status: 'postStatus',
  scheduledAt: 'moment',
  publicationUrl: 'link',
  campaignId: 'nullableId',
  brandId: 'id',
  attachments: 'ids',
};

const BODY_ROUTES: BodyRoute[] = [
  { method: 'post', path: () => '/api/auth/login', valid: () => ({ email: 'someone@example.test', password: 'x' }), fields: { email: 'loginEmail', password: 'loginPassword' } },
  {
    method: 'patch',
    path: () => '/api/auth/me',
    valid: () => ({ name: 'Me' }),
    fields: { name: 'name', avatar: 'avatar', jobTitle: 'shortText', phone: 'phone', language: 'language' },
  },
  {
    method: 'post',
    path: () => '/api/auth/password',
    valid: () => ({ currentPassword: PASSWORD, newPassword: 'Another-password-1' }),
    fields: { currentPassword: 'loginPassword', newPassword: 'password' },
  },
  { method: 'post', path: () => '/api/auth/onboarding', valid: () => ({ completed: true }), fields: { completed: 'bool' } },
  { method: 'post', path: () => '/api/auth/logout', valid: () => ({}), fields: {} },
  {
    method: 'post',
    path: () => '/api/members',
    valid: (f) => ({ name: 'New', email: 'new@example.test', password: 'Long-enough-1', role: 'contributor', brandIds: [f.brandId] }),
    fields: { name: 'name', email: 'email', password: 'password', role: 'role', brandIds: 'ids' },
  },
  {
    method: 'patch',
    path: (f) => `/api/members/${f.memberId}`,
    valid: () => ({ name: 'Renamed' }),
    fields: { name: 'name', email: 'email', role: 'role', brandIds: 'ids', password: 'password' },
  },
  { method: 'post', path: () => '/api/brands', valid: () => ({ name: 'Brand' }), fields: { name: 'name' } },
  { method: 'patch', path: (f) => `/api/brands/${f.brandId}`, valid: () => ({ name: 'Brand' }), fields: { name: 'name' } },
  { method: 'post', path: () => '/api/campaigns', valid: (f) => ({ name: 'C', brandId: f.brandId }), fields: { ...campaignFields, brandId: 'id' } },
  { method: 'patch', path: (f) => `/api/campaigns/${f.campaignId}`, valid: () => ({ name: 'C' }), fields: campaignFields },
  { method: 'post', path: (f) => `/api/campaigns/${f.campaignId}/tracks`, valid: () => ({ name: 'T' }), fields: trackFields },
  { method: 'patch', path: (f) => `/api/tracks/${f.trackId}`, valid: () => ({ name: 'T' }), fields: trackFields },
  { method: 'post', path: () => '/api/posts', valid: (f) => ({ title: 'P', brandId: f.brandId }), fields: postFields },
  { method: 'patch', path: (f) => `/api/posts/${f.postId}`, valid: () => ({ title: 'P' }), fields: postFields },
];

/** Text sent as a JSON body: malformed, or JSON that is not an object. */
const malformedText = fc.oneof(
  fc.string({ maxLength: 30 }).filter((s) => s.trim() !== '' && s.trim() !== '{}'),
  fc.jsonValue().filter((v) => v === null || typeof v !== 'object' || Array.isArray(v)).map((v) => JSON.stringify(v)),
  fc.constantFrom('{', '{"name":', '{"a":1,}', "{'name':'x'}", '[{"name":"x"}]', '\u0000'),
);

function invalidBodies(route: BodyRoute, f: Fixture): fc.Arbitrary<string> {
  const valid = route.valid(f);
  const known = new Set([...Object.keys(route.fields), ...Object.keys(valid)]);
  const unknownField = fc
    .dictionary(
      fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !known.has(k)),
      fc.jsonValue(),
      { minKeys: 1, maxKeys: 3 },
    )
    .map((extra) => JSON.stringify({ ...valid, ...extra }));
  const wrongValue = Object.entries(route.fields).map(([field, kind]) =>
    (BAD[kind] as fc.Arbitrary<unknown>).map((value) => JSON.stringify({ ...valid, [field]: value })),
  );
  return fc.oneof(malformedText, unknownField, ...wrongValue);
}

async function fixture(): Promise<Fixture> {
  const ws = await buildWorkspace();
  const brand = await ws.brand();
  const admin = await ws.user('superadmin', { brandIds: [brand.id] });
  const member = await ws.user('contributor', { brandIds: [brand.id] });
  const api = ws.as(admin);
  const campaignId = (await api.post('/api/campaigns').send({ name: 'C', brandId: brand.id })).body.campaign.id;
  const trackId = (await api.post(`/api/campaigns/${campaignId}/tracks`).send({ name: 'T' })).body.track.id;
  const postId = (await api.post('/api/posts').send({ title: 'P', campaignId })).body.post.id;
  return { ws, token: admin.token, brandId: brand.id, campaignId, trackId, postId, memberId: member.id };
}

async function expectRefusedWithoutChange(f: Fixture, send: () => Promise<HttpResponse>) {
  const before = await snapshot(f.ws);
  const res = await send();
  expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  expect(typeof res.body.error).toBe('string');
  expect(await snapshot(f.ws)).toBe(before);
}

describe('random and malformed bodies', () => {
  it.each(BODY_ROUTES.map((r) => [`${r.method.toUpperCase()} ${r.path({ brandId: 1, campaignId: 1, trackId: 1, postId: 1, memberId: 1 } as Fixture)}`, r] as const))(
    'when %s gets a body that is wrong by construction, then 4xx with an error and nothing stored',
    async (_label, route) => {
      const f = await fixture();
      const path = route.path(f);
      const { token } = f;
      await fc.assert(
        fc.asyncProperty(invalidBodies(route, f), async (text) => {
          await expectRefusedWithoutChange(f, () =>
            request(f.ws.app)[route.method](path).set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send(text),
          );
        }),
        { numRuns: RUNS },
      );
      expect((await f.ws.as(token).get('/api/auth/me')).status).toBe(200);
    },
  );
});

// ## The routes that take an id or a query

const notAnId = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !/^[1-9]\d{0,15}$/.test(s) && !/^\.+$/.test(s)),
  fc.bigInt({ min: 10n ** 6n, max: 10n ** 20n }).map(String),
);

const ID_ROUTES: { method: 'get' | 'patch' | 'delete'; path: (id: string) => string; body?: object }[] = [
  { method: 'patch', path: (id) => `/api/members/${id}`, body: { name: 'X' } },
  { method: 'delete', path: (id) => `/api/members/${id}` },
  { method: 'get', path: (id) => `/api/brands/${id}` },
  { method: 'delete', path: (id) => `/api/brands/${id}` },
  { method: 'get', path: (id) => `/api/campaigns/${id}` },
  { method: 'delete', path: (id) => `/api/campaigns/${id}` },
  { method: 'get', path: (id) => `/api/campaigns/${id}/tracks` },
  { method: 'get', path: (id) => `/api/tracks/${id}` },
  { method: 'delete', path: (id) => `/api/tracks/${id}` },
  { method: 'get', path: (id) => `/api/posts/${id}` },
  { method: 'delete', path: (id) => `/api/posts/${id}` },
];

describe('random ids', () => {
  it.each(ID_ROUTES.map((r) => [`${r.method.toUpperCase()} ${r.path(':id')}`, r] as const))(
    'when %s gets an id that is not one, then 4xx and nothing changes',
    async (_label, route) => {
      const f = await fixture();
      const { token } = f;
      await fc.assert(
        fc.asyncProperty(notAnId, async (id) => {
          await expectRefusedWithoutChange(f, () => {
            const req = request(f.ws.app)[route.method](route.path(encodeURIComponent(id))).set('Authorization', `Bearer ${token}`);
            return route.body ? req.send(route.body) : req;
          });
        }),
        { numRuns: Math.ceil(RUNS / 2) },
      );
    },
  );
});

const QUERY_ROUTES: { path: string; params: Record<string, fc.Arbitrary<string>> }[] = [
  {
    path: '/api/posts',
    params: {
      limit: fc.oneof(fc.integer({ min: 201 }).map(String), fc.constant('0'), fc.string({ maxLength: 5 }).filter((s) => !/^\d+$/.test(s))),
      offset: fc.string({ maxLength: 8 }).filter((s) => !/^\d{1,6}$/.test(s)),
      status: fc.string({ maxLength: 10 }).filter((s) => !(POST_STATUSES as readonly string[]).includes(s)),
      campaignId: notAnId.filter((s) => !/^\d+$/.test(s)),
      brandId: notAnId.filter((s) => !/^\d+$/.test(s)),
    },
  },
  {
    path: '/api/campaigns',
    params: {
      status: fc.string({ maxLength: 10 }).filter((s) => !(CAMPAIGN_STATUSES as readonly string[]).includes(s)),
      brandId: notAnId.filter((s) => !/^\d+$/.test(s)),
    },
  },
];

describe('random queries', () => {
  it.each(QUERY_ROUTES.map((r) => [r.path, r] as const))('when GET %s gets a query that is wrong by construction, then 400', async (_label, route) => {
    const f = await fixture();
    const { token } = f;
    const known = new Set(Object.keys(route.params));
    const unknownParam = fc
      .tuple(fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !known.has(k) && k.trim() !== ''), fc.string({ maxLength: 8 }))
      .map(([k, v]) => ({ [k]: v }));
    const badParam = Object.entries(route.params).map(([k, arb]) => arb.map((v) => ({ [k]: v })));
    await fc.assert(
      fc.asyncProperty(fc.oneof(unknownParam, ...badParam), async (query) => {
        const res = await request(f.ws.app).get(`${route.path}?${new URLSearchParams(query)}`).set('Authorization', `Bearer ${token}`);
        expect(res.status, JSON.stringify({ query, body: res.body })).toBe(400);
        expect(typeof res.body.error).toBe('string');
      }),
      { numRuns: RUNS },
    );
  });
});
