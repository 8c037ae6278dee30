import { request } from '../support/http';
import { describe, expect, it } from 'vitest';
import { prepareWorkspace, DEFAULT_BRAND_NAME } from '../../src/workspace/bootstrap';
import { createLogger } from '../../src/platform/logger';
import { captureLogs } from '../support/logs';
import { buildWorkspace } from '../support/workspace';
import { rowCount } from '../support/records';

describe('prepareWorkspace', () => {
  it('when the workspace is empty, then the default superadmin exists, must change the password and belongs to the default brand', async () => {
    const ws = await buildWorkspace({ env: { DEFAULT_ADMIN_EMAIL: 'Boss@Museum.test', DEFAULT_ADMIN_PASSWORD: 'First-start-2026' } });
    await prepareWorkspace(ws.stores.records.workspace, ws.config.defaultAdmin, createLogger('silent'), ws.clock);

    const login = await request(ws.app).post('/api/auth/login').send({ email: 'boss@museum.test', password: 'First-start-2026' });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ role: 'superadmin', mustChangePassword: true, profileCompleted: false, onboardingCompleted: false });
    expect(login.body.user.brandIds).toHaveLength(1);

    const blocked = await ws.as(login.body.token).get('/api/brands');
    expect(blocked.status).toBe(403);
    expect(blocked.body.code).toBe('PASSWORD_CHANGE_REQUIRED');

    const changed = await ws.as(login.body.token).post('/api/auth/password').send({ currentPassword: 'First-start-2026', newPassword: 'My-own-password-1' });
    expect(changed.status).toBe(200);
    const brands = await ws.as(changed.body.token).get('/api/brands');
    expect(brands.body.brands).toEqual([expect.objectContaining({ id: login.body.user.brandIds[0], name: DEFAULT_BRAND_NAME })]);
  });

  it('when run again, then nothing is added and a changed password is kept', async () => {
    const ws = await buildWorkspace();
    await prepareWorkspace(ws.stores.records.workspace, ws.config.defaultAdmin, createLogger('silent'), ws.clock);
    const first = await request(ws.app).post('/api/auth/login').send({ email: ws.config.defaultAdmin.email, password: ws.config.defaultAdmin.password });
    await ws.as(first.body.token).post('/api/auth/password').send({ currentPassword: ws.config.defaultAdmin.password, newPassword: 'My-own-password-1' });
    await prepareWorkspace(ws.stores.records.workspace, ws.config.defaultAdmin, createLogger('silent'), ws.clock);
    expect(await rowCount(ws.stores.records.workspace, 'users')).toBe(1);
    expect(await rowCount(ws.stores.records.workspace, 'brands')).toBe(1);
    expect((await request(ws.app).post('/api/auth/login').send({ email: ws.config.defaultAdmin.email, password: 'My-own-password-1' })).status).toBe(200);
  });

  it('when it logs, then neither the password nor its hash appears', async () => {
    const ws = await buildWorkspace();
    const logs = captureLogs();
    await prepareWorkspace(ws.stores.records.workspace, ws.config.defaultAdmin, logs.logger, ws.clock);
    const output = logs.text();
    expect(output).toContain(ws.config.defaultAdmin.email);
    expect(output).not.toContain(ws.config.defaultAdmin.password);
    expect(output).not.toMatch(/\$2b\$/);
  });
});
