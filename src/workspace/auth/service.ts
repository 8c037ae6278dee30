import { createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import jwt, { type JwtPayload } from 'jsonwebtoken';
import type { Clock } from '../../platform/clock';
import { BadRequest, Gone, Unauthorized } from '../../platform/errors';
import type { Language } from '../domain';
import type { UserRepository } from '../members/repository';
import { hashPassword, verifyPassword } from '../members/passwords';
import type { SessionRevoker } from '../members/service';
import type { MailQueue } from '../mail/queue';
import { useLinkToken, type SqlLinkTokens } from './links';
import { isoTime } from '../shared/values';
import type { UserRecord } from '../shared/member';

/** Tokens and cookie sessions both last seven days. */
export const SIGN_IN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** A password reset link works once, within an hour of being sent. */
export const RESET_LINK_TTL_MS = 60 * 60 * 1000;

const resetLinkGone = () => new Gone('This link to choose a new password was used, has expired or was replaced by a newer one', 'RESET_LINK_INVALID');

const invitationGone = () => new Gone('This invitation was used, has expired, was replaced by a newer one or was withdrawn', 'INVITATION_INVALID');

export interface ProfileChange {
  name?: string;
  avatar?: string | null;
  jobTitle?: string | null;
  phone?: string | null;
  language?: Language;
  timeZone?: string;
}

export interface SignedIn {
  user: UserRecord;
  token: string;
}

interface TokenClaims {
  userId: number;
  /** The member's token key: an id alone could come to name a later member. */
  key: string;
  version: number;
  /** In seconds, as the `exp` claim. */
  expiresAt: number;
}

/** About 3 MB at most: each entry is a token of some 200 characters and its claims. */
const VERIFIED_TOKENS_KEPT = 10_000;

function keysEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class AuthService {
  /**
   * Given a plain string, jsonwebtoken first tries to read it as a PEM public key on every
   * call, and that failed parse cost more than the rest of a signed-in request.
   */
  private readonly jwtKey: KeyObject;
  /**
   * Tokens whose signature and claims were already checked, oldest first. A token's claims
   * never change, so checking it again on every request (which cost about as much as the
   * rest of a signed-in read) told nothing new; expiry and the user's token version are
   * still checked every time.
   */
  private readonly verified = new Map<string, TokenClaims>();

  constructor(
    private readonly deps: { users: UserRepository; sessions: SessionRevoker; clock: Clock; jwtSecret: string; links: SqlLinkTokens; mail: MailQueue },
  ) {
    this.jwtKey = createSecretKey(Buffer.from(deps.jwtSecret));
  }

  /** undefined for an unknown email or a wrong password, after the same bcrypt work. */
  async login(email: string, password: string): Promise<SignedIn | undefined> {
    const credentials = await this.deps.users.credentialsByEmail(email);
    const verified = await verifyPassword(password, credentials?.passwordHash);
    if (!verified || credentials === undefined) return undefined;
    const user = await this.deps.users.get(credentials.id);
    return user && { user, token: this.issueToken(user) };
  }

  /** The token key of the account with this email, which its browsers' device cookies name. */
  async accountKey(email: string): Promise<string | undefined> {
    return (await this.deps.users.credentialsByEmail(email))?.tokenKey;
  }

  /** HS256, seven days, claims sub (the id as text), key (the token key), role, ver (token version) and iat. */
  issueToken(user: UserRecord): string {
    const iat = Math.floor(this.deps.clock.now() / 1000);
    return jwt.sign({ sub: String(user.id), key: user.tokenKey, role: user.role, ver: user.tokenVersion, iat }, this.jwtKey, {
      algorithm: 'HS256',
      expiresIn: SIGN_IN_TTL_MS / 1000,
    });
  }

  /**
   * The user a bearer token speaks for, or undefined when it is forged, expired, signed
   * with another algorithm, older than the user's last password change or logout, or the
   * user is gone (even when a later user holds the same id).
   */
  async userFromToken(token: string): Promise<UserRecord | undefined> {
    const now = Math.floor(this.deps.clock.now() / 1000);
    const claims = this.verified.get(token) ?? this.verify(token, now);
    if (!claims || claims.expiresAt <= now) return undefined;
    const user = await this.userById(claims.userId, claims.key);
    return user && user.tokenVersion === claims.version ? user : undefined;
  }

  /** Checks the signature and the claims once, and remembers a good token until it expires. */
  private verify(token: string, now: number): TokenClaims | undefined {
    let claims: string | JwtPayload;
    try {
      claims = jwt.verify(token, this.jwtKey, { algorithms: ['HS256'], clockTimestamp: now });
    } catch {
      return undefined;
    }
    if (typeof claims !== 'object' || typeof claims.sub !== 'string' || !/^[1-9]\d{0,15}$/.test(claims.sub)) return undefined;
    if (typeof claims.ver !== 'number' || typeof claims.exp !== 'number' || typeof claims.key !== 'string') return undefined;
    const verified = { userId: Number(claims.sub), key: claims.key, version: claims.ver, expiresAt: claims.exp };
    if (this.verified.size >= VERIFIED_TOKENS_KEPT) {
      const [oldest] = this.verified.keys();
      this.verified.delete(oldest);
    }
    this.verified.set(token, verified);
    return verified;
  }

  /** The user with this id and token key: both, since the key alone names one member for good. */
  async userById(id: number, key: string): Promise<UserRecord | undefined> {
    const user = await this.deps.users.get(id);
    return user && keysEqual(user.tokenKey, key) ? user : undefined;
  }

  /** The profile counts as complete once both a name and a job title are set. */
  async updateProfile(user: UserRecord, change: ProfileChange): Promise<UserRecord> {
    const name = change.name ?? user.name;
    const jobTitle = change.jobTitle === undefined ? user.jobTitle : change.jobTitle;
    const complete = name !== '' && jobTitle !== null;
    const profileCompletedAt = complete ? (user.profileCompletedAt ?? isoTime(this.deps.clock.now())) : null;
    return this.save(user.id, { ...change, profileCompletedAt });
  }

  async setOnboarding(user: UserRecord, completed: boolean): Promise<UserRecord> {
    return this.save(user.id, { onboardingCompletedAt: completed ? (user.onboardingCompletedAt ?? isoTime(this.deps.clock.now())) : null });
  }

  /**
   * Replaces the password, which ends every older token and every other cookie session
   * (`keepSid` is the session that asked, when it came by cookie).
   */
  async changePassword(user: UserRecord, current: string, next: string, keepSid: string | undefined): Promise<SignedIn | 'wrong-password'> {
    if (!(await verifyPassword(current, await this.deps.users.passwordHash(user.id)))) return 'wrong-password';
    if (current === next) throw new BadRequest('The new password must differ from the current one', 'SAME_PASSWORD');
    const now = this.deps.clock.now();
    const updated = await this.deps.users.setPassword(
      user.id,
      { passwordHash: await hashPassword(next), mustChangePassword: false },
      { mails: [this.deps.mail.mail('password_changed', user, { at: isoTime(now) })], now },
    );
    await this.deps.sessions.endUserSessions(user.id, keepSid);
    const signedIn = typeof updated === 'object' ? updated : user;
    return { user: signedIn, token: this.issueToken(signedIn) };
  }

  /**
   * Mails a link to choose a new password when the address is a member's. The caller answers
   * the same whether or not it is, so the answer tells nobody who has an account.
   */
  async requestPasswordReset(email: string): Promise<void> {
    const credentials = await this.deps.users.credentialsByEmail(email);
    const user = credentials && (await this.deps.users.get(credentials.id));
    if (user) await this.deps.mail.send([this.deps.mail.mail('password_reset', user)]);
  }

  /** Whether a reset link still works (the page says so before the member types a password). */
  async resetLinkWorks(token: string): Promise<boolean> {
    return (await this.deps.links.peek(token, 'password_reset', this.deps.clock.now())) !== undefined;
  }

  /**
   * Sets the password a reset link was sent for and uses the link up, in one transaction with
   * the mail saying so; every token and cookie session of the member ends. 410 when the link
   * no longer works (two requests with one link: the second finds it used).
   */
  async resetPassword(token: string, next: string): Promise<void> {
    const now = this.deps.clock.now();
    const userId = await this.deps.links.peek(token, 'password_reset', now);
    const user = userId === undefined ? undefined : await this.deps.users.get(userId);
    if (!user) throw resetLinkGone();
    const updated = await this.deps.users.setPassword(
      user.id,
      { passwordHash: await hashPassword(next), mustChangePassword: false },
      {
        claim: async (db) => (await useLinkToken(db, token, 'password_reset', now)) === user.id,
        mails: [this.deps.mail.mail('password_changed', user, { at: isoTime(now) })],
        now,
      },
    );
    if (typeof updated !== 'object') throw resetLinkGone();
    await this.deps.sessions.endUserSessions(user.id, undefined);
  }

  /** The member a live invitation link is for, while still invited (the page greets them before they choose a password). */
  async invitationFor(token: string): Promise<UserRecord | undefined> {
    const userId = await this.deps.links.peek(token, 'invitation', this.deps.clock.now());
    const user = userId === undefined ? undefined : await this.deps.users.get(userId);
    return user?.invitedAt === null ? undefined : user;
  }

  /**
   * An invited member's own first password: the link is used up, the password set and the
   * invitation ended in one transaction, and they are signed in. 410 when the link no longer
   * works (two requests with one link: the second finds it used).
   */
  async acceptInvitation(token: string, password: string): Promise<SignedIn> {
    const now = this.deps.clock.now();
    const user = await this.invitationFor(token);
    if (!user) throw invitationGone();
    const accepted = await this.deps.users.acceptInvitation(user.id, await hashPassword(password), async (db) => (await useLinkToken(db, token, 'invitation', now)) === user.id);
    if (accepted === 'refused') throw invitationGone();
    return { user: accepted, token: this.issueToken(accepted) };
  }

  /** Signing out retires every token issued so far, and `sid`, the cookie session signed out of, when there is one. */
  async logout(user: UserRecord, sid?: string): Promise<void> {
    await this.deps.users.bumpTokenVersion(user.id);
    if (sid !== undefined) await this.deps.sessions.sessionEnded?.(user.id, sid);
  }

  private async save(id: number, patch: Parameters<UserRepository['update']>[1]): Promise<UserRecord> {
    const updated = await this.deps.users.update(id, patch);
    // Profile changes touch neither email nor role, so the only refusal left is a deleted account.
    if (typeof updated !== 'object') throw new Unauthorized('This account no longer exists');
    return updated;
  }
}
