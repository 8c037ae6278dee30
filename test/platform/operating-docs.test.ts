import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { request } from '../support/http';
import { buildWorkspace } from '../support/workspace';

const DOCS = path.resolve(__dirname, '..', '..', 'docs');
const TOKEN = 'operating-docs-token-0123456789abcdef012345';
/** Served only with DATABASE_URL or REDIS_URL set; `up` is Prometheus's own, per target. */
const ELSEWHERE = ['pg_pool_connections', 'redis_command_duration_seconds', 'up'];

/** The metric families a scrape of the app names (a histogram's _bucket, _sum and _count under its own name). */
async function servedFamilies(): Promise<Set<string>> {
  const ws = await buildWorkspace({ env: { METRICS_TOKEN: TOKEN } });
  const res = await request(ws.app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
  expect(res.status).toBe(200);
  return new Set([...res.text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]).concat(ELSEWHERE));
}

/** The metric names an expression reads: words followed by a selector, a range or the end, that are not PromQL's own. */
function metricsIn(expr: string): string[] {
  const promql = new Set(['sum', 'rate', 'by', 'histogram_quantile', 'max', 'delta', 'and', 'label_values', 'le', 'route', 'instance', 'status', 'outcome', 'state', 'engine', 'job']);
  return [...expr.matchAll(/\b([a-z_][a-z0-9_]*)\s*(?=\{|\[|\)|$|\s*[=!><])/g)].map((m) => m[1]).filter((name) => !promql.has(name));
}

const familyOf = (name: string) => name.replace(/_(bucket|sum|count)$/, '');

describe('the operator documents in docs/', () => {
  it('when the Grafana dashboard is read, then it is an importable dashboard whose every panel queries metrics the server serves, covering each thing an operator watches', async () => {
    const served = await servedFamilies();
    const dashboard = JSON.parse(fs.readFileSync(path.join(DOCS, 'grafana-dashboard.json'), 'utf8')) as {
      uid: string;
      title: string;
      schemaVersion: number;
      __inputs: { name: string; type: string; pluginId: string }[];
      panels: { id: number; type: string; title: string; targets?: { expr: string }[] }[];
    };
    expect(dashboard).toMatchObject({ uid: 'museum-platform', title: expect.any(String), schemaVersion: expect.any(Number) });
    expect(dashboard.__inputs).toEqual([expect.objectContaining({ name: 'DS_PROMETHEUS', type: 'datasource', pluginId: 'prometheus' })]);
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const queried = new Set<string>();
    for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) {
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const { expr } of panel.targets!) {
        for (const name of metricsIn(expr)) {
          expect(served, `${panel.title}: ${name}`).toContain(familyOf(name));
          queried.add(familyOf(name));
        }
      }
    }
    for (const family of ['http_request_duration_seconds', 'http_requests_in_flight', 'nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_size_used_bytes', 'pg_pool_connections', 'redis_command_duration_seconds', 'mail_outbox_waiting', 'sse_streams_open', 'engine_up']) {
      expect(queried, family).toContain(family);
    }
  });

  it('when the alert rules are read, then each names an expression over metrics the server serves, and the 5xx, p99, engine-down, outbox and event-loop alerts are there', async () => {
    const served = await servedFamilies();
    const text = fs.readFileSync(path.join(DOCS, 'alert-rules.yml'), 'utf8');
    expect(text).toMatch(/^groups:\n {2}- name: museum-platform\n {4}rules:\n/m);
    expect(text).not.toMatch(/\t/);
    const rules = text.split(/\n {6}- alert: /).slice(1);
    const alerts = rules.map((rule) => rule.split('\n')[0]);
    expect(alerts).toEqual(['MuseumHigh5xxRate', 'MuseumHighP99Latency', 'MuseumEngineDown', 'MuseumInstanceDown', 'MuseumMailOutboxGrowing', 'MuseumEventLoopLag']);
    const read = new Set<string>();
    for (const rule of rules) {
      const match = /\n {8}expr: (?:\|\n((?: {10}.*\n)+)|(.*)\n)/.exec(rule);
      // A block (`|`) or a single line: the group of the other form is undefined.
      const expr = match?.at(1) ?? match?.at(2);
      expect(expr, rule.split('\n')[0]).toBeDefined();
      expect(rule).toMatch(/\n {8}for: \d+m\n/);
      expect(rule).toMatch(/\n {10}severity: (page|warn)\n/);
      for (const name of metricsIn(expr!)) {
        expect(served, `${alerts[rules.indexOf(rule)]}: ${name}`).toContain(familyOf(name));
        read.add(familyOf(name));
      }
    }
    expect([...read].sort()).toEqual(['engine_up', 'http_request_duration_seconds', 'mail_outbox_waiting', 'nodejs_eventloop_lag_p99_seconds', 'up']);
  });
});
