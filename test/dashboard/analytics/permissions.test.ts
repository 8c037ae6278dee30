import { describe, expect, it } from 'vitest';
import { accessOf, isRestricted, narrow, NO_ACCESS } from '../../../src/dashboard/analytics/permissions';

const viewer = (allowedMuseums: string, allowedChannels = '[]') => ({ role: 'viewer', allowedMuseums, allowedChannels });

describe('accessOf', () => {
  it('when the session is an administrator, then everything is visible whatever its lists say', () => {
    expect(accessOf({ role: 'admin', allowedMuseums: '["A"]', allowedChannels: 'garbage' })).toEqual({ museums: 'all', channels: 'all' });
  });

  it('when both lists are [], then everything is visible', () => {
    expect(accessOf(viewer('[]'))).toEqual({ museums: 'all', channels: 'all' });
  });

  it('when the lists name values, then only those are visible', () => {
    expect(accessOf(viewer('["A","B"]', '["Online"]'))).toEqual({ museums: new Set(['A', 'B']), channels: new Set(['Online']) });
  });

  it.each([
    ['an empty text', ''],
    ['invalid JSON', '[A'],
    ['a JSON string', '"A"'],
    ['a JSON object', '{"0":"A"}'],
    ['null', 'null'],
    ['a list holding a number', '["A",1]'],
  ])('when the museum list is %s, then nothing is visible (fail-closed)', (_label, text) => {
    expect(accessOf(viewer(text))).toBe(NO_ACCESS);
  });

  it('when only the channel list is unreadable, then nothing is visible either', () => {
    expect(accessOf(viewer('[]', ''))).toBe(NO_ACCESS);
  });

  it('when the role is unknown, then the lists apply as for a viewer', () => {
    expect(accessOf({ role: 'guest', allowedMuseums: '["A"]', allowedChannels: '[]' }).museums).toEqual(new Set(['A']));
  });
});

describe('isRestricted', () => {
  it('when both dimensions are open, then it is not restricted; otherwise it is', () => {
    expect(isRestricted({ museums: 'all', channels: 'all' })).toBe(false);
    expect(isRestricted({ museums: 'all', channels: new Set(['Online']) })).toBe(true);
    expect(isRestricted(NO_ACCESS)).toBe(true);
  });
});

describe('narrow', () => {
  it('when nothing is requested, then the permission stands', () => {
    expect(narrow('all', [])).toBe('all');
    expect(narrow(new Set(['A']), [])).toEqual(new Set(['A']));
  });

  it('when everything is allowed, then the request is applied as given', () => {
    expect(narrow('all', ['X', 'Y'])).toEqual(new Set(['X', 'Y']));
  });

  it('when part of the request is allowed, then only that part is applied', () => {
    expect(narrow(new Set(['A', 'B']), ['B', 'C'])).toEqual(new Set(['B']));
  });

  it('when none of the request is allowed, then the filter is dropped and the permission stands, never widened', () => {
    expect(narrow(new Set(['A']), ['B', 'C'])).toEqual(new Set(['A']));
  });

  it('when nothing is allowed, then nothing comes out whatever is requested', () => {
    expect(narrow(new Set(), ['A'])).toEqual(new Set());
  });
});
