use super::tokenize::WANTED;
use super::*;
use html5gum::emitters::callback::{CallbackEmitter, CallbackEvent};
use html5gum::{Span, Tokenizer};

/// The same scanner, fed by html5gum: what a WHATWG tokenizer reads of a page.
#[derive(Default)]
struct Oracle {
    scanner: Scanner,
    attr_name: Vec<u8>,
    attr_repeated: bool,
}

impl Oracle {
    fn handle(&mut self, event: CallbackEvent<'_>) {
        match event {
            CallbackEvent::OpenStartTag { name } => {
                self.scanner.tag.clear();
                self.scanner
                    .tag
                    .extend(name.iter().map(u8::to_ascii_lowercase));
                self.scanner.attrs.clear();
            }
            CallbackEvent::AttributeName { name } => {
                self.attr_name.clear();
                self.attr_name
                    .extend(name.iter().map(u8::to_ascii_lowercase));
                // Only the attributes read below are kept: a page has hundreds of
                // thousands of others.
                self.attr_repeated = !WANTED.contains(&self.attr_name.as_slice())
                    || self.scanner.attrs.iter().any(|(k, _)| *k == self.attr_name);
                if !self.attr_repeated {
                    self.scanner
                        .attrs
                        .push((self.attr_name.clone(), Vec::new()));
                }
            }
            CallbackEvent::AttributeValue { value } => {
                if !self.attr_repeated
                    && let Some((_, v)) = self.scanner.attrs.last_mut()
                {
                    v.extend_from_slice(value);
                }
            }
            CallbackEvent::CloseStartTag { self_closing } => {
                self.scanner.self_closing = self_closing;
                self.scanner.open_tag(self_closing)
            }
            CallbackEvent::EndTag { name } => {
                let name: Vec<u8> = name.iter().map(u8::to_ascii_lowercase).collect();
                self.scanner.close(&name);
            }
            CallbackEvent::String { value } => self.scanner.text(value, false),
            CallbackEvent::Comment { .. }
            | CallbackEvent::Doctype { .. }
            | CallbackEvent::Error(_) => {}
        }
    }
}

fn scan_whatwg(html: &[u8]) -> Page {
    let mut oracle = Oracle::default();
    {
        let mut emitter = CallbackEmitter::new(|event: CallbackEvent<'_>, _: Span<()>| {
            oracle.handle(event);
            None::<std::convert::Infallible>
        });
        emitter.naively_switch_states(true);
        for _ in Tokenizer::new_with_emitter(html, emitter) {}
    }
    oracle.scanner.finish()
}

#[test]
fn the_scan_agrees_with_a_whatwg_tokenizer() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/arxiv_html");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("SKIPPED: {} is missing", dir.display());
        return;
    };
    let mut pages = 0;
    for entry in entries {
        let page = entry.unwrap().path().join("index.html");
        let bytes = std::fs::read(&page).unwrap();
        assert_eq!(scan(&bytes), scan_whatwg(&bytes), "{}", page.display());
        pages += 1;
    }
    assert!(pages >= 14);
}

#[test]
fn figures_captions_theorems_and_failures() {
    let page = scan(br#"<html><body><div class="ltx_page_main"><div id="license-tr">License: CC BY 4.0</div>
<script>var s = "<figure class='ltx_figure'><img src=trap.png></figure>";</script>
<figure class="ltx_figure" id="S1.F1"><img src="x1.png" class="ltx_graphics" width="600" height="300" alt="">
<figure class="ltx_figure ltx_figure_panel"><img src=x2.png></figure>
<figcaption class="ltx_caption"><span class="ltx_tag ltx_tag_figure">Figure 1: </span>Speed &amp; size of <math alttext="n^2" display="inline"><mi>n</mi></math> runs.</figcaption></figure>
<div class="ltx_theorem ltx_theorem_theorem"></div><div class="ltx_theorem ltx_theorem_lemma"><h6><span class="ltx_tag">Lemma 1</span></h6></div>
<div class="ltx_theorem ltx_theorem_thmx"><h6><span class="ltx_tag">Theorem 2 </span></h6></div>
<!-- <figure class="ltx_figure"><img src=comment.png></figure> --></div></body></html>"#);
    assert_eq!(page.figures.len(), 1);
    let f = &page.figures[0];
    assert_eq!(f.id, "S1.F1");
    assert_eq!(f.caption, "Speed & size of n^2 runs.");
    let srcs: Vec<&str> = f.images.iter().map(|i| i.src.as_str()).collect();
    assert_eq!(srcs, ["x1.png", "x2.png"]);
    assert_eq!(
        (f.images[0].width, f.images[0].height),
        (Some(600), Some(300))
    );
    assert_eq!(page.theorems, 2);
    assert_eq!(page.license, "License: CC BY 4.0");
    assert!(page.usable());
    let failed = scan(br#"<div class="ltx_page_main"><span class="ltx_ERROR">Conversion to HTML had a Fatal error and exited abruptly.</span></div>"#);
    assert!(failed.conversion_failed && !failed.usable());
    assert!(!scan(b"<html><body>No HTML for '2401.00001'</body></html>").usable());
}
