// The newsletter's HTML part in a real headless Chromium, as a mail client shows it: at
// 600 px (desktop) and 375 px (a phone), light and dark. No sideways scroll on the phone,
// every paper of the week linked, the dark scheme applied, nothing fetched from outside.
// Usage: node email.mjs FILE_URL_OF_THE_HTML SCREENSHOT_DIR
//   (expects beside the .html an expected.json: the permalinks every paper must have)
import { check, finish, launchChromium } from "./harness.mjs";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const [url, shots] = process.argv.slice(2);
fs.mkdirSync(shots, { recursive: true });
const expected = JSON.parse(fs.readFileSync(path.join(path.dirname(fileURLToPath(url)), "expected.json"), "utf8"));
const browser = await launchChromium();
try {
  for (const width of [600, 375]) {
    for (const scheme of ["light", "dark"]) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
      const outside = [];
      context.on("request", (r) => { if (!r.url().startsWith("file:") && !r.url().startsWith("data:")) outside.push(r.url()); });
      const page = await context.newPage();
      await page.goto(url, { waitUntil: "load" });
      const where = `${width} px ${scheme}`;
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
      check(`no sideways scroll at ${where}`, scroll <= width, `${scroll} px wide`);
      const links = await page.locator("a[href]").evaluateAll((as) => as.map((a) => a.href));
      const missing = expected.filter((u) => !links.includes(u));
      check(`every paper linked at ${where}`, missing.length === 0, missing.slice(0, 3).join(", "));
      // Readable: the text's colour stands apart from the sheet's.
      const [fg, bg] = await page.evaluate(() => {
        const td = document.querySelector("td.pad");
        let el = td;
        let bg = "rgba(0, 0, 0, 0)";
        while (el && (bg === "rgba(0, 0, 0, 0)" || bg === "transparent")) { bg = getComputedStyle(el).backgroundColor; el = el.parentElement; }
        return [getComputedStyle(td).color, bg];
      });
      const lum = (c) => { const [r, g, b] = c.match(/\d+/g).map(Number); return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255; };
      check(`text stands out from the background at ${where}`, Math.abs(lum(fg) - lum(bg)) > 0.5, `${fg} on ${bg}`);
      check(`${scheme} scheme applied at ${where}`, scheme === "dark" ? lum(bg) < 0.3 : lum(bg) > 0.7, bg);
      // No text smaller than 12 px.
      const small = await page.evaluate(() => [...document.querySelectorAll("td *")].filter((e) => e.textContent.trim() && parseFloat(getComputedStyle(e).fontSize) < 12).length);
      check(`no text under 12 px at ${where}`, small === 0, `${small} elements`);
      check(`nothing fetched from outside at ${where}`, outside.length === 0, outside.slice(0, 3).join(", "));
      await page.screenshot({ path: path.join(shots, `email-${width}-${scheme}.png`) });
      await context.close();
    }
  }
} finally {
  await browser.close();
}
finish();
