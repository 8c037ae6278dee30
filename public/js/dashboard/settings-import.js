// Settings: the CSV import of visit rows, with its progress and the lines it refused.
import { ApiError } from '../core/api.js';
import { element, requireElement } from '../core/dom.js';
import { formatNumber, formatPercent, formatYear } from '../core/format.js';
import { setFieldError } from '../core/forms.js';
import { has, t, tn } from '../core/i18n.js';
import { upload } from '../core/upload.js';
import { cell, errorText, guard } from './common.js';
import { say, sections } from './settings-sections.js';
import { loadKnownValues } from './settings-users.js';

/**
 * One refused line of an import (400 IMPORT_INVALID, in `details.errors`).
 * @typedef {object} ImportProblem
 * @property {number} line
 * @property {string} field a column of the header, or `row` or `header`
 * @property {string} [code]
 * @property {Record<string, number>} [params] the numbers its message names
 */

const importForm = requireElement('#import-form', HTMLFormElement);
const fileInput = requireElement('#import-file', HTMLInputElement);
const progressBox = requireElement('[data-progress]', HTMLElement, importForm);
const progress = requireElement('#import-progress', HTMLProgressElement);
const progressText = requireElement('[data-progress-text]', HTMLElement, importForm);
const errorsBox = requireElement('[data-import-errors]', HTMLElement, importForm);
const fileName = requireElement('#import-file-name', HTMLElement);

function showFileName() {
  fileName.textContent = fileInput.files?.[0]?.name ?? fileName.dataset.noFile ?? '';
}
fileInput.addEventListener('change', () => {
  showFileName();
  setFieldError(fileInput, '');
});

/**
 * A number of a problem's message, as the page writes numbers (years without grouping).
 * @param {string} name
 * @param {number} value
 */
function formatParam(name, value) {
  return name.endsWith('Year') ? formatYear(value) : formatNumber(value);
}

/**
 * Where in the file a problem is: a column of the header as the file writes it, or the
 * whole line, the header, a column by its position, in the page's words.
 * @param {ImportProblem} problem
 */
function whereOf(problem) {
  if (problem.code === 'UNNAMED_COLUMN' && problem.params?.column !== undefined) {
    return t('settings.import.where.column', { column: formatNumber(problem.params.column) });
  }
  if (problem.field === 'row' || problem.field === 'header') return t(`settings.import.where.${problem.field}`);
  return element('code', { text: problem.field });
}

/** @param {ImportProblem} problem */
function problemText(problem) {
  const key = `settings.import.problems.${problem.code ?? ''}`;
  if (!has(key)) return t('settings.import.problems.unknown');
  const params = Object.fromEntries(Object.entries(problem.params ?? {}).map(([name, value]) => [name, formatParam(name, value)]));
  return t(key, params);
}

/** @param {ImportProblem[]} problems */
function showImportErrors(problems) {
  errorsBox.hidden = problems.length === 0;
  requireElement('tbody', HTMLTableSectionElement, errorsBox).replaceChildren(
    ...problems.map((p) => element('tr', {}, [cell(formatNumber(p.line), 'num'), cell(whereOf(p)), cell(problemText(p))])),
  );
}

/** @param {File} file */
async function importFile(file) {
  const button = requireElement('[type="submit"]', HTMLButtonElement, importForm);
  button.disabled = true;
  progress.value = 0;
  progressText.textContent = '';
  progressBox.hidden = false;
  try {
    const answer = /** @type {{ imported: number }} */ (
      await guard(
        upload({
          url: '/api/dashboard/import',
          body: file,
          headers: { 'Content-Type': 'text/csv' },
          onProgress: (fraction) => {
            progress.value = Math.round(fraction * 100);
            progressText.textContent = t('settings.import.uploading', { percent: formatPercent(fraction) });
          },
          onSent: () => {
            // The bytes are sent; the server now validates and stores them, for an unknown time.
            progress.removeAttribute('value');
            progressText.textContent = t('settings.import.processing');
          },
        }),
      )
    );
    progressBox.hidden = true;
    importForm.reset();
    showFileName();
    // The imported rows may bring new museums and channels to choose from: offered before the news.
    await loadKnownValues();
    say(sections.import, tn('settings.import.done', answer.imported));
  } catch (err) {
    progressBox.hidden = true;
    const problems = err instanceof ApiError && err.code === 'IMPORT_INVALID' ? err.details?.errors : undefined;
    if (Array.isArray(problems)) {
      say(sections.import, '', 'error');
      showImportErrors(/** @type {ImportProblem[]} */ (problems));
      requireElement('[role="region"]', HTMLElement, errorsBox).focus();
    } else say(sections.import, errorText(err, 'settings.import.error'), 'error');
  } finally {
    button.disabled = false;
  }
}

importForm.addEventListener('submit', (event) => {
  event.preventDefault();
  say(sections.import, '');
  showImportErrors([]);
  const file = fileInput.files?.[0];
  if (!file) {
    setFieldError(fileInput, t('settings.import.chooseFile'));
    fileInput.focus();
    return;
  }
  setFieldError(fileInput, '');
  void importFile(file);
});
