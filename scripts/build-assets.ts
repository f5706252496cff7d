/**
 * `npm run build`'s last step, writing into the `dist/` given as its argument:
 * - `dist/generated/openapi.json`: the bundled contract parsed once, which the server reads instead of parsing the
 *   YAML at every start (server/http/spec.ts; docs/deploy.md, "Restarts");
 * - the script `/docs` loads, Scalar's standalone bundle
 * (`/docs/assets/standalone.js`, 4.2 MiB), as `standalone.js.br` (Brotli, quality 11) and `standalone.js.gz` (gzip,
 *   level 9) under `dist/docs-assets/`, where server/http/docs.ts serves them to clients that accept the encoding.
 * Everything else the page sends is small or generated per request and compressed on the fly (server/http/edge.ts).
 * Prints the sizes.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { DOCS_BUNDLE, scalarBrowserDir } from '../server/http/docs.js';
import { parseSpecYaml, SPEC_PATH } from '../server/http/spec.js';

const dist = process.argv[2] ?? 'dist';
const spec = parseSpecYaml(fs.readFileSync(SPEC_PATH, 'utf8'));
fs.writeFileSync(path.join(dist, 'generated', 'openapi.json'), spec.json);
console.log(`parsed the contract into ${path.join(dist, 'generated', 'openapi.json')}`);

const out = path.join(dist, 'docs-assets');
const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
const bytes = fs.readFileSync(path.join(scalarBrowserDir(), DOCS_BUNDLE));
const br = zlib.brotliCompressSync(bytes, {
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
  },
});
const gz = zlib.gzipSync(bytes, { level: 9 });
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, `${DOCS_BUNDLE}.br`), br);
fs.writeFileSync(path.join(out, `${DOCS_BUNDLE}.gz`), gz);
console.log(
  `precompressed ${DOCS_BUNDLE}: ${kib(bytes.length)} → br ${kib(br.length)}, gzip ${kib(gz.length)}`,
);
