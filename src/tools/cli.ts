import { ConfigError, loadConfig, type Config } from '../config';
import { refuseOldNode } from '../platform/node-version';

/** A refusal before anything was written (exit 2), as opposed to a failure (exit 1). */
export class CopyRefused extends Error {}

/**
 * Runs a one-off command with the settings of the environment: progress lines on stdout,
 * one line on stderr and a non-zero exit when the settings are wrong (2), the command refuses (2) or fails (1).
 */
export async function runCommand(name: string, work: (config: Config, progress: (line: string) => void) => Promise<string>, failed = ''): Promise<void> {
  refuseOldNode();
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  try {
    process.stdout.write(`${await work(config, (line) => process.stdout.write(`${line}\n`))}\n`);
  } catch (err) {
    process.stderr.write(`${name}: ${err instanceof Error ? err.message : String(err)}\n${failed}`);
    process.exit(err instanceof CopyRefused ? 2 : 1);
  }
}
