import type { Express, Response } from 'express';
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
  app.response.page = function page(this: Response, view, locals = {}, status = 200) {
    const layout = typeof locals.layout === 'string' ? locals.layout : 'main';
    this.render(view, locals, (err, body) => {
      if (err) return this.req.next?.(err);
      this.render(`layouts/${layout}`, { ...locals, body }, (layoutErr, html) => {
        if (layoutErr) return this.req.next?.(layoutErr);
        this.status(status).type('html').send(html);
      });
    });
  };
}
