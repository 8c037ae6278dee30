import { foldedMatches, foldForSearch } from '../../platform/text';
import { brandScope, type Actor } from '../access';
import { taskAudience } from '../tasks/service';
import type { SearchType } from '../domain';
import type { SearchHit, SearchRepository } from './repository';

/** At most this many records of one kind… */
export const SEARCH_LIMIT_PER_TYPE = 20;
/** …and of all kinds together. */
export const SEARCH_LIMIT = 50;
/** About how long a snippet is, in characters. */
export const SNIPPET_LENGTH = 120;

export interface SearchResult {
  type: SearchType;
  id: number;
  title: string;
  /** The field that holds the text, cut down to the part around it. */
  snippet: string;
  /** Where the title and the snippet hold the text as search compares it: [start, end) places to mark. */
  marks: { title: [number, number][]; snippet: [number, number][] };
  /** The page that shows the record. */
  url: string;
}

/** The page of each kind of record, which opens the one named in its query. */
const PAGES: Record<SearchType, (id: number) => string> = {
  campaign: (id) => `/workspace/campaigns?campaign=${id}`,
  post: (id) => `/workspace?post=${id}`,
  task: (id) => `/workspace/tasks?task=${id}`,
  project: (id) => `/workspace/projects?project=${id}`,
  asset: (id) => `/workspace/assets?asset=${id}`,
};

const ELLIPSIS = '…';

/** Where `text` first holds `needle` as search compares them; -1 when it does not. */
function indexOfText(text: string, needle: string): number {
  return foldedMatches(text, needle)[0]?.[0] ?? -1;
}

/** Moves a cut that would split a surrogate pair by one place (`step`), so no character is split. */
function whole(text: string, at: number, step: 1 | -1): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at + step : at;
}

/**
 * About `length` characters of `text` around its first `needle`, on one line, with an
 * ellipsis where it was cut; the start of the text when the needle is not found as such.
 */
export function excerpt(text: string, needle: string, length = SNIPPET_LENGTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= length) return flat;
  const at = Math.max(indexOfText(flat, needle.replace(/\s+/g, ' ')), 0);
  // The match sits a third of the way in, so that what leads to it shows too.
  const lead = Math.max(0, Math.floor((length - needle.length) / 3));
  let start = Math.max(0, Math.min(at - lead, flat.length - length));
  if (start > 0) {
    // Starts at a word when one begins close by, rather than in the middle of one.
    const space = flat.indexOf(' ', start);
    if (space !== -1 && space < at && space - start < 15) start = space + 1;
  }
  start = whole(flat, start, 1);
  const end = whole(flat, Math.min(flat.length, start + length), -1);
  return `${start > 0 ? ELLIPSIS : ''}${flat.slice(start, end).trim()}${end < flat.length ? ELLIPSIS : ''}`;
}

/** Title matches before body matches, then the newest first. */
function byRelevance(a: SearchHit, b: SearchHit): number {
  if (a.inTitle !== b.inTitle) return a.inTitle ? -1 : 1;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return b.id - a.id;
}

function toResult(hit: SearchHit, text: string): SearchResult {
  // The title shows anyway: the body says more whenever it holds the text too.
  const bodyHolds = hit.body !== null && indexOfText(hit.body, text) !== -1;
  const field = !hit.inTitle || bodyHolds ? (hit.body ?? hit.title) : hit.title;
  const snippet = excerpt(field, text);
  return {
    type: hit.type,
    id: hit.id,
    title: hit.title,
    snippet,
    marks: { title: foldedMatches(hit.title, text), snippet: foldedMatches(snippet, text) },
    url: PAGES[hit.type](hit.id),
  };
}

/**
 * Search over the records a user may see, by the rules of their lists: their brands' (every
 * brand for a superadmin), and of tasks only those the task lists show them (others'
 * private tasks stay hidden unless they are a superadmin).
 */
export class SearchService {
  constructor(private readonly deps: { search: SearchRepository }) {}

  async search(actor: Actor, text: string): Promise<SearchResult[]> {
    // Only marks or tatweel: the text folds to nothing, which every record would contain.
    if (foldForSearch(text).trim() === '') return [];
    const { viewerId, includeOthersPrivate } = taskAudience(actor);
    const hits = await this.deps.search.search({
      text,
      brandIds: brandScope(actor),
      tasks: { viewerId, includeOthersPrivate },
      limitPerType: SEARCH_LIMIT_PER_TYPE,
    });
    return hits.sort(byRelevance).slice(0, SEARCH_LIMIT).map((hit) => toResult(hit, text));
  }
}
