import { describe, expect, it } from 'vitest';
import { NO_RESTRICTION, parseAllowed, serializeAllowed } from '../../src/dashboard/access';

describe('parseAllowed', () => {
  it.each([
    ['an empty string', ''],
    ['only whitespace', '   \n\t'],
  ])('when the text is %s, then null (no data)', (_label, text) => {
    expect(parseAllowed(text)).toBeNull();
  });

  it('when the value is missing (undefined or null), then null', () => {
    expect(parseAllowed(undefined)).toBeNull();
    expect(parseAllowed(null)).toBeNull();
  });

  it('when the text is [], then an empty list, which means no restriction', () => {
    expect(parseAllowed('[]')).toEqual([]);
    expect(parseAllowed(' [ ] ')).toEqual([]);
    expect(parseAllowed(NO_RESTRICTION)).toEqual([]);
  });

  it('when the text is an array of strings, then those strings in order', () => {
    expect(parseAllowed('["A","B"]')).toEqual(['A', 'B']);
    expect(parseAllowed('["المتحف الوطني"]')).toEqual(['المتحف الوطني']);
    expect(parseAllowed('[""]')).toEqual(['']);
  });

  it.each([
    ['invalid JSON', '["A",'],
    ['a bare word', 'A'],
    ['comma-separated names', 'A,B'],
    ['single-quoted JSON', "['A']"],
  ])('when the text is %s, then null', (_label, text) => {
    expect(parseAllowed(text)).toBeNull();
  });

  it.each([
    ['a JSON object', '{"museums":["A"]}'],
    ['a JSON string', '"A"'],
    ['a JSON string holding a list', '"[\\"A\\"]"'],
    ['a number', '42'],
    ['JSON null', 'null'],
    ['true', 'true'],
    ['false', 'false'],
  ])('when the text is %s (not an array), then null', (_label, text) => {
    expect(parseAllowed(text)).toBeNull();
  });

  it.each([
    ['numbers', '[1,2]'],
    ['a number among strings', '["A",2]'],
    ['null', '[null]'],
    ['null among strings', '["A",null]'],
    ['a nested array', '[["A"]]'],
    ['an object', '[{"name":"A"}]'],
    ['a boolean', '[true]'],
  ])('when the array holds %s, then null for the whole list', (_label, text) => {
    expect(parseAllowed(text)).toBeNull();
  });

  it('when the value is not text at all, then null', () => {
    expect(parseAllowed(['A'] as unknown as string)).toBeNull();
    expect(parseAllowed(42 as unknown as string)).toBeNull();
  });
});

describe('serializeAllowed', () => {
  it('when a list is stored, then it is JSON text that parseAllowed reads back, without duplicates', () => {
    const text = serializeAllowed(['A', 'B', 'A']);
    expect(text).toBe('["A","B"]');
    expect(parseAllowed(text)).toEqual(['A', 'B']);
    expect(serializeAllowed([])).toBe(NO_RESTRICTION);
  });
});
