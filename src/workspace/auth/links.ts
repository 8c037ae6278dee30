import { createHash, randomBytes } from 'node:crypto';
import type { LinkPurpose } from '../domain';
import type { WorkspaceDb, WorkspaceRecords } from '../records';
import { isoTime } from '../shared/values';

/** 32 random bytes, written for a URL: what a link carries, and what only its recipient holds. */
export function newLinkToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a token: enough to recognise it, nothing to rebuild it from. */
export function digestOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A link's token as typed in an address: 43 characters of base64url. */
export const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Single-use links: an invitation, a password reset. Each member has at most one live link per purpose. */
export class SqlLinkTokens {
  constructor(private readonly records: WorkspaceRecords) {}

  /** A new link for the member, which ends any earlier one of the same purpose; the token, to send. */
  async issue(userId: number, purpose: LinkPurpose, now: number, ttlMs: number): Promise<string> {
    const token = newLinkToken();
    await this.records.db.transaction().execute(async (trx) => {
      await retire(trx, userId, purpose);
      await trx
        .insertInto('link_tokens')
        .values({ user_id: userId, purpose, token_hash: digestOf(token), expires_at: isoTime(now + ttlMs), created_at: isoTime(now), used_at: null })
        .execute();
    });
    return token;
  }

  /** The member a live link of `purpose` opens, without using it up. */
  async peek(token: string, purpose: LinkPurpose, now: number): Promise<number | undefined> {
    const row = await this.records.db
      .selectFrom('link_tokens')
      .select('user_id')
      .where('token_hash', '=', digestOf(token))
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', isoTime(now))
      .executeTakeFirst();
    return row?.user_id;
  }

  /** Ends the member's live links of `purpose` (a replaced invitation), with `db` when it is the transaction of that change. */
  async retire(userId: number, purpose: LinkPurpose, db: WorkspaceDb = this.records.db): Promise<void> {
    await retire(db, userId, purpose);
  }
}

async function retire(db: WorkspaceDb, userId: number, purpose: LinkPurpose): Promise<void> {
  await db.deleteFrom('link_tokens').where('user_id', '=', userId).where('purpose', '=', purpose).where('used_at', 'is', null).execute();
}

/**
 * Uses a live link up inside `db`'s transaction and answers its member; undefined when the
 * link is unknown, used, expired or of another purpose. Two requests with one link: the
 * second finds it used.
 */
export async function useLinkToken(db: WorkspaceDb, token: string, purpose: LinkPurpose, now: number): Promise<number | undefined> {
  const row = await db
    .updateTable('link_tokens')
    .set({ used_at: isoTime(now) })
    .where('token_hash', '=', digestOf(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', isoTime(now))
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}
