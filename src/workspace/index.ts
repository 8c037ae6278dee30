import { Router } from 'express';
import type { Config } from '../config';
import type { Clock } from '../platform/clock';
import { requireSameOrigin } from '../platform/csrf';
import type { Logger } from '../platform/logger';
import type { Db } from '../platform/sqlite';
import { authenticate, requirePasswordChanged, requireSignedIn, signedInByCookie, workspaceSessions } from './auth/middleware';
import { SqliteSessionStore } from './auth/repository';
import { authRoutes } from './auth/routes';
import { AuthService, SIGN_IN_TTL_MS } from './auth/service';
import { SqliteBrandRepository } from './brands/repository';
import { brandsRoutes } from './brands/routes';
import { BrandsService } from './brands/service';
import { SqliteCampaignRepository } from './campaigns/repository';
import { campaignsRoutes, tracksRoutes } from './campaigns/routes';
import { CampaignsService } from './campaigns/service';
import { SqliteUserRepository } from './members/repository';
import { membersRoutes } from './members/routes';
import { MembersService } from './members/service';
import { SqlitePostRepository } from './posts/repository';
import { postsRoutes } from './posts/routes';
import { noAssets, PostsService } from './posts/service';

export interface WorkspaceDeps {
  db: Db;
  config: Config;
  clock: Clock;
  logger: Logger;
}

/** Application B's API paths: only these run its sessions and sign-in checks. */
export const WORKSPACE_API = ['/api/auth', '/api/members', '/api/brands', '/api/campaigns', '/api/tracks', '/api/posts'];

/** Application B: the marketing workspace's API and pages. */
export function createWorkspace(deps: WorkspaceDeps) {
  const { db, config, clock } = deps;
  if (!config.jwtSecret || !config.sessionSecret) throw new Error('The workspace needs config.jwtSecret and config.sessionSecret');

  const sessionStore = new SqliteSessionStore(db, clock, SIGN_IN_TTL_MS);
  const users = new SqliteUserRepository(db);
  const auth = new AuthService({ users, sessions: sessionStore, clock, jwtSecret: config.jwtSecret });
  const brandRepository = new SqliteBrandRepository(db);
  const brands = new BrandsService({ brands: brandRepository, clock });
  const members = new MembersService({ users, brands: brandRepository, sessions: sessionStore, clock });
  const campaigns = new CampaignsService({ campaigns: new SqliteCampaignRepository(db), brands, clock });
  const posts = new PostsService({ posts: new SqlitePostRepository(db), campaigns, brands, attachments: noAssets, clock });

  const router = Router();
  router.use(
    WORKSPACE_API,
    workspaceSessions({ store: sessionStore, secret: config.sessionSecret, secure: config.cookieSecure }),
    authenticate(auth),
    requireSameOrigin(signedInByCookie),
    requirePasswordChanged,
  );
  router.use('/api/auth', authRoutes({ auth, clock, cookieSecure: config.cookieSecure }));
  router.use('/api/members', requireSignedIn, membersRoutes(members));
  router.use('/api/brands', requireSignedIn, brandsRoutes(brands));
  router.use('/api/campaigns', requireSignedIn, campaignsRoutes(campaigns));
  router.use('/api/tracks', requireSignedIn, tracksRoutes(campaigns));
  router.use('/api/posts', requireSignedIn, postsRoutes(posts));
  return { router, auth, sessionStore };
}
