import { hash, randomInt, timingSafeEqual } from 'node:crypto';

/** New and changed PINs have at least this many digits; shorter older ones still sign in. */
export const PIN_MIN_DIGITS = 6;
export const PIN_MAX_DIGITS = 12;
/** PINs that Settings makes: each digit more makes guessing ten times harder. */
export const GENERATED_PIN_DIGITS = 8;

/** A fixed-length digest of a PIN, so that PINs of any length compare in constant time. */
export function pinDigest(pin: string): Buffer {
  return hash('sha256', pin, 'buffer');
}

/** Compares two PINs in time that depends on neither their content nor their length. */
export function pinsEqual(a: string, b: string): boolean {
  return timingSafeEqual(pinDigest(a), pinDigest(b));
}

export function isWeakPin(pin: string): boolean {
  return pin.length < PIN_MIN_DIGITS;
}

/** A random PIN of `digits` digits, leading zeros included. */
export function randomPin(digits: number = GENERATED_PIN_DIGITS): string {
  let pin = '';
  for (let i = 0; i < digits; i += 1) pin += String(randomInt(10));
  return pin;
}
