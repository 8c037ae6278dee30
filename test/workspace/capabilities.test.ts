import { describe, expect, it } from 'vitest';
import { request, type HttpResponse } from '../support/http';
import { image } from '../support/files';
import { buildTeam, type TestUser } from '../support/workspace';
import { pageCapabilities } from '../../src/workspace/pages/context';
import { POST_STATUSES, type PostStatus } from '../../src/workspace/domain';
import type { PostPermissions } from '../../src/workspace/posts/service';

/**
 * Every `can` the API hands out is checked against what the API then does: each action it
 * offers succeeds, and each it withholds is refused (403, or 409 where the rule is about the
 * record's state). Each action runs on a record made for it, so that one does not change the
 * next; the reader's view of the record is read just before.
 */

/** The team, a second contributor of the brand, and a manager of another brand. */
async function cast() {
  const t = await buildTeam();
  const bystander = await t.ws.user('contributor', { brandIds: [t.brand.id] });
  const outsider = await t.ws.user('manager', { brandIds: [t.other.id] });
  const campaign = (await t.ws.as(t.manager).post('/api/campaigns').send({ name: 'Spring', brandId: t.brand.id })).body.campaign as { id: number };
  return { ...t, bystander, outsider, campaign };
}

type Cast = Awaited<ReturnType<typeof cast>>;
/** The readers of the brand each case runs for: owner is the contributor who made the record. */
const READERS = ['admin', 'manager', 'contributor', 'colleague'] as const;

const refused = (res: HttpResponse) => [403, 409].includes(res.status);
const succeeded = (res: HttpResponse) => res.status >= 200 && res.status < 300;

/** Checks that `res` is what `can` promised, naming the case when it is not. */
function agrees(res: HttpResponse, allowed: boolean, what: string): void {
  const ok = allowed ? succeeded(res) : refused(res);
  expect(ok, `${what}: can says ${allowed}, the API answered ${res.status} ${res.text}`).toBe(true);
}

/** A post of the contributor's, taken to `status` by the manager, with a moment and a link so that every move is possible. */
async function postIn(t: Cast, status: PostStatus): Promise<number> {
  const made = await t.ws.as(t.contributor).post('/api/posts').send({ title: `A post in ${status}`, campaignId: t.campaign.id, scheduledAt: '2026-06-10T10:00:00Z' });
  expect(made.status, made.text).toBe(201);
  const id = made.body.post.id as number;
  if (status !== 'idea') {
    const moved = await t.ws.as(t.manager).patch(`/api/posts/${id}`).send({ status, publicationUrl: 'https://museum.example/p/1' });
    expect(moved.status, moved.text).toBe(200);
  }
  return id;
}

type PostCan = PostPermissions;

async function postCan(t: Cast, who: TestUser, id: number): Promise<PostCan> {
  const res = await t.ws.as(who).get(`/api/posts/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body.post.can as PostCan;
}

describe('post.can', () => {
  it.each(['idea', 'review', 'approved', 'scheduled', 'published'] as const)(
    'when each reader gets a post in %s, then every action its can offers succeeds and every other is refused',
    async (status) => {
      const t = await cast();
      for (const reader of READERS) {
        const who = t[reader];
        const what = (action: string) => `${reader} ${action} a post in ${status}`;
        const can = await postCan(t, who, await postIn(t, status));

        let id = await postIn(t, status);
        agrees(await t.ws.as(who).patch(`/api/posts/${id}`).send({ title: 'Renamed' }), can.edit, what('edits'));
        id = await postIn(t, status);
        agrees(await t.ws.as(who).delete(`/api/posts/${id}`), can.delete, what('deletes'));
        id = await postIn(t, status);
        agrees(await t.ws.as(who).post(`/api/posts/${id}/comments`).send({ body: 'A word' }), can.comment, what('comments on'));
        id = await postIn(t, status);
        agrees(await t.ws.as(who).patch(`/api/posts/${id}`).send({ scheduledAt: '2026-06-11T10:00:00Z' }), can.reschedule, what('reschedules'));

        for (const to of POST_STATUSES.filter((s) => s !== status)) {
          id = await postIn(t, status);
          const res = await t.ws.as(who).patch(`/api/posts/${id}`).send({ status: to, comment: 'Because', publicationUrl: 'https://museum.example/p/1' });
          agrees(res, can.moves.includes(to), what(`moves to ${to}`));
          if (can.moves.includes(to)) {
            // A move that sends the post back needs its reason; no other does.
            id = await postIn(t, status);
            const bare = await t.ws.as(who).patch(`/api/posts/${id}`).send({ status: to, publicationUrl: 'https://museum.example/p/1' });
            expect(bare.status === 400 && bare.body.code === 'COMMENT_REQUIRED', what(`moves to ${to} without a reason: ${bare.status}`)).toBe(can.reasonFor.includes(to));
          }
        }

        if (status === 'review') {
          id = await postIn(t, status);
          agrees(await t.ws.as(who).patch(`/api/posts/${id}`).send({ status: 'approved' }), can.approve, what('approves'));
          expect(can.sendBack, what('may send back')).toBe(can.reasonFor.length > 0);
          if (can.sendBack) {
            id = await postIn(t, status);
            const back = await t.ws.as(who).patch(`/api/posts/${id}`).send({ status: can.reasonFor.at(-1), comment: 'Not yet' });
            expect(back.status, back.text).toBe(200);
          }
        } else {
          expect(can.approve || can.sendBack, what('is offered review actions')).toBe(false);
        }

        if (can.edit) {
          // The form sends the status the post has: the approval stays unless `editReopens` says otherwise.
          id = await postIn(t, status);
          const edited = await t.ws.as(who).patch(`/api/posts/${id}`).send({ caption: 'A new caption', status });
          expect(edited.status, edited.text).toBe(200);
          expect(edited.body.post.status === 'review' && status !== 'review', what('edits, and the post went back to review')).toBe(can.editReopens);
        }
      }
    },
    120_000,
  );

  it('when a manager of another brand asks for a post, then 404, and every action answers 404', async () => {
    const t = await cast();
    const id = await postIn(t, 'review');
    const as = t.ws.as(t.outsider);
    expect((await as.get(`/api/posts/${id}`)).status).toBe(404);
    expect((await as.patch(`/api/posts/${id}`).send({ title: 'Mine now' })).status).toBe(404);
    expect((await as.patch(`/api/posts/${id}`).send({ status: 'approved' })).status).toBe(404);
    expect((await as.delete(`/api/posts/${id}`)).status).toBe(404);
    expect((await as.post(`/api/posts/${id}/comments`).send({ body: 'Hello' })).status).toBe(404);
  });

  it('when a manager changes the moment of a published post, then 409 PUBLISHED_POST_MOMENT and nothing changes; taking it out of published with a new moment is allowed', async () => {
    const t = await cast();
    const id = await postIn(t, 'published');
    const refusedRes = await t.ws.as(t.manager).patch(`/api/posts/${id}`).send({ scheduledAt: '2026-07-01T10:00:00Z' });
    expect(refusedRes.status).toBe(409);
    expect(refusedRes.body.code).toBe('PUBLISHED_POST_MOMENT');
    expect((await t.ws.as(t.manager).get(`/api/posts/${id}`)).body.post.scheduledAt).toBe('2026-06-10T10:00:00.000Z');
    // The same moment, as a form sends it back untouched, is no change.
    expect((await t.ws.as(t.manager).patch(`/api/posts/${id}`).send({ scheduledAt: '2026-06-10T10:00:00.000Z', caption: 'Still out' })).status).toBe(200);
    const back = await t.ws.as(t.manager).patch(`/api/posts/${id}`).send({ status: 'scheduled', scheduledAt: '2026-07-01T10:00:00Z' });
    expect(back.status, back.text).toBe(200);
    expect(back.body.post.can.reschedule).toBe(true);
  });
});

describe('task.can', () => {
  it('when each reader gets a task of the contributor assigned to a colleague, then every action its can offers succeeds and every other is refused', async () => {
    const t = await cast();
    const task = async () => {
      const res = await t.ws.as(t.contributor).post('/api/tasks').send({ title: 'Print the poster', brandId: t.brand.id, assigneeId: t.colleague.id });
      expect(res.status, res.text).toBe(201);
      return res.body.task.id as number;
    };
    for (const reader of [...READERS, 'bystander'] as const) {
      const who = t[reader];
      const seen = await t.ws.as(who).get(`/api/tasks/${await task()}`);
      expect(seen.status, seen.text).toBe(200);
      const can = seen.body.task.can as { edit: boolean; changeVisibility: boolean; delete: boolean; comment: boolean };
      agrees(await t.ws.as(who).patch(`/api/tasks/${await task()}`).send({ title: 'Renamed' }), can.edit, `${reader} edits`);
      agrees(await t.ws.as(who).patch(`/api/tasks/${await task()}`).send({ visibility: 'private' }), can.changeVisibility, `${reader} makes it private`);
      agrees(await t.ws.as(who).delete(`/api/tasks/${await task()}`), can.delete, `${reader} deletes`);
      agrees(await t.ws.as(who).post(`/api/tasks/${await task()}/comments`).send({ body: 'On it' }), can.comment, `${reader} comments`);
    }
    const id = await task();
    expect((await t.ws.as(t.outsider).get(`/api/tasks/${id}`)).status).toBe(404);
    expect((await t.ws.as(t.outsider).patch(`/api/tasks/${id}`).send({ title: 'Mine now' })).status).toBe(404);
    expect((await t.ws.as(t.outsider).delete(`/api/tasks/${id}`)).status).toBe(404);
  });
});

describe('comment.can', () => {
  it('when each reader lists a thread with the contributor’s comment, then its can.delete is what deleting it answers', async () => {
    const t = await cast();
    const postId = await postIn(t, 'draft');
    const comment = async () => {
      const res = await t.ws.as(t.contributor).post(`/api/posts/${postId}/comments`).send({ body: 'First thoughts' });
      expect(res.status, res.text).toBe(201);
      expect(res.body.comment.can).toEqual({ delete: true });
      return res.body.comment.id as number;
    };
    for (const reader of READERS) {
      const who = t[reader];
      const id = await comment();
      const thread = await t.ws.as(who).get(`/api/posts/${postId}/comments`);
      const listed = (thread.body.comments as { id: number; can: { delete: boolean } }[]).find((c) => c.id === id)!;
      agrees(await t.ws.as(who).delete(`/api/comments/${id}`), listed.can.delete, `${reader} deletes the contributor's comment`);
    }
    expect((await t.ws.as(t.outsider).delete(`/api/comments/${await comment()}`)).status).toBe(404);
  });
});

describe('asset.can', () => {
  it('when each reader gets an asset the contributor uploaded, then its can.delete is what deleting it answers, alone or in a batch', async () => {
    const t = await cast();
    const picture = await image('png', 32, 32);
    const asset = async () => {
      const res = await request(t.ws.app).post('/api/assets').set('Authorization', `Bearer ${t.contributor.token}`).field('brandId', String(t.brand.id)).attach('files', picture, 'a.png');
      expect(res.status, res.text).toBe(201);
      return res.body.assets[0].id as number;
    };
    for (const reader of READERS) {
      const who = t[reader];
      const id = await asset();
      const seen = await t.ws.as(who).get(`/api/assets/${id}`);
      expect(seen.status, seen.text).toBe(200);
      const { can } = seen.body.asset as { can: { delete: boolean } };
      agrees(await t.ws.as(who).delete(`/api/assets/${id}`), can.delete, `${reader} deletes`);
      agrees(await t.ws.as(who).delete('/api/assets').send({ ids: [await asset()] }), can.delete, `${reader} deletes in a batch`);
    }
    expect((await t.ws.as(t.outsider).delete(`/api/assets/${await asset()}`)).status).toBe(404);
  });
});

describe('campaign.can, project.can and budget entry.can', () => {
  it('when each reader gets a campaign, then edit, delete and tracks are what the API then allows', async () => {
    const t = await cast();
    const campaign = async () => (await t.ws.as(t.manager).post('/api/campaigns').send({ name: 'Autumn', brandId: t.brand.id })).body.campaign.id as number;
    for (const reader of READERS) {
      const who = t[reader];
      const { can } = (await t.ws.as(who).get(`/api/campaigns/${await campaign()}`)).body.campaign as { can: { edit: boolean; delete: boolean; tracks: boolean } };
      agrees(await t.ws.as(who).patch(`/api/campaigns/${await campaign()}`).send({ name: 'Renamed' }), can.edit, `${reader} edits`);
      agrees(await t.ws.as(who).delete(`/api/campaigns/${await campaign()}`), can.delete, `${reader} deletes`);
      agrees(await t.ws.as(who).post(`/api/campaigns/${await campaign()}/tracks`).send({ name: 'Radio' }), can.tracks, `${reader} adds a track`);
      agrees(await t.ws.as(who).post('/api/campaigns').send({ name: 'Winter', brandId: t.brand.id }), pageCapabilities(who).createCampaign, `${reader} creates one`);
    }
    expect((await t.ws.as(t.outsider).patch(`/api/campaigns/${await campaign()}`).send({ name: 'Mine now' })).status).toBe(404);
  });

  it('when each reader gets a project, then edit and delete are what the API then allows', async () => {
    const t = await cast();
    const project = async () => (await t.ws.as(t.manager).post('/api/projects').send({ name: 'New website', brandId: t.brand.id })).body.project.id as number;
    for (const reader of READERS) {
      const who = t[reader];
      const { can } = (await t.ws.as(who).get(`/api/projects/${await project()}`)).body.project as { can: { edit: boolean; delete: boolean } };
      agrees(await t.ws.as(who).patch(`/api/projects/${await project()}`).send({ name: 'Renamed' }), can.edit, `${reader} edits`);
      agrees(await t.ws.as(who).delete(`/api/projects/${await project()}`), can.delete, `${reader} deletes`);
      agrees(await t.ws.as(who).post('/api/projects').send({ name: 'Another', brandId: t.brand.id }), pageCapabilities(who).createProject, `${reader} creates one`);
    }
    expect((await t.ws.as(t.outsider).delete(`/api/projects/${await project()}`)).status).toBe(404);
  });

  it('when each reader gets a budget entry, then edit and delete are what the API then allows', async () => {
    const t = await cast();
    const body = { campaignId: t.campaign.id, category: 'Ads', amount: 1_000, currency: 'QAR' };
    const entry = async () => (await t.ws.as(t.manager).post('/api/budget-entries').send(body)).body.entry.id as number;
    for (const reader of READERS) {
      const who = t[reader];
      const { can } = (await t.ws.as(who).get(`/api/budget-entries/${await entry()}`)).body.entry as { can: { edit: boolean; delete: boolean } };
      agrees(await t.ws.as(who).patch(`/api/budget-entries/${await entry()}`).send({ category: 'Print' }), can.edit, `${reader} edits`);
      agrees(await t.ws.as(who).delete(`/api/budget-entries/${await entry()}`), can.delete, `${reader} deletes`);
      agrees(await t.ws.as(who).post('/api/budget-entries').send(body), pageCapabilities(who).addBudgetEntry, `${reader} adds one`);
    }
    expect((await t.ws.as(t.outsider).patch(`/api/budget-entries/${await entry()}`).send({ category: 'Mine' })).status).toBe(404);
  });
});

describe('what a page offers before there is a record', () => {
  it('when each reader creates posts in every status and adds members of every role, then the page capabilities say which succeed', async () => {
    const t = await cast();
    for (const reader of READERS) {
      const who = t[reader];
      const can = pageCapabilities(who);
      for (const status of POST_STATUSES) {
        const res = await t.ws.as(who).post('/api/posts').send({ title: 'New', brandId: t.brand.id, status, scheduledAt: '2026-06-10T10:00:00Z', publicationUrl: 'https://museum.example/p/2' });
        agrees(res, can.newPostStatuses.includes(status), `${reader} creates a post in ${status}`);
      }
      for (const role of ['superadmin', 'manager', 'contributor'] as const) {
        const res = await t.ws.as(who).post('/api/members').send({ name: 'New member', email: `${reader}-${role}@museum.example`, role, brandIds: [t.brand.id] });
        agrees(res, can.memberRoles.includes(role), `${reader} adds a ${role}`);
      }
      expect(can.addMembers, `${reader} adds members`).toBe(can.memberRoles.length > 0);
      const review = await postIn(t, 'review');
      // Approving another's post in review is what `approvePosts` names.
      agrees(await t.ws.as(who).patch(`/api/posts/${review}`).send({ status: 'approved' }), can.approvePosts, `${reader} approves`);
    }
  }, 60_000);
});
