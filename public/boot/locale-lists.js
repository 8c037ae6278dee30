// A classic script that the layout links at the top of the head, before the stylesheets, so
// that it runs before the first paint (see docs/decisions.md, "The locale lists before the
// first paint"). The first Intl formatter a page process builds makes the browser list every
// locale it has, 15 to 30 ms in one call that cannot be split; the process then keeps the
// lists for the tab's later pages. Every page with scripts formats a number or a date, or
// orders names, as it opens, so they are built here, while the stylesheets are on their way,
// and not in a task after the page has painted.
Intl.NumberFormat.supportedLocalesOf(document.documentElement.lang);
Intl.DateTimeFormat.supportedLocalesOf(document.documentElement.lang);
