// The 404 page as a reader meets it, served the way a static host serves it (for any
// address without a page): an arXiv link with this site's address leads to the paper,
// and any other address's words are a search away.
// Usage: node notfound.mjs BASE_URL SCREENSHOT_DIR
import { check, finish, launchChromium } from "./harness.mjs";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const [base, shots] = process.argv.slice(2);
fs.mkdirSync(shots, { recursive: true });
const browser = await launchChromium();

// The reading of an address, on the shapes arXiv's links take.
const { lookedFor } = createRequire(import.meta.url)("../../themes/default/static/notfound.js");
for (const [addr, base, query, paper] of [
  ["/abs/2604.03438v2", "/", "2604.03438", "2604.03438"],
  ["/pdf/2604.03438v1.pdf", "/", "2604.03438", "2604.03438"],
  ["/digest/abs/hep-th/9901001v3", "/digest/", "hep-th/9901001", "hep-th-9901001"],
  ["/papers/math.GT-0309136/", "/", "math.GT/0309136", "math.GT-0309136"],
  ["/digest/authors/jane-q_doe/", "/digest/", "jane q doe", null],
  ["/digests/2026-W99/", "/", "2026 W99", null],
  ["/caf%C3%A9%20au%20lait", "/", "café au lait", null],
  ["/%E0%A4%A", "/", "%E0%A4%A", null],
]) {
  const got = lookedFor(addr, base);
  check(`${addr} asks for ${query}`, got.query === query && got.paper === paper, JSON.stringify(got));
}

try {
  const page = await (await browser.newContext()).newPage();
  const pending = new Map();
  page.on("request", (r) => pending.set(r, Date.now()));
  page.on("requestfinished", (r) => pending.delete(r));
  page.on("requestfailed", (r) => pending.delete(r));
  // `serve` keeps a request open for its reloads, so the network is never idle: wait for
  // the page's own question to the server instead.
  const asked = () => page.waitForResponse((r) => r.url().includes("/papers/") && r.request().resourceType() === "fetch",
    { timeout: 10000 });

  // arxiv.org's address shape, on this site, with a version.
  let head = asked();
  const resp = await page.goto(base + "/abs/2604.03438v2");
  await head;
  check("a missing address answers 404", resp.status() === 404, `status ${resp.status()}`);
  check("the search box holds the id", (await page.inputValue("#notfound-q")) === "2604.03438");
  const hint = page.locator("#notfound-paper a");
  const shown = await hint.waitFor({ state: "visible", timeout: 5000 }).then(() => true, () => false);
  check("the paper this digest has is linked by its title",
    shown && (await hint.getAttribute("href")) === "/papers/2604.03438/" && (await hint.textContent()).startsWith("Android Instrumentation Testing"),
    shown ? `${await hint.getAttribute("href")} ${await hint.textContent()}` : "no link");
  await page.screenshot({ path: path.join(shots, "404-arxiv-id.png") });
  if (shown) {
    await hint.click();
    await page.waitForLoadState("load");
    check("the link opens the paper", (await page.textContent("h1")).includes("Android Instrumentation Testing"),
      await page.textContent("h1"));
  }

  // An id this digest does not have: no link, only the search.
  head = asked();
  await page.goto(base + "/papers/2999.99999/");
  check("it asks whether the paper is here", (await head).status() === 404);
  check("an unknown id fills the search box", (await page.inputValue("#notfound-q")) === "2999.99999");
  check("and links no paper", await page.locator("#notfound-paper").isHidden());

  // A shortened address: the folders of weeks and of papers lead to the archive.
  for (const folder of ["/digests/", "/papers/"]) {
    await page.goto(base + folder);
    await page.waitForURL(/\/archive\/$/, { timeout: 10000 }).catch(() => {});
    const h1 = await page.textContent("h1").catch(() => "");
    check(`${folder} leads to the archive`, /\/archive\/$/.test(page.url()) && h1 === "Archive", `${page.url()} ${h1}`);
  }

  // Words in a mistyped address: one press of Search finds the paper.
  await page.goto(base + "/papers/instrumentation-testing/");
  check("the address's words fill the search box", (await page.inputValue("#notfound-q")) === "instrumentation testing",
    await page.inputValue("#notfound-q"));
  await page.click("form[role=search] button[type=submit]");
  await page.waitForURL(/\/search\/\?q=instrumentation\+testing/);
  const found = await page.waitForFunction(
    () => [...document.querySelectorAll("#search-results a")].some((a) => a.getAttribute("href").includes("2604.03438")),
    null, { timeout: 30000 }).then(() => true, () => false);
  check("Search finds the paper", found, await page.textContent("#search-status"));
  if (!found) for (const [r, t] of pending) console.log(`  pending ${r.method()} ${r.url()} since ${Date.now() - t} ms`);
} finally {
  await browser.close();
}
finish();
