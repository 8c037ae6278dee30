// The kanban board: posts in one column per status. A card moves by drag and drop or by its
// move menu (for the keyboard), to the columns the server says it may go to (`post.can`);
// moving to Published asks for the publication link, to Scheduled for the moment when the
// post has none, and sending someone's post back (`post.can.reasonFor`) asks why. Cards are picked for bulk
// changes one by one, by a Shift range or a whole column; Escape clears the pick, and a bulk
// move can be undone for a few seconds. A card's title opens the post panel: details, media,
// review actions, comments and history. Colleagues' changes arrive as live events: a card
// moves, comes or goes where it stands, marked for a moment, and the open panel follows; a
// form open on a post that changes keeps what was typed, under a notice that offers to reload.
import { afterNextFrame, requireElement } from '../core/dom.js';
import { tIsolated } from '../core/i18n.js';
import { drawUpTo, refresh, rememberFilters, render } from './board-cards.js';
import { savePost } from './board-form.js';
import { openLinkedPost } from './board-panel.js';
import { afterChange, board, campaignLabel, changed, clearButton, currentFilters, fillSelect, filterOf, filters, hooks, state, statusName, view } from './board-state.js';
import { byId, call, domain, errorMessage, options, targetOf, vocabularyOptions } from './common.js';
import { byOther, keepingFocus, subscribe, tell } from './live.js';

/** @typedef {import('./board-state.js').Post} Post */

hooks.render = render;
hooks.refresh = refresh;

async function start() {
  const initial = new URL(window.location.href).searchParams;
  // The page's own frame (its heading, filters and loading state) is drawn before the records
  // are asked for. Asked for at once, they could come back before the browser's first paint,
  // which then counted their round trips: Lighthouse put the 1,000-post board's largest paint
  // at up to 1.54 s, and at most 1.40 s with this wait, which costs the records one frame.
  await afterNextFrame();
  try {
    const [c, b, m] = /** @type {[{ campaigns: import('./common.js').Campaign[] }, { brands: import('./common.js').Brand[] }, { members: import('./common.js').Member[] }]} */ (
      await Promise.all([call('GET', '/api/campaigns'), call('GET', '/api/brands'), call('GET', '/api/members')])
    );
    view.campaigns = c.campaigns;
    view.brands = b.brands;
    view.people = byId(m.members);
  } catch (err) {
    state.textContent = errorMessage(err);
    board.setAttribute('aria-busy', 'false');
    return;
  }
  fillSelect(filterOf.campaignId, options(view.campaigns, campaignLabel), initial.get('campaignId') ?? '');
  fillSelect(filterOf.brandId, options(view.brands), initial.get('brandId') ?? '');
  fillSelect(filterOf.platform, vocabularyOptions(domain.platforms, 'platforms'), initial.get('platform') ?? '');
  await refresh();
}

filters.addEventListener('change', () => {
  rememberFilters();
  void refresh();
});
clearButton.addEventListener('click', () => {
  for (const select of Object.values(filterOf)) select.value = '';
  rememberFilters();
  void refresh().then(() => filterOf.campaignId.focus());
});

requireElement('[data-new-post]', HTMLButtonElement).addEventListener('click', () => void savePost(null));

// ## Colleagues' changes

/**
 * Whether a post belongs under the campaign and brand the board is filtered by (the filters
 * the API applies; the platform is filtered when drawing).
 * @param {Post} post
 */
function underFilters(post) {
  const { campaignId, brandId } = currentFilters();
  return (!campaignId || String(post.campaignId) === campaignId) && (!brandId || String(post.brandId) === brandId);
}

/**
 * What is said of a colleague's change to a post.
 * @param {Post | undefined} before as the board had it
 * @param {Post | undefined} after as it is now
 */
function saidOf(before, after) {
  const title = (after ?? before)?.title ?? '';
  if (!after) return tIsolated('live.postDeleted', { title });
  if (!before) return tIsolated('live.postCreated', { title });
  if (after.status !== before.status) return tIsolated('live.postMoved', { title, status: statusName(after.status) });
  return tIsolated('live.postUpdated', { title });
}

subscribe('post', (event) => {
  const before = view.posts.find((p) => p.id === event.id);
  const latest = /** @type {Post | undefined} */ (event.post);
  const after = latest && underFilters(latest) ? latest : undefined;
  if (!before && !after) return;
  if (after && byOther(event)) changed.mark(after.id);
  const change = () => {
    view.posts = after ? (before ? view.posts.map((p) => (p.id === after.id ? after : p)) : [after, ...view.posts]) : view.posts.filter((p) => p.id !== event.id);
  };
  if (view.dragging) {
    change();
    view.drawAfterDrag = true;
  } else {
    keepingFocus(board, 'data-post-id', () => void afterChange(change), board);
  }
  // A card the platform filter hides changes unseen, and unsaid.
  const { platform } = currentFilters();
  const seen = (/** @type {Post | undefined} */ p) => p !== undefined && (!platform || p.platform === platform);
  if (byOther(event) && (seen(before) || seen(after))) tell(saidOf(before, after));
});
subscribe('reset', () => void refresh());

await start();
const linked = targetOf('post');
if (linked !== null) drawUpTo(linked);
await openLinkedPost();
