import { sql, type Selectable, type Updateable } from 'kysely';
import { readBack } from '../../platform/db/engine';
import type { WorkspaceDb, WorkspaceRecords } from '../records';
import type { WorkspaceTables } from '../tables';
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
  /** Deletes the campaign, its posts and its tracks in one transaction: how many posts and tracks went, and which posts. */
  deleteWithContent(id: number): Promise<{ posts: number; tracks: number; postIds: number[] } | undefined>;
  /** The ids of the campaign's posts (each carries the campaign's name). */
  postIds(campaignId: number): Promise<number[]>;
  listTracks(campaignId: number): Promise<Track[]>;
  getTrack(id: number): Promise<Track | undefined>;
  createTrack(input: NewTrack): Promise<Track>;
  updateTrack(id: number, patch: TrackPatch): Promise<Track | undefined>;
  deleteTrack(id: number): Promise<boolean>;
}

type CampaignRow = Selectable<WorkspaceTables['campaigns']>;

/** A track as selectTracks reads it: its row and its campaign's brand. */
type TrackRow = Selectable<WorkspaceTables['tracks']> & { brand_id: number };

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

/** The columns a campaign patch sets; what it leaves undefined is not written. */
function campaignChange(patch: CampaignPatch): Updateable<WorkspaceTables['campaigns']> {
  return {
    name: patch.name,
    description: patch.description,
    start_date: patch.startDate,
    end_date: patch.endDate,
    status: patch.status,
    updated_at: patch.updatedAt,
  };
}

/** The columns a track patch sets; what it leaves undefined is not written. */
function trackChange(patch: TrackPatch): Updateable<WorkspaceTables['tracks']> {
  return {
    name: patch.name,
    channel: patch.channel,
    start_date: patch.startDate,
    end_date: patch.endDate,
    goal: patch.goal,
    updated_at: patch.updatedAt,
  };
}

export class SqlCampaignRepository implements CampaignRepository {
  constructor(private readonly records: WorkspaceRecords) {}

  async list(filter: CampaignFilter) {
    if (filter.brandIds !== undefined && filter.brandIds.length === 0) return [];
    const rows = await this.records.db
      .selectFrom('campaigns')
      .selectAll()
      .$call((q) => (filter.brandIds === undefined ? q : q.where('brand_id', 'in', filter.brandIds)))
      .$call((q) => (filter.status === undefined ? q : q.where('status', '=', filter.status)))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toCampaign);
  }

  async get(id: number) {
    return readCampaign(this.records.db, id);
  }

  async create(c: NewCampaign) {
    const row = await this.records.db
      .insertInto('campaigns')
      .values({
        brand_id: c.brandId,
        name: c.name,
        description: c.description,
        start_date: c.startDate,
        end_date: c.endDate,
        status: c.status,
        owner_id: c.ownerId,
        created_at: c.createdAt,
        updated_at: c.createdAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toCampaign(row);
  }

  async update(id: number, patch: CampaignPatch) {
    const row = await this.records.db.updateTable('campaigns').set(campaignChange(patch)).where('id', '=', id).returningAll().executeTakeFirst();
    return row && toCampaign(row);
  }

  async deleteWithContent(id: number) {
    return this.records.db.transaction().execute(async (trx) => {
      // Held to the end: a second deletion at the same moment then finds nothing, instead of
      // reporting the campaign deleted again with none of its content.
      const held = await trx
        .selectFrom('campaigns')
        .select('id')
        .where('id', '=', id)
        .$if(this.records.engine.locksRows, (q) => q.forUpdate())
        .executeTakeFirst();
      if (!held) return undefined;
      const posts = await trx.deleteFrom('posts').where('campaign_id', '=', id).returning('id').execute();
      const tracks = await trx.deleteFrom('tracks').where('campaign_id', '=', id).executeTakeFirst();
      await trx.deleteFrom('campaigns').where('id', '=', id).execute();
      return { posts: posts.length, tracks: Number(tracks.numDeletedRows), postIds: posts.map((p) => p.id) };
    });
  }

  async postIds(campaignId: number) {
    const rows = await this.records.db.selectFrom('posts').select('id').where('campaign_id', '=', campaignId).execute();
    return rows.map((r) => r.id);
  }

  async listTracks(campaignId: number) {
    const rows = await selectTracks(this.records.db)
      .where('t.campaign_id', '=', campaignId)
      .orderBy(sql`t.start_date IS NULL`)
      .orderBy('t.start_date')
      .orderBy('t.id')
      .execute();
    return rows.map(toTrack);
  }

  async getTrack(id: number) {
    return readTrack(this.records.db, id);
  }

  async createTrack(t: NewTrack) {
    const { id } = await this.records.db
      .insertInto('tracks')
      .values({
        campaign_id: t.campaignId,
        name: t.name,
        channel: t.channel,
        start_date: t.startDate,
        end_date: t.endDate,
        goal: t.goal,
        created_at: t.createdAt,
        updated_at: t.createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return readBack(await readTrack(this.records.db, id), `Track ${id}`);
  }

  async updateTrack(id: number, patch: TrackPatch) {
    await this.records.db.updateTable('tracks').set(trackChange(patch)).where('id', '=', id).execute();
    return readTrack(this.records.db, id);
  }

  async deleteTrack(id: number) {
    const result = await this.records.db.deleteFrom('tracks').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

async function readCampaign(db: WorkspaceDb, id: number): Promise<Campaign | undefined> {
  const row = await db.selectFrom('campaigns').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toCampaign(row);
}

const selectTracks = (db: WorkspaceDb) => db.selectFrom('tracks as t').innerJoin('campaigns as c', 'c.id', 't.campaign_id').selectAll('t').select('c.brand_id');

async function readTrack(db: WorkspaceDb, id: number): Promise<Track | undefined> {
  const row = await selectTracks(db).where('t.id', '=', id).executeTakeFirst();
  return row && toTrack(row);
}
