/**
 * Prometheus plumbing shared by replicas and clients (DESIGN §8): counters whose values are read from
 * existing stats objects at scrape time (prom-client `collect`, so hot paths pay nothing), and a small
 * HTTP server for `/metrics`.
 */
import { createServer, type Server } from 'node:http';
import { Counter, type Registry } from 'prom-client';

/** A counter filled at scrape time by `read`, which reports (labels, value) pairs. */
export function scrapedCounter(registry: Registry, name: string, help: string, labelNames: string[], read: (set: (labels: Record<string, string>, v: number) => void) => void): void {
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      read((labels, v) => this.inc(labels, v));
    },
  });
}

export function serveMetrics(registry: Registry, host: string, port: number): Promise<Server> {
  const http = createServer((req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (e: unknown) => res.writeHead(500).end(String(e)),
    );
  });
  return new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => resolve(http));
  });
}
