// Notes on the Dashboard's trend: each note a mark on the chart (a line for a day, a band for
// several) with a pin above it whose text shows on hover and on keyboard focus, and the same
// notes listed under the chart. Administrators add, change and delete them here (the server
// says who may); everyone reads the notes their access allows.
import { ApiError } from '../core/api.js';
import { element, requireElement } from '../core/dom.js';
import { formatDate, formatDateRange } from '../core/format.js';
import { t } from '../core/i18n.js';
import { openModal } from '../core/modal.js';
import { call, errorText } from './common.js';

/**
 * A note as GET /api/dashboard/annotations answers it.
 * @typedef {{ id: number, date: string, endDate: string | null, text: string, museum: string | null, createdBy: string }} Note
 */
/** @typedef {{ from: number, to: number, id: number }} Mark the trend's points a note spans, by index */

/** @param {Note} note */
const whenOf = (note) => (note.endDate && note.endDate !== note.date ? formatDateRange(note.date, note.endDate) : formatDate(note.date));

/**
 * @param {object} options
 * @param {HTMLElement} options.root the notes section (views/dashboard/home.ejs)
 * @param {HTMLElement} options.layer where the pins go, over the chart
 * @param {boolean} options.canWrite the server's word on whether this reader writes notes
 * @param {string[]} options.museums what a note may be about
 * @param {() => void} options.onChanged a note was added, changed or deleted
 */
export function createNotes({ root, layer, canWrite, museums, onChanged }) {
  const list = requireElement('[data-notes-list]', HTMLUListElement, root);
  const empty = requireElement('[data-notes-empty]', HTMLElement, root);
  const add = requireElement('[data-note-add]', HTMLButtonElement, root);
  add.hidden = !canWrite;
  /** @type {Note[]} */
  let notes = [];

  /** @param {Partial<Note>} note */
  const fields = (note) => [
    { name: 'date', label: t('notes.date'), type: /** @type {const} */ ('date'), required: true, value: note.date ?? '' },
    { name: 'endDate', label: t('notes.endDate'), type: /** @type {const} */ ('date'), value: note.endDate ?? '' },
    { name: 'text', label: t('notes.text'), required: true, maxlength: 500, value: note.text ?? '', hint: t('notes.textHint') },
    {
      name: 'museum',
      label: t('notes.museum'),
      type: /** @type {const} */ ('select'),
      value: note.museum ?? '',
      options: [{ value: '', label: t('notes.allMuseums') }, ...museums.map((m) => ({ value: m, label: m }))],
    },
  ];

  /**
   * @param {Note | null} note the note to change, or null for a new one
   * @param {HTMLElement} opener
   */
  function edit(note, opener) {
    void openModal({
      title: t(note ? 'notes.editTitle' : 'notes.addTitle'),
      confirmText: t('notes.save'),
      fields: fields(note ?? {}),
      returnFocus: () => (document.contains(opener) ? opener : add),
      onConfirm: async ({ values, setError, setFieldError }) => {
        const body = { date: values.date, endDate: values.endDate || null, text: values.text.trim(), museum: values.museum || null };
        try {
          await call(note ? 'PATCH' : 'POST', note ? `/api/dashboard/annotations/${note.id}` : '/api/dashboard/annotations', body);
        } catch (err) {
          if (err instanceof ApiError && err.code === 'ANNOTATION_DATES') setFieldError('endDate', errorText(err, 'notes.failed'));
          else setError(errorText(err, 'notes.failed'));
          return false;
        }
        onChanged();
        return true;
      },
    });
  }

  /** @param {Note} note */
  function confirmDelete(note) {
    void openModal({
      title: t('notes.deleteTitle'),
      message: t('notes.deleteMessage', { date: whenOf(note) }),
      danger: true,
      confirmText: t('notes.deleteConfirm'),
      returnFocus: add.hidden ? () => requireElement('#notes-title', HTMLElement) : add,
      onConfirm: async ({ setError }) => {
        try {
          await call('DELETE', `/api/dashboard/annotations/${note.id}`);
        } catch (err) {
          if (!(err instanceof ApiError && err.status === 404)) {
            setError(errorText(err, 'notes.failed'));
            return false;
          }
        }
        onChanged();
        return true;
      },
    });
  }

  add.addEventListener('click', () => edit(null, add));

  function renderList() {
    empty.hidden = notes.length > 0;
    list.replaceChildren(
      ...notes.map((note) => {
        const actions = canWrite
          ? element('span', { className: 'note-actions' }, [
              element('button', { type: 'button', className: 'button button-ghost', 'data-note-edit': String(note.id), 'aria-label': t('notes.editLabel', { date: whenOf(note) }), text: t('notes.edit') }),
              element('button', { type: 'button', className: 'button button-danger-quiet', 'data-note-delete': String(note.id), 'aria-label': t('notes.deleteLabel', { date: whenOf(note) }), text: t('notes.delete') }),
            ])
          : null;
        const item = element('li', { className: 'note', id: `note-${note.id}` }, [
          element('span', { className: 'note-when', text: whenOf(note) }),
          element('bdi', { className: 'note-text', text: note.text }),
          note.museum ? element('span', { className: 'badge' }, element('bdi', { text: note.museum })) : null,
          actions,
        ]);
        item.querySelector('[data-note-edit]')?.addEventListener('click', (event) => edit(note, /** @type {HTMLElement} */ (event.currentTarget)));
        item.querySelector('[data-note-delete]')?.addEventListener('click', () => confirmDelete(note));
        return item;
      }),
    );
  }

  return {
    /**
     * Reads the notes of the dates shown, for the museums chosen (and those about every museum).
     * @param {{ start: string, end: string } | null} range
     * @param {string[]} chosenMuseums
     */
    async load(range, chosenMuseums) {
      if (!range) {
        notes = [];
      } else {
        const query = new URLSearchParams({ from: range.start, to: range.end });
        for (const m of chosenMuseums) query.append('museum', m);
        try {
          notes = /** @type {{ annotations: Note[] }} */ (await call('GET', `/api/dashboard/annotations?${query}`)).annotations;
        } catch {
          notes = [];
        }
      }
      renderList();
      return notes;
    },
    /**
     * The marks of the notes on a trend whose points cover these days, by index.
     * @param {{ start: string, end: string }[]} points
     * @returns {Mark[]}
     */
    marks(points) {
      /** @param {string} day */
      const at = (day) => points.findIndex((p) => p.start <= day && day <= p.end);
      return notes.flatMap((note) => {
        const last = note.endDate ?? note.date;
        const from = at(note.date < points[0]?.start ? points[0].start : note.date);
        const to = at(last > (points[points.length - 1]?.end ?? last) ? points[points.length - 1].end : last);
        return from < 0 || to < 0 ? [] : [{ from, to, id: note.id }];
      });
    },
    /**
     * Puts a pin over each mark, at the x the chart gives its points; its text shows on
     * hover and focus, and Escape hides it again.
     * @param {Mark[]} marks
     * @param {(index: number) => number} xOf
     * @param {number} top the chart area's top, in the layer's pixels
     */
    place(marks, xOf, top) {
      layer.replaceChildren(
        ...marks.map((mark) => {
          const note = notes.find((n) => n.id === mark.id);
          if (!note) return '';
          const tipId = `note-tip-${note.id}`;
          const x = (xOf(mark.from) + xOf(mark.to)) / 2;
          const pin = element('button', { type: 'button', className: 'trend-mark', 'aria-describedby': tipId, 'aria-label': t('notes.mark', { date: whenOf(note) }), 'data-note': String(note.id) });
          const tip = element('span', { role: 'tooltip', id: tipId, className: 'trend-tip' }, [element('strong', { text: whenOf(note) }), ' ', element('bdi', { text: note.text })]);
          const holder = element('span', { className: 'trend-mark-holder' }, [pin, tip]);
          // The chart measures from its canvas's left edge in either direction, so the pin does too.
          holder.style.left = `${x}px`;
          holder.style.top = `${Math.max(0, top - 4)}px`;
          pin.addEventListener('keydown', (event) => {
            if (event.key === 'Escape') holder.classList.add('tip-dismissed');
          });
          pin.addEventListener('blur', () => holder.classList.remove('tip-dismissed'));
          holder.addEventListener('mouseleave', () => holder.classList.remove('tip-dismissed'));
          return holder;
        }),
      );
    },
  };
}
