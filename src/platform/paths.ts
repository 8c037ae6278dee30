import path from 'node:path';

/** Project root: `src/platform` and `dist/platform` both sit two levels below it. */
export const ROOT = path.resolve(__dirname, '..', '..');
export const VIEWS_DIR = path.join(ROOT, 'views');
export const PUBLIC_DIR = path.join(ROOT, 'public');
export const LOCALES_DIR = path.join(ROOT, 'locales');
export const MIGRATIONS_DIR = path.join(ROOT, 'migrations');
