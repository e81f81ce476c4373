// "For you" in a real headless Chromium: save papers, keep them across reloads, list them,
// export and import them (JSON, BibTeX), rank the newest weeks and a week's page by them,
// recover from a corrupt saved value, cope with 1,000 saved papers; nothing leaves for
// another site, and without JavaScript nothing changes.
// Usage: node foryou.mjs BASE_URL SCREENSHOT_DIR
import { check, finish, launchChromium } from "./harness.mjs";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [base, shots] = process.argv.slice(2);
fs.mkdirSync(shots, { recursive: true });
const browser = await launchChromium();
const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
const foreign = [];
context.on("request", (r) => { if (!r.url().startsWith(base) && !r.url().startsWith("blob:") && !r.url().startsWith("data:")) foreign.push(r.url()); });
const page = await context.newPage();
const errors = [];
page.on("pageerror", (e) => errors.push(String(e)));
const go = async (url) => { await page.goto(base + url, { waitUntil: "load" }); };
const shot = (name) => page.screenshot({ path: path.join(shots, name + ".png") });
const ids = (sel) => page.locator(sel).evaluateAll((cs) => cs.map((c) => c.getAttribute("data-id")));

try {
  // Save three papers of one group of a week.
  await go("digests/2025-W34/");
  const group = page.locator("#group-cs\\.CR article.card");
  const chosen = (await group.evaluateAll((cs) => cs.map((c) => c.getAttribute("data-id")))).slice(0, 3);
  check("nothing saved: no order to choose", (await page.locator("#sort-week").count()) === 0);
  for (const id of chosen) {
    const button = page.locator(`article.card[data-id="${id}"] button.save`);
    await button.click();
    await page.waitForFunction((id) => document.querySelector(`article.card[data-id="${id}"] button.save`).getAttribute("aria-pressed") === "true", id);
  }
  check("three papers saved", chosen.length === 3);
  // Each Save button is named for its paper, and keeps its name when pressed.
  const names = await page.locator("button.save").evaluateAll((bs) => bs.map((b) => b.getAttribute("aria-label") || b.textContent));
  check("every Save button is named for its paper", names.length > 80 && new Set(names).size === names.length && names.every((n) => n.startsWith("Save ") && n.length > 12), names.slice(0, 3).join(" | "));
  const firstTitle = await page.locator(`article.card[data-id="${chosen[0]}"]`).evaluate((a) => (a.querySelector(".paper-title") || a.querySelector(".card-title a")).textContent);
  const pressedName = await page.getByRole("button", { name: "Save " + firstTitle.replace(/\s+/g, " ").trim(), exact: true }).getAttribute("aria-pressed");
  check("a pressed Save button keeps its name", pressedName === "true", pressedName);
  await page.locator(`article.card[data-id="${chosen[0]}"] button.save`).screenshot({ path: path.join(shots, "save-pressed.png") });
  check("the week's order is offered once a paper is saved, without a reload", (await page.locator("#sort-week").count()) === 1);
  check("the header counts them", (await page.locator("#nav-saved").textContent()) === "Saved (3)");
  await page.reload({ waitUntil: "load" });
  await page.waitForSelector("button.save");
  const pressed = await page.locator("button.save[aria-pressed=true]").evaluateAll((bs) => bs.map((b) => b.closest("article").getAttribute("data-id")));
  check("saved papers stay saved across a reload", JSON.stringify(pressed.sort()) === JSON.stringify([...chosen].sort()), pressed.join(","));

  // A week's page sorted for this reader, and back.
  const before = await ids("main section.group article.card");
  const crIds = await ids("#group-cs\\.CR article.card");
  await page.selectOption("#sort-week", "foryou");
  await page.waitForFunction(() => !document.getElementById("foryou-sorted").hidden);
  const sorted = await ids("#foryou-sorted article.card");
  check("the week sorts for the reader: every card, in a new order", sorted.length === before.length && JSON.stringify(sorted) !== JSON.stringify(before), `${sorted.length} of ${before.length}`);
  // The reader knows what they saved: the papers they have not come first, the saved last.
  check("the saved papers go last, in the digest's order", JSON.stringify(sorted.slice(-3)) === JSON.stringify(before.filter((id) => chosen.includes(id))), sorted.slice(-3).join(","));
  check("a paper not saved comes first", !chosen.includes(sorted[0]), sorted[0]);
  check("the saved papers' neighbours come first (a cs.CR paper)", crIds.includes(sorted[0]), sorted[0]);
  check("the groups' links are hidden while the groups are", await page.locator("nav.overview").isHidden());
  await shot("foryou-week-sorted");
  await page.selectOption("#sort-week", "digest");
  check("and back to the digest's groups", JSON.stringify(await ids("main section.group article.card")) === JSON.stringify(before));
  check("with their links", await page.locator("nav.overview").isVisible());

  // The Saved page.
  await go("saved/");
  await page.waitForSelector("#saved-list article");
  check("the Saved page lists the saved papers", (await page.locator("#saved-list article").count()) === 3);
  await shot("foryou-saved");
  // Export JSON and BibTeX.
  const [json] = await Promise.all([page.waitForEvent("download"), page.click("#export-json")]);
  const jsonPath = path.join(os.tmpdir(), `paperboy-saved-${process.pid}.json`);
  await json.saveAs(jsonPath);
  const exported = JSON.parse(fs.readFileSync(jsonPath, "utf8"));
  check("JSON export holds the saved papers", exported.version === 1 && Object.keys(exported.papers).sort().join() === [...chosen].sort().join());
  const [bib] = await Promise.all([page.waitForEvent("download", { timeout: 30000 }), page.click("#export-bibtex")]);
  const bibText = fs.readFileSync(await bib.path(), "utf8");
  check("BibTeX export has an entry per paper, with its arXiv id", (bibText.match(/^@\w+\{/gm) || []).length === 3 && chosen.every((id) => bibText.includes(`eprint={${id}}`)), bibText.slice(0, 200));
  // Clear, then import.
  await page.evaluate(() => localStorage.clear());
  await go("saved/");
  check("a cleared browser has nothing saved", (await page.locator("#saved-list article").count()) === 0);
  check("nothing saved: nothing to export", await page.locator("#export-json").isDisabled() && await page.locator("#export-bibtex").isDisabled());
  // Reached by Tab, the import shows where the focus is: on its label, the input being a
  // pixel.
  await page.focus("#import-json");
  const ring = await page.locator("label:has(#import-json)").evaluate((l) => getComputedStyle(l).outlineStyle);
  check("a focused Import JSON shows a focus ring", ring === "solid", ring);
  await page.setInputFiles("#import-json", jsonPath);
  await page.waitForFunction(() => document.querySelectorAll("#saved-list article").length === 3);
  check("importing the export brings them back", (await page.locator("#saved-list article").count()) === 3);
  check("a saved card links the paper at arXiv", (await page.locator(`#saved-list article[data-result="${chosen[0]}"] a[href="https://arxiv.org/abs/${chosen[0]}"]`).count()) === 1);
  check("and export is offered again", await page.locator("#export-json").isEnabled());
  // A saved card says "machine review" where the week's card does: the site's footer
  // promises that a machine's line is marked wherever it is shown.
  const marked = await page.locator("#saved-list article").evaluateAll((as) => as.filter((a) => a.querySelector(".review-by")).map((a) => a.getAttribute("data-result")).sort());
  // The paper's own page says whose its headline is.
  const machineHeadlines = [];
  for (const id of chosen) {
    if (/<p class="review-by">Headline/.test(await (await page.request.get(base + "papers/" + id + "/")).text())) machineHeadlines.push(id);
  }
  machineHeadlines.sort();
  check("a saved card marks a machine's headline as the paper's page does", marked.length > 0 && JSON.stringify(marked) === JSON.stringify(machineHeadlines), `${marked} / ${machineHeadlines}`);
  // A journal's paper saved links its article, as its card on the site does.
  await go("digests/2025-W15/");
  const journal = page.locator('article.card[data-id^="doi-10.1101"]').first();
  const journalId = await journal.getAttribute("data-id");
  const article = await journal.locator(".actions a", { hasText: "Article" }).getAttribute("href");
  await journal.locator("button.save").click();
  await page.waitForFunction((id) => document.querySelector(`article.card[data-id="${id}"] button.save`).getAttribute("aria-pressed") === "true", journalId);
  await go("saved/");
  await page.waitForSelector(`#saved-list article[data-result="${journalId}"]`);
  const savedJournal = page.locator(`#saved-list article[data-result="${journalId}"]`);
  check("a saved journal paper links its article", article.startsWith("https://www.biorxiv.org/") && (await savedJournal.locator(`a[href="${article}"]`, { hasText: "Article" }).count()) === 1, article);
  await savedJournal.locator("button.save").click();
  await page.waitForFunction(() => document.querySelectorAll("#saved-list article").length === 3);

  // Saved with vectors an older build made (the words counted otherwise): For you takes the
  // week files' vectors in their place, from the newest weeks and from a saved paper's own
  // older week, and keeps them.
  await go("digests/2001-W11/");
  const oldId = await page.locator("article.card[data-id]").first().getAttribute("data-id");
  await page.locator(`article.card[data-id="${oldId}"] button.save`).click();
  await page.waitForFunction((id) => document.querySelector(`article.card[data-id="${id}"] button.save`).getAttribute("aria-pressed") === "true", oldId);
  await page.evaluate(() => {
    const s = JSON.parse(localStorage.getItem("paperboy.saved"));
    Object.values(s.papers).forEach((p) => { p.vector = ["a-word-no-paper-has", 1]; });
    localStorage.setItem("paperboy.saved", JSON.stringify(s));
  });

  // For you.
  await go("foryou/");
  await page.waitForSelector("#foryou-list li", { timeout: 15000 }).catch(() => {});
  const results = await page.locator("#foryou-list li").count();
  check("For you ranks the newest weeks' papers", results > 0, `${results}`);
  const because = await page.locator("#foryou-list .because").first().textContent().catch(() => "");
  check("each pick says why", because.startsWith("Like: "), because);
  const ranked = await page.locator("#foryou-status").textContent();
  check("the page says what it ranked, and by what", /^The \d+ papers most like the 4 you saved, out of \d+ in the \d+ newest weeks\.$/.test(ranked), ranked);
  const shown = await page.locator("#foryou-list article").evaluateAll((as) => as.map((a) => a.getAttribute("data-result")));
  check("saved papers are not recommended back", !shown.some((id) => chosen.includes(id)));
  // A pick links the paper at arXiv, and is saved from where it is shown.
  const pick = page.locator("#foryou-list article").first();
  const pickId = await pick.getAttribute("data-result");
  check("a pick links the paper at arXiv", (await pick.locator(`a[href="https://arxiv.org/pdf/${pickId}"]`).count()) === 1, pickId);
  const savedBefore = await page.locator("#nav-saved").textContent();
  await pick.locator("button.save").click();
  check("a pick is saved from its card", (await pick.locator("button.save").getAttribute("aria-pressed")) === "true" &&
    await page.evaluate((id) => !!JSON.parse(localStorage.getItem("paperboy.saved")).papers[id].vector, pickId) &&
    (await page.locator("#nav-saved").textContent()) !== savedBefore, `${savedBefore} -> ${await page.locator("#nav-saved").textContent()}`);
  await pick.locator("button.save").click();
  check("and unsaved", (await page.locator("#nav-saved").textContent()) === savedBefore);
  const fresh = await page.evaluate(async (ids) => {
    const saved = JSON.parse(localStorage.getItem("paperboy.saved")).papers;
    return Promise.all(ids.map(async (id) => {
      const p = saved[id];
      const row = (await (await fetch(p.week + ".json")).json()).papers.find((r) => r[0] === id);
      return [id, p.week, row !== undefined && JSON.stringify(row[7]) === JSON.stringify(p.vector)];
    }));
  }, [...chosen, oldId]);
  check("old saved vectors are taken afresh from the week files, and kept", fresh.length === 4 && fresh.every((f) => f[2]), JSON.stringify(fresh));
  // The picks sit in the grid that Saved and the digests use, side by side on a wide screen.
  const spots = await page.locator("#foryou-list > li").evaluateAll((ls) => ls.slice(0, 2).map((l) => { const r = l.getBoundingClientRect(); return [Math.round(r.top), Math.round(r.left)]; }));
  check("For you, 1280 px: the first two picks side by side", spots.length === 2 && spots[0][0] === spots[1][0] && spots[1][1] > spots[0][1], JSON.stringify(spots));
  await shot("foryou-page");
  // On a phone the picks wrap to the screen, their author lines cut at its edge.
  await page.setViewportSize({ width: 375, height: 800 });
  const [sw, cw] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  check("For you with picks, 375 px: no sideways scroll", sw <= cw, `scrollWidth ${sw} > ${cw}`);
  await page.setViewportSize({ width: 1280, height: 900 });

  // A corrupt saved value: the page recovers, says so, and keeps the value aside.
  await page.evaluate(() => localStorage.setItem("paperboy.saved", "{not json"));
  await go("saved/");
  const status = await page.locator("#saved-status").textContent();
  check("a corrupt value is said and kept aside", status.includes("could not be read") && status.includes("kept aside"), status);
  const aside = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("paperboy.saved.unreadable-")).length);
  check("the corrupt value is still there, under another name", aside === 1);

  // A reader with 1,000 saved papers.
  await page.evaluate((one) => {
    const papers = {};
    for (let i = 0; i < 1000; i++) {
      const p = Object.assign({}, one, { id: one.id + "-" + i, title: one.title + " " + i });
      papers[p.id] = p;
    }
    localStorage.setItem("paperboy.saved", JSON.stringify({ version: 1, papers }));
  }, exported.papers[chosen[0]]);
  await go("saved/");
  check("the Saved page lists 1,000 papers", (await page.locator("#saved-list article").count()) === 1000);
  await go("foryou/");
  await page.waitForSelector("#foryou-list li", { timeout: 15000 }).catch(() => {});
  check("For you ranks with 1,000 saved papers", (await page.locator("#foryou-list li").count()) > 0);

  // A headline with math is saved with it and shows it; what an imported file puts in its
  // place shows as no more than MathML and text.
  await page.evaluate(() => localStorage.clear());
  // 2411.17737: "We give an explicit formula for the rank of the $Q$-walk matrix of the
  // Dynkin graph $A_n$".
  await go("digests/2024-W48/");
  await page.locator('article.card[data-id="2411.17737"] button.save').click();
  await page.waitForFunction(() => document.querySelector('article.card[data-id="2411.17737"] button.save').getAttribute("aria-pressed") === "true");
  await go("saved/");
  await page.waitForSelector("#saved-list article");
  const mathTitle = await page.locator("#saved-list .card-title a").first().evaluate((a) => [a.querySelectorAll("math").length, a.textContent]);
  check("a saved headline shows its math", mathTitle[0] === 2 && !mathTitle[1].includes("$"), JSON.stringify(mathTitle));
  await page.evaluate(() => {
    const s = JSON.parse(localStorage.getItem("paperboy.saved"));
    const p = s.papers["2411.17737"];
    p.headlineHtml = '<img src="x" onerror="window.pwned = 1">Hostile <math><mi onclick="window.pwned = 2" style="color:red">x</mi><script>window.pwned = 3</script></math>';
    p.titleHtml = '<a href="javascript:window.pwned = 4">title</a>';
    localStorage.setItem("paperboy.saved", JSON.stringify(s));
  });
  await go("saved/");
  await page.waitForSelector("#saved-list article");
  const hostile = await page.locator("#saved-list article").first().evaluate((a) => ({
    title: a.querySelector(".card-title a").innerHTML,
    tags: Array.from(a.querySelectorAll(".card-title *, .paper-title *")).map((e) => e.localName),
    attrs: Array.from(a.querySelectorAll(".card-title a *, .paper-title *")).flatMap((e) => e.getAttributeNames()),
  }));
  check("saved HTML keeps only MathML and text", hostile.title === "Hostile <math><mi>x</mi></math>" &&
    hostile.tags.every((t) => ["a", "math", "mi"].includes(t)) && hostile.attrs.length === 0, JSON.stringify(hostile));
  check("and runs nothing", (await page.evaluate(() => window.pwned)) === undefined);
  // A saved paper whose link is a script (an imported file may say anything) is not shown.
  await page.evaluate(() => {
    const s = JSON.parse(localStorage.getItem("paperboy.saved"));
    s.papers.evil = { id: "evil", url: "javascript:window.pwned = 5", title: "Evil" };
    s.papers.elsewhere = { id: "elsewhere", url: "//evil.example/x", title: "Elsewhere" };
    localStorage.setItem("paperboy.saved", JSON.stringify(s));
  });
  await go("saved/");
  await page.waitForSelector("#saved-list article");
  const hrefs = await page.locator("#saved-list a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  check("a saved link that is a script, or to another site by //, is not shown", (await page.locator("#saved-list article").count()) === 1 &&
    hrefs.every((h) => /^(https?:\/\/|\/[^/])/.test(h)), hrefs.join(" "));

  check("no script errors", errors.length === 0, errors.join("; "));
  check("nothing was asked of another site", foreign.length === 0, foreign.slice(0, 3).join(", "));

  // Without JavaScript the site is as it was: no buttons, no order menu.
  const plain = await browser.newContext({ javaScriptEnabled: false });
  const p2 = await plain.newPage();
  await p2.goto(base + "digests/2025-W34/", { waitUntil: "load" });
  check("without JavaScript there are no save buttons", (await p2.locator("button.save, #sort-week").count()) === 0);
  await plain.close();
} finally {
  await browser.close();
}
finish();
