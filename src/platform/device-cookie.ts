import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CookieOptions, Request, Response } from 'express';
import type { Clock } from './clock';
import { cookieOf } from './cookies';

/** How long a browser stays known after its last successful sign-in. */
export const DEVICE_COOKIE_MAX_AGE_MS = 180 * 24 * 60 * 60 * 1000;

const ACCOUNT = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * OWASP's device cookies: a browser that signed in successfully to an account carries a
 * signed note of it, so that the limits meant for strangers (a global budget, a per-account
 * limit) need not lock the account's owner out, and an attacker without the cookie gains
 * nothing from them. The cookie names the account and proves nothing else: it is never a
 * sign-in.
 */
export class DeviceCookies {
  private readonly key: Buffer;
  private readonly options: CookieOptions;

  constructor(
    private readonly opts: { name: string; path: string; secret: string; secure: boolean; clock: Clock },
  ) {
    // A key of its own, so that a device cookie can never pass for anything else signed with the secret.
    this.key = createHmac('sha256', opts.secret).update(`device-cookie:${opts.name}`).digest();
    this.options = { httpOnly: true, sameSite: 'lax', secure: opts.secure, path: opts.path, maxAge: DEVICE_COOKIE_MAX_AGE_MS };
  }

  /** Marks this browser as known for `account` (letters, digits, `_` and `-`). */
  issue(res: Response, account: string): void {
    if (!ACCOUNT.test(account)) throw new Error('A device cookie account is letters, digits, _ and - only');
    const issuedAt = String(Math.floor(this.opts.clock.now() / 1000));
    const nonce = randomBytes(12).toString('base64url');
    const body = `${account}.${issuedAt}.${nonce}`;
    res.cookie(this.opts.name, `${body}.${this.sign(body)}`, this.options);
  }

  /** The account of the request's device cookie when its signature holds and it has not expired. */
  account(req: Request): string | undefined {
    const value = cookieOf(req, this.opts.name);
    if (value === undefined || value.length > 300) return undefined;
    const parts = value.split('.');
    if (parts.length !== 4) return undefined;
    const [account, issuedAt, nonce, mac] = parts;
    const expected = Buffer.from(this.sign(`${account}.${issuedAt}.${nonce}`));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const age = this.opts.clock.now() - Number(issuedAt) * 1000;
    if (!Number.isFinite(age) || age > DEVICE_COOKIE_MAX_AGE_MS || age < -60_000) return undefined;
    return account;
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
