//! What a paper's HTML rendition (arXiv's LaTeXML pages, ar5iv) tells a review: its
//! figures with their images and captions, how many theorems it states, the licence and
//! version it names at its top, and whether the conversion failed.
//!
//! Pages are read in one streaming pass, never built into a tree: a page is up to a few
//! megabytes and a review reads thousands. The pass jumps from `<` to `<` (memchr) and
//! reads only the tags and text it needs; `tests::the_scan_agrees_with_a_whatwg_tokenizer`
//! holds it to what html5gum, a WHATWG tokenizer, reads on every fixture page.

mod tokenize;

use tokenize::tokenize;

/// One `<figure class="ltx_figure">` that is not inside another, in document order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Figure {
    /// Its `id` (`S3.F2`).
    pub id: String,
    /// The images in it, panels of sub-figures included, in order.
    pub images: Vec<Image>,
    /// The caption's text, with math as its LaTeX; without the "Figure 2:" tag.
    pub caption: String,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Image {
    /// `src` as written.
    pub src: String,
    pub alt: String,
    /// The size the page declares, where it does.
    pub width: Option<u32>,
    pub height: Option<u32>,
    /// LaTeXML could not include the image (`ltx_missing`).
    pub missing: bool,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Page {
    pub figures: Vec<Figure>,
    /// Theorem environments (`ltx_theorem_theorem`, or ones tagged "Theorem …").
    pub theorems: usize,
    /// The licence line at the top of arXiv's pages ("License: CC BY 4.0"), as written.
    pub license: String,
    /// The watermark ("arXiv:2403.10131v1 [cs.CL] 15 Mar 2024").
    pub watermark: String,
    /// `<base href>`, against which image sources resolve.
    pub base_href: String,
    /// A LaTeXML document (`ltx_document`), not an author's own HTML or an error page.
    pub is_latexml: bool,
    /// The conversion failed: a fatal `ltx_ERROR`, or ar5iv's fatal severity marker.
    pub conversion_failed: bool,
    /// The page says there is no HTML for the paper (arXiv's "No HTML" answer).
    pub no_html: bool,
}

impl Page {
    /// Whether the page is a rendition a review can use.
    pub fn usable(&self) -> bool {
        self.is_latexml && !self.conversion_failed && !self.no_html
    }
}

/// Reads a page. Never fails: what cannot be read is not there.
pub fn scan(html: &[u8]) -> Page {
    let mut scanner = Scanner::default();
    tokenize(html, &mut scanner);
    scanner.finish()
}

/// A text being collected, and the depth of elements it stops at.
#[derive(Debug, Default)]
struct Capture {
    text: String,
    /// Open elements inside the capturing one; the capture ends at its end tag.
    depth: usize,
    active: bool,
}

impl Capture {
    fn start(&mut self) {
        self.text.clear();
        self.depth = 0;
        self.active = true;
    }
}

#[derive(Debug, Default)]
struct Scanner {
    page: Page,
    // The start tag being read: its name, wanted attributes and whether it closes itself.
    tag: Vec<u8>,
    attrs: Vec<(Vec<u8>, Vec<u8>)>,
    self_closing: bool,
    /// Nesting of `ltx_figure`s: 0 outside any.
    figure_depth: usize,
    /// Elements open inside the current top-level figure, to match `</figure>`s.
    figure: Option<Figure>,
    caption: Capture,
    /// Inside a caption's `<math>`: its text is MathML, the alttext is taken instead.
    math_depth: usize,
    /// Inside the caption's "Figure 2:" tag.
    tag_depth: usize,
    license: Capture,
    watermark: Capture,
    /// A `ltx_theorem` whose kind is told by its tag ("Theorem 4.1") rather than its class.
    theorem_tag: Option<Capture>,
    /// The text of an `ltx_ERROR`, to tell a fatal one.
    error: Capture,
    /// Text near the top, for arXiv's "No HTML" answer.
    head_text: String,
}

const VOID: &[&[u8]] = &[
    b"img", b"br", b"hr", b"meta", b"link", b"input", b"base", b"col", b"source", b"wbr", b"area",
    b"embed", b"param", b"track",
];

fn class_has(classes: &[u8], name: &str) -> bool {
    classes
        .split(|b| b.is_ascii_whitespace())
        .any(|c| c == name.as_bytes())
}

fn class_with_prefix<'a>(classes: &'a [u8], prefix: &str) -> Option<&'a [u8]> {
    classes
        .split(|b| b.is_ascii_whitespace())
        .find_map(|c| c.strip_prefix(prefix.as_bytes()))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn dimension(v: Option<&[u8]>) -> Option<u32> {
    let s = std::str::from_utf8(v?).ok()?.trim().trim_end_matches("px");
    s.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .map(|x| x.round().min(u32::MAX as f64) as u32)
}

impl Scanner {
    fn attr(&self, name: &str) -> Option<&[u8]> {
        self.attrs
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name.as_bytes()))
            .map(|(_, v)| v.as_slice())
    }

    fn open_tag(&mut self, self_closing: bool) {
        let name = std::mem::take(&mut self.tag);
        let void = self_closing || VOID.contains(&name.as_slice());
        let classes = self.attr("class").unwrap_or_default().to_vec();
        for capture in [
            &mut self.caption,
            &mut self.license,
            &mut self.watermark,
            &mut self.error,
        ] {
            if capture.active && !void {
                capture.depth += 1;
            }
        }
        if let Some(t) = &mut self.theorem_tag
            && t.active
            && !void
        {
            t.depth += 1;
        }
        if self.math_depth > 0 && !void {
            self.math_depth += 1;
        }
        if self.tag_depth > 0 && !void {
            self.tag_depth += 1;
        }
        match name.as_slice() {
            b"base" if self.page.base_href.is_empty() => {
                self.page.base_href = text(self.attr("href").unwrap_or_default());
            }
            b"figure" if class_has(&classes, "ltx_figure") => {
                self.figure_depth += 1;
                if self.figure_depth == 1 {
                    self.figure = Some(Figure {
                        id: text(self.attr("id").unwrap_or_default()),
                        ..Default::default()
                    });
                }
            }
            b"figure" if self.figure_depth > 0 => self.figure_depth += 1,
            b"img" if self.figure.is_some() => {
                let image = Image {
                    src: text(self.attr("src").unwrap_or_default())
                        .trim()
                        .to_string(),
                    alt: text(self.attr("alt").unwrap_or_default()),
                    width: dimension(self.attr("width")),
                    height: dimension(self.attr("height")),
                    missing: class_has(&classes, "ltx_missing")
                        || class_has(&classes, "ltx_missing_image"),
                };
                if let Some(fig) = &mut self.figure {
                    fig.images.push(image);
                }
            }
            b"figcaption"
                if self.figure_depth == 1
                    && !self.caption.active
                    && self.figure.as_ref().is_some_and(|f| f.caption.is_empty()) =>
            {
                self.caption.start();
            }
            b"math" if self.caption.active => {
                if let Some(alt) = self.attr("alttext") {
                    let alt = text(alt);
                    self.caption.text.push_str(&alt);
                }
                self.math_depth = 1;
            }
            b"article" | b"div" | b"body"
                if class_has(&classes, "ltx_document") || class_has(&classes, "ltx_page_main") =>
            {
                self.page.is_latexml = true;
            }
            _ => {}
        }
        if self.caption.active && self.math_depth == 0 && class_has(&classes, "ltx_tag_figure") {
            self.tag_depth = 1;
        }
        match self.attr("id") {
            Some(b"license-tr") => self.license.start(),
            Some(b"watermark-tr") => self.watermark.start(),
            _ => {}
        }
        if class_has(&classes, "ltx_theorem") {
            match class_with_prefix(&classes, "ltx_theorem_") {
                Some(b"theorem" | b"thm") => self.page.theorems += 1,
                // Another environment class; its tag may still read "Theorem".
                Some(_) | None => {
                    let mut c = Capture::default();
                    c.start();
                    self.theorem_tag = Some(c);
                }
            }
        }
        if class_has(&classes, "ltx_ERROR") {
            self.error.start();
        }
        if class_has(&classes, "ar5iv-severity-fatal") {
            self.page.conversion_failed = true;
        }
        if void {
            self.close(&name);
        }
        self.attrs.clear();
    }

    fn close(&mut self, name: &[u8]) {
        let void = VOID.contains(&name);
        if name == b"figure" && self.figure_depth > 0 {
            self.figure_depth -= 1;
            if self.figure_depth == 0
                && let Some(f) = self.figure.take()
            {
                self.page.figures.push(f);
            }
        }
        if void {
            return;
        }
        if self.math_depth > 0 {
            self.math_depth -= 1;
        }
        if self.tag_depth > 0 {
            self.tag_depth -= 1;
        }
        if self.caption.active {
            if self.caption.depth == 0 {
                self.caption.active = false;
                if let Some(f) = &mut self.figure {
                    f.caption = crate::sources::xml::fold_whitespace(&self.caption.text);
                }
            } else {
                self.caption.depth -= 1;
            }
        }
        for (capture, into) in [
            (&mut self.license, &mut self.page.license),
            (&mut self.watermark, &mut self.page.watermark),
        ] {
            if capture.active {
                if capture.depth == 0 {
                    capture.active = false;
                    *into = crate::sources::xml::fold_whitespace(&capture.text);
                } else {
                    capture.depth -= 1;
                }
            }
        }
        if self.error.active {
            if self.error.depth == 0 {
                self.error.active = false;
                if self.error.text.contains("Fatal error")
                    || self.error.text.contains("fatal error")
                {
                    self.page.conversion_failed = true;
                }
            } else {
                self.error.depth -= 1;
            }
        }
        if let Some(t) = &mut self.theorem_tag
            && t.active
        {
            if t.depth == 0 {
                self.theorem_tag = None;
            } else {
                t.depth -= 1;
            }
        }
    }

    /// Text between tags; `raw` when its entities are still to be decoded.
    fn text(&mut self, value: &[u8], raw: bool) {
        let wanted = self.caption.active
            || self.license.active
            || self.watermark.active
            || self.error.active
            || self.theorem_tag.is_some()
            || self.head_text.len() < 4096;
        if !wanted {
            return;
        }
        let s = String::from_utf8_lossy(value);
        let s = if raw && s.contains('&') {
            std::borrow::Cow::Owned(html_escape::decode_html_entities(&s).into_owned())
        } else {
            s
        };
        // A caption longer than this is markup gone astray, not a caption.
        if self.caption.active
            && self.math_depth == 0
            && self.tag_depth == 0
            && self.caption.text.len() < 4000
        {
            self.caption.text.push_str(&s);
        }
        for capture in [&mut self.license, &mut self.watermark, &mut self.error] {
            if capture.active {
                capture.text.push_str(&s);
            }
        }
        if let Some(t) = &mut self.theorem_tag {
            t.text.push_str(&s);
            let first = t.text.split_whitespace().next().unwrap_or("");
            if !first.is_empty() && t.text.trim_start().len() > first.len() {
                if first.eq_ignore_ascii_case("theorem") {
                    self.page.theorems += 1;
                }
                self.theorem_tag = None;
            }
        }
        if self.head_text.len() < 4096 {
            self.head_text.push_str(&s);
        }
    }

    fn finish(mut self) -> Page {
        if let Some(f) = self.figure.take() {
            self.page.figures.push(f);
        }
        let head = self.head_text.to_ascii_lowercase();
        if !self.page.is_latexml
            && (head.contains("no html for") || head.contains("html is not available"))
        {
            self.page.no_html = true;
        }
        if head.contains("conversion to html had a fatal error") {
            self.page.conversion_failed = true;
        }
        self.page
    }
}

#[cfg(test)]
mod tests;
