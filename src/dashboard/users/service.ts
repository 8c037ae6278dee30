import { BadRequest, Conflict, NotFound } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { outlive } from '../../platform/recent';
import { ACCESS_CONFIRM_MS, type AccessStamps } from './access-stamps';
import { NO_RESTRICTION, parseAllowed, serializeAllowed } from '../access';
import { isWeakPin, pinsEqual, randomPin } from '../pins';
import type { AuditTrail } from '../audit/service';
import { DASHBOARD_ROLES, type DashboardRole } from '../domain';
import type { AuditContext } from '../request';
import type { UserRecord, UserRecordPatch, UserRecordStore } from './repository';


/** The roles that see every museum and channel, whatever lists their record holds. */
export const UNRESTRICTED_ROLES: readonly DashboardRole[] = ['admin'];

const isUnrestricted = (role: string) => (UNRESTRICTED_ROLES as readonly string[]).includes(role);

/**
 * An administrator sees everything, so a museum or channel list on their record would only
 * mislead whoever reads it (a badge saying "3 museums" of someone who sees all of them).
 */
function assertListsFitRole(role: string, lists: { allowedMuseums: string[] | null; allowedChannels: string[] | null }): void {
  const issues = (['allowedMuseums', 'allowedChannels'] as const)
    .filter((field) => (lists[field]?.length ?? 0) > 0)
    .map((path) => ({ path, message: 'must be empty for an administrator, who sees every museum and channel' }));
  if (isUnrestricted(role) && issues.length > 0) throw new BadRequest('An administrator sees everything: leave the access lists empty', 'VALIDATION', { issues });
}

/** What a user's sessions hold of the record (docs/decisions.md, The Dashboard), defaults applied. */
export interface SessionFields {
  name: string;
  role: string;
  allowedMuseums: string;
  allowedChannels: string;
}

export function sessionFieldsOf(record: UserRecord): SessionFields {
  return {
    name: record.name,
    role: record.role.trim() === '' ? DASHBOARD_ROLES[0] : record.role.trim(),
    allowedMuseums: record.allowedMuseums ?? NO_RESTRICTION,
    allowedChannels: record.allowedChannels ?? NO_RESTRICTION,
  };
}

/** The live sessions that follow their user's record. */
export interface UserSessions {
  updateUser(userId: number, fields: Partial<SessionFields> & { stamp?: number }): Promise<void>;
  deleteUser(userId: number): Promise<void>;
}

/** What the users API shows of a record: never the PIN. */
export interface PublicUser {
  id: number;
  name: string;
  role: string;
  /** null when the stored list cannot be read (the user then sees no data). */
  allowedMuseums: string[] | null;
  allowedChannels: string[] | null;
  /** The PIN is shorter than new PINs may be: it still signs in, but should be replaced. */
  weakPin: boolean;
  /** Where scheduled reports go; null when none is known. */
  email: string | null;
}

/** A record as the users API shows it: an administrator's access is everything, whatever an old record holds. */
export function toPublicUser(record: UserRecord): PublicUser {
  const session = sessionFieldsOf(record);
  const unrestricted = isUnrestricted(session.role);
  return {
    id: record.id,
    name: record.name,
    role: session.role,
    allowedMuseums: unrestricted ? [] : parseAllowed(session.allowedMuseums),
    allowedChannels: unrestricted ? [] : parseAllowed(session.allowedChannels),
    weakPin: isWeakPin(record.pin),
    email: record.email || null,
  };
}

/** The administrator making a change: who the audit trail names, and who the record of PIN conflicts names. */
export interface AdminActor extends AuditContext {
  userId: number | null;
  address: string;
}

export interface NewUser {
  name: string;
  /** Chosen by the administrator; left out, the server makes one and shows it once. */
  pin?: string;
  role: DashboardRole;
  allowedMuseums?: string[];
  allowedChannels?: string[];
  email?: string | null;
}

export interface UserChange {
  name?: string;
  role?: DashboardRole;
  allowedMuseums?: string[];
  allowedChannels?: string[];
  /** null removes it. */
  email?: string | null;
}

/** A user with a PIN that the server made: the only time that PIN is ever shown. */
export interface WithPin {
  user: PublicUser;
  pin?: string;
}

/** A generated PIN that happens to be taken is simply drawn again; this many draws never all clash. */
const PIN_DRAWS = 5;

export class DashboardUsersService {
  constructor(
    private readonly deps: { users: UserRecordStore; sessions: UserSessions; stamps: AccessStamps; adminPin: string | undefined; logger: Logger; trail: AuditTrail },
  ) {}

  async list(): Promise<PublicUser[]> {
    return (await this.deps.users.list()).map(toPublicUser);
  }

  async create(actor: AdminActor, input: NewUser): Promise<WithPin> {
    assertListsFitRole(input.role, { allowedMuseums: input.allowedMuseums ?? [], allowedChannels: input.allowedChannels ?? [] });
    const fields = {
      name: input.name,
      role: input.role,
      allowedMuseums: serializeAllowed(input.allowedMuseums ?? []),
      allowedChannels: serializeAllowed(input.allowedChannels ?? []),
      ...(input.email ? { email: input.email } : {}),
    };
    const record = await this.withFreePin(actor, input.pin, (pin) => this.deps.users.create({ ...fields, pin }));
    const user = toPublicUser(record.value);
    await this.deps.trail.record(actor, 'userCreated', { target: `user:${user.id}`, targetName: user.name, after: user });
    return { user, pin: input.pin === undefined ? record.pin : undefined };
  }

  /**
   * Replaces a user's PIN (made by the server unless one is given) and ends the sessions
   * opened with the old one, as a PIN is replaced when it may have leaked.
   */
  async newPin(actor: AdminActor, id: number, chosen: string | undefined): Promise<WithPin> {
    await this.deps.stamps.bump(id, true);
    const record = await this.withFreePin(actor, chosen, (pin) => this.deps.users.update(id, { pin }));
    await this.followed(id, true, () => this.deps.sessions.deleteUser(id));
    const user = toPublicUser(record.value);
    // Whether the administrator chose the PIN says who has known it; the PIN itself is never written.
    await this.deps.trail.record(actor, 'pinReset', { target: `user:${id}`, targetName: user.name, after: { pinMadeBy: chosen === undefined ? 'generated' : 'chosen' } });
    return { user, pin: chosen === undefined ? record.pin : undefined };
  }

  /** Changes a record and, at once, every live session that belongs to it. */
  async update(actor: AuditContext, id: number, change: UserChange): Promise<PublicUser> {
    const current = await this.deps.users.get(id);
    if (change.role !== undefined || change.allowedMuseums !== undefined || change.allowedChannels !== undefined) {
      if (!current) throw new NotFound('No such user', 'USER_NOT_FOUND');
      const stored = sessionFieldsOf(current);
      assertListsFitRole(change.role ?? stored.role, {
        allowedMuseums: change.allowedMuseums ?? parseAllowed(stored.allowedMuseums),
        allowedChannels: change.allowedChannels ?? parseAllowed(stored.allowedChannels),
      });
    }
    const patch: UserRecordPatch = {};
    if (change.name !== undefined) patch.name = change.name;
    if (change.role !== undefined) patch.role = change.role;
    if (change.allowedMuseums !== undefined) patch.allowedMuseums = serializeAllowed(change.allowedMuseums);
    if (change.allowedChannels !== undefined) patch.allowedChannels = serializeAllowed(change.allowedChannels);
    if (change.email !== undefined) patch.email = change.email ?? '';
    await this.deps.stamps.bump(id, false);
    const record = await this.deps.users.update(id, patch);
    if (!record) throw new NotFound('No such user', 'USER_NOT_FOUND');
    if (record === 'pin-taken') throw pinTaken();
    await this.followed(id, false, (stamp) => this.deps.sessions.updateUser(id, { ...sessionFieldsOf(record), stamp }));
    const user = toPublicUser(record);
    await this.deps.trail.record(actor, 'userChanged', { target: `user:${id}`, targetName: user.name, before: current && toPublicUser(current), after: user });
    return user;
  }

  /** Removes a record and ends its sessions. */
  async remove(actor: AuditContext, id: number): Promise<void> {
    const before = await this.deps.users.get(id);
    await this.deps.stamps.bump(id, true);
    if (!(await this.deps.users.delete(id))) throw new NotFound('No such user', 'USER_NOT_FOUND');
    await this.followed(id, true, () => this.deps.sessions.deleteUser(id));
    const user = before && toPublicUser(before);
    await this.deps.trail.record(actor, 'userDeleted', { target: `user:${id}`, targetName: user?.name, before: user });
  }

  /**
   * The user's live sessions after a committed change. The stamp moved before the write,
   * so that a store that cannot take it refuses the change before anything is written; it
   * moves again now, as a session refreshed in between may hold the record as it was. Then
   * the sessions hear of it at once. The change being committed, neither may fail it: a
   * session store that cannot be told delays the answer until every instance has looked at
   * the stamps again, so the change is in force everywhere when it is answered.
   */
  private async followed(id: number, ending: boolean, tell: (stamp: number | undefined) => Promise<void>): Promise<void> {
    let stamp: number | undefined;
    try {
      stamp = await this.deps.stamps.bump(id, ending);
    } catch (err) {
      this.deps.logger.error({ err, userId: id }, 'the access stamp of a changed user could not move after the change');
    }
    // Every look at the stamps begun from now on sees the last move.
    const since = Date.now();
    try {
      await tell(stamp);
    } catch (err) {
      this.deps.logger.warn({ err, userId: id }, "a user's live sessions could not be told of a change; each instance confirms them by the access stamps");
      await outlive(since, ACCESS_CONFIRM_MS);
    }
  }

  /**
   * Runs `write` with the chosen PIN, or with random ones until one is free. A chosen PIN
   * that is taken tells its chooser that someone has it, so each such answer is recorded
   * (and throttled by the route).
   */
  private async withFreePin(
    actor: AdminActor,
    chosen: string | undefined,
    write: (pin: string) => Promise<UserRecord | 'pin-taken' | undefined>,
  ): Promise<{ value: UserRecord; pin: string }> {
    for (let draw = 0; draw < PIN_DRAWS; draw += 1) {
      const pin = chosen ?? randomPin();
      const { adminPin } = this.deps;
      const result = adminPin !== undefined && pinsEqual(pin, adminPin) ? 'pin-taken' : await write(pin);
      if (result === undefined) throw new NotFound('No such user', 'USER_NOT_FOUND');
      if (result !== 'pin-taken') return { value: result, pin };
      if (chosen !== undefined) {
        this.deps.logger.warn({ event: 'pin-conflict', by: actor.actor, byUserId: actor.userId, address: actor.address }, 'an administrator chose a PIN that another user has');
        throw pinTaken();
      }
    }
    throw new Conflict('No free PIN was found; try again', 'PIN_TAKEN');
  }
}

function pinTaken() {
  return new Conflict('This PIN is already in use', 'PIN_TAKEN');
}
