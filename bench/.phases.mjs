// scratch: phases of the PG import
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { tsImport } from 'tsx/esm/api';
import { benchApp } from './app.mjs';
const require = createRequire(import.meta.url);
const { SqlVisitRepository } = require('../dist/dashboard/data/repository.js');
const N = Number(process.argv[2] ?? 1_000_000);
const MUSEUMS = 8, CH = 4, D = 30;
function* rows() {
  let i = 0;
  for (let day = Date.UTC(2023, 0, 1) / 86400000; ; day++) {
    const date = new Date(day * 86400000).toISOString().slice(0, 10);
    for (let m = 0; m < MUSEUMS; m++) for (let c = 0; c < CH; c++) for (let d = 0; d < D; d++) {
      if (i++ === N) return;
      yield { date, museum: `Museum ${m}`, channel: `Channel ${c}`, district: `District ${d}`, visitors: i % 120, revenue: (i % 97) * 1.5 };
    }
  }
}
async function phases(label, env) {
  const { stores } = await benchApp({ DATA_DIR: `/tmp/ph-${label}-${Date.now()}`, LOG_LEVEL: 'warn', ADMIN_PIN: '999999', JWT_SECRET: 'x'.repeat(40), SESSION_SECRET: 'y'.repeat(40), ...env });
  const repo = new SqlVisitRepository(stores.records.dashboard);
  await repo.clearStaging();
  let t = performance.now();
  let batch = [];
  for (const r of rows()) { batch.push(r); if (batch.length === 50000) { await repo.stage(batch); batch = []; } }
  if (batch.length) await repo.stage(batch);
  const stage = performance.now() - t; t = performance.now();
  await repo.commitStaged();
  const commit = performance.now() - t; t = performance.now();
  let n = 0; await repo.scan((b) => { n += b.length; });
  const scan = performance.now() - t;
  console.log(label, { stage: Math.round(stage), commit: Math.round(commit), scan: Math.round(scan), n });
  await stores.close?.();
}
await phases('sqlite', {});
const { postgresBinaries, startPostgres } = await tsImport('../test/support/postgres-server.ts', import.meta.url);
const cluster = await startPostgres(postgresBinaries());
try { await phases('postgres', { DATABASE_URL: cluster.url }); } finally { await cluster.stop?.(); }
process.exit(0);
