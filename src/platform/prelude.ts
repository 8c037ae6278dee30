import express, { type RequestHandler } from 'express';
import cookieParser from 'cookie-parser';
import type { i18n } from 'i18next';
import { languageChooser } from './i18n';
import { requestLog, type Logger } from './logger';
import { securityHeaders } from './security';

const ignore = () => {};

/**
 * What every request gets before any route, in this order: an id and a log line, helmet's
 * headers, the cookies, the page language, the JSON body.
 */
export function prelude(opts: { logger: Logger; i18n: i18n; cookieSecure: boolean }): RequestHandler {
  const logRequest = requestLog(opts.logger);
  const setSecurityHeaders = securityHeaders(opts.cookieSecure);
  const parseCookies = cookieParser();
  const chooseLanguage = languageChooser(opts.i18n, opts.cookieSecure);
  const parseJson: RequestHandler = express.json({ limit: '1mb' });
  return (req, res, next) => {
    logRequest(req, res);
    setSecurityHeaders(res);
    // cookie-parser works synchronously: req.cookies is set when it returns.
    parseCookies(req, res, ignore);
    chooseLanguage(req, res);
    parseJson(req, res, next);
  };
}
