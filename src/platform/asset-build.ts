import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type * as Esbuild from 'esbuild';
import { PUBLIC_DIR, ROOT, VIEWS_DIR } from './paths';

/** How the static files are named and linked once built. */
export interface AssetManifest {
  /** Each file as the templates name it (`css/app.css`, `js/workspace/board.js`) → the name it is served under. */
  names: Record<string, string>;
  /** Each built script → every script it imports, directly or not (not the ones it imports on demand). */
  imports: Record<string, string[]>;
}

export interface BuiltAssets {
  manifest: AssetManifest;
  /** Every file by its served name (below `/static/`). */
  files: Map<string, Buffer>;
}

/** The vendored files pages load as plain scripts, by the name templates use. */
export const VENDOR_FILES: Record<string, string> = {
  'vendor/chart.js/chart.umd.js': path.join(path.dirname(require.resolve('chart.js')), 'chart.umd.js'),
};

/** `<%- script('js/…') %>` in a template: the page scripts, which are bundled. */
const SCRIPT_CALL = /\bscript\(\s*'([^']+)'\s*\)/g;
/**
 * Chunks whose code runs nearly whole as soon as it loads: Chart.js, loaded to draw a chart.
 * V8 compiles a function when it is first called, on the main thread, unless the file opens
 * with this hint (Chromium 136 and later): then it compiles the whole file as it arrives, off
 * the main thread. A page's first chart took 30 to 45 ms of one task on this machine without it.
 */
const EAGER_CHUNK = /^js\/chunks\/chart-lib-[^/]+\.js$/;
const EAGER_HINT = '//# allFunctionsCalledOnLoad\n';

/** A built file as served: an eager chunk opens with the hint, and its map counts the line it adds. */
function withCompileHint(name: string, body: Buffer): Buffer {
  if (EAGER_CHUNK.test(name)) return Buffer.concat([Buffer.from(EAGER_HINT), body]);
  if (name.endsWith('.map') && EAGER_CHUNK.test(name.slice(0, -'.map'.length))) {
    const map = JSON.parse(body.toString('utf8')) as { mappings: string };
    return Buffer.from(JSON.stringify({ ...map, mappings: `;${map.mappings}` }));
  }
  return body;
}

/** Types worth compressing: the rest (images other than SVG) are compressed already. */
const TEXT = /\.(js|css|map|svg|json|txt)$/;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * The page scripts are bundled by application. Split by the set of pages using each module,
 * a page's modules came in a dozen small chunks, which a phone fetched a few at a time over
 * HTTP/1.1's six connections, a round trip each. The modules nearly every page of an
 * application runs, and which only define things when loaded, are injected into each of its
 * scripts, so that they form one chunk. A page that uses few of them loads a few KiB more.
 */
const CORE = ['api', 'dom', 'page', 'format', 'i18n', 'forms', 'modal'].map((name) => `js/core/${name}.js`);
const SCRIPT_GROUPS = [
  { folder: 'js/dashboard/', shared: [...CORE, 'js/dashboard/common.js'] },
  { folder: 'js/workspace/', shared: [...CORE, 'js/workspace/common.js', 'js/workspace/icons.js', 'js/workspace/records.js'] },
];

/** The page scripts: those the templates load, found in the templates themselves. */
export function pageScripts(viewsDir = VIEWS_DIR): string[] {
  const found = new Set<string>();
  for (const file of filesUnder(viewsDir).filter((f) => f.endsWith('.ejs'))) {
    for (const match of fs.readFileSync(file, 'utf8').matchAll(SCRIPT_CALL)) found.add(match[1]);
  }
  return [...found].sort();
}

function contentHash(body: Buffer): string {
  return crypto.createHash('sha256').update(body).digest('base64url').slice(0, 10).replace(/[-_]/g, 'x').toUpperCase();
}

function hashedName(name: string, body: Buffer): string {
  const ext = path.extname(name);
  return `${name.slice(0, name.length - ext.length)}-${contentHash(body)}${ext}`;
}

const posix = (p: string) => p.split(path.sep).join('/');

/**
 * Builds every static file under a name that changes with its content: the page scripts
 * bundled by esbuild (shared modules split into chunks, so a module two scripts of a page
 * share still runs once), the style sheets minified, the rest copied. Synchronous, so that a
 * process running from src/ can build on its first page; `dist/` gets the same files at build.
 */
export function buildAssets({ publicDir = PUBLIC_DIR, viewsDir = VIEWS_DIR } = {}): BuiltAssets {
  // esbuild is a development dependency, loaded only to build: a server running from dist/
  // reads what the build wrote and never gets here.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esbuild = require('esbuild') as typeof Esbuild;
  const outdir = path.join(ROOT, 'dist', 'public');
  const names: Record<string, string> = {};
  const imports: Record<string, string[]> = {};
  const files = new Map<string, Buffer>();
  const common: Esbuild.BuildOptions = {
    absWorkingDir: ROOT,
    // A page script's packages (Chart.js) are the project's, wherever its sources are built from.
    nodePaths: [path.join(ROOT, 'node_modules')],
    bundle: true,
    minify: true,
    sourcemap: 'linked',
    outdir,
    outbase: publicDir,
    entryNames: '[dir]/[name]-[hash]',
    metafile: true,
    write: false,
    logLevel: 'silent',
  };
  const scripts = pageScripts(viewsDir);
  // A script in no group would be left unbuilt, and its page would fail only when served.
  const ungrouped = scripts.filter((name) => !SCRIPT_GROUPS.some(({ folder }) => name.startsWith(folder)));
  if (ungrouped.length) throw new Error(`page scripts outside ${SCRIPT_GROUPS.map(({ folder }) => folder).join(' and ')}: ${ungrouped.join(', ')}`);
  const builds = [
    ...SCRIPT_GROUPS.map(({ folder, shared }) =>
      esbuild.buildSync({
        ...common,
        entryPoints: scripts.filter((name) => name.startsWith(folder)).map((name) => path.join(publicDir, name)),
        inject: shared.map((name) => path.join(publicDir, name)),
        format: 'esm',
        splitting: true,
        chunkNames: 'js/chunks/[name]-[hash]',
      }),
    ),
    esbuild.buildSync({ ...common, entryPoints: filesUnder(path.join(publicDir, 'css')).filter((f) => f.endsWith('.css')) }),
  ];
  const servedName = (absolute: string) => posix(path.relative(outdir, absolute));
  for (const result of builds) {
    if (!result.outputFiles || !result.metafile) throw new Error('esbuild gave no output files or metafile');
    for (const out of result.outputFiles) files.set(servedName(out.path), withCompileHint(servedName(out.path), Buffer.from(out.contents)));
    const { outputs } = result.metafile;
    const direct = (key: string) => outputs[key].imports.filter((i) => i.kind === 'import-statement').map((i) => i.path);
    for (const [key, output] of Object.entries(outputs)) {
      if (output.entryPoint) names[posix(path.relative(publicDir, path.join(ROOT, output.entryPoint)))] = servedName(path.join(ROOT, key));
      if (!key.endsWith('.js')) continue;
      const seen = new Set<string>();
      const stack = direct(key);
      for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
        if (seen.has(next)) continue;
        seen.add(next);
        stack.push(...direct(next));
      }
      imports[servedName(path.join(ROOT, key))] = [...seen].map((k) => servedName(path.join(ROOT, k))).sort();
    }
  }
  const copied: [string, string][] = [
    ...filesUnder(publicDir)
      .map((f) => posix(path.relative(publicDir, f)))
      .filter((name) => !name.startsWith('js/') && !name.startsWith('css/'))
      .map((name): [string, string] => [name, path.join(publicDir, name)]),
    ...Object.entries(VENDOR_FILES),
  ];
  for (const [name, source] of copied) {
    const body = fs.readFileSync(source);
    names[name] = hashedName(name, body);
    files.set(names[name], body);
  }
  return { manifest: { names, imports }, files };
}

export interface Compressed {
  br?: Buffer;
  gzip?: Buffer;
}

/**
 * A text file's brotli and gzip forms, each kept only when smaller. `quality` trades build
 * time for size: the build uses the best; a process building for itself a quicker one.
 */
export function compress(name: string, body: Buffer, quality: 'best' | 'quick'): Compressed {
  if (!TEXT.test(name)) return {};
  const br = zlib.brotliCompressSync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: quality === 'best' ? zlib.constants.BROTLI_MAX_QUALITY : 5,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  const gzip = zlib.gzipSync(body, { level: quality === 'best' ? zlib.constants.Z_BEST_COMPRESSION : 6 });
  return { br: br.length < body.length ? br : undefined, gzip: gzip.length < body.length ? gzip : undefined };
}

/** The manifest as written beside the files, with the list of them. */
export type WrittenManifest = AssetManifest & { files: string[] };
export const MANIFEST_FILE = 'manifest.json';

/**
 * Writes built files into `dir`, which it replaces, each text file beside its brotli (.br)
 * and gzip (.gz) forms, and the manifest last. Answers the bytes as built and as sent.
 */
export function writeAssets(dir: string, { manifest, files }: BuiltAssets, quality: 'best' | 'quick'): { bytes: number; sent: number } {
  fs.rmSync(dir, { recursive: true, force: true });
  let bytes = 0;
  let sent = 0;
  for (const [name, body] of files) {
    const target = path.join(dir, name);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, body);
    const { br, gzip } = compress(name, body, quality);
    if (br) fs.writeFileSync(`${target}.br`, br);
    if (gzip) fs.writeFileSync(`${target}.gz`, gzip);
    bytes += body.length;
    sent += (br ?? gzip ?? body).length;
  }
  const written: WrittenManifest = { ...manifest, files: [...files.keys()].sort() };
  fs.writeFileSync(path.join(dir, MANIFEST_FILE), JSON.stringify(written, null, 1));
  return { bytes, sent };
}

/** Names everything a build reads: the public files, the vendored ones, the templates' scripts and this code. */
function inputsKey(): string {
  const hash = crypto.createHash('sha256');
  const sources = [...filesUnder(PUBLIC_DIR), ...Object.values(VENDOR_FILES), __filename].sort();
  for (const file of sources) hash.update(file).update(fs.readFileSync(file));
  hash.update(pageScripts().join('\n'));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The folder of a build of the current sources, made if no process has made it yet: a process
 * running from src/ (each test file, `npm run dev`) then pays for a build only after a change.
 * Made aside and renamed into place, so a process never reads another's half-written build.
 */
export function cachedBuild(): string {
  const dir = path.join(os.tmpdir(), `museum-assets-${inputsKey()}`);
  if (fs.existsSync(path.join(dir, MANIFEST_FILE))) return dir;
  const aside = `${dir}.${process.pid}.${crypto.randomUUID()}`;
  writeAssets(aside, buildAssets(), 'quick');
  try {
    fs.renameSync(aside, dir);
  } catch {
    // Another process got there first with the same build.
    fs.rmSync(aside, { recursive: true, force: true });
  }
  return dir;
}
