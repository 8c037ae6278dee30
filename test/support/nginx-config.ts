// Kept apart from nginx.ts, which needs vitest: the live benchmark imports this one too.

/**
 * The configuration the README gives for several instances, on loopback ports: HTTP/1.1 to
 * the upstreams, nothing buffered, reads that outwait the 25 s heartbeat (60 s). The answer names the
 * instance that served it (X-Upstream), so a test can tell where a stream is held.
 */
export function nginxConfig(opts: { dir: string; port: number; upstreams: number[] }): string {
  const { dir } = opts;
  return `
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
worker_rlimit_nofile 16384;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
daemon off;
events { worker_connections 8192; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream museum {
${opts.upstreams.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 32;
    # Shorter than the instances' own 5 s, so nginx never reuses a connection they are closing.
    keepalive_timeout 4s;
  }
  server {
    listen 127.0.0.1:${opts.port};
    location / {
      proxy_pass http://museum;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_buffering off;
      proxy_read_timeout 60s;
      proxy_request_buffering off;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}
