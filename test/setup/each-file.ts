import { afterEach } from 'vitest';
import { runCleanups } from '../support/cleanups';

afterEach(runCleanups);
