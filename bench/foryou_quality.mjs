// How well "For you" ranks: on a built site, for each category with at least ten papers,
// save five of its papers (the first five by id) and count how many of the ten papers
// ranked first (of all the others, every week) are of that category; averaged over the
// categories, beside what a random order gives. The ranking is reader.js's own.
//
//   node bench/foryou_quality.mjs PUBLIC_DIR
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const dir = process.argv[2] || "public";
const require = createRequire(import.meta.url);
const { toVector, rank } = require(path.resolve("themes/default/static/reader.js"));
const papers = [];
for (const file of fs.readdirSync(path.join(dir, "foryou")).sort()) {
  if (!/^\d{4}-W\d\d\.json$/.test(file)) continue;
  const week = JSON.parse(fs.readFileSync(path.join(dir, "foryou", file), "utf8"));
  for (const r of week.papers) papers.push({ id: r[0], category: r[5], vector: toVector(r[7]) });
}
const byCategory = new Map();
for (const p of papers) byCategory.set(p.category, (byCategory.get(p.category) || 0) + 1);
const rows = [];
for (const [category, count] of [...byCategory].sort()) {
  if (count < 10) continue;
  const saved = papers.filter((p) => p.category === category).sort((a, b) => a.id.localeCompare(b.id)).slice(0, 5);
  const savedIds = new Set(saved.map((p) => p.id));
  const candidates = papers.filter((p) => !savedIds.has(p.id));
  const top = rank(saved, candidates).slice(0, 10).map((r) => candidates[r.index]);
  const hits = top.filter((p) => p.category === category).length;
  const random = (10 * candidates.filter((p) => p.category === category).length) / candidates.length;
  rows.push([category, count, hits, random]);
  console.log(`${category.padEnd(45)} ${String(count).padStart(4)} papers: ${hits}/10 of the top ten (random: ${random.toFixed(1)})`);
}
const mean = (i) => rows.reduce((s, r) => s + r[i], 0) / rows.length;
console.log(`${papers.length} papers, ${rows.length} categories: ${mean(2).toFixed(1)}/10 of the top ten are of the saved papers' category on average; a random order gives ${mean(3).toFixed(1)}/10`);
