import { BadRequest, NotFound } from '../../platform/errors';
import { RecentLook } from '../../platform/recent';
import type { AuditTrail } from '../audit/service';
import type { AuditContext } from '../request';
import { knownDay } from '../dates';
import type { FiguresFeed } from '../events/live';
import type { NewSeason, Season, SeasonRepository } from './repository';

export interface SeasonsDeps {
  seasons: SeasonRepository;
  trail: AuditTrail;
  /** Where open pages hear that the figures changed: a season moves the figures it names. */
  live?: FiguresFeed;
  /** How long a look at the seasons stands before the figures look again (0: every time). */
  freshForMs?: number;
}

const notFound = () => new NotFound('No such season', 'SEASON_NOT_FOUND');

/** Named periods of the year; every session reads them, administrators change them, and each change is in the audit trail. */
export class SeasonsService {
  private readonly look: RecentLook<Season[]>;

  constructor(private readonly deps: SeasonsDeps) {
    this.look = new RecentLook(deps.freshForMs ?? 0);
  }

  list(): Promise<Season[]> {
    return this.deps.seasons.list();
  }

  /** The seasons as last looked at, looking again once that look is older than `freshForMs`: what the figures read. */
  current(): Promise<Season[]> {
    return this.look.get(() => this.deps.seasons.list());
  }

  async create(who: AuditContext, input: NewSeason): Promise<Season> {
    this.look.forget();
    const season = await this.deps.seasons.create(checkedSeason(input));
    await this.changed();
    await this.deps.trail.record(who, 'seasonCreated', { target: `season:${season.id}`, targetName: season.name, after: season });
    return season;
  }

  async update(who: AuditContext, id: number, change: Partial<NewSeason>): Promise<Season> {
    const before = await this.deps.seasons.get(id);
    if (!before) throw notFound();
    this.look.forget();
    const season = await this.deps.seasons.update(id, checkedSeason({ ...before, ...change }));
    if (!season) throw notFound();
    await this.changed();
    await this.deps.trail.record(who, 'seasonChanged', { target: `season:${season.id}`, targetName: season.name, before, after: season });
    return season;
  }

  async remove(who: AuditContext, id: number): Promise<void> {
    const before = await this.deps.seasons.get(id);
    this.look.forget();
    if (!before || !(await this.deps.seasons.delete(id))) throw notFound();
    await this.changed();
    await this.deps.trail.record(who, 'seasonDeleted', { target: `season:${id}`, targetName: before.name, before });
  }

  /** Tells open pages, once the change has committed. */
  private async changed(): Promise<void> {
    await this.deps.live?.publish({ reason: 'seasons' });
  }
}

function checkedSeason(season: NewSeason): NewSeason {
  if (knownDay(season.endDate) < knownDay(season.startDate)) {
    throw new BadRequest('The end date must not be before the start date', 'SEASON_DATES', {
      issues: [{ path: 'body.endDate', message: 'must not be before startDate' }],
    });
  }
  return { name: season.name, startDate: season.startDate, endDate: season.endDate };
}
