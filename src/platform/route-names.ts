// How a route is named wherever routes are listed or counted: the route table (and with it the
// API description and the security suite) and the request metrics' labels. Apart from the
// table because the table reads the validation schemas, and validation leads through the errors
// and the logger to the request tuning that labels the metrics: one module would close a circle.

type DescribedRegExp = RegExp & { describedAs?: string };

/** `pattern`, named `path` wherever routes are named (`/:key`): a route on it still matches by the expression alone. */
export function describedAs(pattern: RegExp, path: string): RegExp {
  return Object.assign(pattern, { describedAs: path });
}

/**
 * A route's path as declared. A route on a regular expression (which Express matches without
 * decoding any part of the path) is named by `describedAs`; without one it is written as the
 * expression itself, so that whatever lists routes names it rather than losing it.
 */
export function routeName(path: unknown): string {
  if (!(path instanceof RegExp)) return String(path);
  const { describedAs: name } = path as DescribedRegExp;
  return name ?? `/${path.source}`;
}
