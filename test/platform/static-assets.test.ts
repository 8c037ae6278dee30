import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildAssets } from '../../src/platform/asset-build';
import { PUBLIC_DIR, VIEWS_DIR } from '../../src/platform/paths';
import { buildApp } from '../support/app';
import { serve } from '../support/events';
import { buildWorkspace, PASSWORD } from '../support/workspace';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET as it comes off the wire: nothing decompressed. */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function decoded(res: Raw): Buffer {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(res.body);
  if (encoding === 'gzip') return zlib.gunzipSync(res.body);
  return res.body;
}

async function served() {
  const { app } = await buildApp();
  return serve(app);
}

/** Every /static/ URL a page's HTML names in src or href. */
const staticLinks = (html: string) => [...html.matchAll(/(?:src|href)="(\/static\/[^"]+)"/g)].map((m) => m[1]);
/** Built names end in a hash of the content (esbuild's or ours): eight or more capitals and digits. */
const HASHED = /-[A-Z0-9]{8,}\.(js|css|svg)$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

describe('static files under hashed names', () => {
  it('when the sign-in pages of both applications are served, then they link only hashed names, each answered and cached for a year as immutable', async () => {
    const url = await served();
    for (const page of ['/login', '/dashboard/login', '/']) {
      const res = await raw(`${url}${page}`);
      expect(res.status, page).toBe(200);
      const links = staticLinks(decoded(res).toString());
      expect(links.length, page).toBeGreaterThan(1);
      for (const link of links) {
        expect(link, page).toMatch(HASHED);
        const file = await raw(`${url}${link}`);
        expect(file.status, link).toBe(200);
        expect(file.headers['cache-control'], link).toBe(IMMUTABLE);
      }
    }
  });

  it('when a page loads a script, then every module that script imports, however deep, is preloaded beside it, all behind the styles of the first paint: nothing waits on a chain of imports', async () => {
    const url = await served();
    const html = decoded(await raw(`${url}/dashboard/login`)).toString();
    const preloaded = new Set([...html.matchAll(/<link rel="modulepreload" href="([^"]+)" fetchpriority="low">/g)].map((m) => m[1]));
    const scripts = [...html.matchAll(/<script type="module" src="([^"]+)" fetchpriority="low">/g)].map((m) => m[1]);
    expect(scripts).toHaveLength(1);
    expect(html.match(/<link rel="modulepreload"|<script type="module"/g)).toHaveLength(preloaded.size + 1);
    const seen = new Set<string>();
    const queue = [...scripts];
    while (queue.length > 0) {
      const script = queue.pop()!;
      if (seen.has(script)) continue;
      seen.add(script);
      const body = decoded(await raw(`${url}${script}`)).toString();
      for (const [, relative] of body.matchAll(/(?:import|from)\s*"(\.[^"]+)"/g)) {
        const imported = new URL(relative, `${url}${script}`).pathname;
        expect(preloaded.has(imported), `${imported}, imported by ${script}, is preloaded`).toBe(true);
        queue.push(imported);
      }
    }
    expect(seen.size).toBeGreaterThan(1);
  });

  it('when a hashed script is asked for accepting br, gzip or neither, then it comes in that encoding (br first), varying by Accept-Encoding, and decodes to the same bytes', async () => {
    const url = await served();
    const [script] = staticLinks(decoded(await raw(`${url}/dashboard/login`)).toString()).filter((l) => l.endsWith('.js'));
    const plain = await raw(`${url}${script}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toMatch(/javascript/);
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['br;q=1, gzip;q=0.5', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const res = await raw(`${url}${script}`, { 'Accept-Encoding': accept });
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(res.headers.vary, accept).toMatch(/Accept-Encoding/);
      expect(Number(res.headers['content-length']), accept).toBe(res.body.length);
      expect(decoded(res).equals(plain.body), accept).toBe(true);
    }
    const head = await raw(`${url}${script}`, { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it('when a file is asked for by its source name, then it is still served, but cached for minutes, not for a year', async () => {
    const url = await served();
    for (const file of ['/static/css/app.css', '/static/js/core/dom.js', '/static/vendor/chart.js/chart.umd.js']) {
      const res = await raw(`${url}${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers['cache-control'], file).toBe('public, max-age=300');
    }
    expect((await raw(`${url}/static/css/app-NOSUCHHASH.css`)).status).toBe(404);
  });

  it('when the templates are read, then none names a /static/ URL by hand: each goes through asset() or script()', () => {
    const templates = fs.readdirSync(VIEWS_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ejs'));
    for (const file of templates) expect(fs.readFileSync(path.join(VIEWS_DIR, file), 'utf8'), file).not.toMatch(/\/static\//);
  });
});

describe('building the static files', () => {
  it('when a file changes, then it and what imports it get new names, and everything else keeps its name', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-assets-test-'));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const publicDir = path.join(dir, 'public');
    fs.cpSync(PUBLIC_DIR, publicDir, { recursive: true });
    const before = buildAssets({ publicDir, viewsDir: VIEWS_DIR }).manifest;
    fs.appendFileSync(path.join(publicDir, 'js/dashboard/login.js'), '\nconsole.info("changed");\n');
    fs.appendFileSync(path.join(publicDir, 'css/dashboard.css'), '\n.changed { color: red; }\n');
    const after = buildAssets({ publicDir, viewsDir: VIEWS_DIR }).manifest;
    expect(after.names['js/dashboard/login.js']).not.toBe(before.names['js/dashboard/login.js']);
    expect(after.names['css/dashboard.css']).not.toBe(before.names['css/dashboard.css']);
    for (const unchanged of ['js/workspace/board.js', 'js/dashboard/home.js', 'css/app.css', 'css/workspace.css', 'img/favicon.svg', 'vendor/chart.js/chart.umd.js']) {
      expect(after.names[unchanged], unchanged).toBe(before.names[unchanged]);
    }
  });

  it('when the page scripts are bundled, then the modules an application\'s pages share come in one file every page loads, and a page\'s scripts come in a handful of files', () => {
    const { names, imports } = buildAssets().manifest;
    const filesOf = (scripts: string[]) => new Set(scripts.flatMap((s) => [names[s], ...imports[names[s]]]));
    for (const app of ['dashboard', 'workspace']) {
      const scripts = Object.keys(names).filter((name) => name.startsWith(`js/${app}/`) && name.endsWith('.js'));
      const everyPage = scripts.map((s) => new Set(imports[names[s]])).reduce((all, some) => new Set([...all].filter((file) => some.has(file))));
      expect(everyPage.size, `a file every ${app} script imports`).toBe(1);
    }
    // Split by the set of pages using each module, the board's scripts came in 20 files, and
    // the Dashboard's settings in 8.
    expect(filesOf(['js/workspace/shell.js', 'js/workspace/search.js', 'js/workspace/board.js']).size).toBeLessThanOrEqual(10);
    expect(filesOf(['js/workspace/shell.js', 'js/workspace/search.js', 'js/workspace/assets.js']).size).toBeLessThanOrEqual(8);
    expect(filesOf(['js/dashboard/shell.js', 'js/dashboard/settings.js', 'js/dashboard/audit.js']).size).toBeLessThanOrEqual(4);
  });

  it('when the page scripts are bundled, then Chart.js\'s chunks open with V8\'s hint to compile them whole as they arrive, their maps count the line it adds, and no other script carries it', () => {
    const { files } = buildAssets();
    const scripts = [...files.keys()].filter((name) => name.endsWith('.js'));
    const charts = scripts.filter((name) => /^js\/chunks\/chart-lib-/.test(name));
    expect(charts.length).toBeGreaterThan(0);
    for (const name of scripts) {
      const lines = files.get(name)!.toString('utf8').split('\n');
      expect(lines[0] === '//# allFunctionsCalledOnLoad', name).toBe(charts.includes(name));
      if (!charts.includes(name)) continue;
      expect(lines[1], name).toMatch(/^import/);
      const mappings = (JSON.parse(files.get(`${name}.map`)!.toString('utf8')) as { mappings: string }).mappings.split(';');
      expect(mappings[0], `${name}: the hint's line maps to nothing`).toBe('');
      expect(mappings[1].length, `${name}: the code's first line maps to Chart.js`).toBeGreaterThan(1000);
    }
  });

  it('when a template names a script outside both applications\' folders, then the build stops and names it, rather than leave it unbuilt', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-assets-test-'));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const viewsDir = path.join(dir, 'views');
    fs.cpSync(VIEWS_DIR, viewsDir, { recursive: true });
    fs.writeFileSync(path.join(viewsDir, 'stray.ejs'), "<%- script('js/stray/page.js') %>\n");
    expect(() => buildAssets({ publicDir: PUBLIC_DIR, viewsDir })).toThrow(/js\/stray\/page\.js/);
  });

  it('when a module shared by several pages changes, then every page script that imports it gets a new name', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-assets-test-'));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const publicDir = path.join(dir, 'public');
    fs.cpSync(PUBLIC_DIR, publicDir, { recursive: true });
    const before = buildAssets({ publicDir, viewsDir: VIEWS_DIR }).manifest;
    fs.appendFileSync(path.join(publicDir, 'js/core/page.js'), '\nexport const changed = document.title;\n');
    const after = buildAssets({ publicDir, viewsDir: VIEWS_DIR }).manifest;
    for (const entry of ['js/dashboard/home.js', 'js/workspace/board.js', 'js/workspace/shell.js']) {
      const graph = (m: typeof before) => [m.names[entry], ...m.imports[m.names[entry]]].join(' ');
      expect(graph(after), entry).not.toBe(graph(before));
    }
  });
});

describe('compression of dynamic answers', () => {
  it('when a page over 1 KB is asked for, then brotli if accepted, else gzip, else plain, always varying by Accept-Encoding', async () => {
    const url = await served();
    const plain = await raw(`${url}/login`);
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await raw(`${url}/login`, { 'Accept-Encoding': accept });
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(res.headers.vary, accept).toMatch(/Accept-Encoding/);
      expect(res.body.length, accept).toBeLessThan(plain.body.length / 2);
      expect(decoded(res).toString(), accept).toBe(plain.body.toString());
    }
  });

  it('when an answer is under 1 KB, then it is sent as it is', async () => {
    const url = await served();
    const res = await raw(`${url}/api/no-such-thing`, { 'Accept-Encoding': 'gzip, br' });
    expect(res.status).toBe(404);
    expect(res.body.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString())).toMatchObject({ error: expect.any(String) });
  });

  it('when the event stream is opened by a browser that accepts br and gzip, then it is not compressed and its first lines arrive at once', async () => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const member = await ws.user('contributor', { brandIds: [brand.id] });
    const url = await serve(ws.app);
    const first = await new Promise<{ headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
      const req = http.get(`${url}/api/events`, { headers: { Accept: 'text/event-stream', 'Accept-Encoding': 'gzip, deflate, br', Authorization: `Bearer ${member.token}` }, agent: false }, (res) => {
        res.once('data', (chunk: Buffer) => {
          resolve({ headers: res.headers, text: chunk.toString() });
          req.destroy();
        });
      });
      req.on('error', reject);
    });
    expect(first.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(first.headers['content-encoding']).toBeUndefined();
    expect(first.text).toMatch(/^retry: \d+/);
  });

  it('when an answer carries a token (a sign-in, a reset link page), then it is not compressed, whatever the browser accepts', async () => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const member = await ws.user('contributor', { brandIds: [brand.id], name: 'N'.repeat(900) });
    const url = await serve(ws.app);
    const signIn = await raw(`${url}/api/auth/login`, { 'Accept-Encoding': 'gzip, br', 'Content-Type': 'application/json' }, 'POST', JSON.stringify({ email: member.email, password: PASSWORD }));
    expect(signIn.status).toBe(200);
    expect(signIn.body.length).toBeGreaterThan(1024);
    expect(signIn.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(signIn.body.toString()).token).toEqual(expect.any(String));
    const link = await raw(`${url}/reset-password?token=${'a'.repeat(43)}`, { 'Accept-Encoding': 'gzip, br' });
    expect(link.body.length).toBeGreaterThan(1024);
    expect(link.headers['content-encoding']).toBeUndefined();
  });
});
