import { sql, type Selectable, type Updateable } from 'kysely';
import type { WorkspaceDb, WorkspaceRecords } from '../records';
import type { WorkspaceTables } from '../tables';
import type { BudgetKind } from '../domain';

export interface BudgetEntry {
  id: number;
  /** The campaign's brand. */
  brandId: number;
  campaignId: number;
  kind: BudgetKind;
  category: string;
  description: string | null;
  /** In minor units of `currency` (cents, fils): always an integer. */
  amount: number;
  currency: string;
  date: string;
  createdBy: number | null;
  createdAt: string;
  updatedAt: string;
}

export type NewBudgetEntry = Omit<BudgetEntry, 'id' | 'updatedAt'>;
export type BudgetPatch = Partial<Pick<BudgetEntry, 'kind' | 'category' | 'description' | 'amount' | 'currency' | 'date'>> & { updatedAt: string };

export interface BudgetSummary {
  campaignId: number;
  /** The campaign's one currency; null while it has no entry. */
  currency: string | null;
  planned: number;
  spent: number;
  remaining: number;
  byCategory: { category: string; planned: number; spent: number }[];
}

export interface BudgetFilter {
  /** Only these brands (undefined: every brand). */
  brandIds: number[] | undefined;
  campaignId?: number;
  kind?: BudgetKind;
  limit: number;
  offset: number;
}

/** A campaign keeps one currency: an entry in another is refused. */
export type CurrencyMismatch = 'currency-mismatch';

export interface BudgetRepository {
  /** Newest date first. */
  list(filter: BudgetFilter): Promise<BudgetEntry[]>;
  get(id: number): Promise<BudgetEntry | undefined>;
  create(input: NewBudgetEntry): Promise<BudgetEntry | CurrencyMismatch>;
  update(id: number, patch: BudgetPatch): Promise<BudgetEntry | CurrencyMismatch | undefined>;
  delete(id: number): Promise<boolean>;
  /** Planned and spent sums of one campaign, in total and per category, added up by the database. */
  summary(campaignId: number): Promise<BudgetSummary>;
}

type Row = Selectable<WorkspaceTables['budget_entries']>;

const toEntry = (r: Row): BudgetEntry => ({
  id: r.id,
  brandId: r.brand_id,
  campaignId: r.campaign_id,
  kind: r.kind,
  category: r.category,
  description: r.description,
  amount: r.amount,
  currency: r.currency,
  date: r.entry_date,
  createdBy: r.created_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The columns a patch sets; what it leaves undefined is not written. */
function entryChange(patch: BudgetPatch): Updateable<WorkspaceTables['budget_entries']> {
  return {
    kind: patch.kind,
    category: patch.category,
    description: patch.description,
    amount: patch.amount,
    currency: patch.currency,
    entry_date: patch.date,
    updated_at: patch.updatedAt,
  };
}

const PLANNED = sql<number>`coalesce(sum(case when kind = 'planned' then amount end), 0)`;
const SPENT = sql<number>`coalesce(sum(case when kind = 'spent' then amount end), 0)`;

export class SqlBudgetRepository implements BudgetRepository {
  constructor(private readonly records: WorkspaceRecords) {}

  async list(filter: BudgetFilter) {
    if (filter.brandIds !== undefined && filter.brandIds.length === 0) return [];
    const rows = await this.records.db
      .selectFrom('budget_entries')
      .selectAll()
      .$call((q) => (filter.brandIds === undefined ? q : q.where('brand_id', 'in', filter.brandIds)))
      .$call((q) => (filter.campaignId === undefined ? q : q.where('campaign_id', '=', filter.campaignId)))
      .$call((q) => (filter.kind === undefined ? q : q.where('kind', '=', filter.kind)))
      .orderBy('entry_date', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute();
    return rows.map(toEntry);
  }

  async get(id: number) {
    return readEntry(this.records.db, id);
  }

  async create(e: NewBudgetEntry) {
    return this.records.db.transaction().execute(async (trx): Promise<BudgetEntry | CurrencyMismatch> => {
      if (await this.otherCurrencyUsed(trx, e.campaignId, e.currency)) return 'currency-mismatch';
      const row = await trx
        .insertInto('budget_entries')
        .values({
          brand_id: e.brandId,
          campaign_id: e.campaignId,
          kind: e.kind,
          category: e.category,
          description: e.description,
          amount: e.amount,
          currency: e.currency,
          entry_date: e.date,
          created_by: e.createdBy,
          created_at: e.createdAt,
          updated_at: e.createdAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toEntry(row);
    });
  }

  async update(id: number, patch: BudgetPatch) {
    return this.records.db.transaction().execute(async (trx): Promise<BudgetEntry | CurrencyMismatch | undefined> => {
      const current = await readEntry(trx, id);
      if (!current) return undefined;
      if (patch.currency !== undefined && (await this.otherCurrencyUsed(trx, current.campaignId, patch.currency, id))) return 'currency-mismatch';
      const row = await trx.updateTable('budget_entries').set(entryChange(patch)).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      return toEntry(row);
    });
  }

  async delete(id: number) {
    const result = await this.records.db.deleteFrom('budget_entries').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async summary(campaignId: number) {
    const { db } = this.records;
    const totals = await db
      .selectFrom('budget_entries')
      .select((eb) => [eb.fn.min<string | null>('currency').as('currency'), PLANNED.as('planned'), SPENT.as('spent')])
      .where('campaign_id', '=', campaignId)
      .executeTakeFirstOrThrow();
    const byCategory = await db
      .selectFrom('budget_entries')
      .select(['category', PLANNED.as('planned'), SPENT.as('spent')])
      .where('campaign_id', '=', campaignId)
      .groupBy('category')
      .orderBy('category')
      .execute();
    const { planned, spent } = totals;
    return {
      campaignId,
      currency: totals.currency,
      planned,
      spent,
      remaining: planned - spent,
      byCategory: byCategory.map((c) => ({ category: c.category, planned: c.planned, spent: c.spent })),
    };
  }

  /**
   * Whether the campaign has entries in another currency. On PostgreSQL the campaign's row is
   * held to the end of the transaction, so two entries in different currencies cannot both pass.
   */
  private async otherCurrencyUsed(trx: WorkspaceDb, campaignId: number, currency: string, exceptId = 0): Promise<boolean> {
    if (this.records.engine.locksRows) await trx.selectFrom('campaigns').select('id').where('id', '=', campaignId).forUpdate().execute();
    const row = await trx
      .selectFrom('budget_entries')
      .select('id')
      .where('campaign_id', '=', campaignId)
      .where('currency', '<>', currency)
      .where('id', '<>', exceptId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }
}

async function readEntry(db: WorkspaceDb, id: number): Promise<BudgetEntry | undefined> {
  const row = await db.selectFrom('budget_entries').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toEntry(row);
}
