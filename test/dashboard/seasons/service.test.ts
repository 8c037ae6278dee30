import { describe, expect, it } from 'vitest';
import { KyselyAuditRepository } from '../../../src/dashboard/audit/repository';
import { AuditTrail } from '../../../src/dashboard/audit/service';
import { SqlSeasonRepository } from '../../../src/dashboard/seasons/repository';
import { SeasonsService } from '../../../src/dashboard/seasons/service';
import { ManualClock } from '../../../src/platform/clock';
import { BadRequest, NotFound } from '../../../src/platform/errors';
import { createLogger } from '../../../src/platform/logger';
import { testEngine } from '../../support/app';
import { testRecords } from '../../support/records';

const ADMIN = { actor: 'Admin', ip: '192.0.2.7' };

/** On the engine of the project that runs it: SQLite, then PostgreSQL in the route suites' second run. */
async function seasonsService() {
  const db = (await testRecords(testEngine())).dashboard;
  const audit = new KyselyAuditRepository(db);
  const seasons = new SeasonsService({ seasons: new SqlSeasonRepository(db), trail: new AuditTrail({ audit, clock: new ManualClock(), logger: createLogger('silent') }) });
  const trail = () => audit.list({ limit: 10 });
  return { seasons, trail };
}

describe('SeasonsService and the audit trail', () => {
  it('when a season is changed through the service, then the trail holds who changed it, from where, and the season before and after', async () => {
    const { seasons, trail } = await seasonsService();
    const summer = await seasons.create(ADMIN, { name: 'Summer', startDate: '2025-06-01', endDate: '2025-08-31' });
    const changed = await seasons.update({ actor: 'Noura', ip: '198.51.100.4' }, summer.id, { name: 'High summer', endDate: '2025-08-15' });
    const [event] = await trail();
    expect(event).toMatchObject({
      actor: 'Noura',
      ip: '198.51.100.4',
      action: 'seasonChanged',
      target: `season:${summer.id}`,
      targetName: 'High summer',
      before: { id: summer.id, name: 'Summer', startDate: '2025-06-01', endDate: '2025-08-31' },
      after: changed,
    });
  });

  it('when a season is created and deleted, then each is recorded with the season it made or removed', async () => {
    const { seasons, trail } = await seasonsService();
    const winter = await seasons.create(ADMIN, { name: 'Winter', startDate: '2025-12-01', endDate: '2026-02-28' });
    await seasons.remove(ADMIN, winter.id);
    const [deleted, created] = await trail();
    expect(created).toMatchObject({ action: 'seasonCreated', target: `season:${winter.id}`, after: winter });
    expect(deleted).toMatchObject({ action: 'seasonDeleted', target: `season:${winter.id}`, targetName: 'Winter', before: winter });
    expect(deleted.after).toBeUndefined();
  });

  it('when a change is refused (unknown season, end before start), then nothing is recorded and the season is unchanged', async () => {
    const { seasons, trail } = await seasonsService();
    const spring = await seasons.create(ADMIN, { name: 'Spring', startDate: '2025-03-01', endDate: '2025-05-31' });
    await expect(seasons.update(ADMIN, spring.id + 1000, { name: 'Nowhere' })).rejects.toThrow(NotFound);
    await expect(seasons.update(ADMIN, spring.id, { endDate: '2025-02-01' })).rejects.toThrow(BadRequest);
    await expect(seasons.remove(ADMIN, spring.id + 1000)).rejects.toThrow(NotFound);
    expect((await trail()).map((e) => e.action)).toEqual(['seasonCreated']);
    expect(await seasons.list()).toEqual([spring]);
  });
});
