import type { Express, Response } from 'express';
import { assets } from './assets';
import { VIEWS_DIR } from './paths';

declare module 'express-serve-static-core' {
  interface Response {
    /** Renders `view` inside `layouts/<layout>` (default `main`). */
    page(view: string, locals?: Record<string, unknown>, status?: number): void;
  }
}

export function setupViews(app: Express): void {
  app.set('views', VIEWS_DIR);
  app.set('view engine', 'ejs');
  app.response.page = function page(this: Response, view, given = {}, status = 200) {
    const layout = typeof given.layout === 'string' ? given.layout : 'main';
    // Templates link static files by their source names; these give the hashed ones.
    const scripts = new Set<string>();
    const locals = {
      ...given,
      asset: (name: string) => assets().url(name),
      script: (name: string) => assets().script(name, scripts),
      // Asked by the layout's head, after the page and its frame have linked their scripts.
      linksScripts: () => scripts.size > 0,
    };
    // Express's types say an error always comes; it is null when the view rendered.
    this.render(view, locals, (err: Error | null, body) => {
      if (err) return this.req.next?.(err);
      this.render(`layouts/${layout}`, { ...locals, body }, (layoutErr: Error | null, html) => {
        if (layoutErr) return this.req.next?.(layoutErr);
        this.status(status).type('html').send(html);
      });
    });
  };
}
