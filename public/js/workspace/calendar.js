// The content calendar: posts on the day they go out (their scheduled moment, or for a
// published post without one, the moment it was last changed), a month or a week at a time.
// A card moves to another day by drag and drop, or from the keyboard: Space picks it up, the
// arrow keys move it by a day or a week, Enter (or Space) drops it, Escape puts it back. The
// time of day stays as it was, in the reader's own time zone; the server's answer decides,
// and what the page offers is what the server says the user may do (`post.can`). Someone who
// may schedule an approved post schedules it by putting it on a day. Dropped on Unscheduled (or Delete while
// held), a post loses its date, unless it is scheduled: a scheduled post keeps one.
// Colleagues' changes arrive as live events: a post moves to its new day, comes or goes,
// marked for a moment.
import { newestOnly } from '../core/api.js';
import { dropTarget, element, findElement, nextTask, requireElement } from '../core/dom.js';
import { t, tIsolated, tn } from '../core/i18n.js';
import { dateFormat } from '../core/format.js';
import { isRtl } from '../core/page.js';
import { addDays, dayKey, momentOf, movedTo, parseDay, PUBLISHED, startOfWeek, today } from './calendar-days.js';
import { announce, call, callAll, errorMessage, options } from './common.js';
import { lazyLists } from './lazy-lists.js';
import { byOther, highlights, keepingFocus, subscribe, tell } from './live.js';

/** @typedef {import('../../../src/workspace/domain').PostStatus} PostStatus */
/** @typedef {'month' | 'week'} View */

/** A post as the API answers it, with what the user may do with it (`can`). @typedef {import('../../../src/workspace/posts/service').PostBody} Post */

/** @type {PostStatus} */
const SCHEDULED = 'scheduled';

const grid = requireElement('[data-calendar]', HTMLOListElement);
const weekdays = requireElement('[data-weekdays]', HTMLElement);
const period = requireElement('[data-period]', HTMLElement);
const state = requireElement('[data-calendar-state]', HTMLElement);
const empty = requireElement('[data-calendar-empty]', HTMLElement);
const tray = requireElement('[data-unscheduled-tray]', HTMLElement);
const side = requireElement('[data-unscheduled]', HTMLUListElement);
const sideCount = requireElement('[data-unscheduled-count]', HTMLElement);
const filters = requireElement('[data-calendar-filters]', HTMLFormElement);
const filterOf = {
  brandId: requireElement('[name="brandId"]', HTMLSelectElement, filters),
  campaignId: requireElement('[name="campaignId"]', HTMLSelectElement, filters),
};
const clearButton = requireElement('[data-clear-filters]', HTMLButtonElement);
const todayButton = requireElement('[data-today]', HTMLButtonElement);
const stepButtons = [...document.querySelectorAll('[data-step]')].filter((b) => b instanceof HTMLButtonElement);
const viewButtons = [...document.querySelectorAll('[data-view]')].filter((b) => b instanceof HTMLButtonElement);

// Built when first drawn, not as the module loads: seven date formatters were a quarter of a
// second of a phone's main thread before anything else could run.
const monthTitle = () => dateFormat({ month: 'long', year: 'numeric' });
const weekTitle = () => dateFormat({ day: 'numeric', month: 'long', year: 'numeric' });
const weekdayShort = () => dateFormat({ weekday: 'short' });
const dayNumber = () => dateFormat({ day: 'numeric' });
const dayName = () => dateFormat({ weekday: 'long', day: 'numeric', month: 'long' });
const shortDay = () => dateFormat({ day: 'numeric', month: 'short' });
const timeOfDay = () => dateFormat({ hour: 'numeric', minute: '2-digit' });

/** @type {Post[]} */
let posts = [];
/** @type {import('./common.js').Campaign[]} */
let campaigns = [];
/** @type {import('./common.js').Brand[]} */
let brands = [];
/** @type {View} */
let view = 'month';
/** A day in the period shown, at local noon (the period is the month or the week around it). */
let anchor = today();
/**
 * The post picked up from the keyboard and the day it is held over, until it is dropped or put back.
 * @type {{ post: Post, day: string } | null}
 */
let held = null;
/** The post being dragged with the pointer. @type {Post | null} */
let dragged = null;
const postLoads = newestOnly();
/** The posts colleagues changed a moment ago, on their day or in the tray. */
const changed = highlights(requireElement('#main', HTMLElement), 'data-post-id');

// ## Days

/** The days shown: whole weeks around the anchor's month, or the anchor's week. */
function shownDays() {
  const first = view === 'month' ? startOfWeek(new Date(anchor.getFullYear(), anchor.getMonth(), 1, 12)) : startOfWeek(anchor);
  const last = view === 'month' ? addDays(startOfWeek(new Date(anchor.getFullYear(), anchor.getMonth() + 1, 0, 12)), 6) : addDays(first, 6);
  /** @type {Date[]} */
  const days = [];
  for (let day = first; day <= last; day = addDays(day, 1)) days.push(day);
  return days;
}

/** @param {Post} post */
function dayOf(post) {
  if (held && held.post.id === post.id) return held.day;
  const moment = momentOf(post);
  return moment ? dayKey(new Date(moment)) : null;
}

/** @param {string} day */
const dayLabel = (day) => dayName().format(/** @type {Date} */ (parseDay(day)));

// ## Cards

/** A card moves to another day when the server lets the user change its moment (a published post keeps the day it went out). @param {Post} post */
const movable = (post) => post.can.reschedule;

/** A dated post may lose its date, unless it is scheduled: scheduled means it has one. @param {Post} post */
const undatable = (post) => movable(post) && post.status !== SCHEDULED && post.scheduledAt !== null;

/**
 * @param {Post} post
 * @param {boolean} [folded] hidden in a crowded day of the month (see `foldedOf`)
 */
function card(post, folded = false) {
  const moment = momentOf(post);
  const when = moment
    ? element('time', { className: 'cal-card-when', datetime: moment }, [
        post.status === PUBLISHED ? t('calendar.published', { date: shortDay().format(new Date(moment)) }) : timeOfDay().format(new Date(moment)),
      ])
    : null;
  const canMove = movable(post);
  const link = element(
    'a',
    {
      className: 'cal-card-link',
      href: `/workspace?post=${post.id}`,
      draggable: canMove ? 'true' : 'false',
      'aria-describedby': canMove ? 'cal-card-hint' : undefined,
      title: post.title,
    },
    [
      element('span', { className: 'cal-card-text' }, [
        when,
        element('span', { className: 'cal-card-title', dir: 'auto', text: post.title }),
        post.campaign ? element('span', { className: 'cal-card-campaign', dir: 'auto', text: post.campaign.name }) : null,
        element('span', { className: 'sr-only', text: `, ${t('calendar.statusNamed', { status: t(`status.${post.status}`) })}` }),
      ]),
    ],
  );
  const isHeld = held?.post.id === post.id;
  const node = element('li', { className: `cal-card${isHeld ? ' is-held' : ''}${folded ? ' is-folded' : ''}`, 'data-post-id': post.id, 'data-status': post.status }, [link]);
  if (canMove) {
    link.addEventListener('dragstart', (event) => {
      if (!event.dataTransfer) return;
      dragged = post;
      event.dataTransfer.clearData();
      event.dataTransfer.setData('text/plain', String(post.id));
      event.dataTransfer.effectAllowed = 'move';
      node.classList.add('is-dragging');
    });
    link.addEventListener('dragend', () => {
      dragged = null;
      node.classList.remove('is-dragging');
      for (const cell of grid.querySelectorAll('.is-drop-target')) cell.classList.remove('is-drop-target');
    });
  }
  link.addEventListener('keydown', (event) => onCardKey(event, post));
  return node;
}

/** A month's day shows this many cards; more than one beyond them fold behind a button to the day's week. */
const MONTH_CARDS = 3;

/**
 * The posts of a crowded day of the month that fold away (never the one held from the keyboard).
 * @param {Post[]} onDay in order
 */
function foldedOf(onDay) {
  if (view !== 'month' || onDay.length <= MONTH_CARDS + 1) return new Set();
  const folded = onDay.slice(MONTH_CARDS).filter((post) => held?.post.id !== post.id);
  return new Set(folded.length < 2 ? [] : folded);
}

/**
 * The button that opens a crowded day's week.
 * @param {Date} date
 * @param {number} count the cards folded away
 */
function moreButton(date, count) {
  const button = element('button', { type: 'button', className: 'cal-more', text: t('calendar.more', { count }) });
  button.addEventListener('click', () => {
    view = 'week';
    show(date);
    findElement(`[data-day="${dayKey(date)}"] .cal-card-link`, HTMLElement, grid)?.focus();
  });
  return button;
}

/** @param {Post} a @param {Post} b */
const byMoment = (a, b) => (momentOf(a) ?? '').localeCompare(momentOf(b) ?? '') || a.id - b.id;

/**
 * On a phone the month is a list of its days with every card shown (the width is the one under
 * which workspace.css lists them): building every card of a busy month took up to a quarter of
 * a second of a phone's main thread in one task. The days past the first screenful of cards get
 * theirs in the tasks after, a screenful a task.
 */
const monthAsList = window.matchMedia('(max-width: 640px)');
/** Cards drawn with the days at once, and then in each task after. */
const SCREENFUL = 12;
/** Counts the drawings of the days: cards left for later are dropped once the days are drawn again. */
let drawings = 0;

/**
 * @param {{ list: HTMLElement, make: () => HTMLElement[], count: number }[]} later
 * @param {number} drawing
 */
async function drawCardsLater(later, drawing) {
  // The task that drew the days drew a screenful: the first of these waits for the next task.
  let count = SCREENFUL;
  for (const { list, make, count: cards } of later) {
    if (count >= SCREENFUL) {
      await nextTask();
      if (drawings !== drawing) return;
      count = 0;
    }
    list.append(...make());
    count += cards;
  }
}

// ## Rendering

function renderPeriod() {
  const days = shownDays();
  if (view === 'month') {
    period.textContent = monthTitle().format(anchor);
  } else {
    period.textContent = weekTitle().formatRange(days[0], days[days.length - 1]);
  }
  const [previous, next] = view === 'month' ? ['calendar.previousMonth', 'calendar.nextMonth'] : ['calendar.previousWeek', 'calendar.nextWeek'];
  for (const button of stepButtons) {
    const label = t(button.dataset.step === '-1' ? previous : next);
    button.setAttribute('aria-label', label);
    button.title = label;
  }
  for (const button of viewButtons) button.setAttribute('aria-pressed', String(button.dataset.view === view));
  weekdays.replaceChildren(...days.slice(0, 7).map((day) => element('span', { text: weekdayShort().format(day) })));
  return days;
}

/** The undated posts, a screenful at once and the rest as the tray scrolls or the browser idles. */
const undatedList = lazyLists({ make: (/** @type {Post} */ post) => card(post), drawnSelector: '.cal-card', onDrawn: () => changed.show() });

/** What the list of undated posts was last drawn from. @type {{ posts: Post[] | null, held: { post: Post, day: string } | null }} */
let sideDrawn = { posts: null, held: null };

/** @param {number} [focusPostId] the post whose card takes the focus */
function render(focusPostId) {
  const days = renderPeriod();
  /** @type {Map<string, Post[]>} */
  const byDay = new Map();
  /** @type {Post[]} */
  const unscheduled = [];
  for (const post of posts) {
    const day = dayOf(post);
    if (day === null) unscheduled.push(post);
    else byDay.set(day, [...(byDay.get(day) ?? []), post]);
  }
  const month = anchor.getMonth();
  const todayKey = dayKey(today());
  let shownCount = 0;
  const drawing = ++drawings;
  // Only as the days are drawn afresh: a card that has the focus, or is held, is drawn at once.
  const cardsMayWait = view === 'month' && monthAsList.matches && focusPostId === undefined && held === null && !grid.contains(document.activeElement);
  /** @type {{ list: HTMLElement, make: () => HTMLElement[], count: number }[]} */
  const later = [];
  grid.className = `cal-grid is-${view}`;
  grid.replaceChildren(
    ...days.map((date) => {
      const key = dayKey(date);
      const onDay = (byDay.get(key) ?? []).sort(byMoment);
      const folded = foldedOf(onDay);
      const outside = view === 'month' && date.getMonth() !== month;
      // A phone's list leaves out the days of the months around.
      const waits = cardsMayWait && onDay.length > 0 && (outside || shownCount >= SCREENFUL);
      if (!outside) shownCount += onDay.length;
      const make = () => onDay.map((post) => card(post, folded.has(post)));
      const cards = onDay.length ? element('ul', { className: 'cal-cards' }, waits ? [] : make()) : null;
      if (cards && waits) later.push({ list: cards, make, count: onDay.length });
      const classes = ['cal-day', outside ? 'is-outside' : '', onDay.length ? 'has-posts' : '', key === todayKey ? 'is-today' : ''].filter(Boolean).join(' ');
      const cell = element('li', { className: classes, 'data-day': key, 'aria-current': key === todayKey ? 'date' : undefined }, [
        element('h3', { className: 'cal-day-head' }, [
          element('span', { className: 'cal-day-number', 'aria-hidden': 'true', text: dayNumber().format(date) }),
          element('span', { className: 'cal-day-name', text: dayLabel(key) }),
          element('span', { className: 'cal-day-count', text: onDay.length ? `, ${tn('calendar.postCount', onDay.length)}` : '' }),
        ]),
        cards,
        folded.size ? moreButton(date, folded.size) : null,
      ]);
      takesDrops(cell, key);
      return cell;
    }),
  );
  empty.hidden = shownCount > 0;
  if (later.length) void drawCardsLater(later, drawing);
  // The undated posts do not change with the period shown: a step to the next month leaves
  // their list as it is, which with a thousand of them is most of a redraw's work.
  if (sideDrawn.posts !== posts || sideDrawn.held !== held) {
    sideCount.textContent = String(unscheduled.length);
    undatedList.fill([{ list: side, items: unscheduled, empty: element('li', { className: 'kanban-empty', text: t('calendar.noUnscheduled') }) }]);
    sideDrawn = { posts, held };
  }
  const { brandId, campaignId } = currentFilters();
  clearButton.hidden = !(brandId || campaignId);
  state.textContent = '';
  changed.show();
  if (focusPostId === undefined) return;
  undatedList.drawUpTo((post) => post.id === focusPostId);
  findElement(`[data-post-id="${focusPostId}"] .cal-card-link`, HTMLElement)?.focus();
}

// ## Filters, period and the address

function currentFilters() {
  return { brandId: filterOf.brandId.value, campaignId: filterOf.campaignId.value };
}

/** @param {import('./common.js').Campaign} campaign */
function campaignLabel(campaign) {
  if (brands.length < 2) return campaign.name;
  const brand = brands.find((b) => b.id === campaign.brandId);
  return brand ? `${campaign.name} · ${brand.name}` : campaign.name;
}

/**
 * @param {HTMLSelectElement} select
 * @param {import('./common.js').Option[]} list
 * @param {string} selected
 */
function fillSelect(select, list, selected) {
  const first = select.options[0];
  select.replaceChildren(first, ...list.map((o) => element('option', { value: o.value, text: o.label, selected: o.value === selected })));
  if (!list.some((o) => o.value === selected)) select.value = '';
}

/**
 * The campaigns offered are those of the chosen brand: a campaign of another would match nothing.
 * @param {string} [selected]
 */
function fillCampaigns(selected = filterOf.campaignId.value) {
  const brandId = Number(filterOf.brandId.value) || null;
  const shown = brandId === null ? campaigns : campaigns.filter((c) => c.brandId === brandId);
  fillSelect(filterOf.campaignId, options(shown, campaignLabel), selected);
}

function remember() {
  const url = new URL(window.location.href);
  const values = { ...currentFilters(), view: view === 'month' ? '' : view, date: dayKey(anchor) };
  for (const [key, value] of Object.entries(values)) {
    if (value) url.searchParams.set(key, value);
    else url.searchParams.delete(key);
  }
  url.searchParams.delete('lang');
  window.history.replaceState(null, '', url);
}

async function loadPosts() {
  const query = new URLSearchParams();
  const { brandId, campaignId } = currentFilters();
  if (campaignId) query.set('campaignId', campaignId);
  else if (brandId) query.set('brandId', brandId);
  grid.setAttribute('aria-busy', 'true');
  try {
    posts = /** @type {Post[]} */ (await postLoads.run((signal) => callAll(`/api/posts?${query}`, 'posts', 200, { signal })));
  } finally {
    grid.setAttribute('aria-busy', 'false');
  }
}

/** @param {number} [focusPostId] */
async function refresh(focusPostId) {
  try {
    await loadPosts();
    render(focusPostId);
  } catch (err) {
    state.textContent = errorMessage(err);
  }
}

/** @param {Date} day */
function show(day) {
  anchor = view === 'month' ? new Date(day.getFullYear(), day.getMonth(), 1, 12) : day;
  remember();
  render();
}

/** @param {number} step -1 or 1 */
function stepPeriod(step) {
  show(view === 'month' ? new Date(anchor.getFullYear(), anchor.getMonth() + step, 1, 12) : addDays(anchor, 7 * step));
}

todayButton.addEventListener('click', () => show(today()));
for (const button of stepButtons) button.addEventListener('click', () => stepPeriod(Number(button.dataset.step)));
for (const button of viewButtons) {
  button.addEventListener('click', () => {
    const chosen = button.dataset.view === 'week' ? 'week' : 'month';
    if (chosen === view) return;
    // A week is shown around today when today is in the month on view, else around its first day.
    const now = today();
    if (chosen === 'week' && now.getMonth() === anchor.getMonth() && now.getFullYear() === anchor.getFullYear()) anchor = now;
    view = chosen;
    show(anchor);
  });
}
filters.addEventListener('change', (event) => {
  held = null;
  if (event.target === filterOf.brandId) fillCampaigns();
  remember();
  void refresh();
});
clearButton.addEventListener('click', () => {
  filterOf.brandId.value = '';
  fillCampaigns('');
  remember();
  void refresh().then(() => filterOf.brandId.focus());
});

// ## Moving

/** @param {Post} updated */
function replacePost(updated) {
  posts = posts.map((p) => (p.id === updated.id ? updated : p));
}

/**
 * Sends a change of `post`'s date: shown at once, put back when the server refuses; `said`
 * words what happened from the post as the server answers it.
 * @param {Post} post
 * @param {Record<string, unknown>} change
 * @param {(saved: Post) => (string | HTMLElement)[]} said
 */
async function changeDate(post, change, said) {
  replacePost({ ...post, scheduledAt: /** @type {string | null} */ (change.scheduledAt) });
  render(post.id);
  try {
    const { post: saved } = /** @type {{ post: Post }} */ (await call('PATCH', `/api/posts/${post.id}`, change));
    announce(said(saved));
    if (postLoads.pending) {
      await refresh(post.id);
      return;
    }
    replacePost(saved);
    render(post.id);
  } catch (err) {
    replacePost(post);
    render(post.id);
    announce(errorMessage(err));
  }
}

/**
 * Whether the server took `post` back to review (an author's change of an approved post's date).
 * @param {Post} post
 * @param {Post} saved
 */
const reopened = (post, saved) => saved.status === 'review' && post.status !== 'review';

/**
 * Puts `post` on `day`, keeping its time of day. An approved post that the user may schedule
 * is scheduled for that moment; any other keeps its status (the server may take an author's
 * approved post back to review, and the message says so).
 * @param {Post} post
 * @param {string} day
 */
async function reschedule(post, day) {
  if (dayOf(post) === day) return;
  const scheduledAt = movedTo(post, day);
  const schedules = post.status === 'approved' && post.can.moves.includes(SCHEDULED);
  const date = dayLabel(day);
  await changeDate(post, schedules ? { scheduledAt, status: SCHEDULED } : { scheduledAt }, (saved) => {
    if (reopened(post, saved)) return tIsolated('calendar.backToReview', { title: post.title, date });
    if (saved.status === SCHEDULED && post.status !== SCHEDULED) return tIsolated('calendar.scheduledOn', { title: post.title, date });
    return tIsolated('calendar.moved', { title: post.title, date });
  });
}

/**
 * Takes the date off `post`: back to Unscheduled.
 * @param {Post} post
 */
async function unschedule(post) {
  await changeDate(post, { scheduledAt: null }, (saved) => tIsolated(reopened(post, saved) ? 'calendar.undatedBackToReview' : 'calendar.undated', { title: post.title }));
}

/** @param {HTMLElement} cell @param {string} day */
function takesDrops(cell, day) {
  dropTarget(cell, {
    accepts: () => dragged !== null,
    onDrop: (id) => {
      const post = posts.find((p) => String(p.id) === id);
      dragged = null;
      if (post && movable(post)) void reschedule(post, day);
    },
  });
}

// The tray takes back only what may lose its date: a scheduled post is refused before it is dropped.
dropTarget(tray, {
  accepts: () => dragged !== null && undatable(dragged),
  onDrop: (id) => {
    const post = posts.find((p) => String(p.id) === id);
    dragged = null;
    if (post && undatable(post)) void unschedule(post);
  },
});

/**
 * The first day a post picked up from the keyboard is held over: its own, else today when it is
 * on view, else the first day of the period.
 * @param {Post} post
 */
function startDay(post) {
  const own = dayOf(post);
  if (own) return own;
  const days = shownDays();
  const todayKey = dayKey(today());
  const inPeriod = days.filter((d) => view === 'week' || d.getMonth() === anchor.getMonth()).map(dayKey);
  return inPeriod.includes(todayKey) ? todayKey : inPeriod[0];
}

/**
 * The arrow keys move by a day along the reading direction, or by a week; any other key is
 * looked up too, and finds nothing.
 * @type {Partial<Record<string, number>>}
 */
const ARROWS = { ArrowLeft: isRtl ? 1 : -1, ArrowRight: isRtl ? -1 : 1, ArrowUp: -7, ArrowDown: 7 };

/**
 * @param {KeyboardEvent} event
 * @param {Post} post
 */
function onCardKey(event, post) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (!held) {
    if (event.key !== ' ' || !movable(post)) return;
    event.preventDefault();
    held = { post, day: startDay(post) };
    render(post.id);
    const picked = tIsolated('calendar.pickedUp', { title: post.title, date: dayLabel(held.day) });
    announce(undatable(post) ? [...picked, ` ${t('calendar.undateHint')}`] : picked);
    return;
  }
  if (held.post.id !== post.id) return;
  const by = ARROWS[event.key];
  if (by !== undefined) {
    event.preventDefault();
    const day = dayKey(addDays(/** @type {Date} */ (parseDay(held.day)), by));
    held = { post, day };
    if (!shownDays().some((d) => dayKey(d) === day && (view === 'week' || d.getMonth() === anchor.getMonth()))) {
      anchor = view === 'month' ? new Date(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, 1, 12) : /** @type {Date} */ (parseDay(day));
      remember();
    }
    render(post.id);
    announce(tIsolated('calendar.over', { title: post.title, date: dayLabel(day) }));
  } else if (event.key === 'Enter' || event.key === ' ') {
    event.preventDefault();
    const { day } = held;
    held = null;
    if (day === dayOf(post)) {
      render(post.id);
      announce(tIsolated('calendar.cancelled', { title: post.title }));
    } else {
      void reschedule(post, day);
    }
  } else if ((event.key === 'Delete' || event.key === 'Backspace') && undatable(post)) {
    event.preventDefault();
    held = null;
    void unschedule(post);
  } else if (event.key === 'Escape' || event.key === 'Tab') {
    if (event.key === 'Escape') event.preventDefault();
    held = null;
    render(event.key === 'Escape' ? post.id : undefined);
    announce(tIsolated('calendar.cancelled', { title: post.title }));
  }
}

// ## Colleagues' changes

/**
 * Whether a post belongs under the brand or campaign the calendar is filtered by (as the API
 * filters them: the campaign when one is chosen, else the brand).
 * @param {Post} post
 */
function underFilters(post) {
  const { brandId, campaignId } = currentFilters();
  if (campaignId) return String(post.campaignId) === campaignId;
  return !brandId || String(post.brandId) === brandId;
}

/**
 * What is said of a colleague's change to a post.
 * @param {Post | undefined} before as the calendar had it
 * @param {Post | undefined} after as it is now
 */
function saidOf(before, after) {
  const title = (after ?? before)?.title ?? '';
  if (!after) return tIsolated('live.postDeleted', { title });
  const day = dayOf(after);
  if (before && day === dayOf(before)) return tIsolated('live.postUpdated', { title });
  return day ? tIsolated('live.postOnDay', { title, date: dayLabel(day) }) : tIsolated('live.postUndated', { title });
}

subscribe('post', (event) => {
  const before = posts.find((p) => p.id === event.id);
  const latest = /** @type {Post | undefined} */ (event.post);
  const after = latest && underFilters(latest) ? latest : undefined;
  if (!before && !after) return;
  if (byOther(event)) tell(saidOf(before, after));
  if (after && byOther(event)) changed.mark(after.id);
  // A post held from the keyboard stays held, over the day it was taken to, unless it went.
  if (held && held.post.id === event.id) held = after ? { post: after, day: held.day } : null;
  posts = after ? (before ? posts.map((p) => (p.id === after.id ? after : p)) : [...posts, after]) : posts.filter((p) => p.id !== event.id);
  if (postLoads.pending) {
    void refresh();
    return;
  }
  keepingFocus(requireElement('#main', HTMLElement), 'data-post-id', () => render(), todayButton);
});
subscribe('reset', () => void refresh());

// ## Start

async function start() {
  const initial = new URL(window.location.href).searchParams;
  view = initial.get('view') === 'week' ? 'week' : 'month';
  const day = parseDay(initial.get('date')) ?? today();
  anchor = view === 'month' ? new Date(day.getFullYear(), day.getMonth(), 1, 12) : day;
  const records = Promise.all([call('GET', '/api/campaigns'), call('GET', '/api/brands')]);
  // Its failure is shown below, once the period is drawn.
  records.catch(() => undefined);
  // The period is drawn in a task of its own, after the one that evaluated the page's scripts.
  await nextTask();
  renderPeriod();
  try {
    const [c, b] = /** @type {[{ campaigns: import('./common.js').Campaign[] }, { brands: import('./common.js').Brand[] }]} */ (await records);
    campaigns = c.campaigns;
    brands = b.brands;
  } catch (err) {
    state.textContent = errorMessage(err);
    grid.setAttribute('aria-busy', 'false');
    return;
  }
  fillSelect(filterOf.brandId, options(brands), initial.get('brandId') ?? '');
  fillCampaigns(initial.get('campaignId') ?? '');
  await refresh();
}

await start();
