import { Conflict, NotFound } from '../../platform/errors';
import { parseAllowed, serializeAllowed } from '../access';
import { pinsEqual, sessionFromRecord } from '../auth/service';
import type { SessionStore } from '../auth/session-store';
import type { UserRecord, UserRecordPatch, UserRecordStore } from './repository';

export type DashboardRole = 'admin' | 'viewer';

/** What the users API shows of a record: never the PIN. */
export interface PublicUser {
  id: number;
  name: string;
  role: string;
  /** null when the stored list cannot be read (the user then sees no data). */
  allowedMuseums: string[] | null;
  allowedChannels: string[] | null;
}

export function toPublicUser(record: UserRecord): PublicUser {
  const session = sessionFromRecord(record, 0);
  return {
    id: record.id,
    name: record.name,
    role: session.role,
    allowedMuseums: parseAllowed(session.allowedMuseums),
    allowedChannels: parseAllowed(session.allowedChannels),
  };
}

export interface NewUser {
  name: string;
  pin: string;
  role: DashboardRole;
  allowedMuseums?: string[];
  allowedChannels?: string[];
}

export interface UserChange {
  name?: string;
  role?: DashboardRole;
  allowedMuseums?: string[];
  allowedChannels?: string[];
}

export class DashboardUsersService {
  constructor(
    private readonly deps: { users: UserRecordStore; sessions: SessionStore; adminPin: string | undefined },
  ) {}

  async list(): Promise<PublicUser[]> {
    return (await this.deps.users.list()).map(toPublicUser);
  }

  async create(input: NewUser): Promise<PublicUser> {
    await this.assertPinFree(input.pin);
    const record = await this.deps.users.create({
      name: input.name,
      pin: input.pin,
      role: input.role,
      allowedMuseums: serializeAllowed(input.allowedMuseums ?? []),
      allowedChannels: serializeAllowed(input.allowedChannels ?? []),
    });
    return toPublicUser(record);
  }

  /** Changes a record and, at once, every live session that belongs to it. */
  async update(id: number, change: UserChange): Promise<PublicUser> {
    const patch: UserRecordPatch = {};
    if (change.name !== undefined) patch.name = change.name;
    if (change.role !== undefined) patch.role = change.role;
    if (change.allowedMuseums !== undefined) patch.allowedMuseums = serializeAllowed(change.allowedMuseums);
    if (change.allowedChannels !== undefined) patch.allowedChannels = serializeAllowed(change.allowedChannels);
    const record = await this.deps.users.update(id, patch);
    if (!record) throw new NotFound('No such user');
    const { name, role, allowedMuseums, allowedChannels } = sessionFromRecord(record, 0);
    await this.deps.sessions.updateUser(id, { name, role, allowedMuseums, allowedChannels });
    return toPublicUser(record);
  }

  /** Removes a record and ends its sessions. */
  async remove(id: number): Promise<void> {
    if (!(await this.deps.users.delete(id))) throw new NotFound('No such user');
    await this.deps.sessions.deleteUser(id);
  }

  private async assertPinFree(pin: string): Promise<void> {
    const { adminPin, users } = this.deps;
    const clash = (adminPin !== undefined && pinsEqual(pin, adminPin)) || (await users.list()).some((u) => pinsEqual(pin, u.pin));
    if (clash) throw new Conflict('This PIN is already in use', 'PIN_TAKEN');
  }
}
