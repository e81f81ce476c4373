// What "For you" costs a reader: the bytes of one week's vectors (gzip) and the time
// reader.js's ranking takes in headless Chromium for 200 and for 10,000 candidate papers,
// against 5 and 1,000 saved papers. Candidates are the built site's own rows (repeated
// when the site has fewer), so the vectors are real ones.
//
//   node bench/foryou_cost.mjs PUBLIC_DIR    (from the repository's root)
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { createRequire } from "node:module";

const dir = process.argv[2] || "public";
const require = createRequire(import.meta.url);
// The browser tests' copy (`npm ci --prefix tests/browser`).
const { chromium } = createRequire(path.resolve("tests/browser/package.json"))("playwright-core");
const foryou = path.join(dir, "foryou");
const rows = [];
let biggest = null;
for (const file of fs.readdirSync(foryou).sort()) {
  if (!/^\d{4}-W\d\d\.json$/.test(file)) continue;
  const text = fs.readFileSync(path.join(foryou, file));
  const week = JSON.parse(text);
  rows.push(...week.papers);
  if (!biggest || week.papers.length > biggest.papers) {
    biggest = { file, papers: week.papers.length, bytes: text.length, gzip: zlib.gzipSync(text, { level: 6 }).length };
  }
}
if (rows.length === 0) throw new Error(`no foryou/*.json in ${dir}`);
console.log(`largest week ${biggest.file}: ${biggest.papers} papers, ${biggest.bytes} bytes, ${biggest.gzip} gzip (${(biggest.gzip / biggest.papers).toFixed(0)} B a paper; 200 papers ≈ ${((200 * biggest.gzip) / biggest.papers / 1024).toFixed(1)} KiB)`);

const script = fs.readFileSync(path.resolve("themes/default/static/reader.js"), "utf8");
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const page = await browser.newPage();
  // reader.js exports its ranking when loaded outside a page of the site.
  await page.setContent("<!doctype html><title>bench</title>");
  await page.addScriptTag({ content: `var module = { exports: {} };\n${script}\nwindow.ranker = module.exports;` });
  for (const [candidates, saved] of [[200, 5], [10000, 5], [200, 1000], [10000, 1000]]) {
    const pick = (n, offset) => Array.from({ length: n }, (_, i) => rows[(i + offset) % rows.length][7]);
    const ms = await page.evaluate(([c, s]) => {
      const { toVector, rank } = window.ranker;
      const times = [];
      for (let run = 0; run < 7; run++) {
        const t0 = performance.now();
        // As the page does: vectors made from the rows, then ranked.
        const cv = c.map((v) => ({ vector: toVector(v) }));
        const sv = s.map((v) => ({ vector: toVector(v) }));
        rank(sv, cv);
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      return times[3];
    }, [pick(candidates, 0), pick(saved, 7)]);
    console.log(`rank ${String(candidates).padStart(6)} candidates by ${String(saved).padStart(4)} saved: ${ms.toFixed(1)} ms (median of 7)`);
  }
} finally {
  await browser.close();
}
