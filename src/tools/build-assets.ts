import path from 'node:path';
import { buildAssets, writeAssets } from '../platform/asset-build';
import { BUILT_ASSETS_DIR } from '../platform/assets';

/**
 * `npm run build`'s second half: the static files under their hashed names in dist/public,
 * compressed once here at the best quality, with the manifest the server reads them by.
 */
const started = Date.now();
const built = buildAssets();
const { bytes, sent } = writeAssets(BUILT_ASSETS_DIR, built, 'best');
process.stdout.write(
  `Static files: ${built.files.size} built into ${path.relative(process.cwd(), BUILT_ASSETS_DIR)} (${Math.round(bytes / 1024)} KiB, ${Math.round(sent / 1024)} KiB compressed) in ${Date.now() - started} ms\n`,
);
