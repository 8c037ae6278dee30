import type { Clock } from '../../platform/clock';
import { BadRequest, Forbidden, NotFound } from '../../platform/errors';
import type { DashboardSession } from '../auth/session-store';
import type { Day } from '../dates';
import { accessOf } from '../analytics/permissions';
import type { ViewPage } from '../domain';
import { checkAddress, namedValues, normalisedQuery, requestOf, type ViewRequest } from './address';
import type { SavedView, SavedViewChange, SavedViewRepository } from './repository';

/** Who is asking: their record (null for the administrator PIN), name, role and access. */
export type ViewActor = Pick<DashboardSession, 'userId' | 'name' | 'role' | 'allowedMuseums' | 'allowedChannels'>;

/** A view as its reader gets it: whose it is, and what they may do with it. */
export interface ViewAnswer {
  id: number;
  name: string;
  page: ViewPage;
  query: string;
  shared: boolean;
  owner: { name: string };
  mine: boolean;
  can: { edit: boolean; delete: boolean };
  /** How many of the museums and channels it names its reader may not see: it shows nothing of those. */
  unseen: number;
  createdAt: string;
  updatedAt: string;
}

export interface NewView {
  name: string;
  page: ViewPage;
  query: string;
  shared: boolean;
}

const isOwner = (actor: Pick<ViewActor, 'userId'>, view: SavedView) => view.ownerUserId === actor.userId;

/** A private view is its owner's alone; a shared one every dashboard user reads. */
export function mayRead(actor: Pick<ViewActor, 'userId'>, view: SavedView): boolean {
  return isOwner(actor, view) || view.shared;
}

/** The owner changes their view; administrators any view they can read (a shared view left by someone gone). */
export function mayChange(actor: Pick<ViewActor, 'userId' | 'role'>, view: SavedView): boolean {
  return isOwner(actor, view) || (actor.role === 'admin' && view.shared);
}

/**
 * Saved views: a name and a page's address, private or shared. A view keeps no figures: it is
 * opened under its reader's own access (see requestOf), so a shared view never shows anyone
 * what their account does not include.
 */
export class SavedViewsService {
  constructor(private readonly deps: { views: SavedViewRepository; clock: Clock; today: () => Day }) {}

  async list(actor: ViewActor): Promise<ViewAnswer[]> {
    const views = await this.deps.views.visibleTo(actor.userId);
    // The reader's own views first, then those others share.
    return views.map((v) => this.answer(actor, v)).sort((a, b) => Number(b.mine) - Number(a.mine));
  }

  async get(actor: ViewActor, id: number): Promise<ViewAnswer> {
    return this.answer(actor, await this.readable(actor, id));
  }

  async create(actor: ViewActor, input: NewView): Promise<ViewAnswer> {
    const query = normalisedQuery(input.query);
    checkAddress(input.page, query);
    const view = await this.deps.views.create({ ...input, query, ownerUserId: actor.userId, ownerName: actor.name }, this.now());
    return this.answer(actor, view);
  }

  async update(actor: ViewActor, id: number, change: SavedViewChange): Promise<ViewAnswer> {
    const current = await this.changeable(actor, id);
    const next: SavedViewChange = { ...change };
    if (change.query !== undefined) next.query = normalisedQuery(change.query);
    if (change.query !== undefined || change.page !== undefined) checkAddress(change.page ?? current.page, next.query ?? current.query);
    const view = await this.deps.views.update(id, next, this.now());
    if (!view) throw notFound();
    return this.answer(actor, view);
  }

  async remove(actor: ViewActor, id: number): Promise<SavedView> {
    const view = await this.changeable(actor, id);
    if (!(await this.deps.views.delete(id))) throw notFound();
    return view;
  }

  /**
   * What a data route answers for when asked with `view=<id>`: the view's address, read today,
   * under the reader's own access (the route applies it). A view of the other page is refused.
   */
  async request(actor: ViewActor, id: number, page: ViewPage): Promise<ViewRequest> {
    const view = await this.readable(actor, id);
    if (view.page !== page) throw new BadRequest(`View ${id} is a view of the ${view.page} page, not of the ${page} page`, 'VIEW_PAGE');
    return requestOf(view.page, view.query, this.deps.today());
  }

  private async readable(actor: ViewActor, id: number): Promise<SavedView> {
    const view = await this.deps.views.get(id);
    // Someone else's private view answers as a missing one: its existence is theirs.
    if (!view || !mayRead(actor, view)) throw notFound();
    return view;
  }

  private async changeable(actor: ViewActor, id: number): Promise<SavedView> {
    const view = await this.readable(actor, id);
    if (!mayChange(actor, view)) throw new Forbidden('Only whoever saved this view may change it', 'NOT_VIEW_OWNER');
    return view;
  }

  private answer(actor: ViewActor, view: SavedView): ViewAnswer {
    const access = accessOf(actor);
    const named = namedValues(view.page, view.query);
    const unseen =
      named.museums.filter((m) => access.museums !== 'all' && !access.museums.has(m)).length +
      named.channels.filter((c) => access.channels !== 'all' && !access.channels.has(c)).length;
    const changeable = mayChange(actor, view);
    return {
      id: view.id,
      name: view.name,
      page: view.page,
      query: view.query,
      shared: view.shared,
      owner: { name: view.ownerName },
      mine: isOwner(actor, view),
      can: { edit: changeable, delete: changeable },
      unseen,
      createdAt: view.createdAt,
      updatedAt: view.updatedAt,
    };
  }

  private now(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}

function notFound() {
  return new NotFound('No such view', 'VIEW_NOT_FOUND');
}
