import { BadRequest } from '../../platform/errors';
import { daysInOrder } from '../schemas';

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** A changed value when the change names it (null included), else the stored one. */
export function pick<T>(changed: T | undefined, stored: T): T {
  return changed === undefined ? stored : changed;
}

export function assertDaysInOrder(startDate: string | null, endDate: string | null): void {
  if (!daysInOrder(startDate, endDate)) throw new BadRequest('endDate must not be before startDate', 'INVALID_DATE_RANGE');
}
