import fs from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';
import { cachedBuild, MANIFEST_FILE, type AssetManifest, type Compressed, type WrittenManifest } from './asset-build';
import { ROOT } from './paths';

/** Where `npm run build` leaves the built static files, beside the compiled server. */
export const BUILT_ASSETS_DIR = path.join(ROOT, 'dist', 'public');
/** A hashed name never changes content, so a browser keeps it for a year without asking. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

interface AssetFile extends Compressed {
  body: Buffer;
  /** The name's extension, which gives the content type. */
  ext: string;
}

/** The manifest as templates look names up in it: a template may name a file that was never built. */
type ManifestLookups = { [K in keyof AssetManifest]: Partial<AssetManifest[K]> };

/** The built static files in memory, and how pages link them. */
export class Assets {
  constructor(
    private readonly manifest: ManifestLookups,
    private readonly files: Map<string, AssetFile>,
  ) {}

  /** The URL a template links for `name` (`css/app.css`, `img/favicon.svg`). */
  url(name: string): string {
    const served = this.manifest.names[name];
    if (served === undefined) throw new Error(`No static file ${name}: a page links a file that is not in public/`);
    return `/static/${served}`;
  }

  /**
   * The tags that load page script `name`: the module, and a preload for every module it
   * imports, so the browser fetches them all at once instead of one import after another.
   * All at low priority: a page's scripts run only after it is parsed, and on a slow network,
   * fetched at the priority of its styles, they held up its first paint. `given` holds what
   * the page has already asked for, so a shared module is named once.
   */
  script(name: string, given: Set<string>): string {
    const served = this.manifest.names[name];
    if (served === undefined || !name.startsWith('js/')) throw new Error(`No page script ${name}: is it in public/js?`);
    const tags: string[] = [];
    for (const imported of this.manifest.imports[served] ?? []) {
      if (given.has(imported)) continue;
      given.add(imported);
      tags.push(`<link rel="modulepreload" href="/static/${imported}" fetchpriority="low">`);
    }
    given.add(served);
    tags.push(`<script type="module" src="/static/${served}" fetchpriority="low"></script>`);
    return tags.join('\n');
  }

  file(served: string): AssetFile | undefined {
    return this.files.get(served);
  }

  /** Every served name, for tests and for the build's output. */
  names(): string[] {
    return [...this.files.keys()];
  }
}

/** Reads a build (what `npm run build` wrote, by default) into memory, compressed forms included. */
export function readAssets(dir = BUILT_ASSETS_DIR): Assets {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST_FILE), 'utf8')) as WrittenManifest;
  const read = (name: string) => (fs.existsSync(path.join(dir, name)) ? fs.readFileSync(path.join(dir, name)) : undefined);
  const files = new Map<string, AssetFile>();
  for (const name of manifest.files) {
    files.set(name, { body: fs.readFileSync(path.join(dir, name)), ext: path.extname(name), br: read(`${name}.br`), gzip: read(`${name}.gz`) });
  }
  return new Assets(manifest, files);
}

let loaded: Assets | undefined;

/**
 * The static files, made on first use: a server compiled to dist/ reads the build's; one run
 * from src/ (tests, `npm run dev`) builds them, once per process, on its first page or file.
 */
export function assets(): Assets {
  loaded ??= readAssets(__filename.endsWith('.js') ? BUILT_ASSETS_DIR : cachedBuild());
  return loaded;
}

/**
 * Serves the hashed files from memory, each in the smallest form the browser accepts, cached
 * for a year; anything else goes on (to the unhashed files).
 */
export function serveAssets(): RequestHandler {
  return (req, res, next) => {
    const file = req.method === 'GET' || req.method === 'HEAD' ? assets().file(req.path.slice(1)) : undefined;
    if (!file) {
      next();
      return;
    }
    const accepted = req.acceptsEncodings();
    const takes = (encoding: string) => accepted.includes(encoding) || accepted.includes('*');
    const [encoding, body] =
      file.br && takes('br') ? ['br', file.br] : file.gzip && takes('gzip') ? ['gzip', file.gzip] : [undefined, file.body];
    res.set('Cache-Control', IMMUTABLE);
    res.type(file.ext);
    if (file.br || file.gzip) res.vary('Accept-Encoding');
    if (encoding) res.set('Content-Encoding', encoding);
    res.set('Content-Length', String(body.length));
    if (req.method === 'HEAD') res.end();
    else res.end(body);
  };
}
