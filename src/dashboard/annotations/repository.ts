import type { Selectable } from 'kysely';
import type { RecordsDb } from '../../platform/db/engine';
import type { DashboardTables } from '../tables';

/** A note on the trend, as stored. */
export interface Annotation {
  id: number;
  /** YYYY-MM-DD: the day, or the first of a span. */
  date: string;
  /** The span's last day; null for a single day. */
  endDate: string | null;
  text: string;
  /** The museum it is about; null: every museum. */
  museum: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export type NewAnnotation = Pick<Annotation, 'date' | 'endDate' | 'text' | 'museum' | 'createdBy'>;
export type AnnotationChange = Partial<Pick<Annotation, 'date' | 'endDate' | 'text' | 'museum'>>;

export interface AnnotationRepository {
  /** The notes that touch [from, to] (either open), by date. */
  between(from: string | undefined, to: string | undefined): Promise<Annotation[]>;
  get(id: number): Promise<Annotation | undefined>;
  create(note: NewAnnotation, at: string): Promise<Annotation>;
  update(id: number, change: AnnotationChange, at: string): Promise<Annotation | undefined>;
  delete(id: number): Promise<boolean>;
}

type Row = Selectable<DashboardTables['annotations']>;

function toAnnotation(row: Row): Annotation {
  return {
    id: row.id,
    date: row.date,
    endDate: row.end_date,
    text: row.text,
    museum: row.museum,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class SqlAnnotationRepository implements AnnotationRepository {
  constructor(private readonly records: RecordsDb<DashboardTables>) {}

  async between(from: string | undefined, to: string | undefined): Promise<Annotation[]> {
    const rows = await this.records.db
      .selectFrom('annotations')
      .selectAll()
      .$call((q) => (to === undefined ? q : q.where('date', '<=', to)))
      .$call((q) => (from === undefined ? q : q.where((eb) => eb(eb.fn.coalesce('end_date', 'date'), '>=', from))))
      .orderBy('date')
      .orderBy('id')
      .execute();
    return rows.map(toAnnotation);
  }

  async get(id: number): Promise<Annotation | undefined> {
    const row = await this.records.db.selectFrom('annotations').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toAnnotation(row);
  }

  async create(note: NewAnnotation, at: string): Promise<Annotation> {
    const row = await this.records.db
      .insertInto('annotations')
      .values({ date: note.date, end_date: note.endDate, text: note.text, museum: note.museum, created_by: note.createdBy, created_at: at, updated_at: at })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toAnnotation(row);
  }

  async update(id: number, change: AnnotationChange, at: string): Promise<Annotation | undefined> {
    const row = await this.records.db
      .updateTable('annotations')
      .set({
        ...(change.date === undefined ? {} : { date: change.date }),
        ...(change.endDate === undefined ? {} : { end_date: change.endDate }),
        ...(change.text === undefined ? {} : { text: change.text }),
        ...(change.museum === undefined ? {} : { museum: change.museum }),
        updated_at: at,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toAnnotation(row);
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.records.db.deleteFrom('annotations').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
