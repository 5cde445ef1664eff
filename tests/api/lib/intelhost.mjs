// A stand-in for the public intel hosts (CISA's KEV JSON, FIRST's EPSS .csv.gz, MITRE's
// ATLAS.yaml, OSV's per-ecosystem all.zip), behaving as they do: every 200 carries a strong ETag of
// its bytes, a Last-Modified and the file's content type; a matching If-None-Match (or, without
// one, an If-Modified-Since not older than Last-Modified) is answered 304 with no body, as their
// CDNs do; an unknown path is a plain-text 404 and a failing file an HTML 500.
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The fixtures the sources serve: a KEV subset, ATLAS, the seed, and an EPSS CSV writer.
const ROOT = new URL('../../../', import.meta.url).pathname;
const FIX = join(ROOT, 'tests/fixtures/intel');
export const SEED = JSON.parse(readFileSync(join(ROOT, 'data/intel/seed.json'), 'utf8'));
export const KEV = JSON.parse(readFileSync(join(FIX, 'kev-subset.json'), 'utf8'));
export const ATLAS = readFileSync(join(FIX, 'ATLAS.yaml'));
// a seed record the KEV fixture lists (its kev_details come from that entry)
const KEV_IDS = new Set(KEV.vulnerabilities.map(v => v.cveID));
export const TARGET = SEED.records.find(r => r.kev && KEV_IDS.has(r.id));
export const epssCsv = (date, rows) => `#model_version:v2025.03.14,score_date:${date}T00:00:00+0000\ncve,epss,percentile\n` +
  rows.map(r => r.join(',')).join('\n') + '\n';

export async function startIntelHost() {
  const files = {};
  const seen = []; // every request: url, validators sent, time
  const server = createServer((req, res) => {
    const f = files[req.url];
    seen.push({ url: req.url, inm: req.headers['if-none-match'] || null, ims: req.headers['if-modified-since'] || null,
      at: Date.now() });
    if (!f) { res.writeHead(404, { 'Content-Type': 'text/plain' }); res.end('Not Found'); return; }
    if (f.status !== 200) { res.writeHead(f.status, { 'Content-Type': 'text/html' }); res.end('<h1>Internal Server Error</h1>'); return; }
    const etag = '"' + createHash('sha256').update(f.body).digest('hex').slice(0, 32) + '"';
    const inm = req.headers['if-none-match'];
    const ims = req.headers['if-modified-since'];
    const notModified = inm ? inm.split(',').map(s => s.trim()).includes(etag)
      : ims ? Date.parse(ims) >= Date.parse(f.lastModified) : false;
    const head = { ETag: etag, 'Last-Modified': f.lastModified, 'Cache-Control': 'max-age=0' };
    if (notModified) { res.writeHead(304, head); res.end(); return; }
    res.writeHead(200, { ...head, 'Content-Type': f.type, 'Content-Length': f.body.length });
    res.end(f.body);
  });
  await new Promise(r => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${server.address().port}`,
    files,
    seen,
    // serves body at path from now on
    serve(path, body, type, lastModified = 'Wed, 25 Nov 2026 10:00:00 GMT') {
      files[path] = { body: Buffer.from(body), type, lastModified, status: 200 };
    },
    // the requests for path so far
    hits: (path) => seen.filter(s => s.url === path),
    close: () => new Promise(r => server.close(r)),
  };
}
