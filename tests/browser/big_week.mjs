// A field's week of 2,000 papers (tests/big_week.rs) in a real headless Chromium: the week's
// page shows a hundred cards and links the rest; a group's page opens; a card's abstract
// opens in place; sorted "for you", the week ranks every paper of the week, those on the
// groups' own pages too. Screenshots at 375 and 1280 px.
// Usage: node big_week.mjs BASE_URL SCREENSHOT_DIR
import { check, finish, launchChromium } from "./harness.mjs";
import fs from "node:fs";
import path from "node:path";

const [base, shots] = process.argv.slice(2);
fs.mkdirSync(shots, { recursive: true });
const week = "2026-W20";
const browser = await launchChromium();
const errors = [];
try {
  for (const width of [375, 1280]) {
    const context = await browser.newContext({ viewport: { width, height: 2000 } });
    const page = await context.newPage();
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(base + `digests/${week}/`, { waitUntil: "load" });
    await page.screenshot({ path: path.join(shots, `big-week-${width}.png`) });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check(`${width} px: nothing wider than the screen`, overflow <= 0, `${overflow} px`);
    await context.close();
  }
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(base + `digests/${week}/`, { waitUntil: "load" });
  const shown = await page.locator("main section.group article.card").evaluateAll((cs) => cs.map((c) => c.getAttribute("data-id")));
  check("the week's page shows at most 100 cards", shown.length > 0 && shown.length <= 100, `${shown.length}`);
  const file = await (await page.request.get(base + `foryou/${week}.json`)).json();
  check("the week's file holds all 2,000", file.papers.length === 2000, `${file.papers.length}`);

  // A card's abstract, in place.
  const card = page.locator("main section.group article.card").first();
  await card.locator("a.abstract-link").click();
  await card.locator(".abstract-inline p").waitFor({ timeout: 5000 });
  check("Abstract opens in place", page.url().endsWith(`digests/${week}/`), page.url());

  // A group's page, one click away, numbered pages beside it.
  const more = page.locator("#group-cs\\.SY .more-pages a.more");
  const href = new URL(await more.getAttribute("href"), page.url()).href;
  const pages = await page.locator("#group-cs\\.SY .more-pages .pages a").count();
  check("cs.SY, cut, links each of its numbered pages", pages >= 10, `${pages}`);

  // Sorted for the reader: every paper of the week, not only the cards shown.
  await card.locator("button.save").click();
  await page.waitForSelector("#sort-week");
  await page.selectOption("#sort-week", "foryou");
  await page.waitForFunction(() => !document.getElementById("foryou-sorted").hidden);
  const sorted = await page.locator("#foryou-sorted article").evaluateAll((cs) => cs.map((c) => c.getAttribute("data-id") || c.getAttribute("data-result")));
  const offPage = sorted.filter((id) => !shown.includes(id));
  check("for you ranks the whole week", sorted.length === 2000, `${sorted.length}`);
  check("and shows papers from the groups' own pages, high up", offPage.length > 1800 && sorted.slice(0, 30).some((id) => !shown.includes(id)), `${offPage.length}`);
  const madeLink = await page.locator("#foryou-sorted article[data-result] .card-title a").first().getAttribute("href");
  check("a paper from further down links its page", /papers\/2605\.\d{5}\/$/.test(madeLink || ""), madeLink);
  await page.screenshot({ path: path.join(shots, "big-week-foryou.png") });

  await page.goto(href, { waitUntil: "load" });
  const groupCards = await page.locator("main article.card").count();
  check("a group's page shows its cards", groupCards > 0 && groupCards <= 100, `${groupCards}`);
  check("and leads back to the week", (await page.locator(`a[href$="digests/${week}/"]`).count()) > 0);
  check("and on to its next page", /cs\.SY\/page\/2\/$/.test((await page.locator("nav.pager a[rel=next]").getAttribute("href")) || ""));
  await page.screenshot({ path: path.join(shots, "big-week-group.png") });
  check("no script errors", errors.length === 0, errors.join("; "));
  await context.close();
} finally {
  await browser.close();
}
finish();
