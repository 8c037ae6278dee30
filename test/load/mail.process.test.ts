import net from 'node:net';
import path from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { tempDir } from '../support/app';
import { linkIn } from '../support/mail';
import { describePostgres, migratedDatabase } from '../support/postgres';
import { startSmtpForTest } from '../support/smtp';
import { callServer, useServerProcesses } from '../support/workspace';

const ADMIN = { email: 'admin@mail-process.test', password: 'First-start-2026' };
const NEW_PASSWORD = 'Mail-goes-once-1';
/** Short enough that the claim of a killed sender ends while the test waits, long enough for a send. */
const LEASE_MS = '2000';

const start = useServerProcesses();

/** An SMTP server that takes connections and never says a word: a send to it waits on its timeouts. */
async function silentSmtp(): Promise<string> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `smtp://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

function serverEnv(dir: string, more: Record<string, string>): Record<string, string> {
  return {
    DATA_DIR: path.join(dir, 'data'),
    UPLOAD_DIR: path.join(dir, 'uploads'),
    ADMIN_PIN: '246813',
    DEFAULT_ADMIN_EMAIL: ADMIN.email,
    DEFAULT_ADMIN_PASSWORD: ADMIN.password,
    PUBLIC_URL: 'http://workspace.example',
    TEST_LOCK_LEASE_MS: LEASE_MS,
    ...more,
  };
}

/** Signs the first superadmin in, choosing their own password the first time; answers a bearer token. */
async function adminToken(url: string): Promise<string> {
  const first = await callServer(url, 'POST', '/api/auth/login', undefined, ADMIN);
  if (first.status === 401) return (await callServer(url, 'POST', '/api/auth/login', undefined, { email: ADMIN.email, password: NEW_PASSWORD })).body.token as string;
  expect(first.status).toBe(200);
  const changed = await callServer(url, 'POST', '/api/auth/password', first.body.token, { currentPassword: ADMIN.password, newPassword: NEW_PASSWORD });
  expect(changed.status).toBe(200);
  return changed.body.token as string;
}

describe('mail across a crash (node dist/server.js, SIGKILL)', () => {
  it('when the server is killed right after it answered a reset request, then the restarted server sends that mail and its link works', async () => {
    const dir = tempDir('mail-crash-');
    const smtp = await startSmtpForTest();
    // The first server's sender hangs on a silent SMTP server, so the kill finds the mail claimed and unsent.
    const first = await start(serverEnv(dir, { SMTP_URL: await silentSmtp() }));
    await adminToken(first.url);
    const asked = await callServer(first.url, 'POST', '/api/auth/password-reset', undefined, { email: ADMIN.email });
    expect(asked.status).toBe(202);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await start(serverEnv(dir, { SMTP_URL: smtp.url }));
    // Both mails the first server committed: the notice of the first password change, and the reset link.
    const mails = await smtp.waitFor(2, 30_000);
    expect(mails.map((m) => m.to)).toEqual([[ADMIN.email], [ADMIN.email]]);
    const mail = mails.find((m) => m.parsed.text?.includes('/reset-password'));
    expect(mail, 'the reset mail').toBeDefined();
    expect(smtp.received, 'each mail once').toHaveLength(2);
    const token = new URL(linkIn(mail!, 'http://workspace.example/reset-password')).searchParams.get('token')!;
    const reset = await callServer(second.url, 'POST', '/api/auth/password-reset/confirm', undefined, { token, newPassword: 'After-the-kill-2' });
    expect(reset.status).toBe(200);
    expect((await callServer(second.url, 'POST', '/api/auth/login', undefined, { email: ADMIN.email, password: 'After-the-kill-2' })).status).toBe(200);
  });
});

describePostgres('mail from two instances on one PostgreSQL database', () => {
  it('when both instances send from one outbox, then each queued mail reaches its recipient exactly once', async () => {
    const database = await migratedDatabase();
    const smtp = await startSmtpForTest();
    const env = () => serverEnv(tempDir('mail-two-'), { DATABASE_URL: database, SMTP_URL: smtp.url, JWT_SECRET: '', SESSION_SECRET: '' });
    const a = await start(env(), 60_000);
    const b = await start(env(), 60_000);
    const token = await adminToken(a.url);
    const brandId = (await callServer(a.url, 'GET', '/api/auth/me', token)).body.user.brandIds[0] as number;

    const INVITES = 24;
    const invited = await Promise.all(
      Array.from({ length: INVITES }, async (_, i) => {
        const email = `invitee${i}@mail-process.test`;
        const res = await callServer(i % 2 ? b.url : a.url, 'POST', '/api/members', token, { name: `Invitee ${i}`, email, role: 'contributor', brandIds: [brandId] });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return email;
      }),
    );

    await smtp.waitFor(INVITES, 60_000);
    // Every row marked sent: nothing is left that either instance could send again.
    await vi.waitFor(
      async () => {
        const outbox = await callServer(b.url, 'GET', '/api/mail?limit=200', token);
        const invitations = (outbox.body.messages as { kind: string; status: string }[]).filter((m) => m.kind === 'invitation');
        expect(invitations.map((m) => m.status)).toEqual(Array(INVITES).fill('sent'));
      },
      { timeout: 20_000, interval: 200 },
    );
    const recipients = smtp.received.filter((m) => m.parsed.subject?.includes('invited')).flatMap((m) => m.to);
    expect(recipients.sort()).toEqual([...invited].sort());
  });
});
