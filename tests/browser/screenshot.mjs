// The README's picture: one page of a built site as a reader first sees it, in Chromium's
// light scheme at 1280 px, saved as WebP (Chromium's own encoder, through a canvas) so the
// file checked into the repository stays small.
// Usage: node screenshot.mjs PAGE_URL OUT.webp [HEIGHT] [QUALITY]
import { launchChromium } from "./harness.mjs";
import fs from "node:fs";

const [url, out, height = "900", quality = "0.82"] = process.argv.slice(2);
const browser = await launchChromium();
try {
  const page = await browser.newPage({
    viewport: { width: 1280, height: Number(height) },
    colorScheme: "light",
    deviceScaleFactor: 1,
  });
  const answer = await page.goto(url, { waitUntil: "networkidle" });
  if (!answer || !answer.ok()) throw new Error(`${url}: HTTP ${answer && answer.status()}`);
  // Lazy images below the fold are not in the picture; those in it must have loaded.
  await page.evaluate(() => Promise.all([...document.images]
    .filter((img) => img.getBoundingClientRect().top < innerHeight)
    .map((img) => img.decode().catch(() => {}))));
  const png = await page.screenshot({ type: "png" });
  const webp = await page.evaluate(async ([data, q]) => {
    const img = new Image();
    img.src = `data:image/png;base64,${data}`;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    canvas.getContext("2d").drawImage(img, 0, 0);
    return canvas.toDataURL("image/webp", q).split(",")[1];
  }, [png.toString("base64"), Number(quality)]);
  const bytes = Buffer.from(webp, "base64");
  if (bytes.subarray(8, 12).toString() !== "WEBP") throw new Error("Chromium gave no WebP");
  fs.writeFileSync(out, bytes);
  fs.writeFileSync(out.replace(/\.webp$/, "") + ".png", png);
  console.log(`${out}: ${bytes.length} bytes (PNG ${png.length} bytes)`);
} finally {
  await browser.close();
}
