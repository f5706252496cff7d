/**
 * The HTTP benchmark's baseline: a bare Express 5 app that answers the routes of the benchmark with the bytes
 * Meridian answered them with (status, headers, body, recorded by bench/http.bench.ts at the start of the run), so
 * the difference between the two is what Meridian does per request and nothing else. Like any Express app it
 * serialises its answer with `res.json` per request, and writes parse their JSON body.
 *
 * Env: BARE_ROUTES (the recorded responses, JSON), PORT (0 picks one); prints `listening on <port>`.
 */
import fs from 'node:fs';
import express from 'express';

/** @type {{ method: string, pattern: string, key: string, status: number, headers: [string, string][], body: string }[]} */
const routes = JSON.parse(fs.readFileSync(process.env.BARE_ROUTES ?? '', 'utf8'));
const byKey = new Map();
const byPattern = new Map();
for (const route of routes) {
  // Parsed once; serialised per request with res.json, as an Express app answers (the same bytes as Meridian's).
  const answer = { ...route, value: JSON.parse(route.body) };
  byKey.set(route.key, answer);
  if (!byPattern.has(`${route.method} ${route.pattern}`)) byPattern.set(`${route.method} ${route.pattern}`, answer);
}

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
for (const key of byPattern.keys()) {
  const [method, pattern] = key.split(' ');
  const fallback = byPattern.get(key);
  const send = (req, res) => {
    // The same URL answers differently per tenant (its key): look the answer up by both, else by route.
    const answer = byKey.get(`${req.method} ${req.originalUrl} ${req.get('authorization') ?? ''}`) ?? fallback;
    for (const [name, value] of answer.headers) res.setHeader(name, value);
    res.status(answer.status).json(answer.value);
  };
  if (method === 'GET') app.get(pattern, send);
  else app[method.toLowerCase()](pattern, express.json(), send);
}

const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening on ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
