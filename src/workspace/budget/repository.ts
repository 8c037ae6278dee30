import type { Db } from '../../platform/sqlite';
import { assignments, scopedWhere } from '../sql';
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

interface Row {
  id: number;
  brand_id: number;
  campaign_id: number;
  kind: BudgetKind;
  category: string;
  description: string | null;
  amount: number;
  currency: string;
  entry_date: string;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

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

const COLUMNS = {
  kind: 'kind',
  category: 'category',
  description: 'description',
  amount: 'amount',
  currency: 'currency',
  date: 'entry_date',
  updatedAt: 'updated_at',
} as const;

const PLANNED = "COALESCE(SUM(CASE WHEN kind = 'planned' THEN amount END), 0)";
const SPENT = "COALESCE(SUM(CASE WHEN kind = 'spent' THEN amount END), 0)";

export class SqliteBudgetRepository implements BudgetRepository {
  constructor(private readonly db: Db) {}

  async list(filter: BudgetFilter) {
    const where = scopedWhere('brand_id', filter.brandIds, { campaign_id: filter.campaignId, kind: filter.kind });
    if (!where) return [];
    const rows = this.db
      .prepare(`SELECT * FROM budget_entries ${where.sql} ORDER BY entry_date DESC, id DESC LIMIT ? OFFSET ?`)
      .all(...where.values, filter.limit, filter.offset) as Row[];
    return rows.map(toEntry);
  }

  async get(id: number) {
    return this.read(id);
  }

  async create(e: NewBudgetEntry) {
    return this.db.transaction((): BudgetEntry | CurrencyMismatch => {
      if (this.otherCurrencyUsed(e.campaignId, e.currency)) return 'currency-mismatch';
      const row = this.db
        .prepare(
          `INSERT INTO budget_entries (brand_id, campaign_id, kind, category, description, amount, currency, entry_date, created_by, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        )
        .get(e.brandId, e.campaignId, e.kind, e.category, e.description, e.amount, e.currency, e.date, e.createdBy, e.createdAt, e.createdAt) as Row;
      return toEntry(row);
    })();
  }

  async update(id: number, patch: BudgetPatch) {
    return this.db.transaction((): BudgetEntry | CurrencyMismatch | undefined => {
      const current = this.read(id);
      if (!current) return undefined;
      if (patch.currency !== undefined && this.otherCurrencyUsed(current.campaignId, patch.currency, id)) return 'currency-mismatch';
      const set = assignments(patch, COLUMNS);
      const row = this.db.prepare(`UPDATE budget_entries SET ${set.sql} WHERE id = ? RETURNING *`).get(...set.values, id) as Row;
      return toEntry(row);
    })();
  }

  async delete(id: number) {
    return this.db.prepare('DELETE FROM budget_entries WHERE id = ?').run(id).changes > 0;
  }

  async summary(campaignId: number) {
    const totals = this.db
      .prepare(`SELECT MIN(currency) AS currency, ${PLANNED} AS planned, ${SPENT} AS spent, ${PLANNED} - ${SPENT} AS remaining FROM budget_entries WHERE campaign_id = ?`)
      .get(campaignId) as Omit<BudgetSummary, 'campaignId' | 'byCategory'>;
    const byCategory = this.db
      .prepare(`SELECT category, ${PLANNED} AS planned, ${SPENT} AS spent FROM budget_entries WHERE campaign_id = ? GROUP BY category ORDER BY category`)
      .all(campaignId) as { category: string; planned: number; spent: number }[];
    return { campaignId, currency: totals.currency, planned: totals.planned, spent: totals.spent, remaining: totals.remaining, byCategory };
  }

  private read(id: number): BudgetEntry | undefined {
    const row = this.db.prepare('SELECT * FROM budget_entries WHERE id = ?').get(id) as Row | undefined;
    return row && toEntry(row);
  }

  private otherCurrencyUsed(campaignId: number, currency: string, exceptId = 0): boolean {
    return (
      this.db.prepare('SELECT 1 FROM budget_entries WHERE campaign_id = ? AND currency <> ? AND id <> ? LIMIT 1').get(campaignId, currency, exceptId) !==
      undefined
    );
  }
}
