// A classic script that the layout links at the top of the head, before the stylesheets, so
// that it runs while they are on their way (see docs/decisions.md, "The locale lists before the
// first paint"). The first Intl object a page process builds makes the browser load its locale
// data and list every locale it has, and the process then keeps both for the tab's later pages.
// Every page with scripts formats a number or a date, or orders names, as it opens, so it is
// done here. In four steps, each a task of its own: done at once, it is one task of 60 ms or
// more on a slow phone, which holds up a tap. The first step, the data of the locales' keywords
// (which every list reads), is the largest and cannot be split; it runs with this script, which
// the first paint waits for.
const lang = document.documentElement.lang;
const steps = [
  () => Intl.getCanonicalLocales(`${lang}-u-nu-latn`),
  () => new Intl.Locale(lang).maximize(),
  () => Intl.NumberFormat.supportedLocalesOf(lang),
  () => {
    Intl.DateTimeFormat.supportedLocalesOf(lang);
    Intl.Collator.supportedLocalesOf(lang);
  },
];
/** @param {number} at */
const step = (at) => {
  steps[at]();
  if (at + 1 < steps.length) setTimeout(step, 0, at + 1);
};
step(0);
