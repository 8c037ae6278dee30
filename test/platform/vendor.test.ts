import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../support/app';
import { serve } from '../support/browser';

const CHART_JS = path.join(path.dirname(require.resolve('chart.js')), 'chart.umd.js');

describe('GET /static/vendor/chart.js/chart.umd.js', () => {
  it('when 500 requests for it arrive at once, then every one gets the whole file as JavaScript', async () => {
    const server = await serve((await buildApp()).app);
    onTestFinished(server.close);
    const size = fs.statSync(CHART_JS).size;
    const answers = await Promise.all(
      Array.from({ length: 500 }, async () => {
        const res = await fetch(`${server.url}/static/vendor/chart.js/chart.umd.js`);
        return { status: res.status, type: res.headers.get('content-type'), length: (await res.arrayBuffer()).byteLength };
      }),
    );
    for (const answer of answers) expect(answer).toEqual({ status: 200, type: expect.stringMatching(/javascript/), length: size });
    // 500 transfers of 200 KB take 7 s on a quiet 2-core machine and over 20 s beside a linter.
  }, 60_000);

  it('when another file of the package is asked for, then 404: only the files pages use are served', async () => {
    const server = await serve((await buildApp()).app);
    onTestFinished(server.close);
    for (const file of ['chart.js', 'chart.cjs', '../package.json', 'chunks/helpers.dataset.js']) {
      expect((await fetch(`${server.url}/static/vendor/chart.js/${file}`)).status, file).toBe(404);
    }
    expect((await fetch(`${server.url}/static/vendor/chart.js/chart.umd.js.map`)).status).toBe(200);
  });
});
