// Checks the built example site in a real headless Chromium (Debian's), as a reader would:
// cards render, a card's abstract opens in place, search finds a paper by a word of its abstract, dark mode
// applies, nothing scrolls sideways at 375 px, and axe-core finds no serious violation.
// Usage: node check.mjs BASE_URL SCREENSHOT_DIR
import { check, finish, launchChromium } from "./harness.mjs";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const [base, shots] = process.argv.slice(2);
fs.mkdirSync(shots, { recursive: true });
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const browser = await launchChromium();
async function open(url, opts = {}) {
  const context = await browser.newContext({ viewport: opts.viewport || { width: 1200, height: 900 }, colorScheme: opts.colorScheme || "light" });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(base + url, { waitUntil: "load" });
  return { page, context, errors };
}
const shot = (page, name) => page.screenshot({ path: path.join(shots, name + ".png"), fullPage: false });

try {
  // Cards, and a card's abstract.
  {
    const { page, context } = await open("digests/2025-W34/");
    const cards = await page.locator("article.card").count();
    check("digest shows its 86 cards", cards === 86, `got ${cards}`);
    // A card carries its abstract one click away: a link to the paper's page, which
    // reader.js opens in place, fetched from that page.
    const link = page.locator("article.card a.abstract-link").first();
    check("no abstract inline on a card", (await page.locator("article.card .abstract-inline, article.card details").count()) === 0);
    const href = await link.getAttribute("href");
    check("the abstract link leads to the paper page's abstract", /papers\/[^/]+\/#abstract-title$/.test(href || ""), href);
    await link.click();
    const opened = page.locator("article.card .abstract-inline p").first();
    await opened.waitFor({ timeout: 5000 });
    check("clicking Abstract opens it in place", (await page.url()).endsWith("digests/2025-W34/"), page.url());
    const box = await opened.boundingBox();
    check("the opened abstract is visible", box !== null && box.height > 20, JSON.stringify(box));
    await shot(page, "digest-desktop");
    await context.close();
  }
  // An abstract opened in the grid is read across the row: in its own column it made its
  // card and the cards beside it about 1,400 px tall. (The card then starts a row of its
  // own: opened in the second or third column, it leaves the cells after the cards before
  // it empty.)
  {
    const { page, context } = await open("digests/2025-W34/", { viewport: { width: 1280, height: 900 } });
    const grid = page.locator("section.group .cards").filter({ has: page.locator("article.card:nth-child(3)") }).first();
    const cards = grid.locator("article.card");
    const before = (await cards.nth(0).boundingBox()).height;
    const closedHeight = (await cards.nth(1).boundingBox()).height;
    await cards.nth(1).locator("a.abstract-link").click();
    await cards.nth(1).locator(".abstract-inline p").waitFor({ timeout: 5000 });
    const [gridBox, openBox] = [await grid.boundingBox(), await cards.nth(1).boundingBox()];
    check("an open abstract's card spans the row", Math.abs(openBox.width - gridBox.width) < 2, `${openBox.width} of ${gridBox.width}`);
    // The card before it may now stand alone in its row, at its own height; no other card
    // of the grid takes the open one's height.
    const others = await cards.evaluateAll((list) => list.filter((_, i) => i !== 1).map((c) => c.getBoundingClientRect().height));
    check("the cards beside an open abstract grow no taller",
      (await cards.nth(0).boundingBox()).height < before + 2 && Math.max(...others) < 700, `${before}; others up to ${Math.max(...others)} px`);
    check("an open abstract's card stays short", openBox.height < 700, `${openBox.height} px`);
    await cards.nth(1).locator("a.abstract-link").click();
    const closed = await cards.nth(1).boundingBox();
    check("closing the abstract puts the card back in its column", Math.abs(closed.height - closedHeight) < 2 && closed.width < gridBox.width / 2,
      JSON.stringify(closed));
    await context.close();
  }
  // Search by a word of an abstract, from the URL and by typing.
  {
    const { page, context, errors } = await open("search/?q=instrumentation");
    const hit = page.locator("#search-results a", { hasText: "Android Instrumentation Testing" });
    await hit.first().waitFor({ timeout: 15000 }).catch(() => {});
    check("search from ?q= finds the paper", (await hit.count()) > 0);
    await page.fill("#search-input", "gaussian process");
    const typed = page.locator("#search-results a", { hasText: "Gaussian Process" });
    await typed.first().waitFor({ timeout: 15000 }).catch(() => {});
    check("typing a query searches as you type", (await typed.count()) > 0);
    check("the query goes into the address", page.url().includes("q=gaussian"), page.url());
    // A word only the card's headline has: the snippet shows the headline, the word marked.
    await page.fill("#search-input", "flakiness");
    const flaky = page.locator("#search-results li", { hasText: "Android Instrumentation Testing" });
    await flaky.first().waitFor({ timeout: 15000 }).catch(() => {});
    const flakyMarks = await flaky.first().locator(".snippet mark").allTextContents().catch(() => []);
    check("a paper found by its headline shows it, the word marked", flakyMarks.some((t) => /^flakiness$/i.test(t)), flakyMarks.join(","));
    // A word some 1,000 characters into an abstract, past the start the index keeps: the
    // snippet is the whole abstract's, around the word, as a web search's is.
    await page.fill("#search-input", "consensus");
    const loop = page.locator("#search-results li", { hasText: "LOOP: A Plug-and-Play" });
    await loop.first().locator(".snippet mark").first().waitFor({ timeout: 15000 }).catch(() => {});
    const loopSnippet = await loop.first().locator(".snippet").evaluate((p) => [Array.from(p.querySelectorAll("mark"), (m) => m.textContent), p.textContent]).catch(() => [[], ""]);
    check("a word deep in an abstract shows in its snippet, marked",
      loopSnippet[0].some((t) => /^consensus/i.test(t)) && /^… .*consensus-based correctness/.test(loopSnippet[1]), JSON.stringify(loopSnippet));
    // A title's math shows as math, as on the paper's page, not as its LaTeX.
    await page.fill("#search-input", "dynkin");
    const dynkin = page.locator("#search-results a", { hasText: "Dynkin graph" });
    await dynkin.first().waitFor({ timeout: 15000 }).catch(() => {});
    const dynkinTitle = await dynkin.first().evaluate((a) => [a.querySelectorAll("math msub").length, a.textContent]).catch(() => [0, ""]);
    check("a result's title shows its math", dynkinTitle[0] === 1 && !dynkinTitle[1].includes("$"), JSON.stringify(dynkinTitle));
    // A name typed without its accent finds the paper whose feed wrote it in TeX
    // (`R\'{e}nyi`), and the snippet marks the word as the page shows it.
    await page.fill("#search-input", "renyi entropy");
    const renyi = page.locator("#search-results li", { hasText: "Luttinger liquids" });
    await renyi.first().waitFor({ timeout: 15000 }).catch(() => {});
    const renyiMarks = await renyi.first().locator(".snippet mark").allTextContents().catch(() => []);
    check("a word typed without its accent finds the paper, the word marked", renyiMarks.includes("Rényi"), renyiMarks.join(","));
    // A snippet shows an abstract's formulas as its page does (MathML), not as LaTeX:
    // this one has a system set apart (`\begin{equation*}`) and two inline formulas.
    await page.fill("#search-input", "orbital stability");
    const orbital = page.locator("#search-results li", { hasText: "Almost sure well-posedness" }).locator(".snippet");
    await orbital.first().waitFor({ timeout: 15000 }).catch(() => {});
    const orbitalSnippet = await orbital.first().evaluate((p) => [p.querySelectorAll("math").length, p.querySelectorAll("math mfrac, math mtable").length, p.textContent]).catch(() => [0, 0, ""]);
    check("a snippet shows its abstract's formulas as math, not LaTeX",
      orbitalSnippet[0] === 3 && orbitalSnippet[1] >= 2 && !/[$\\]/.test(orbitalSnippet[2]) && orbitalSnippet[2].includes("orbital stability"), JSON.stringify(orbitalSnippet));
    // Every match counted exactly, 30 a page, the matched words marked in a snippet.
    await page.fill("#search-input", "learning");
    await page.waitForFunction(() => /^[\d,]+ papers, page 1 of \d+/.test(document.getElementById("search-status").textContent), null, { timeout: 15000 }).catch(() => {});
    const status = await page.locator("#search-status").textContent();
    const m = /^([\d,]+) papers, page 1 of (\d+)/.exec(status);
    check("the status says exactly how many papers match", m !== null, status);
    const total = m ? parseInt(m[1].replace(/,/g, ""), 10) : 0;
    check("a long result list is paged by 30", (await page.locator("#search-results > li").count()) === Math.min(30, total));
    const marks = await page.locator("#search-results .snippet mark").allTextContents();
    check("snippets mark the matched words", marks.length > 0 && marks.every((t) => /^learn/i.test(t)), marks.slice(0, 5).join(","));
    const firstTitle = await page.locator("#search-results > li a").first().textContent();
    await page.locator("#search-pager a[rel=next]").click();
    await page.waitForFunction(() => /page 2 of/.test(document.getElementById("search-status").textContent), null, { timeout: 15000 }).catch(() => {});
    check("the next page shows the next results", (await page.locator("#search-results").getAttribute("start")) === "31" &&
      (await page.locator("#search-results > li a").first().textContent()) !== firstTitle);
    check("the page is in the address", page.url().includes("page=2"), page.url());
    await shot(page, "search");
    // A category narrows the results; a typo still finds the word.
    await page.selectOption("#search-category", "cs.LG");
    await page.waitForFunction(() => /cs\.LG|^[\d,]+ paper/.test(document.getElementById("search-status").textContent) && !/page 2/.test(document.getElementById("search-status").textContent), null, { timeout: 15000 }).catch(() => {});
    const narrowed = /^([\d,]+) paper/.exec(await page.locator("#search-status").textContent());
    const inCategory = narrowed ? parseInt(narrowed[1].replace(/,/g, ""), 10) : -1;
    check("a category filter narrows the results", inCategory > 0 && inCategory < total, `${inCategory} of ${total}`);
    await page.selectOption("#search-category", "");
    await page.fill("#search-input", "learnign");
    await page.waitForFunction(() => /also for/.test(document.getElementById("search-status").textContent), null, { timeout: 15000 }).catch(() => {});
    check("a typo finds the word and says so", /also for learning/.test(await page.locator("#search-status").textContent()),
      await page.locator("#search-status").textContent());
    check("search page has no script errors", errors.length === 0, errors.join("; "));
    await context.close();
  }
  // Math is MathML with a width.
  {
    const { page, context } = await open("papers/2306.03845/");
    const w = await page.locator("h1 math").first().evaluate((m) => m.getBoundingClientRect().width).catch(() => 0);
    check("math renders in the title", w > 5, `width ${w}`);
    await context.close();
  }
  // A link with math is underlined under its math as well as its words.
  {
    // 2411.17728's related paper is "Quark Density in Lattice QC₂D", its subscript a
    // formula. (ωTest, whose title opens with one, is no longer close enough to be
    // 2306.07400's related paper.)
    const { page, context } = await open("papers/2411.17728/");
    const line = await page.locator(".related a > math").first()
      .evaluate((m) => getComputedStyle(m).textDecorationLine).catch(() => "no such link");
    check("a related paper's math is underlined with its link", line === "underline", line);
    await context.close();
  }
  // Dark mode.
  {
    const light = await open("papers/2604.03438/");
    const lightBg = await light.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await light.context.close();
    const dark = await open("papers/2604.03438/", { colorScheme: "dark" });
    const darkBg = await dark.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    check("dark mode applies", darkBg === "rgb(18, 19, 22)" && lightBg === "rgb(251, 250, 247)", `${lightBg} / ${darkBg}`);
    await shot(dark.page, "paper-dark");
    await dark.context.close();
  }
  // A card shows its whole byline: it was one line cut with "…", which hid the names and
  // the "et al." after them on 50 of 2025-W34's 86 cards at 1280 px.
  for (const viewport of [{ width: 1280, height: 900 }, { width: 375, height: 800 }]) {
    const { page, context } = await open("digests/2025-W34/", { viewport });
    const lines = await page.locator(".card .authors").evaluateAll((ps) =>
      ps.map((p) => ({ text: p.textContent, cut: p.scrollWidth > p.clientWidth + 1 || p.scrollHeight > p.clientHeight + 1 })));
    const cut = lines.filter((l) => l.cut).map((l) => l.text);
    check(`${viewport.width} px: every card's byline is whole`, lines.length >= 80 && cut.length === 0, `${lines.length} bylines; cut: ${cut.slice(0, 3).join(" | ")}`);
    if (viewport.width === 375) await shot(page, "digest-bylines-375");
    await context.close();
  }
  // A paper's page shows every author, none cut off at the edge.
  for (const viewport of [{ width: 1200, height: 900 }, { width: 375, height: 800 }]) {
    const { page, context } = await open("papers/1706.03762/", { viewport });
    const clipped = await page.locator("article.paper .authors a").evaluateAll((as) => {
      const box = as[0].parentElement.getBoundingClientRect();
      return as.filter((a) => {
        const r = a.getBoundingClientRect();
        return r.width === 0 || r.right > box.right + 1 || r.bottom > box.bottom + 1;
      }).map((a) => a.textContent);
    });
    const count = await page.locator("article.paper .authors a").count();
    check(`${viewport.width} px: a paper's page shows all its ${count} authors`, count === 8 && clipped.length === 0, `cut off: ${clipped.join(", ")}`);
    await context.close();
  }
  // An author's list at 375 px: a paper's category and date are never cut at a hyphen
  // ("cond-" | "mat.stat-mech", "2010-" | "05-28").
  {
    const { page, context } = await open("authors/adrian-del-maestro/", { viewport: { width: 375, height: 800 } });
    // The category and the date, which the line starts with, on one line of text each
    // line (the authors after them may wrap): a range over them has one rect.
    const broken = await page.locator(".author-list .muted").evaluateAll((ms) =>
      ms.filter((m) => {
        const text = m.firstChild;
        const s = text.textContent;
        const cut = s.indexOf(" · ", s.indexOf(" · ") + 3);
        const range = document.createRange();
        range.setStart(text, 0);
        range.setEnd(text, cut < 0 ? s.length : cut);
        return Array.from(range.getClientRects()).filter((r) => r.width > 0).length !== 1;
      }).map((m) => m.textContent));
    const lines = await page.locator(".author-list .muted").count();
    check("375 px: an author's lines keep category and date whole", lines === 10 && broken.length === 0, `split: ${broken.join(" | ")}`);
    await page.setViewportSize({ width: 1280, height: 900 });
    const beside = await page.locator(".author-list li").evaluateAll((ls) =>
      ls.filter((l) => l.querySelector(".muted").getBoundingClientRect().top < l.querySelector("a").getBoundingClientRect().bottom - 1).map((l) => l.querySelector("a").textContent));
    check("1280 px: every line's category and date sit under its title", beside.length === 0, `beside: ${beside.join(" | ")}`);
    await context.close();
  }
  // Dates are one word at 375 px: the archive read "2026-03-30 to 2026-" | "04-05", search
  // results "cs.AR · 2022-" | "05-19". A snippet's marks stand beside a word ("word …",
  // never "word  …").
  for (const url of ["archive/", "search/?q=testing", "search/?q=transformer", "search/?q=model"]) {
    const { page, context } = await open(url, { viewport: { width: 375, height: 800 } });
    if (url.startsWith("search")) await page.locator("#search-results li").first().waitFor();
    const times = page.locator("main time");
    const broken = await times.evaluateAll((ts) =>
      ts.filter((t) => t.getClientRects().length !== 1).map((t) => t.textContent));
    const count = await times.count();
    check(`375 px: dates kept whole on /${url}`, count >= 10 && broken.length === 0, `${count} dates; split: ${broken.slice(0, 5).join(" | ")}`);
    if (url.startsWith("search")) {
      const snippets = await page.locator("#search-results .snippet").allTextContents();
      const doubled = snippets.filter((t) => /\s\s…|…\s\s/.test(t));
      check(`search snippets: no doubled space beside … (${url})`, snippets.length >= 10 && doubled.length === 0, doubled.slice(0, 2).join(" | "));
      // Nor a word cut at its hyphen ("state-of- …"), nor "… …" where a snippet reached
      // the end of an abstract the index had cut.
      const cut = snippets.filter((t) => /[-/]\s*…$|^…\s*[-/]|…\s*…$/.test(t));
      check(`search snippets: cut between words, one … at the end (${url})`, cut.length === 0, cut.slice(0, 2).map((t) => t.slice(-40)).join(" | "));
    }
    await context.close();
  }
  // What the search page says to a query it cannot run as typed.
  for (const [url, expected] of [
    ["search/?q=%26", "Type a word to search for"],
    ["search/?q=&category=cs.LG", "papers in cs.LG, those filed there first"],
    ["search/?q=graph&from=2025&to=2024", "which is backwards"],
  ]) {
    const { page, context } = await open(url);
    await page.waitForFunction(() => { const s = document.getElementById("search-status").textContent; return s && s !== "Searching…"; }, null, { timeout: 5000 }).catch(() => {});
    const said = await page.locator("#search-status").textContent();
    check(`search says why: /${url}`, said.includes(expected), JSON.stringify(said));
    await context.close();
  }
  // Paging search results by keyboard: the focus goes to the new page's first result, and
  // Back returns to the page before, not out of search.
  {
    const { page, context } = await open("search/?q=learning");
    await page.waitForFunction(() => /page 1 of/.test(document.getElementById("search-status").textContent));
    await page.locator("#search-pager a[rel=next]").focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => /page 2 of/.test(document.getElementById("search-status").textContent));
    const focused = await page.evaluate(() => document.activeElement && document.activeElement.closest("#search-results") ? "a result" : document.activeElement.tagName);
    check("search: the next page takes the focus to its first result", focused === "a result", focused);
    await page.goBack();
    // Without history, Back leaves for the blank page the test began on: no status there.
    await page.waitForFunction(() => /page 1 of/.test((document.getElementById("search-status") || {}).textContent), null, { timeout: 5000 }).catch(() => {});
    const back = await page.evaluate(() => [location.href, (document.getElementById("search-status") || {}).textContent || ""]);
    check("search: Back returns to page 1", /page 1 of/.test(back[1]) && back[0].includes("/search/"), back.join(": "));
    await context.close();
  }
  // The first Tab reaches a link past the header, shown while it has the focus.
  {
    const { page, context } = await open("digests/2025-W34/");
    await page.keyboard.press("Tab");
    const skip = await page.evaluate(() => {
      const a = document.activeElement;
      const r = a.getBoundingClientRect();
      return { text: a.textContent, href: a.getAttribute("href"), shown: r.top >= 0 && r.height > 0 };
    });
    check("the first Tab stop skips to the content, and shows", skip.href === "#main" && skip.shown, JSON.stringify(skip));
    await context.close();
  }
  // Printed, from a browser in dark mode: black on white, an abstract opened in place on
  // the paper, and none of the search box, navigation, Save buttons or Abstract links (a
  // card's abstract is on its paper's page, which prints it).
  {
    const { page, context } = await open("digests/2025-W34/", { colorScheme: "dark" });
    await page.waitForSelector("button.save");
    await page.locator("article.card a.abstract-link").first().click();
    await page.locator("article.card .abstract-inline p").first().waitFor({ timeout: 5000 });
    await page.emulateMedia({ media: "print" });
    const printed = await page.evaluate(() => {
      const seen = (sel) => [...document.querySelectorAll(sel)].filter((e) => e.checkVisibility()).length;
      return {
        opened: seen(".abstract-inline p"),
        chrome: seen(".header-search, #site-nav, button.save, nav.overview, a.abstract-link"),
        colors: [getComputedStyle(document.body).color, getComputedStyle(document.body).backgroundColor].join(" on "),
      };
    });
    check("printed: an abstract opened in place is on the paper", printed.opened === 1, `${printed.opened}`);
    check("printed: no search, navigation, buttons or Abstract links", printed.chrome === 0, `${printed.chrome} shown`);
    check("printed from dark mode: black on white", printed.colors === "rgb(0, 0, 0) on rgb(255, 255, 255)", printed.colors);
    await context.close();
  }
  // Phones: no horizontal scroll at 375 px. 2202.06515's abstract has an inline formula
  // wider than a phone's column.
  const pages = ["", "digests/2025-W34/", "papers/2604.03438/", "papers/2306.03845/", "papers/2202.06515/", "categories/cs.AI/",
    "categories/cs.AI/page/2/", "categories/", "archive/", "authors/", "authors/taher-a-ghaleb/", "search/?q=testing", "404.html"];
  for (const url of pages) {
    const { page, context } = await open(url, { viewport: { width: 375, height: 800 } });
    await page.waitForTimeout(url.startsWith("search") ? 500 : 0);
    const [sw, cw] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    check(`375 px, no sideways scroll: /${url}`, sw <= cw, `scrollWidth ${sw} > ${cw}`);
    await shot(page, "phone-" + (url.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "home"));
    await context.close();
  }
  // Accessibility: axe-core, no serious or critical violation, and landmarks told apart.
  for (const url of pages) {
    for (const colorScheme of ["light", "dark"]) {
      const { page, context } = await open(url, { colorScheme });
      await page.addScriptTag({ content: axeSource });
      const result = await page.evaluate(async () => await window.axe.run(document, { resultTypes: ["violations"] }));
      // Two search landmarks a screen reader lists alike are a minor violation, but a
      // reader moving by landmark cannot tell the header's box from the page's.
      const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical" || v.id === "landmark-unique");
      const all = result.violations.map((v) => `${v.id}(${v.impact})`).join(", ");
      check(`axe ${colorScheme}: /${url}`, bad.length === 0,
        bad.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`).join("; "));
      if (all) console.log(`     (minor: ${all})`);
      await context.close();
    }
  }
} finally {
  await browser.close();
}
finish();
