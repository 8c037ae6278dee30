import { Router } from 'express';
import type { i18n } from 'i18next';
import type { Composer } from '../platform/mail/worker';
import type { OutboxRepository } from '../platform/mail/outbox';
import type { Clock } from '../platform/clock';
import { DeviceCookies } from '../platform/device-cookie';
import type { Logger } from '../platform/logger';
import type { AttemptCounter } from '../platform/rate-limit';
import type { FileStore } from '../platform/file-store';
import type { Notices } from '../platform/notices';
import type { EventChannel } from '../platform/events';
import type { EventStreams } from '../platform/sse';
import { channelFeed } from './events/changes';
import { LiveEvents, sessionDigest } from './events/live';
import { eventsRoutes } from './events/routes';
import type { WorkspaceRecords } from './records';
import { workspaceAccess, type CookieSessionStore } from './auth/middleware';
import { SqlSessionStore } from './auth/repository';
import { authRoutes, DEVICE_COOKIE } from './auth/routes';
import { AuthService, SIGN_IN_TTL_MS } from './auth/service';
import { SqlBrandRepository } from './brands/repository';
import { brandsRoutes } from './brands/routes';
import { BrandsService } from './brands/service';
import { SqlCampaignRepository } from './campaigns/repository';
import { campaignsRoutes, tracksRoutes } from './campaigns/routes';
import { CampaignsService } from './campaigns/service';
import { MemberCache } from './members/cache';
import { SqlUserRepository } from './members/repository';
import { membersRoutes } from './members/routes';
import { MembersService, type SessionRevoker } from './members/service';
import { invitationMailWriter } from './members/mail';
import { SqlPostRepository } from './posts/repository';
import { postsRoutes } from './posts/routes';
import { PostsService } from './posts/service';
import { SqlAssetRepository } from './assets/repository';
import { assetsRoutes, uploadsRoutes } from './assets/routes';
import { AssetsService, attachmentCatalog } from './assets/service';
import { SqlBudgetRepository } from './budget/repository';
import { budgetRoutes } from './budget/routes';
import { BudgetService } from './budget/service';
import { Placement } from './placement';
import { SqlProjectRepository } from './projects/repository';
import { projectsRoutes } from './projects/routes';
import { ProjectsService } from './projects/service';
import { SqlSearchRepository } from './search/repository';
import { searchRoutes } from './search/routes';
import { SearchService } from './search/service';
import { SqlTaskRepository } from './tasks/repository';
import { tasksRoutes } from './tasks/routes';
import { TasksService } from './tasks/service';
import { workspacePages } from './pages/routes';
import { SqlCommentRepository } from './comments/repository';
import { commentsRoutes, threadRoutes } from './comments/routes';
import { CommentsService } from './comments/service';
import { SqlNotificationRepository, SqlNotificationSettings } from './notifications/repository';
import { notificationSettingsRoutes, notificationsRoutes, unsubscribeRoutes } from './notifications/routes';
import { NotificationSettingsService, NotificationsService } from './notifications/service';
import { notificationMailWriters } from './notifications/mail';
import { DigestScheduler } from './notifications/digest';
import { UnsubscribeLinks } from './notifications/unsubscribe';
import { avatarFilesRoutes, ownAvatarRoutes } from './avatars/routes';
import { AvatarsService } from './avatars/service';
import { SqlLinkTokens } from './auth/links';
import { passwordMailWriters } from './auth/mail';
import { workspaceComposer } from './mail/compose';
import { MailQueue, workspaceOutbox } from './mail/queue';
import { mailRoutes } from './mail/routes';
import { MailService } from './mail/service';

/** The settings the workspace needs, handed over by the entry. */
export interface WorkspaceSettings {
  jwtSecret: string;
  sessionSecret: string;
  cookieSecure: boolean;
  upload: { maxBytes: number; maxFiles: number };
  /** The base of every link in a mail. */
  publicUrl: string;
  /** Members' time zone until they choose their own. */
  timeZone: string;
}

export interface WorkspaceDeps {
  records: WorkspaceRecords;
  /** Tells every instance of a changed member, so that each drops its cached copy. */
  notices: Notices;
  /** Where cookie sessions live when not in the records (Redis, shared by instances). */
  cookieSessions?: CookieSessionStore;
  settings: WorkspaceSettings;
  clock: Clock;
  logger: Logger;
  /** Where uploaded bytes go. */
  files: FileStore;
  attempts: AttemptCounter;
  /** Mail is written in each recipient's language. */
  i18n: i18n;
  /** Where changes go out to every instance's live streams. */
  events: EventChannel;
  /** The server's open event streams. */
  streams: EventStreams;
}

/** Application B: the marketing workspace's API and pages. */
export function createWorkspace(deps: WorkspaceDeps) {
  const { settings, clock, files, records, notices } = deps;

  const sessionStore = deps.cookieSessions ?? new SqlSessionStore(records, clock, SIGN_IN_TTL_MS);
  const live = channelFeed(deps.events);
  // The password stamp already refuses the sessions this ends, so a store out of reach leaves only untidiness.
  const revoker: SessionRevoker = {
    async endUserSessions(userId, keepSid) {
      await sessionStore.endUserSessions(userId, keepSid).catch((err: unknown) => deps.logger.warn({ err, userId }, 'the cookie sessions of a member could not be removed now'));
      await live.publish({ type: 'signout', memberId: userId, ...(keepSid === undefined ? {} : { keep: sessionDigest(keepSid) }) });
    },
    sessionEnded: (userId, sid) => live.publish({ type: 'signout', memberId: userId, only: sessionDigest(sid) }),
  };
  const users = new SqlUserRepository(records, new MemberCache(notices), notices);
  const outbox = workspaceOutbox(records);
  const mail = new MailQueue({ outbox, i18n: deps.i18n, now: () => clock.now() });
  const links = new SqlLinkTokens(records);
  const auth = new AuthService({ users, sessions: revoker, clock, jwtSecret: settings.jwtSecret, links, mail });
  const brandRepository = new SqlBrandRepository(records, notices);
  const brands = new BrandsService({ brands: brandRepository, clock });
  const members = new MembersService({ users, brands: brandRepository, sessions: revoker, clock, mail, links, live });
  const campaigns = new CampaignsService({ campaigns: new SqlCampaignRepository(records), brands, live, clock });
  const assetRepository = new SqlAssetRepository(records);
  const notificationChoices = new SqlNotificationSettings(records);
  const notifications = new NotificationsService({ notifications: new SqlNotificationRepository(records), settings: notificationChoices, users, mail, live, clock });
  const notificationSettings = new NotificationSettingsService({ settings: notificationChoices, users, links: new UnsubscribeLinks(settings.sessionSecret), timeZone: settings.timeZone });
  const posts = new PostsService({ posts: new SqlPostRepository(records), campaigns, brands, attachments: attachmentCatalog(assetRepository), users, notifier: notifications, live, clock });
  const placement = new Placement({ brands, campaigns, posts });
  const assets = new AssetsService({ assets: assetRepository, files, placement, posts, live, clock });
  const avatars = new AvatarsService({ files, users });
  const projects = new ProjectsService({ projects: new SqlProjectRepository(records), brands, clock });
  const tasks = new TasksService({ tasks: new SqlTaskRepository(records), placement, projects, users, notifier: notifications, live, clock });
  const comments = new CommentsService({ comments: new SqlCommentRepository(records), posts, tasks, users, notifier: notifications, live, clock });
  const liveEvents = new LiveEvents({ channel: deps.events, streams: deps.streams, users, notices, posts, tasks, assets, comments, notifications, logger: deps.logger });
  const budget = new BudgetService({ budget: new SqlBudgetRepository(records), campaigns, clock });
  const search = new SearchService({ search: new SqlSearchRepository(records) });

  const access = workspaceAccess({ auth, store: sessionStore, secret: settings.sessionSecret, secure: settings.cookieSecure });
  const uploadLimits = { files, maxFiles: settings.upload.maxFiles, maxBytes: settings.upload.maxBytes };
  const router = Router();
  const devices = new DeviceCookies({ name: DEVICE_COOKIE, path: '/api/auth', secret: settings.sessionSecret, secure: settings.cookieSecure, clock });
  router.use('/api/auth/me/avatar', access.signedIn, ownAvatarRoutes(avatars));
  router.use('/api/auth/me/notifications-settings', access.signedIn, notificationSettingsRoutes(notificationSettings));
  router.use('/api/auth', access.api, authRoutes({ auth, clock, cookieSecure: settings.cookieSecure, attempts: deps.attempts, devices }));
  router.use('/api/members', access.signedIn, membersRoutes({ members, attempts: deps.attempts, clock }));
  router.use('/api/brands', access.signedIn, brandsRoutes(brands));
  router.use('/api/campaigns', access.signedIn, campaignsRoutes(campaigns));
  router.use('/api/tracks', access.signedIn, tracksRoutes(campaigns));
  router.use('/api/posts', access.signedIn, postsRoutes(posts), threadRoutes(comments, 'post'));
  router.use('/api/comments', access.signedIn, commentsRoutes(comments));
  router.use('/api/notifications', access.signedIn, notificationsRoutes(notifications));
  // Signing in is checked inside: an upload refused early must also close its connection.
  router.use('/api/assets', access.api, assetsRoutes(assets, uploadLimits));
  // Read-only first: other methods answer 405 whoever asks.
  router.use('/api/uploads', access.api, uploadsRoutes(assets));
  router.use('/api/avatars', access.signedIn, avatarFilesRoutes(avatars));
  router.use('/api/tasks', access.signedIn, tasksRoutes(tasks), threadRoutes(comments, 'task'));
  router.use('/api/projects', access.signedIn, projectsRoutes(projects));
  router.use('/api/budget-entries', access.signedIn, budgetRoutes(budget));
  router.use('/api/search', access.signedIn, searchRoutes(search));
  router.use('/api/events', access.signedIn, eventsRoutes(liveEvents));
  // Before the outbox's routes and without the sign-in: a mail program posts here with no cookie.
  router.use('/api/mail/unsubscribe', unsubscribeRoutes({ settings: notificationSettings, i18n: deps.i18n }));
  router.use('/api/mail', access.signedIn, mailRoutes(new MailService({ outbox, clock })));
  router.use(['/login', '/change-password', '/forgot-password', '/reset-password', '/workspace'], access.identify);
  router.use(workspacePages({ uploadMaxBytes: settings.upload.maxBytes, uploadMaxFiles: settings.upload.maxFiles, projects, auth, notificationSettings }));
  return { router, auth, sessionStore };
}

/**
 * What the mail worker needs of the workspace: its outbox, and the writer of each kind of mail,
 * which reads the records as they are when the mail's turn comes.
 */
export function createWorkspaceMail(
  deps: Pick<WorkspaceDeps, 'records' | 'notices' | 'clock' | 'i18n'> & { publicUrl: string; timeZone: string; sessionSecret: string },
): { outbox: OutboxRepository; compose: Composer } {
  const { records, clock } = deps;
  const users = new SqlUserRepository(records, new MemberCache(deps.notices), deps.notices);
  const brands = new SqlBrandRepository(records, deps.notices);
  const links = new SqlLinkTokens(records);
  return {
    outbox: workspaceOutbox(records),
    compose: workspaceComposer({
      users,
      i18n: deps.i18n,
      publicUrl: deps.publicUrl,
      timeZone: deps.timeZone,
      writers: {
        ...passwordMailWriters({ links, clock }),
        ...invitationMailWriter({ links, users, brands, clock }),
        ...notificationMailWriters({ notifications: new SqlNotificationRepository(records), settings: new SqlNotificationSettings(records), links: new UnsubscribeLinks(deps.sessionSecret) }),
      },
    }),
  };
}

/** The daily digests' scheduler, which each instance runs beside its mail worker. */
export function createWorkspaceDigests(deps: Pick<WorkspaceDeps, 'records' | 'clock' | 'i18n' | 'logger'> & { timeZone: string }): DigestScheduler {
  const { records, clock } = deps;
  const mail = new MailQueue({ outbox: workspaceOutbox(records), i18n: deps.i18n, now: () => clock.now() });
  return new DigestScheduler({ settings: new SqlNotificationSettings(records), mail, clock, logger: deps.logger, timeZone: deps.timeZone });
}
