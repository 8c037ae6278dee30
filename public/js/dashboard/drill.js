// Drill-down on the Dashboard, as a path of steps after the reader's own selection: a museum,
// channel or district (its bar, slice or row), or a period of the trend (its point). The
// address keeps the selection and the steps in order (`drill=museum:National Museum`,
// `drill=range:2025-03-01..2025-03-31`), so a drilled view can be bookmarked and shared and
// its breadcrumbs lead back. Pure functions of URLSearchParams: no page is needed to test them.

/** @typedef {'museum' | 'channel' | 'district'} Dimension */
/** @typedef {{ kind: Dimension, value: string } | { kind: 'range', from: string, to: string }} Step */

export const DIMENSIONS = /** @type {const} */ (['museum', 'channel', 'district']);
export const STEP_PARAM = 'drill';

const RANGE = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/;

/** @param {string} kind @returns {kind is Dimension} */
const isDimension = (kind) => /** @type {readonly string[]} */ (DIMENSIONS).includes(kind);

/**
 * One step as the address writes it.
 * @param {Step} step
 */
export function stepText(step) {
  return step.kind === 'range' ? `range:${step.from}..${step.to}` : `${step.kind}:${step.value}`;
}

/**
 * The steps an address holds, in order; one that cannot be read is left out.
 * @param {URLSearchParams} params
 * @returns {Step[]}
 */
export function readSteps(params) {
  /** @type {Step[]} */
  const steps = [];
  for (const text of params.getAll(STEP_PARAM)) {
    const at = text.indexOf(':');
    if (at < 0) continue;
    const kind = text.slice(0, at);
    const value = text.slice(at + 1);
    if (isDimension(kind) && value !== '') steps.push({ kind, value });
    const range = kind === 'range' ? RANGE.exec(value) : null;
    if (range && range[1] <= range[2]) steps.push({ kind: 'range', from: range[1], to: range[2] });
  }
  return steps;
}

/**
 * The reader's own selection: the address without its steps.
 * @param {URLSearchParams} params
 */
export function baseOf(params) {
  const base = new URLSearchParams(params);
  base.delete(STEP_PARAM);
  return base;
}

/**
 * The selection followed by `steps`, as the address writes it.
 * @param {URLSearchParams} base
 * @param {readonly Step[]} steps
 */
export function withSteps(base, steps) {
  const params = baseOf(base);
  for (const step of steps) params.append(STEP_PARAM, stepText(step));
  return params;
}

/**
 * What the figures are filtered by once the steps are taken: a museum, channel or district
 * step replaces that filter with its one value; a period step replaces the dates with its own
 * and lets the grouping be chosen afresh, so a month opens as its days.
 * @param {URLSearchParams} params an address, steps included
 */
export function effective(params) {
  const out = baseOf(params);
  for (const step of readSteps(params)) {
    if (step.kind === 'range') {
      for (const name of ['range', 'from', 'to', 'granularity']) out.delete(name);
      out.set('from', step.from);
      out.set('to', step.to);
    } else {
      out.delete(step.kind);
      out.append(step.kind, step.value);
    }
  }
  return out;
}

/**
 * The period a point of the trend stands for: its bucket within the dates shown.
 * @param {{ start: string, end: string }} point
 * @param {{ start: string, end: string } | null} shown
 * @returns {Step}
 */
export function periodStep(point, shown) {
  const from = shown && point.start < shown.start ? shown.start : point.start;
  const to = shown && point.end > shown.end ? shown.end : point.end;
  return { kind: 'range', from, to };
}
