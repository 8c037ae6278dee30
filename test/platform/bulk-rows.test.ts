import { expect, it } from 'vitest';
import { SqlVisitRepository } from '../../src/dashboard/visits/repository';
import type { VisitRow } from '../../src/dashboard/domain';
import { describeEngines, testRecords } from '../support/records';

const visit = (date: string, museum: string, visitors: number, more: Partial<VisitRow> = {}): VisitRow => ({ date, museum, channel: 'Online', district: 'North', visitors, revenue: visitors * 2.5, ...more });

async function scanned(visits: SqlVisitRepository, batchSize?: number) {
  const batches: VisitRow[][] = [];
  await visits.scan((rows) => batches.push(rows), batchSize);
  return batches;
}

describeEngines('bulk rows (staging, moving, reading)', (kind) => {
  it('when rows are staged in batches that repeat keys, then the move keeps the last of each, replaces stored rows and counts once each', async () => {
    const visits = new SqlVisitRepository((await testRecords(kind)).dashboard);
    await visits.upsert([visit('2026-01-01', 'A', 1), visit('2026-01-02', 'A', 2)]);
    const version = await visits.version();
    await visits.clearStaging();
    await visits.stage([visit('2026-01-02', 'A', 20), visit('2026-01-03', 'A', 30), visit('2026-01-03', 'A', 31)]);
    await visits.stage([visit('2026-01-03', 'A', 32), visit('2026-01-04', 'A', 40)]);
    expect(await visits.commitStaged()).toBe(3);
    expect((await scanned(visits)).flat().map((r) => [r.date, r.visitors])).toEqual([
      ['2026-01-01', 1],
      ['2026-01-02', 20],
      ['2026-01-03', 32],
      ['2026-01-04', 40],
    ]);
    expect(await visits.version()).toBe(version + 1);
    // The staging area is empty again: a second move brings nothing.
    expect(await visits.commitStaged()).toBe(0);
  });

  it('when rows are read back, then in key order, in batches of the size asked, with numbers as numbers and text as written', async () => {
    const visits = new SqlVisitRepository((await testRecords(kind)).dashboard);
    const awkward = 'Tab\there, line\nbreak, back\\slash, \\N, متحف 🏛️';
    await visits.upsert([visit('2026-02-01', 'B', 3, { revenue: 12.75 }), visit('2026-01-01', awkward, 1), visit('2026-01-01', 'A', 2), visit('2026-03-01', 'C', 0, { revenue: 0.1 })]);
    const batches = await scanned(visits, 2);
    expect(batches.map((b) => b.length)).toEqual([2, 2]);
    expect(batches.flat()).toEqual([
      visit('2026-01-01', 'A', 2),
      visit('2026-01-01', awkward, 1),
      visit('2026-02-01', 'B', 3, { revenue: 12.75 }),
      visit('2026-03-01', 'C', 0, { revenue: 0.1 }),
    ]);
  });

  it('when a move fails, then nothing of it is kept and the version stays', async () => {
    const records = (await testRecords(kind)).dashboard;
    const visits = new SqlVisitRepository(records);
    await visits.upsert([visit('2026-01-01', 'A', 1)]);
    const version = await visits.version();
    await visits.clearStaging();
    await visits.stage([visit('2026-01-02', 'A', 2)]);
    await expect(records.bulk.move('visits_import', 'visits', ['date', 'museum', 'channel', 'district'], ['date', 'museum', 'channel', 'district', 'visitors', 'revenue'], 'SELECT no_such_column FROM visits')).rejects.toThrow();
    expect((await scanned(visits)).flat()).toEqual([visit('2026-01-01', 'A', 1)]);
    expect(await visits.version()).toBe(version);
  });
});
