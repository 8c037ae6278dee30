// The part of Chart.js both applications draw with, registered: core/chart.js loads this file
// only when a page first draws a chart, and the kinds of chart neither draws are left out of it.
import { ArcElement, BarController, BarElement, CategoryScale, Chart, DoughnutController, Filler, Legend, LineController, LineElement, LinearScale, PointElement, Tooltip } from 'chart.js';

Chart.register(LineController, BarController, DoughnutController, LineElement, PointElement, BarElement, ArcElement, CategoryScale, LinearScale, Filler, Legend, Tooltip);

export { Chart };
