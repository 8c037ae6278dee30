// Chart.js, set up once for both applications: the page's font and language, no animation for
// readers who ask for less motion, and legends and tooltips that follow the reading direction.
// It is loaded only when a page first draws a chart, as a file of its own: most of a page's
// script weight, it no longer comes before the page's first figures, and a phone whose
// charts are all below the first screen fetches it while the reader looks at the rest.
import { isRtl, lang } from './page.js';

/** @typedef {typeof import('chart.js').Chart} ChartClass */

/** @type {Promise<ChartClass> | undefined} */
let loading;

/** Chart.js once it has loaded; until then no chart can exist. @type {ChartClass | undefined} */
export let loadedChart;

/**
 * Loads Chart.js, once, and sets it up. Also `window.Chart`, as the library's own browser build
 * does, so that a console (or a browser test) can reach a canvas's chart.
 * @returns {Promise<ChartClass>}
 */
export function loadChart() {
  loading ??= import('./chart-lib.js').then(({ Chart }) => {
    Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
    Chart.defaults.locale = lang;
    Chart.defaults.maintainAspectRatio = false;
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) Chart.defaults.animation = false;
    /** @type {typeof window & { Chart?: ChartClass }} */ (window).Chart = Chart;
    loadedChart = Chart;
    return Chart;
  });
  // A load that failed (the network dropped) is tried again by the next chart.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** For a legend's or a tooltip's options: right to left in Arabic. */
export const direction = { rtl: isRtl, textDirection: isRtl ? 'rtl' : 'ltr' };
