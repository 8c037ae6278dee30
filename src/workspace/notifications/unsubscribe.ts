import { createHmac, timingSafeEqual } from 'node:crypto';
import { NOTIFICATION_KINDS, type NotificationKind } from '../domain';

/** What one unsubscribe link stops: mail at once of one kind, or the daily digest. */
export type UnsubscribeScope = NotificationKind | 'digest';

export const UNSUBSCRIBE_SCOPES: readonly UnsubscribeScope[] = [...NOTIFICATION_KINDS, 'digest'];

/** `<member id>.<scope>.<signature>`: the shape is checked before any signature is. */
export const UNSUBSCRIBE_TOKEN_PATTERN = new RegExp(`^[1-9]\\d{0,15}\\.(${UNSUBSCRIBE_SCOPES.join('|')})\\.[A-Za-z0-9_-]{43}$`);

/** Whom a link speaks for, once its signature holds. */
export interface UnsubscribeRequest {
  userId: number;
  scope: UnsubscribeScope;
}

/**
 * The signed links of RFC 8058 one-click unsubscribe. A mail program posts to the link with
 * no cookie, so the link itself must prove whose mail it stops: it carries the member's id and
 * what it stops, signed with a key of its own derived from the session secret. Nothing is
 * stored; the member's token key, which is theirs alone for good, is signed in too, so a link
 * never comes to speak for anyone else.
 */
export class UnsubscribeLinks {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('mail-unsubscribe').digest();
  }

  token(member: { id: number; tokenKey: string }, scope: UnsubscribeScope): string {
    return `${member.id}.${scope}.${this.sign(member.id, scope, member.tokenKey)}`;
  }

  /** Who a well-shaped token names and what it stops, before its signature is checked. */
  read(token: string): UnsubscribeRequest | undefined {
    if (!UNSUBSCRIBE_TOKEN_PATTERN.test(token)) return undefined;
    const [id, scope] = token.split('.');
    return { userId: Number(id), scope: scope as UnsubscribeScope };
  }

  /** Whether the token was made for this member (as they are now) and what it says it stops. */
  verify(token: string, member: { id: number; tokenKey: string }): boolean {
    const request = this.read(token);
    if (!request || request.userId !== member.id) return false;
    const given = Buffer.from(token.slice(token.lastIndexOf('.') + 1));
    const expected = Buffer.from(this.sign(member.id, request.scope, member.tokenKey));
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private sign(userId: number, scope: UnsubscribeScope, tokenKey: string): string {
    return createHmac('sha256', this.key).update(`${userId}.${scope}.${tokenKey}`).digest('base64url');
  }
}
