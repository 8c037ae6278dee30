import { expect, it } from 'vitest';
import type { NewMail } from '../../../src/platform/mail/outbox';
import { DEFAULT_NOTIFICATION_DELIVERIES } from '../../../src/workspace/domain';
import { SqlNotificationSettings } from '../../../src/workspace/notifications/repository';
import { describeEngines, rowCount } from '../../support/records';
import { at, NOW, repositories } from './fixtures';

const mailFor = (userId: number, params: Record<string, unknown>): NewMail => ({ kind: 'notification', userId, to: 'reader@example.test', subject: 'New', params });

describeEngines('SqlNotificationRepository: mail written with the notifications', (kind) => {
  it('when notifications are added with their mail, then each mail names its own notification; when writing the mail fails, neither is stored', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const [reader, other, actor] = [await r.member({ brandIds: [brand.id] }), await r.member({ brandIds: [brand.id] }), await r.member({ brandIds: [brand.id] })];
    const post = await r.post(brand.id);
    const rows = [
      { userId: reader.id, kind: 'review_requested' as const, postId: post.id, taskId: null, actorId: actor.id, count: 1, createdAt: NOW },
      { userId: other.id, kind: 'review_requested' as const, postId: post.id, taskId: null, actorId: actor.id, count: 3, createdAt: NOW },
    ];
    await r.notifications.add(rows, { now: Date.parse(NOW), mails: (stored) => stored.map((s) => mailFor(s.notification.userId, { notificationId: s.id })) });
    const mails = await r.records.db.selectFrom('mail_outbox').select(['user_id', 'params']).orderBy('id').execute();
    for (const mail of mails) {
      const notification = await r.notifications.get((JSON.parse(mail.params) as { notificationId: number }).notificationId);
      expect(notification?.userId).toBe(mail.user_id);
    }
    expect(mails.map((m) => m.user_id).sort()).toEqual([reader.id, other.id].sort());
    await expect(
      r.notifications.add(rows, {
        now: Date.parse(NOW),
        mails: () => {
          throw new Error('the outbox cannot be written');
        },
      }),
    ).rejects.toThrow('the outbox cannot be written');
    expect(await rowCount(r.records, 'notifications')).toBe(2);
    expect(await rowCount(r.records, 'mail_outbox')).toBe(2);
  });

  it('when unread notifications of some kinds are asked for in a span, then only those, oldest first, and counted alike', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const [reader, actor] = [await r.member({ brandIds: [brand.id] }), await r.member({ brandIds: [brand.id] })];
    const post = await r.post(brand.id);
    const note = (kind: 'assigned' | 'commented' | 'mentioned', minutes: number) => ({ userId: reader.id, kind, postId: post.id, taskId: null, actorId: actor.id, count: 1, createdAt: at(minutes) });
    await r.notifications.add([note('commented', 1), note('mentioned', 2), note('assigned', 3), note('commented', 5)]);
    const [read] = (await r.notifications.list(reader.id, { limit: 10, unreadOnly: false })).filter((n) => n.createdAt === at(3));
    await r.notifications.markRead(reader.id, [read.id], at(4));
    const query = { kinds: ['commented', 'assigned'] as const, after: at(1), upTo: at(5) };
    expect((await r.notifications.unread(reader.id, { ...query, limit: 10 })).map((n) => [n.kind, n.createdAt])).toEqual([['commented', at(5)]]);
    expect((await r.notifications.unread(reader.id, { ...query, after: null, limit: 10 })).map((n) => n.createdAt)).toEqual([at(1), at(5)]);
    expect(await r.notifications.unread(reader.id, { ...query, kinds: [], limit: 10 })).toEqual([]);
  });
});

describeEngines('SqlNotificationSettings', (kind) => {
  it('when members choose, then their choices are kept over the defaults, one member’s apart from another’s, and a choice can change again', async () => {
    const r = await repositories(kind);
    const settings = new SqlNotificationSettings(r.records);
    const [me, you] = [await r.member(), await r.member()];
    expect((await settings.deliveries([me.id])).get(me.id)).toEqual(DEFAULT_NOTIFICATION_DELIVERIES);
    await settings.save(me.id, { mentioned: 'app', approved: 'email' });
    await settings.save(me.id, { approved: 'digest' });
    const found = await settings.deliveries([me.id, you.id]);
    expect(found.get(me.id)).toEqual({ ...DEFAULT_NOTIFICATION_DELIVERIES, mentioned: 'app', approved: 'digest' });
    expect(found.get(you.id)).toEqual(DEFAULT_NOTIFICATION_DELIVERIES);
    await r.users.delete(me.id);
    expect(await rowCount(r.records, 'notification_settings')).toBe(0);
  });

  it('when two schedulers claim the same member’s digest day at once, then one claims it and writes the mail, the other finds the day taken', async () => {
    const r = await repositories(kind);
    const settings = new SqlNotificationSettings(r.records);
    const brand = await r.brand();
    const [reader, actor] = [await r.member({ brandIds: [brand.id] }), await r.member({ brandIds: [brand.id] })];
    const post = await r.post(brand.id);
    await r.notifications.add([{ userId: reader.id, kind: 'commented', postId: post.id, taskId: null, actorId: actor.id, count: 1, createdAt: at(1) }]);
    await Promise.all([settings.startDigests(reader.id, '2026-11-24'), settings.startDigests(reader.id, '2026-11-20')]);
    expect((await settings.digestMembers()).find((m) => m.id === reader.id)?.lastDay).toBe('2026-11-24');
    const claim = () => settings.claimDigest({ userId: reader.id, day: '2026-11-25', now: at(10), kinds: ['commented'], mail: (span) => mailFor(reader.id, { ...span }) });
    const claims = await Promise.all([claim(), claim(), claim()]);
    expect(claims.filter((c) => c !== false)).toEqual([{ span: { after: null, upTo: at(10) }, unread: 1 }]);
    expect(await rowCount(r.records, 'mail_outbox')).toBe(1);
    const next = await settings.claimDigest({ userId: reader.id, day: '2026-11-26', now: at(20), kinds: ['commented'], mail: (span) => mailFor(reader.id, { ...span }) });
    expect(next).toEqual({ span: { after: at(10), upTo: at(20) }, unread: 0 });
    expect(await rowCount(r.records, 'mail_outbox')).toBe(1);
  });
});
