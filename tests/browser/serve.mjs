// `paperboy serve` as an editor sees it in Chromium: an open page reloads itself after an
// edit, a broken edit shows its error in a banner over the last good page, and mending
// it takes the banner away.
// Usage: node serve.mjs BASE_URL SITE_ROOT SCREENSHOT_DIR
import { check, finish, launchChromium } from "./harness.mjs";
import fs from "node:fs";
import path from "node:path";

const [base, root, shots] = process.argv.slice(2);
fs.mkdirSync(shots, { recursive: true });
const browser = await launchChromium();
const edit = (rel, from, to) => {
  const file = path.join(root, rel);
  const text = fs.readFileSync(file, "utf8");
  if (!text.includes(from)) throw new Error(`${rel} lacks ${from}`);
  fs.writeFileSync(file, text.replace(from, to));
};
const wait = (page, fn, arg) => page.waitForFunction(fn, arg, { timeout: 30000 }).then(() => true, () => false);

try {
  const page = await (await browser.newContext()).newPage();
  let loads = 0;
  page.on("load", () => loads++);
  await page.goto(base + "/digests/2025-W34/", { waitUntil: "load" });
  const first = loads;

  edit("content/digests/2025-W34.md", "The week the cs.AI", "Reloaded: the week the cs.AI");
  const reloaded = await wait(page, () => document.body.textContent.includes("Reloaded: the week"));
  check("an edit reloads the open page by itself", reloaded && loads > first, `loads ${first} -> ${loads}`);

  const paper = "content/papers/2604/2604.03438.md";
  const good = fs.readFileSync(path.join(root, paper), "utf8");
  edit(paper, "version = 1", 'version = "one"');
  const shown = await wait(page, () => {
    const el = document.getElementById("paperboy-error");
    return el && el.textContent.includes("2604.03438.md");
  });
  check("a broken edit shows its error on the page", shown);
  check("the last good page stays under the banner", (await page.textContent("body")).includes("Reloaded: the week"));
  await page.screenshot({ path: path.join(shots, "serve-error-banner.png") });

  fs.writeFileSync(path.join(root, paper), good);
  const gone = await wait(page, () => !document.getElementById("paperboy-error"));
  check("mending it takes the banner away", gone);

  // Every page `serve` sends holds a request open to hear of the next build, and pages
  // open connections in bursts (a search fetches a dozen files at once). Each burst must be
  // answered at once: the server before this one could queue a new connection behind the
  // open ones for 25 s.
  const walker = await (await browser.newContext()).newPage();
  for (const p of ["/", "/archive/", "/categories/", "/digests/2025-W34/", "/papers/2604.03438/", "/search/", "/saved/", "/foryou/"]) {
    const listening = walker.waitForRequest((r) => /__paperboy\/events\?since=\d/.test(r.url()), { timeout: 10000 });
    await walker.goto(base + p);
    await listening;
  }
  for (let round = 1; round <= 20; round++) {
    const started = Date.now();
    const answered = await walker.evaluate((round) => Promise.race([
      Promise.all([...Array(12).keys()].map((i) => fetch(`/style.css?${round}-${i}`, { cache: "no-store" }).then((r) => r.ok)))
        .then((oks) => oks.every(Boolean)),
      new Promise((resolve) => setTimeout(() => resolve(false), 10000)),
    ]), round);
    check(`burst ${round}: twelve requests at once are all answered`, answered, `${Date.now() - started} ms`);
  }
} finally {
  await browser.close();
}
finish();
