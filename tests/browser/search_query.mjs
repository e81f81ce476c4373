// Runs the site's own search.js in Node against a built site's search/ folder, as a
// browser would (every file it asks for is read and counted), and prints the answer as
// JSON with the bytes and requests it took.
//   node tests/browser/search_query.mjs PUBLIC/search/ PUBLIC/search.js '<query>' ['{"page":2}']
// With {"all": true} it pages through every result and adds "urls": each paper's once.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import vm from 'node:vm';

const [dir, script, q, opts] = process.argv.slice(2);
const sandbox = { window: {}, URL, Intl, Map, Set, Promise, Math, Array, Object, String, JSON };
vm.runInNewContext(readFileSync(script, 'utf8'), sandbox);
const files = new Map();
const query = sandbox.window.paperboySearch((path) => {
  const bytes = readFileSync(dir + path);
  files.set(path, bytes);
  return Promise.resolve(JSON.parse(bytes.toString('utf8')));
});
const options = opts ? JSON.parse(opts) : {};
const started = performance.now();
const answer = await query(q, options);
const ms = performance.now() - started;
if (options.all) {
  answer.urls = [];
  answer.ordered = true;
  let last = Infinity;
  for (let page = 1; page <= answer.pages; page++) {
    const r = page === 1 ? answer : await query(q, { ...options, page });
    for (const hit of r.results) {
      answer.urls.push(hit.url);
      if (hit.score > last) answer.ordered = false;
      last = hit.score;
    }
  }
}
let bytes = 0, gzip = 0;
for (const b of files.values()) { bytes += b.length; gzip += gzipSync(b).length; }
console.log(JSON.stringify({
  ...answer,
  download: { requests: files.size, bytes, gzip, files: [...files.keys()] },
  ms,
}));
