import { Cookie, type SessionData } from 'express-session';
import { toError } from '../../../src/platform/errors';
import { expect, it } from 'vitest';
import { ManualClock } from '../../../src/platform/clock';
import { SqlSessionStore } from '../../../src/workspace/auth/repository';
import { describeEngines, rowCount } from '../../support/records';
import { repositories } from './fixtures';

const TTL = 60 * 60 * 1000;

function promised(store: SqlSessionStore) {
  const call = <T>(fn: (cb: (err: unknown, value?: T) => void) => void) =>
    new Promise<T | undefined>((resolve, reject) => fn((err, value) => (err ? reject(toError(err)) : resolve(value))));
  return {
    get: (sid: string) => call<SessionData | null>((cb) => store.get(sid, cb)),
    set: (sid: string, data: Partial<SessionData>) => call<undefined>((cb) => store.set(sid, { cookie: new Cookie(), ...data }, cb)),
    destroy: (sid: string) => call<undefined>((cb) => store.destroy(sid, cb)),
    length: () => call<number>((cb) => store.length(cb)),
    clear: () => call<undefined>((cb) => store.clear(cb)),
  };
}

async function setup(kind: Parameters<typeof repositories>[0]) {
  const r = await repositories(kind);
  const clock = new ManualClock();
  const store = new SqlSessionStore(r.records, clock, TTL);
  return { r, clock, store, s: promised(store) };
}

describeEngines('SqlSessionStore', (kind) => {
  it('when a session is saved and read, then the same data comes back; saved again, it is replaced', async () => {
    const { r, s } = await setup(kind);
    const member = await r.member();
    await s.set('a', { userId: member.id, userKey: member.tokenKey });
    expect(await s.get('a')).toMatchObject({ userId: member.id, userKey: member.tokenKey });
    await s.set('a', { userId: member.id, userKey: 'other' });
    expect(await s.get('a')).toMatchObject({ userKey: 'other' });
    expect(await s.length()).toBe(1);
    expect(await s.get('missing')).toBeNull();
  });

  it('when the same session is saved twice at once, then one row holds it', async () => {
    const { s, r } = await setup(kind);
    await Promise.all([s.set('a', { userKey: 'x' }), s.set('a', { userKey: 'y' })]);
    expect(await rowCount(r.records, 'sessions')).toBe(1);
  });

  it('when its time is up, then it is not returned, saving it again does not lengthen it, and the sweep removes it', async () => {
    const { s, clock, store } = await setup(kind);
    await s.set('a', {});
    clock.advance(TTL - 1);
    await s.set('a', { userKey: 'again' });
    expect(await s.get('a')).not.toBeNull();
    clock.advance(1);
    expect(await s.get('a')).toBeNull();
    expect(await s.length()).toBe(0);
    expect(await store.prune()).toBe(1);
  });

  it("when a member's sessions are ended, then all but the one kept go, and other members' stay", async () => {
    const { r, s, store } = await setup(kind);
    const [m, other] = [await r.member(), await r.member()];
    for (const sid of ['a', 'b', 'c']) await s.set(sid, { userId: m.id });
    await s.set('d', { userId: other.id });
    await store.endUserSessions(m.id, 'b');
    expect([await s.get('a'), await s.get('c')]).toEqual([null, null]);
    expect(await s.get('b')).not.toBeNull();
    await store.endUserSessions(m.id);
    expect(await s.get('b')).toBeNull();
    expect(await s.get('d')).not.toBeNull();
  });

  it('when a session is destroyed or all are cleared, then they are gone', async () => {
    const { s } = await setup(kind);
    await s.set('a', {});
    await s.set('b', {});
    await s.destroy('a');
    expect(await s.length()).toBe(1);
    await s.clear();
    expect(await s.length()).toBe(0);
  });

  it('when a session names a member who does not exist, then the save fails', async () => {
    const { s } = await setup(kind);
    await expect(s.set('a', { userId: 999_999 })).rejects.toThrow();
  });
});
