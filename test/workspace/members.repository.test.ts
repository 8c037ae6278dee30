import { describe, expect, it } from 'vitest';
import { SqliteUserRepository } from '../../src/workspace/members/repository';
import { buildWorkspace } from '../support/workspace';

// The repository keeps user records in memory once read (every signed-in request reads
// one); these tests prove that no change to a user, by any path, is served stale.
describe('SqliteUserRepository.get, kept records', () => {
  it('when a user row is changed by any statement on the connection, then the next read shows the change', async () => {
    const ws = await buildWorkspace();
    const user = await ws.user('contributor');
    expect((await ws.members.get(user.id))?.role).toBe('contributor');
    ws.workspaceDb.prepare("UPDATE users SET role = 'manager', token_version = token_version + 1 WHERE id = ?").run(user.id);
    const read = await ws.members.get(user.id);
    expect(read?.role).toBe('manager');
    expect(read?.tokenVersion).toBe(user.record.tokenVersion + 1);
  });

  it('when a brand is deleted and the cascade removes the membership, then the next read no longer lists the brand', async () => {
    const ws = await buildWorkspace();
    const [kept, gone] = [await ws.brand(), await ws.brand()];
    const user = await ws.user('manager', { brandIds: [kept.id, gone.id] });
    expect((await ws.members.get(user.id))?.brandIds).toEqual([kept.id, gone.id].sort((a, b) => a - b));
    ws.workspaceDb.prepare('DELETE FROM brands WHERE id = ?').run(gone.id);
    expect((await ws.members.get(user.id))?.brandIds).toEqual([kept.id]);
  });

  it('when a membership row is added or moved directly, then the next read shows it', async () => {
    const ws = await buildWorkspace();
    const [first, second] = [await ws.brand(), await ws.brand()];
    const user = await ws.user('contributor');
    expect((await ws.members.get(user.id))?.brandIds).toEqual([]);
    ws.workspaceDb.prepare('INSERT INTO user_brands (user_id, brand_id) VALUES (?, ?)').run(user.id, first.id);
    expect((await ws.members.get(user.id))?.brandIds).toEqual([first.id]);
    ws.workspaceDb.prepare('UPDATE user_brands SET brand_id = ? WHERE user_id = ?').run(second.id, user.id);
    expect((await ws.members.get(user.id))?.brandIds).toEqual([second.id]);
  });

  it('when a user is deleted, then the next read finds nobody', async () => {
    const ws = await buildWorkspace();
    await ws.user('superadmin');
    const user = await ws.user('contributor');
    await ws.members.get(user.id);
    expect(await ws.members.delete(user.id)).toBe('deleted');
    expect(await ws.members.get(user.id)).toBeUndefined();
  });

  it('when a transaction changed a user, read it, and rolled back, then later reads show the committed record', async () => {
    const ws = await buildWorkspace();
    const user = await ws.user('contributor', { name: 'Committed' });
    await ws.members.get(user.id);
    const attempt = ws.workspaceDb.transaction(() => {
      ws.workspaceDb.prepare("UPDATE users SET name = 'Rolled back' WHERE id = ?").run(user.id);
      // The read inside the transaction runs before get's promise settles.
      void ws.members.get(user.id);
      throw new Error('abort');
    });
    expect(() => attempt()).toThrow('abort');
    expect((await ws.members.get(user.id))?.name).toBe('Committed');
  });

  it('when two repositories share a database, then a change through one is seen by the other', async () => {
    const ws = await buildWorkspace();
    const other = new SqliteUserRepository(ws.workspaceDb);
    const user = await ws.user('contributor');
    expect((await other.get(user.id))?.name).toBe(user.record.name);
    await ws.members.update(user.id, { name: 'Renamed' });
    expect((await other.get(user.id))?.name).toBe('Renamed');
  });

  it('when a caller tries to change a record it was given, then that throws and the next reader is unaffected', async () => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const user = await ws.user('manager', { brandIds: [brand.id] });
    const read = (await ws.members.get(user.id))!;
    expect(() => {
      (read as { role: string }).role = 'superadmin';
    }).toThrow(TypeError);
    expect(() => read.brandIds.push(999)).toThrow(TypeError);
    const again = (await ws.members.get(user.id))!;
    expect(again.role).toBe('manager');
    expect(again.brandIds).toEqual([brand.id]);
  });
});
