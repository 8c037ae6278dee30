// Chart.js, set up once for both applications: the page's font, language and colours, no
// animation for readers who ask for less motion, and legends and tooltips that follow the
// reading direction. It is loaded only when a page first draws a chart, as a file of its own:
// most of a page's script weight, it no longer comes before the page's first figures, and a
// phone whose charts are all below the first screen fetches it while the reader looks at the rest.
import { nextTask, whenIdle } from './dom.js';
import { isRtl, lang } from './page.js';

/** @typedef {typeof import('chart.js').Chart} ChartClass */

/** The colour of grid lines and of the charts' borders. */
export const GRID = '#e8ebf0';

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
    Chart.defaults.font.size = 12;
    Chart.defaults.color = '#4a5262';
    Chart.defaults.borderColor = GRID;
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

/** What each canvas still waiting to come near the screen will draw. @type {Map<Element, (Chart: ChartClass) => void>} */
const waiting = new Map();
/** @type {IntersectionObserver | undefined} */
let nearScreen;

/** @param {IntersectionObserverEntry[]} entries */
async function drawNear(entries) {
  let first = true;
  for (const { target, isIntersecting } of entries) {
    if (!isIntersecting) continue;
    // Charts that come near together are drawn one per task, so input is never kept waiting.
    if (!first) await nextTask();
    first = false;
    const ready = loadedChart;
    const Chart = await loadChart();
    // Chart.js's code runs for the first time as it loads: the first chart is drawn in the task after.
    if (!ready) await nextTask();
    const drawIt = waiting.get(target);
    waiting.delete(target);
    nearScreen?.unobserve(target);
    drawIt?.(Chart);
  }
}

// A printed page shows every chart, those the reader never scrolled near included (Chart.js has
// loaded by then: see drawWhenNear).
window.addEventListener('beforeprint', () => {
  const Chart = loadedChart;
  if (!Chart) return;
  for (const [canvas, drawIt] of waiting) {
    nearScreen?.unobserve(canvas);
    drawIt(Chart);
  }
  waiting.clear();
});

/**
 * Runs `drawIt` now when `canvas` already shows a chart (new figures update it in place), and
 * otherwise once the canvas comes within a quarter of a screen of the view and Chart.js has
 * loaded. A chart further down the page costs nothing until the reader scrolls towards it: on
 * a phone, drawing every chart as the page loaded held its main thread for most of a second.
 * Even a chart on the first screen waits for the frame after the figures (the observer answers
 * only after one), in a task of its own: a first chart is Chart.js's code running for the first
 * time, a quarter of a second on a phone, and the figures and tables beside it paint first. A
 * newer `drawIt` for the same canvas replaces one still waiting.
 * @param {HTMLCanvasElement} canvas
 * @param {(Chart: ChartClass) => void} drawIt
 */
export function drawWhenNear(canvas, drawIt) {
  if (loadedChart?.getChart(canvas)) {
    waiting.delete(canvas);
    drawIt(loadedChart);
    return;
  }
  if (!nearScreen) {
    nearScreen = new IntersectionObserver((entries) => void drawNear(entries), { rootMargin: '25% 0px' });
    // Chart.js comes once the page is idle even when no chart is near yet, so that a chart
    // scrolled to, or a page printed, finds it there.
    whenIdle(() => void loadChart());
  }
  waiting.set(canvas, drawIt);
  nearScreen.observe(canvas);
}
