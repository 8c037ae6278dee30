import type { Clock } from '../../platform/clock';
import { Conflict, NotFound } from '../../platform/errors';
import { isManagerOrAbove, listedBrands, recordPermissions, requireRole, visibleOrNotFound, type Actor, type RecordPermissions } from '../access';
import type { CampaignsService } from '../campaigns/service';
import type { BudgetKind } from '../domain';
import type { BudgetEntry, BudgetPatch, BudgetRepository, BudgetSummary, CurrencyMismatch } from './repository';
import { isoTime } from '../shared/values';

export interface BudgetEntryInput {
  campaignId: number;
  kind?: BudgetKind;
  category: string;
  description?: string | null;
  amount: number;
  currency: string;
  date?: string;
}

export type BudgetEntryChange = Partial<Omit<BudgetEntryInput, 'campaignId'>>;

export interface BudgetQuery {
  brandId?: number;
  campaignId?: number;
  kind?: BudgetKind;
  limit: number;
  offset: number;
}

const MANAGERS_ONLY = 'Only managers and superadmins change the budget';

/** Everyone in a brand reads its campaigns' budgets; managers and superadmins write them. */
export function mayWriteBudget(actor: Actor): boolean {
  return isManagerOrAbove(actor);
}

/** A budget entry as the API answers it: with what the one asking may do to it, by `mayWriteBudget`. */
export type BudgetEntryView = BudgetEntry & { can: RecordPermissions };

const shown = (actor: Actor, entry: BudgetEntry): BudgetEntryView => ({ ...entry, can: recordPermissions(mayWriteBudget(actor)) });

function checkedCurrency<T>(result: T | CurrencyMismatch): T {
  if (result === 'currency-mismatch') throw new Conflict("The amount is not in the currency of the campaign's budget", 'CURRENCY_MISMATCH');
  return result;
}

/** A campaign's budget: everyone in its brand reads it; managers and superadmins write it. */
export class BudgetService {
  constructor(private readonly deps: { budget: BudgetRepository; campaigns: CampaignsService; clock: Clock }) {}

  async list(actor: Actor, query: BudgetQuery): Promise<BudgetEntryView[]> {
    const brandIds = listedBrands(actor, query.brandId);
    return (await this.deps.budget.list({ ...query, brandIds })).map((entry) => shown(actor, entry));
  }

  async get(actor: Actor, id: number): Promise<BudgetEntryView> {
    return shown(actor, visibleOrNotFound(actor, await this.deps.budget.get(id), 'budget entry'));
  }

  async summary(actor: Actor, campaignId: number): Promise<BudgetSummary> {
    await this.deps.campaigns.get(actor, campaignId);
    return this.deps.budget.summary(campaignId);
  }

  async create(actor: Actor, input: BudgetEntryInput): Promise<BudgetEntryView> {
    requireRole(actor, mayWriteBudget, MANAGERS_ONLY);
    const campaign = await this.deps.campaigns.get(actor, input.campaignId);
    const now = this.deps.clock.now();
    const created = await this.deps.budget.create({
      brandId: campaign.brandId,
      campaignId: campaign.id,
      kind: input.kind ?? 'spent',
      category: input.category,
      description: input.description ?? null,
      amount: input.amount,
      currency: input.currency,
      date: input.date ?? isoTime(now).slice(0, 10),
      createdBy: actor.id,
      createdAt: isoTime(now),
    });
    return shown(actor, checkedCurrency(created));
  }

  async update(actor: Actor, id: number, change: BudgetEntryChange): Promise<BudgetEntryView> {
    requireRole(actor, mayWriteBudget, MANAGERS_ONLY);
    await this.get(actor, id);
    const patch: BudgetPatch = { ...change, updatedAt: isoTime(this.deps.clock.now()) };
    const updated = checkedCurrency(await this.deps.budget.update(id, patch));
    if (!updated) throw new NotFound('No such budget entry');
    return shown(actor, updated);
  }

  async remove(actor: Actor, id: number): Promise<void> {
    requireRole(actor, mayWriteBudget, MANAGERS_ONLY);
    await this.get(actor, id);
    if (!(await this.deps.budget.delete(id))) throw new NotFound('No such budget entry');
  }
}
