import { Router } from 'express';
import type { Config } from '../config';
import type { Clock } from '../platform/clock';
import type { Logger } from '../platform/logger';
import type { Db } from '../platform/sqlite';

export interface WorkspaceDeps {
  db: Db;
  config: Config;
  clock: Clock;
  logger: Logger;
}

/** Application B: the marketing workspace's API and pages. */
export function createWorkspace(_deps: WorkspaceDeps) {
  const router = Router();
  return { router };
}
