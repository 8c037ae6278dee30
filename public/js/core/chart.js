// Chart.js, loaded by a plain <script> before the page's modules as window.Chart, set up once
// for both applications: the page's font and language, no animation for readers who ask for
// less motion, and legends and tooltips that follow the reading direction.
import { isRtl, lang } from './page.js';

/** @typedef {typeof import('chart.js').Chart} ChartClass */

export const Chart = /** @type {typeof window & { Chart: ChartClass }} */ (window).Chart;

Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
Chart.defaults.locale = lang;
Chart.defaults.maintainAspectRatio = false;
if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) Chart.defaults.animation = false;

/** For a legend's or a tooltip's options: right to left in Arabic. */
export const direction = { rtl: isRtl, textDirection: isRtl ? 'rtl' : 'ltr' };
