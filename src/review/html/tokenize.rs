//! The streaming pass over a page: from `<` to `<`, handing the scanner start tags (name
//! and wanted attributes), end tags and text.

use super::Scanner;

/// The attributes the scanner reads; others are skipped unread.
pub(super) const WANTED: &[&[u8]] = &[
    b"class", b"id", b"src", b"alt", b"width", b"height", b"href", b"alttext",
];

/// Elements whose content is text up to their end tag, as a browser reads them.
const RAW_TEXT: &[&[u8]] = &[b"script", b"style", b"textarea", b"title", b"xmp"];

/// Feeds the scanner the page's start tags (name and wanted attributes, decoded), end
/// tags and text (raw: entities are decoded where text is kept).
pub(super) fn tokenize(b: &[u8], scanner: &mut Scanner) {
    let mut pos = 0;
    while pos < b.len() {
        let Some(lt) = memchr::memchr(b'<', &b[pos..]).map(|i| pos + i) else {
            scanner.text(&b[pos..], true);
            return;
        };
        if lt > pos {
            scanner.text(&b[pos..lt], true);
        }
        let rest = &b[lt..];
        if rest.starts_with(b"<!--") {
            pos = memchr::memmem::find(&rest[4..], b"-->").map_or(b.len(), |i| lt + 4 + i + 3);
        } else if rest.starts_with(b"<!") || rest.starts_with(b"<?") {
            pos = memchr::memchr(b'>', rest).map_or(b.len(), |i| lt + i + 1);
        } else if rest.starts_with(b"</") && rest.get(2).is_some_and(u8::is_ascii_alphabetic) {
            let name_end = rest[2..]
                .iter()
                .position(|c| c.is_ascii_whitespace() || *c == b'>' || *c == b'/')
                .map_or(rest.len(), |i| i + 2);
            let name: Vec<u8> = rest[2..name_end]
                .iter()
                .map(u8::to_ascii_lowercase)
                .collect();
            pos = memchr::memchr(b'>', rest).map_or(b.len(), |i| lt + i + 1);
            scanner.close(&name);
        } else if rest.get(1).is_some_and(u8::is_ascii_alphabetic) {
            pos = lt + start_tag(rest, scanner);
            let name = std::mem::take(&mut scanner.tag);
            let self_closing = scanner.self_closing;
            scanner.tag = name;
            if RAW_TEXT.contains(&scanner.tag.as_slice()) && !self_closing {
                // Up to `</name`, whatever case.
                let name = scanner.tag.clone();
                scanner.open_tag(false);
                let mut at = pos;
                loop {
                    match memchr::memmem::find(&b[at..], b"</") {
                        Some(i)
                            if b[at + i + 2..]
                                .get(..name.len())
                                .is_some_and(|n| n.eq_ignore_ascii_case(&name)) =>
                        {
                            at += i;
                            break;
                        }
                        Some(i) => at += i + 2,
                        None => {
                            at = b.len();
                            break;
                        }
                    }
                }
                pos = at;
            } else {
                scanner.open_tag(self_closing);
            }
        } else {
            scanner.text(b"<", true);
            pos = lt + 1;
        }
    }
}

/// Reads `<name attr="value" …>` at the start of `t` into the scanner's tag and
/// attributes; returns its length.
fn start_tag(t: &[u8], scanner: &mut Scanner) -> usize {
    let mut i = 1;
    while i < t.len() && !t[i].is_ascii_whitespace() && t[i] != b'>' && t[i] != b'/' {
        i += 1;
    }
    scanner.tag.clear();
    scanner
        .tag
        .extend(t[1..i].iter().map(u8::to_ascii_lowercase));
    scanner.attrs.clear();
    scanner.self_closing = false;
    loop {
        while i < t.len() && (t[i].is_ascii_whitespace() || t[i] == b'/') {
            if t[i] == b'/' && t.get(i + 1) == Some(&b'>') {
                scanner.self_closing = true;
            }
            i += 1;
        }
        if i >= t.len() {
            return t.len();
        }
        if t[i] == b'>' {
            return i + 1;
        }
        let name_start = i;
        while i < t.len() && !t[i].is_ascii_whitespace() && !matches!(t[i], b'=' | b'>' | b'/') {
            i += 1;
        }
        let name = &t[name_start..i];
        while i < t.len() && t[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut value: &[u8] = b"";
        if t.get(i) == Some(&b'=') {
            i += 1;
            while i < t.len() && t[i].is_ascii_whitespace() {
                i += 1;
            }
            match t.get(i) {
                Some(&q) if q == b'"' || q == b'\'' => {
                    let end = memchr::memchr(q, &t[i + 1..]).map_or(t.len(), |e| i + 1 + e);
                    value = &t[i + 1..end];
                    i = (end + 1).min(t.len());
                }
                _ => {
                    let start = i;
                    while i < t.len() && !t[i].is_ascii_whitespace() && t[i] != b'>' {
                        i += 1;
                    }
                    value = &t[start..i];
                }
            }
        }
        let wanted = WANTED.iter().any(|w| w.eq_ignore_ascii_case(name));
        if wanted
            && !scanner
                .attrs
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case(name))
        {
            let value = if value.contains(&b'&') {
                html_escape::decode_html_entities(&String::from_utf8_lossy(value))
                    .into_owned()
                    .into_bytes()
            } else {
                value.to_vec()
            };
            scanner.attrs.push((name.to_ascii_lowercase(), value));
        }
    }
}
