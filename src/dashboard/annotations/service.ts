import type { Clock } from '../../platform/clock';
import { BadRequest, NotFound } from '../../platform/errors';
import type { DashboardSession } from '../auth/session-store';
import { accessOf } from '../analytics/permissions';
import type { AuditTrail } from '../audit/service';
import type { AuditContext } from '../request';
import type { Annotation, AnnotationChange, AnnotationRepository } from './repository';

type Reader = Pick<DashboardSession, 'role' | 'allowedMuseums' | 'allowedChannels'>;

export interface NewNote {
  date: string;
  endDate?: string | null;
  text: string;
  museum?: string | null;
}

/** Administrators write the notes; everyone else reads them. */
export function mayWriteNotes(session: Pick<DashboardSession, 'role'>): boolean {
  return session.role === 'admin';
}

/**
 * A reader sees the notes about every museum, and those about a museum their access includes;
 * a note about a museum out of reach is not there for them at all.
 */
export function mayRead(reader: Reader, note: Annotation): boolean {
  if (note.museum === null) return true;
  const { museums } = accessOf(reader);
  return museums === 'all' || museums.has(note.museum);
}

/**
 * The trend's notes. Administrators write them (the routes see to that); everyone reads those
 * their access allows. A note's museum must be one the data holds, so a typo never makes a
 * note nobody's filter finds.
 */
export class AnnotationsService {
  constructor(private readonly deps: { notes: AnnotationRepository; clock: Clock; museums: () => Promise<readonly string[]>; trail: AuditTrail }) {}

  /** The notes touching [from, to] that the reader may see; `museums` narrows them to those museums' and the general ones. */
  async list(reader: Reader, range: { from?: string; to?: string; museums?: readonly string[] }): Promise<Annotation[]> {
    const notes = await this.deps.notes.between(range.from, range.to);
    const wanted = range.museums && range.museums.length > 0 ? new Set(range.museums) : undefined;
    return notes.filter((n) => mayRead(reader, n) && (!wanted || n.museum === null || wanted.has(n.museum)));
  }

  /** A new note, written by `who`. */
  async create(who: AuditContext, input: NewNote): Promise<Annotation> {
    const note = { date: input.date, endDate: input.endDate ?? null, text: input.text, museum: input.museum ?? null };
    await this.check(note);
    const created = await this.deps.notes.create({ ...note, createdBy: who.actor }, this.now());
    await this.deps.trail.record(who, 'annotationCreated', { target: `annotation:${created.id}`, targetName: headline(created), after: recorded(created) });
    return created;
  }

  async update(who: AuditContext, id: number, change: AnnotationChange): Promise<Annotation> {
    const before = await this.get(id);
    await this.check({ ...before, ...change });
    const after = await this.deps.notes.update(id, change, this.now());
    if (!after) throw notFound();
    await this.deps.trail.record(who, 'annotationChanged', { target: `annotation:${after.id}`, targetName: headline(after), before: recorded(before), after: recorded(after) });
    return after;
  }

  async remove(who: AuditContext, id: number): Promise<void> {
    const before = await this.get(id);
    if (!(await this.deps.notes.delete(id))) throw notFound();
    await this.deps.trail.record(who, 'annotationDeleted', { target: `annotation:${before.id}`, targetName: headline(before), before: recorded(before) });
  }

  private async get(id: number): Promise<Annotation> {
    const note = await this.deps.notes.get(id);
    if (!note) throw notFound();
    return note;
  }

  private async check(note: Pick<Annotation, 'date' | 'endDate' | 'museum'>): Promise<void> {
    if (note.endDate !== null && note.endDate < note.date) {
      throw new BadRequest('The end date must not be before the date', 'ANNOTATION_DATES', { issues: [{ path: 'body.endDate', message: 'must not be before date' }] });
    }
    if (note.museum !== null && !(await this.deps.museums()).includes(note.museum)) {
      throw new BadRequest(`No museum is called ${note.museum}`, 'UNKNOWN_MUSEUM', { issues: [{ path: 'body.museum', message: 'must be a museum the data holds' }] });
    }
  }

  private now(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}

/** The note's own words, for the audit trail. */
const recorded = (n: Annotation) => ({ date: n.date, endDate: n.endDate, text: n.text, museum: n.museum });

/** What the audit trail names a note by: the start of its text. */
const headline = (n: Annotation) => n.text.slice(0, 80);

function notFound() {
  return new NotFound('No such note', 'ANNOTATION_NOT_FOUND');
}
