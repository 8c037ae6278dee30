import fs from 'node:fs';
import path from 'node:path';
import i18next, { type i18n, type TFunction } from 'i18next';
import type { Request, Response } from 'express';
import { cookieOf } from './cookies';
import { isApiPath } from './errors';
import { LOCALES_DIR } from './paths';

import { isLanguage, LANGUAGES, type Language } from './languages';

export { isLanguage, LANGUAGES, type Language };
export const LANG_COOKIE = 'lang';

export function loadLocales(): Record<Language, Record<string, unknown>> {
  const read = (lang: Language) => JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, `${lang}.json`), 'utf8')) as Record<string, unknown>;
  return { en: read('en'), ar: read('ar') };
}

export function createI18n(): i18n {
  const locales = loadLocales();
  const instance = i18next.createInstance();
  void instance.init({
    initAsync: false,
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    resources: { en: { translation: locales.en }, ar: { translation: locales.ar } },
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
  });
  return instance;
}

export interface PageLocale {
  lang: Language;
  dir: 'ltr' | 'rtl';
  t: TFunction;
}

declare module 'express-serve-static-core' {
  interface Request {
    lang: Language;
  }
  /** What every rendered page may use, set by languageChooser. */
  interface Locals {
    lang: Language;
    dir: 'ltr' | 'rtl';
    t: TFunction;
    /** The address of this page in another language. */
    langUrl: (target: Language) => string;
  }
}

/** The language of the page an API request comes from: `?lang=` when it names one, else the language cookie, else English. */
export function requestLanguage(req: Request): Language {
  const fromQuery = req.query.lang;
  if (isLanguage(fromQuery)) return fromQuery;
  const fromCookie = cookieOf(req, LANG_COOKIE);
  return isLanguage(fromCookie) ? fromCookie : 'en';
}

/**
 * Picks the language from `?lang=` (and remembers it), else the `lang` cookie, else English,
 * and gives the views `t`, `lang` and `dir`. EJS escapes `<%= t(...) %>`, so i18next does not.
 * API paths never render a page (see `isApiPath`), so they skip it.
 */
export function languageChooser(i18n: i18n, cookieSecure: boolean): (req: Request, res: Response) => void {
  const fixed = { en: i18n.getFixedT('en'), ar: i18n.getFixedT('ar') };
  return (req, res) => {
    if (isApiPath(req.path)) return;
    const fromQuery = req.query.lang;
    let lang: Language = 'en';
    if (isLanguage(fromQuery)) {
      lang = fromQuery;
      res.cookie(LANG_COOKIE, lang, { httpOnly: false, sameSite: 'lax', secure: cookieSecure, path: '/', maxAge: 365 * 24 * 3600 * 1000 });
    } else {
      const fromCookie = cookieOf(req, LANG_COOKIE);
      if (isLanguage(fromCookie)) lang = fromCookie;
    }
    req.lang = lang;
    res.locals.lang = lang;
    res.locals.dir = lang === 'ar' ? 'rtl' : 'ltr';
    res.locals.t = fixed[lang];
    res.locals.langUrl = (target: Language) => {
      const url = new URL(req.originalUrl, 'http://localhost');
      url.searchParams.set('lang', target);
      return url.pathname + url.search;
    };
  };
}
