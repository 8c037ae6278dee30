import { randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';

export const BCRYPT_ROUNDS = 10;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_ROUNDS);
}

/**
 * The hash of a password nobody holds, for a member invited by mail until they choose one:
 * a real bcrypt hash, so signing in with it is refused after the same work as any wrong password.
 */
export function unusablePasswordHash(): Promise<string> {
  return hashPassword(randomBytes(32).toString('base64url'));
}

let dummy: Promise<string> | undefined;

/**
 * Compares against the stored hash, or against a throwaway hash of the same cost when
 * there is none, so that a sign-in takes as long for an unknown email as for a known one.
 */
export async function verifyPassword(password: string, hash: string | undefined): Promise<boolean> {
  dummy ??= bcrypt.hash(randomBytes(16).toString('hex'), BCRYPT_ROUNDS);
  const ok = await bcrypt.compare(password, hash ?? (await dummy));
  return ok && hash !== undefined;
}
