import type { Db } from '../../platform/sqlite';
import { assignments, scopedWhere } from '../sql';
import type { CampaignStatus } from '../domain';

export interface Campaign {
  id: number;
  brandId: number;
  name: string;
  description: string | null;
  startDate: string | null;
  endDate: string | null;
  status: CampaignStatus;
  ownerId: number | null;
  createdAt: string;
  updatedAt: string;
}

export type NewCampaign = Omit<Campaign, 'id' | 'updatedAt'>;
export type CampaignPatch = Partial<Pick<Campaign, 'name' | 'description' | 'startDate' | 'endDate' | 'status'>> & { updatedAt: string };

export interface Track {
  id: number;
  campaignId: number;
  /** The campaign's brand, which decides who sees the track. */
  brandId: number;
  name: string;
  channel: string | null;
  startDate: string | null;
  endDate: string | null;
  goal: string | null;
  createdAt: string;
  updatedAt: string;
}

export type NewTrack = Omit<Track, 'id' | 'brandId' | 'updatedAt'>;
export type TrackPatch = Partial<Pick<Track, 'name' | 'channel' | 'startDate' | 'endDate' | 'goal'>> & { updatedAt: string };

export interface CampaignFilter {
  /** Only these brands (undefined: every brand). */
  brandIds: number[] | undefined;
  status?: CampaignStatus;
}

export interface CampaignRepository {
  list(filter: CampaignFilter): Promise<Campaign[]>;
  get(id: number): Promise<Campaign | undefined>;
  create(input: NewCampaign): Promise<Campaign>;
  update(id: number, patch: CampaignPatch): Promise<Campaign | undefined>;
  /** Deletes the campaign, its posts and its tracks in one transaction; the counts of each. */
  deleteWithContent(id: number): Promise<{ posts: number; tracks: number } | undefined>;
  listTracks(campaignId: number): Promise<Track[]>;
  getTrack(id: number): Promise<Track | undefined>;
  createTrack(input: NewTrack): Promise<Track>;
  updateTrack(id: number, patch: TrackPatch): Promise<Track | undefined>;
  deleteTrack(id: number): Promise<boolean>;
}

interface CampaignRow {
  id: number;
  brand_id: number;
  name: string;
  description: string | null;
  start_date: string | null;
  end_date: string | null;
  status: CampaignStatus;
  owner_id: number | null;
  created_at: string;
  updated_at: string;
}

interface TrackRow {
  id: number;
  campaign_id: number;
  brand_id: number;
  name: string;
  channel: string | null;
  start_date: string | null;
  end_date: string | null;
  goal: string | null;
  created_at: string;
  updated_at: string;
}

const toCampaign = (r: CampaignRow): Campaign => ({
  id: r.id,
  brandId: r.brand_id,
  name: r.name,
  description: r.description,
  startDate: r.start_date,
  endDate: r.end_date,
  status: r.status,
  ownerId: r.owner_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toTrack = (r: TrackRow): Track => ({
  id: r.id,
  campaignId: r.campaign_id,
  brandId: r.brand_id,
  name: r.name,
  channel: r.channel,
  startDate: r.start_date,
  endDate: r.end_date,
  goal: r.goal,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const CAMPAIGN_COLUMNS = {
  name: 'name',
  description: 'description',
  startDate: 'start_date',
  endDate: 'end_date',
  status: 'status',
  updatedAt: 'updated_at',
} as const;

const TRACK_COLUMNS = {
  name: 'name',
  channel: 'channel',
  startDate: 'start_date',
  endDate: 'end_date',
  goal: 'goal',
  updatedAt: 'updated_at',
} as const;

const TRACK_SELECT = 'SELECT t.*, c.brand_id FROM tracks t JOIN campaigns c ON c.id = t.campaign_id';

export class SqliteCampaignRepository implements CampaignRepository {
  constructor(private readonly db: Db) {}

  async list(filter: CampaignFilter) {
    const where = scopedWhere('brand_id', filter.brandIds, { status: filter.status });
    if (!where) return [];
    const rows = this.db.prepare(`SELECT * FROM campaigns ${where.sql} ORDER BY created_at DESC, id DESC`).all(...where.values) as CampaignRow[];
    return rows.map(toCampaign);
  }

  async get(id: number) {
    return this.readCampaign(id);
  }

  async create(c: NewCampaign) {
    const row = this.db
      .prepare(
        `INSERT INTO campaigns (brand_id, name, description, start_date, end_date, status, owner_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      )
      .get(c.brandId, c.name, c.description, c.startDate, c.endDate, c.status, c.ownerId, c.createdAt, c.createdAt) as CampaignRow;
    return toCampaign(row);
  }

  async update(id: number, patch: CampaignPatch) {
    const set = assignments(patch, CAMPAIGN_COLUMNS);
    const row = this.db.prepare(`UPDATE campaigns SET ${set.sql} WHERE id = ? RETURNING *`).get(...set.values, id) as CampaignRow | undefined;
    return row && toCampaign(row);
  }

  async deleteWithContent(id: number) {
    return this.db.transaction(() => {
      if (!this.readCampaign(id)) return undefined;
      const posts = this.db.prepare('DELETE FROM posts WHERE campaign_id = ?').run(id).changes;
      const tracks = this.db.prepare('DELETE FROM tracks WHERE campaign_id = ?').run(id).changes;
      this.db.prepare('DELETE FROM campaigns WHERE id = ?').run(id);
      return { posts, tracks };
    })();
  }

  async listTracks(campaignId: number) {
    return (this.db.prepare(`${TRACK_SELECT} WHERE t.campaign_id = ? ORDER BY t.start_date IS NULL, t.start_date, t.id`).all(campaignId) as TrackRow[]).map(
      toTrack,
    );
  }

  async getTrack(id: number) {
    return this.readTrack(id);
  }

  async createTrack(t: NewTrack) {
    const { id } = this.db
      .prepare(
        `INSERT INTO tracks (campaign_id, name, channel, start_date, end_date, goal, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      )
      .get(t.campaignId, t.name, t.channel, t.startDate, t.endDate, t.goal, t.createdAt, t.createdAt) as { id: number };
    return this.readTrack(id)!;
  }

  async updateTrack(id: number, patch: TrackPatch) {
    const set = assignments(patch, TRACK_COLUMNS);
    this.db.prepare(`UPDATE tracks SET ${set.sql} WHERE id = ?`).run(...set.values, id);
    return this.readTrack(id);
  }

  async deleteTrack(id: number) {
    return this.db.prepare('DELETE FROM tracks WHERE id = ?').run(id).changes > 0;
  }

  private readCampaign(id: number): Campaign | undefined {
    const row = this.db.prepare('SELECT * FROM campaigns WHERE id = ?').get(id) as CampaignRow | undefined;
    return row && toCampaign(row);
  }

  private readTrack(id: number): Track | undefined {
    const row = this.db.prepare(`${TRACK_SELECT} WHERE t.id = ?`).get(id) as TrackRow | undefined;
    return row && toTrack(row);
  }
}
