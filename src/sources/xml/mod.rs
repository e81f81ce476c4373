//! Feed bytes -> a small namespace-resolved element tree.
//!
//! Feeds are read whole (they are small), so a tree lets each format's parser look fields
//! up by namespace and local name, whatever their order or prefix. The reader is forgiving
//! where a reader of the feed would be: it guesses encodings, resolves HTML entities and
//! keeps what was read before a fatal error, marking unfinished elements so the format
//! parsers can drop a half-received entry.

mod encoding;

pub use encoding::decode;
use encoding::{demoronize, has_c1};

use quick_xml::NsReader;
use quick_xml::events::Event;
use quick_xml::name::ResolveResult;

pub const NS_ATOM: &str = "http://www.w3.org/2005/Atom";
/// Atom 0.3, the draft Atom 1.0 replaced in 2005; feedparser and many old blogs still speak it.
pub const NS_ATOM_03: &str = "http://purl.org/atom/ns#";
pub const NS_ARXIV: &str = "http://arxiv.org/schemas/atom";
pub const NS_OPENSEARCH: &str = "http://a9.com/-/spec/opensearch/1.1/";
pub const NS_DC: &str = "http://purl.org/dc/elements/1.1/";
pub const NS_PRISM: &str = "http://prismstandard.org/namespaces/basic/2.0/";
pub const NS_RDF: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
pub const NS_CONTENT: &str = "http://purl.org/rss/1.0/modules/content/";

#[derive(Debug, Clone, Default)]
pub struct Element {
    /// Namespace URI, empty when unbound.
    pub ns: String,
    pub name: String,
    /// (local name, value); namespaced attributes keep their prefix.
    pub attrs: Vec<(String, String)>,
    pub children: Vec<Node>,
    /// False when the document ended (or broke) before this element's end tag.
    pub complete: bool,
}

#[derive(Debug, Clone)]
pub enum Node {
    Element(Element),
    Text(String),
}

impl Element {
    pub fn is(&self, ns: &str, name: &str) -> bool {
        self.name == name && self.ns == ns
    }

    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn elements(&self) -> impl Iterator<Item = &Element> {
        self.children.iter().filter_map(|n| match n {
            Node::Element(e) => Some(e),
            Node::Text(_) => None,
        })
    }

    /// Children with this local name in any namespace but the listed extension ones, so
    /// a feed's own vocabulary matches whatever URI (right, wrong or none) it was bound to.
    pub fn own(&self, name: &'static str) -> impl Iterator<Item = &Element> {
        self.elements()
            .filter(move |e| e.name == name && !is_extension_ns(&e.ns))
    }

    pub fn first_own(&self, name: &'static str) -> Option<&Element> {
        self.own(name).next()
    }

    pub fn in_ns<'a>(&'a self, ns: &'a str, name: &'a str) -> impl Iterator<Item = &'a Element> {
        self.elements().filter(move |e| e.is(ns, name))
    }

    pub fn first_in_ns(&self, ns: &str, name: &str) -> Option<&Element> {
        self.elements().find(|e| e.is(ns, name))
    }

    /// All text below this element, in document order.
    pub fn text(&self) -> String {
        let mut out = String::new();
        self.collect_text(&mut out);
        out
    }

    fn collect_text(&self, out: &mut String) {
        for n in &self.children {
            match n {
                Node::Text(t) => out.push_str(t),
                Node::Element(e) => e.collect_text(out),
            }
        }
    }

    /// Trimmed text with runs of white space folded to one space.
    pub fn clean_text(&self) -> String {
        match self.children.as_slice() {
            // The common case: one run of text, folded without a copy first.
            [Node::Text(t)] => fold_whitespace(t),
            _ => fold_whitespace(&self.text()),
        }
    }

    /// Whether child elements carry markup (raw HTML inside a description).
    pub fn has_element_children(&self) -> bool {
        self.elements().next().is_some()
    }

    /// Serializes the children back to markup, for raw HTML carried as child elements.
    pub fn inner_markup(&self) -> String {
        let mut out = String::new();
        for n in &self.children {
            match n {
                Node::Text(t) => out.push_str(&quick_xml::escape::escape(t.as_str())),
                Node::Element(e) => e.outer_markup(&mut out),
            }
        }
        out
    }

    fn outer_markup(&self, out: &mut String) {
        out.push('<');
        out.push_str(&self.name);
        for (k, v) in &self.attrs {
            out.push_str(&format!(
                " {k}=\"{}\"",
                quick_xml::escape::escape(v.as_str())
            ));
        }
        out.push('>');
        out.push_str(&self.inner_markup());
        out.push_str(&format!("</{}>", self.name));
    }
}

fn is_extension_ns(ns: &str) -> bool {
    matches!(
        ns,
        NS_ARXIV | NS_OPENSEARCH | NS_DC | NS_PRISM | NS_RDF | NS_CONTENT
    ) || (ns.starts_with("http://purl.org/")
        && !ns.starts_with("http://purl.org/rss/1.0/")
        && ns != "http://purl.org/net/rss1.1#"
        && ns != NS_ATOM_03)
        || ns.starts_with("http://purl.org/rss/1.0/modules/")
        || ns.starts_with("http://search.yahoo.com/mrss")
        || ns.starts_with("http://www.itunes.com/")
        || ns.starts_with("unknown-prefix:")
}

/// `s.split_whitespace().collect::<Vec<_>>().join(" ")`, in one pass: feed text is
/// folded field by field, and this is the parser's hottest loop.
pub fn fold_whitespace(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    // White space was skipped since the last piece of a word.
    let mut gap = false;
    let mut i = 0;
    while i < bytes.len() {
        // Up to the next ASCII space or non-ASCII byte (which may start a Unicode
        // space): part of a word, copied whole.
        let run = bytes[i..]
            .iter()
            .position(|&b| SPACE_OR_HIGH[b as usize])
            .unwrap_or(bytes.len() - i);
        let len = if run > 0 {
            run
        } else if bytes[i] < 0x80 {
            gap = true;
            i += 1;
            continue;
        } else {
            let c = s[i..].chars().next().unwrap_or(' ');
            if c.is_whitespace() {
                gap = true;
                i += c.len_utf8();
                continue;
            }
            c.len_utf8()
        };
        if gap && !out.is_empty() {
            out.push(' ');
        }
        gap = false;
        out.push_str(&s[i..i + len]);
        i += len;
    }
    out
}

/// ASCII white space (as `char::is_whitespace` has it) and every byte >= 0x80.
const SPACE_OR_HIGH: [bool; 256] = {
    let mut t = [false; 256];
    t[b' ' as usize] = true;
    t[b'\t' as usize] = true;
    t[b'\n' as usize] = true;
    t[b'\r' as usize] = true;
    t[0x0b] = true;
    t[0x0c] = true;
    let mut b = 0x80;
    while b < 256 {
        t[b] = true;
        b += 1;
    }
    t
};

/// A parsed document: the root (possibly partial) and what went wrong on the way.
#[derive(Debug)]
pub struct Document {
    pub root: Element,
    pub warnings: Vec<String>,
    /// The fatal error the reader stopped at, with its line and column, if any.
    pub error: Option<String>,
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = before.iter().filter(|b| **b == b'\n').count() + 1;
    let col = offset
        - before
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |p| p + 1)
        + 1;
    (line, col)
}

fn resolve_entity(name: &str, warnings: &mut Vec<String>) -> Option<String> {
    if let Some(s) = quick_xml::escape::resolve_xml_entity(name) {
        return Some(s.to_string());
    }
    if let Some(num) = name.strip_prefix('#') {
        let code = if let Some(hex) = num.strip_prefix(['x', 'X']) {
            u32::from_str_radix(hex, 16).ok()
        } else {
            num.parse().ok()
        };
        return Some(
            code.and_then(char::from_u32)
                .map(String::from)
                .unwrap_or_else(|| "\u{fffd}".into()),
        );
    }
    if let Some(s) = quick_xml::escape::resolve_html5_entity(name) {
        let msg = format!("undeclared HTML entity &{name}; read as its character");
        if !warnings.contains(&msg) {
            warnings.push(msg);
        }
        return Some(s.to_string());
    }
    None
}

/// Real feeds nest a few levels; a document nested deeper is hostile, and the tree's
/// recursive walks must not run out of stack on it.
const MAX_DEPTH: usize = 256;

/// Parses a feed. Never panics; a document with no root element at all is an error.
pub fn parse(bytes: &[u8]) -> Result<Document, String> {
    let mut warnings = Vec::new();
    let text = decode(bytes, &mut warnings);
    let mut reader = NsReader::from_str(&text);
    {
        let cfg = reader.config_mut();
        cfg.allow_dangling_amp = true;
        cfg.check_end_names = true;
        cfg.expand_empty_elements = false;
    }
    // The open elements, innermost last; the finished root lands in `root`.
    let mut stack: Vec<Element> = Vec::new();
    let mut root: Option<Element> = None;
    let mut error = None;
    loop {
        let pos_before = reader.buffer_position() as usize;
        let event = reader.read_resolved_event();
        let (resolved, event) = match event {
            Ok(x) => x,
            Err(e) => {
                let at = reader.error_position() as usize;
                let (line, col) = line_col(&text, at.max(pos_before));
                error = Some(format!("line {line}, column {col}: {e}"));
                break;
            }
        };
        let ns = match resolved {
            ResolveResult::Bound(ns) => ns.as_ref().to_string(),
            ResolveResult::Unbound => String::new(),
            ResolveResult::Unknown(prefix) => format!("unknown-prefix:{prefix}"),
        };
        match event {
            Event::Start(start) | Event::Empty(start) if root.is_some() => {
                let _ = start;
                warnings.push("content after the root element was ignored".into());
                break;
            }
            Event::Start(start) => {
                if stack.len() >= MAX_DEPTH {
                    let (line, col) = line_col(&text, pos_before);
                    error = Some(format!(
                        "line {line}, column {col}: elements nested deeper than {MAX_DEPTH}"
                    ));
                    break;
                }
                stack.push(element_from(&reader, ns, &start, &mut warnings));
            }
            Event::Empty(start) => {
                let mut el = element_from(&reader, ns, &start, &mut warnings);
                el.complete = true;
                attach(&mut stack, &mut root, el);
            }
            Event::End(_) => {
                if let Some(mut el) = stack.pop() {
                    el.complete = true;
                    attach(&mut stack, &mut root, el);
                }
            }
            Event::Text(t) => push_text(&mut stack, &t.xml10_content()),
            Event::CData(t) => push_text(&mut stack, &t.xml10_content()),
            Event::GeneralRef(r) => {
                let name = r.xml10_content();
                let s = resolve_entity(&name, &mut warnings).unwrap_or_else(|| {
                    warnings.push(format!("unknown entity &{name}; kept as text"));
                    format!("&{name};")
                });
                push_text(&mut stack, &s);
            }
            Event::Eof => break,
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_) => {}
        }
    }
    if !stack.is_empty() && error.is_none() {
        let (line, col) = line_col(&text, text.len());
        error = Some(format!(
            "line {line}, column {col}: the document ends inside <{}>",
            stack.last().map(|e| e.name.as_str()).unwrap_or("")
        ));
    }
    // Close what is still open so the caller sees everything that arrived.
    while let Some(el) = stack.pop() {
        attach(&mut stack, &mut root, el);
    }
    let mut root = root.ok_or_else(|| {
        error
            .clone()
            .unwrap_or_else(|| "no XML element found: the document is empty".into())
    })?;
    fix_c1(&mut root, &mut warnings);
    Ok(Document {
        root,
        warnings,
        error,
    })
}

fn fix_c1(el: &mut Element, warnings: &mut Vec<String>) {
    for n in &mut el.children {
        match n {
            Node::Text(t) if has_c1(t) => *t = demoronize(t, warnings),
            Node::Text(_) => {}
            Node::Element(e) => fix_c1(e, warnings),
        }
    }
    warnings.dedup();
}

fn element_from(
    reader: &NsReader<&[u8]>,
    ns: String,
    start: &quick_xml::events::BytesStart,
    warnings: &mut Vec<String>,
) -> Element {
    let name = start.local_name().as_ref().to_string();
    let mut attrs = Vec::new();
    for attr in start.attributes().with_checks(false).flatten() {
        let (_, local) = reader.resolver().resolve_attribute(attr.key);
        let key = attr.key.as_ref().to_string();
        let key = if key.contains(':') && !key.starts_with("xmlns") {
            key
        } else {
            local.as_ref().to_string()
        };
        let value = attr
            .normalized_value_with(quick_xml::XmlVersion::Implicit1_0, 16, |e| {
                quick_xml::escape::resolve_html5_entity(e)
            })
            .map(|v| v.into_owned())
            .unwrap_or_else(|_| {
                warnings.push(format!("attribute {key} of <{name}> has a bad escape"));
                attr.value.to_string()
            });
        attrs.push((key, value));
    }
    Element {
        ns,
        name,
        attrs,
        children: Vec::new(),
        complete: false,
    }
}

fn attach(stack: &mut [Element], root: &mut Option<Element>, el: Element) {
    match stack.last_mut() {
        Some(parent) => parent.children.push(Node::Element(el)),
        None => {
            if root.is_none() {
                *root = Some(el);
            }
        }
    }
}

fn push_text(stack: &mut [Element], s: &str) {
    if let Some(parent) = stack.last_mut() {
        if let Some(Node::Text(prev)) = parent.children.last_mut() {
            prev.push_str(s);
        } else {
            parent.children.push(Node::Text(s.to_string()));
        }
    }
}

#[cfg(test)]
mod tests;
