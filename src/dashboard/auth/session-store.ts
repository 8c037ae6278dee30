/** What application A keeps per signed-in client (docs/decisions.md, The Dashboard). */
export interface DashboardSession {
  name: string;
  role: string;
  createdAt: number;
  allowedMuseums: string;
  allowedChannels: string;
  /** The user record behind the session; null for the administrator PIN. */
  userId: number | null;
  /** The user's access stamp when the fields above were copied from the record (0 or absent: never changed). */
  stamp?: number;
}

/** What a change to a user record tells its live sessions. */
export type SessionPatch = Partial<Pick<DashboardSession, 'name' | 'role' | 'allowedMuseums' | 'allowedChannels' | 'stamp'>>;

/**
 * Sessions by id. Async so that a shared store (Redis) can replace the in-memory map when
 * several instances serve one address.
 */
export interface SessionStore {
  get(id: string): Promise<DashboardSession | undefined>;
  set(id: string, session: DashboardSession): Promise<void>;
  delete(id: string): Promise<void>;
  /** Writes `session` over the one stored under `id`, only while that one still exists. */
  replace(id: string, session: DashboardSession): Promise<void>;
  /** Applies a change to every live session of one user record. */
  updateUser(userId: number, patch: SessionPatch): Promise<void>;
  deleteUser(userId: number): Promise<void>;
  /** Removes every session created before `cutoff`; returns how many went. */
  deleteCreatedBefore(cutoff: number): Promise<number>;
  size(): Promise<number>;
}

export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, DashboardSession>();
  private readonly byUser = new Map<number, Set<string>>();

  async get(id: string) {
    return this.sessions.get(id);
  }

  async set(id: string, session: DashboardSession) {
    await this.delete(id);
    this.sessions.set(id, session);
    if (session.userId !== null) {
      let ids = this.byUser.get(session.userId);
      if (!ids) this.byUser.set(session.userId, (ids = new Set()));
      ids.add(id);
    }
  }

  async delete(id: string) {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    if (session.userId !== null) {
      const ids = this.byUser.get(session.userId);
      ids?.delete(id);
      if (ids && ids.size === 0) this.byUser.delete(session.userId);
    }
  }

  async replace(id: string, session: DashboardSession) {
    if (this.sessions.has(id)) this.sessions.set(id, session);
  }

  async updateUser(userId: number, patch: SessionPatch) {
    for (const id of this.byUser.get(userId) ?? []) {
      const session = this.sessions.get(id);
      if (session) Object.assign(session, patch);
    }
  }

  async deleteUser(userId: number) {
    for (const id of this.byUser.get(userId) ?? []) this.sessions.delete(id);
    this.byUser.delete(userId);
  }

  async deleteCreatedBefore(cutoff: number) {
    let removed = 0;
    for (const [id, session] of this.sessions) {
      if (session.createdAt < cutoff) {
        await this.delete(id);
        removed += 1;
      }
    }
    return removed;
  }

  async size() {
    return this.sessions.size;
  }
}
