// The reader's digest in a real headless Chromium (Debian's): the home page with the week,
// a week's overview and ordered groups, one card layout with its actions and figure, two
// columns on a wide screen and one on a phone, category pages that never show a card twice
// going older, the favicon, and no script but the reader's own.
// Usage: node reader.mjs BASE_URL SCREENSHOT_DIR
import { check, finish, launchChromium } from "./harness.mjs";
import fs from "node:fs";
import path from "node:path";

const [base, shots] = process.argv.slice(2);
fs.mkdirSync(shots, { recursive: true });
const browser = await launchChromium();
async function open(url, opts = {}) {
  const context = await browser.newContext({ viewport: opts.viewport || { width: 1280, height: 900 }, colorScheme: opts.colorScheme || "light" });
  const page = await context.newPage();
  await page.goto(base + url, { waitUntil: "load" });
  return { page, context };
}
const shot = (page, name, fullPage = false) => page.screenshot({ path: path.join(shots, name + ".png"), fullPage });

try {
  // The home page: the newest week with papers, in full; earlier weeks with headlines.
  {
    const { page, context } = await open("");
    const h1 = await page.locator("h1").first().textContent();
    check("home opens with the newest week that has papers", h1.trim() === "Week 14, 2026", h1);
    const cards = await page.locator("main article.card").count();
    check("home shows that week's cards", cards >= 1, `${cards}`);
    const weeks = page.locator(".week-list > li");
    check("home lists earlier weeks", (await weeks.count()) >= 5, `${await weeks.count()}`);
    const w34 = weeks.filter({ hasText: "Week 34, 2025" });
    check("an earlier week shows its count", (await w34.count()) === 1 && (await w34.textContent()).includes("86 new papers"));
    check("an earlier week shows its top headlines", (await w34.locator(".top-headlines a").count()) === 3);
    // Each marked as the week's own cards mark it: the footer promises that a machine's
    // line says so wherever it is shown.
    const tops = await w34.locator(".top-headlines li").evaluateAll((ls) => ls.map((l) => [l.querySelector("a").getAttribute("href"), !!l.querySelector(".review-by")]));
    // The paper's own page says whose its headline is.
    const machineHeadline = async (href) => /<p class="review-by">Headline/.test(await (await context.request.get(new URL(href, base).toString())).text());
    const says = await Promise.all(tops.map((t) => machineHeadline(t[0])));
    check("an earlier week's headlines say which are the machine's", tops.some((t) => t[1]) && tops.every((t, i) => t[1] === says[i]), JSON.stringify([tops, says]));
    await shot(page, "reader-home");
    await context.close();
  }
  // A long week: the overview at the top, groups in order, jump links that work.
  {
    const { page, context } = await open("digests/2025-W34/");
    const overview = page.locator("nav.overview");
    const overviewY = (await overview.boundingBox()).y;
    const firstGroupY = (await page.locator("section.group").first().boundingBox()).y;
    check("the overview comes before the first group", overviewY < firstGroupY);
    const labels = await overview.locator("a").allTextContents();
    check("the editor's picks come first", labels[0] === "Editor's picks", labels.join(", "));
    check("then the largest group", labels[1] === "cs.AI", labels.join(", "));
    check("small groups are folded into one, last", labels[labels.length - 1] === "Other categories", labels.join(", "));
    await overview.locator("a", { hasText: "Other categories" }).click();
    await page.waitForTimeout(200);
    const other = await page.locator("#group-other").boundingBox();
    check("a jump link brings its group into view", page.url().endsWith("#group-other") && other.y < 900 && other.y > -50, `${page.url()} y=${other.y}`);
    check("previous and next week at the top and the bottom", (await page.locator("nav.week-nav a[rel=prev]").count()) === 2 && (await page.locator("nav.week-nav a[rel=next]").count()) === 2);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    console.log(`     (the week is ${height} px tall at 1280 px)`);
    check("columns of cards make the week shorter than one column did (16,000 px)", height < 14000, `${height}`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, "reader-week-top");
    // Two columns on a wide screen.
    const boxes = await page.locator("#group-cs\\.AI article.card").evaluateAll((cards) => cards.slice(0, 2).map((c) => c.getBoundingClientRect()).map((r) => [r.x, r.y]));
    check("two cards side by side at 1280 px", boxes[0][1] === boxes[1][1] && boxes[0][0] < boxes[1][0], JSON.stringify(boxes));
    // One card layout: titles are headings, not underlined links; actions on every card.
    const deco = await page.locator("article.card .card-title a").first().evaluate((a) => getComputedStyle(a).textDecorationLine);
    check("card titles are not underlined", deco === "none", deco);
    const withoutActions = await page.locator("article.card").evaluateAll((cards) => cards.filter((c) => !c.querySelector(".actions a")).length);
    check("every card has action links", withoutActions === 0, `${withoutActions} without`);
    const withHeading = await page.locator("article.card").evaluateAll((cards) => cards.filter((c) => c.querySelector("h3.card-title a")).length);
    check("every card has one heading that links its paper", withHeading === 86, `${withHeading}`);
    // No category chip repeating the group's heading; chips where they say something.
    const chipsInAI = await page.locator("#group-cs\\.AI article.card a.cat").evaluateAll((as) => as.filter((a) => getComputedStyle(a).display !== "none").length);
    check("no category chip repeats its group's heading", chipsInAI === 0, `${chipsInAI} shown`);
    const chipsInOther = await page.locator("#group-other article.card a.cat").evaluateAll((as) => as.filter((a) => getComputedStyle(a).display !== "none").length);
    check("cards in the folded group show their category", chipsInOther > 0);
    // The abstract is a link on every card (to the paper page's abstract), opened in place.
    const link = page.locator("#group-cs\\.AI article.card a.abstract-link").first();
    check("the abstract link says what it opens", (await link.innerText()).trim() === "Abstract", await link.innerText());
    await link.click();
    const inline = page.locator("#group-cs\\.AI article.card .abstract-inline p").first();
    await inline.waitFor({ timeout: 5000 });
    check("an opened abstract says it is open", (await link.getAttribute("aria-expanded")) === "true");
    await link.click();
    check("a second click folds it again", !(await inline.isVisible()) && (await link.getAttribute("aria-expanded")) === "false");
    await context.close();
  }
  // A phone: one column.
  {
    const { page, context } = await open("digests/2025-W34/", { viewport: { width: 390, height: 844 } });
    const boxes = await page.locator("#group-cs\\.AI article.card").evaluateAll((cards) => cards.slice(0, 2).map((c) => c.getBoundingClientRect()).map((r) => [r.x, r.y]));
    check("one column on a phone", boxes[0][0] === boxes[1][0] && boxes[0][1] < boxes[1][1], JSON.stringify(boxes));
    await shot(page, "reader-week-phone");
    await context.close();
  }
  // A formula wider than a phone scrolls by itself and shows it can: a shadow at the edge
  // with more beyond it (phones hide scrollbars; 2411.17730's "(x, t" read as its end).
  // Measured in pixels: the formula as shown, against the same with no background.
  {
    const { page, context } = await open("papers/2411.17730/", { viewport: { width: 375, height: 812 } });
    const formula = page.locator("math[display=block]").first();
    await formula.scrollIntoViewIfNeeded();
    const [scrolls, fits] = await formula.evaluate((m) => [m.scrollWidth > m.clientWidth, document.documentElement.scrollWidth <= document.documentElement.clientWidth]);
    check("a wide formula scrolls by itself on a phone, not the page", scrolls && fits);
    // Mean brightness of the 4 px at each edge, in a screenshot of the formula.
    const edges = async () => page.evaluate(async (png) => {
      const img = new Image();
      img.src = "data:image/png;base64," + png;
      await img.decode();
      const c = document.createElement("canvas");
      [c.width, c.height] = [img.width, img.height];
      const g = c.getContext("2d");
      g.drawImage(img, 0, 0);
      const mean = (x) => {
        const d = g.getImageData(x, 0, 4, img.height).data;
        let sum = 0;
        for (let i = 0; i < d.length; i += 4) sum += d[i] + d[i + 1] + d[i + 2];
        return sum / (d.length / 4) / 3;
      };
      return [mean(0), mean(img.width - 4)];
    }, (await formula.screenshot()).toString("base64"));
    const at = async (left) => {
      await formula.evaluate((m, left) => { m.style.background = ""; m.scrollLeft = left; }, left);
      const shown = await edges();
      await formula.evaluate((m) => { m.style.background = "none"; });
      const bare = await edges();
      return [bare[0] - shown[0], bare[1] - shown[1]];
    };
    // "Not shaded": within 4 of 255 over the 4 px (a formula's width is fractional, so the
    // patch can stand a part of a pixel off its edge).
    const start = await at(0);
    const end = await at(100000);
    check("at its start a wide formula shades its right edge only", start[1] > 8 && Math.abs(start[0]) < 4, JSON.stringify(start));
    check("at its end, its left edge only", end[0] > 8 && Math.abs(end[1]) < 4, JSON.stringify(end));
    await formula.evaluate((m) => { m.style.background = ""; m.scrollLeft = 0; });
    await shot(page, "reader-wide-formula-phone");
    await context.close();
  }
  // A card with a figure: sized, lazy, credited.
  {
    const { page, context } = await open("digests/2017-W22/");
    const img = page.locator("article.card .card-figure img").first();
    const [w, h, loading] = await Promise.all([img.getAttribute("width"), img.getAttribute("height"), img.getAttribute("loading")]);
    check("a card's figure has its size and loads lazily", Number(w) > 0 && Number(h) > 0 && loading === "lazy", `${w}x${h} ${loading}`);
    const natural = await img.evaluate((i) => i.complete && i.naturalWidth);
    check("the figure loads", natural > 0, `${natural}`);
    const credit = await page.locator("article.card .card-figure .credit").first().textContent();
    check("the figure is credited", credit.startsWith("Figure from arXiv:1706.03762"), credit);
    await shot(page, "reader-figure-card");
    await context.close();
  }
  // A category: named and described; going older never shows a card twice.
  {
    const { page, context } = await open("categories/cs.AI/");
    const header = await page.locator("main header").textContent();
    check("the category page names and describes it", header.includes("Artificial Intelligence") && header.includes("Covers all areas of AI"), header.slice(0, 120));
    const front = await page.locator("article.card").evaluateAll((cs) => cs.map((c) => c.id));
    const older = page.locator("nav.pager a[rel=next]");
    let seenTwice = 0, pages = 0;
    const seen = new Set(front);
    while ((await older.count()) > 0 && pages < 20) {
      await older.first().click();
      await page.waitForLoadState("load");
      pages++;
      for (const id of await page.locator("article.card").evaluateAll((cs) => cs.map((c) => c.id))) {
        if (seen.has(id)) seenTwice++;
        seen.add(id);
      }
    }
    check("going older from the front page never shows a card twice", pages > 0 && seenTwice === 0, `${pages} pages, ${seenTwice} seen twice`);
    // And newer, from the oldest page back to the front page: the pages the front page
    // shows are not on the way, nor in any pager there.
    const newer = page.locator("nav.pager a[rel=prev]");
    const back = new Set();
    let steps = 0;
    while ((await newer.count()) > 0 && steps < 20) {
      const numbers = await page.locator("nav.pager a, nav.pager span").allTextContents();
      if (numbers.includes("5") || numbers.includes("6")) back.add(`pager of ${page.url()}: ${numbers.join(" ")}`);
      await newer.first().click();
      await page.waitForLoadState("load");
      steps++;
    }
    check("going newer leads from the oldest page to the front page, past no page it shows", steps === pages && page.url().endsWith("/categories/cs.AI/") && back.size === 0, `${steps} steps, ${pages} older; ${[...back].join(", ")}`);
    await context.close();
    const again = await open("categories/cs.AI/");
    const numbers = await again.page.locator("nav.pager a").allTextContents();
    check("the front page's pager links no page whose cards it shows", !numbers.includes("6") && !numbers.includes("5"), numbers.join(" "));
    await shot(again.page, "reader-category");
    await again.context.close();
  }
  // The favicon, and no script but the reader's own.
  {
    const { page, context } = await open("");
    const href = await page.locator("link[rel=icon]").getAttribute("href");
    const res = await page.request.get(new URL(href, base).toString());
    check("the favicon is served", res.ok() && (res.headers()["content-type"] || "").includes("svg"), `${href} ${res.status()}`);
    await context.close();
    for (const url of ["", "digests/2025-W34/", "papers/2604.03438/", "categories/cs.AI/", "archive/", "authors/taher-a-ghaleb/"]) {
      const p = await open(url);
      // The reader's own script (saved papers, "for you") is the only one, deferred so the
      // page reads before it runs.
      const scripts = await p.page.locator("script:not([type='application/ld+json'])").evaluateAll((ss) => ss.map((s) => `${new URL(s.src, location.href).pathname.split("/").pop()}${s.defer ? "" : " (not deferred)"}`));
      check(`only the reader's deferred script on /${url}`, scripts.length === 1 && scripts[0] === "reader.js", scripts.join(", "));
      const search = await p.page.locator("header form[role=search] input[name=q]").count();
      check(`a search box in the header of /${url}`, search === 1);
      await p.context.close();
    }
  }
  // A paper page reads at a comfortable measure.
  {
    const { page, context } = await open("papers/2604.03438/");
    const ch = await page.locator(".abstract-full p").evaluate((p) => p.getBoundingClientRect().width / parseFloat(getComputedStyle(p).fontSize));
    check("a paper's abstract is at most about 80 characters wide", ch <= 45, `${ch.toFixed(1)} em`);
    await context.close();
  }
} finally {
  await browser.close();
}
finish();
