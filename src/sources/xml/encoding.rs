//! Feed bytes -> text: byte order marks, 16- and 32-bit documents, declared and detected
//! encodings, and C1 controls that were meant as windows-1252 punctuation.

/// Decodes bytes to text as the XML spec's appendix F reads them: a byte order mark, else
/// the 16- and 32-bit patterns of a document that opens with `<`, else the declared
/// encoding, else UTF-8, else the encoding a detector (chardetng) finds most likely.
pub fn decode<'a>(bytes: &'a [u8], warnings: &mut Vec<String>) -> std::borrow::Cow<'a, str> {
    if let Some(wide) = Wide::sniff(bytes) {
        let (text, had_errors) = wide.decode(bytes);
        if had_errors {
            warnings.push(format!(
                "bytes that are not valid {} were replaced",
                wide.name()
            ));
        }
        return std::borrow::Cow::Owned(text);
    }
    if let Some((enc, bom_len)) = encoding_rs::Encoding::for_bom(bytes) {
        let (text, had_errors) = enc.decode_without_bom_handling(&bytes[bom_len..]);
        if had_errors {
            warnings.push(format!(
                "bytes that are not valid {} after its byte order mark were replaced",
                enc.name()
            ));
        }
        return text;
    }
    if let Some(label) = declared_encoding(bytes) {
        match encoding_rs::Encoding::for_label(label.as_bytes()) {
            // A declaration read in ASCII cannot be true of a 16-bit document.
            Some(enc) if enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE => warnings
                .push(format!(
                    "{label} declared, but the bytes are not 16-bit; read as 8-bit text"
                )),
            Some(enc) if enc != encoding_rs::UTF_8 => {
                let (text, _, had_errors) = enc.decode(bytes);
                if had_errors {
                    warnings.push(format!(
                        "bytes not valid in the declared {label} were replaced"
                    ));
                }
                return text;
            }
            Some(_) => {}
            None => warnings.push(format!("unknown encoding {label:?} declared; guessed")),
        }
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => {
            let mut detector =
                chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
            detector.feed(bytes, true);
            let enc = detector.guess(None, chardetng::Utf8Detection::Deny);
            warnings.push(format!(
                "not valid UTF-8 and no usable encoding declared; read as {} (detected)",
                enc.name()
            ));
            enc.decode_without_bom_handling(bytes).0
        }
    }
}

/// The 16- and 32-bit encodings, told apart by their byte order mark or, without one, by
/// where the zero bytes fall around the `<` a document opens with (XML 1.0 appendix F).
/// encoding_rs decodes UTF-16 but not UTF-32.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wide {
    Utf16Le { skip: usize },
    Utf16Be { skip: usize },
    Utf32Le { skip: usize },
    Utf32Be { skip: usize },
}

impl Wide {
    fn sniff(b: &[u8]) -> Option<Wide> {
        let ascii = |x: u8| x != 0 && x < 0x80;
        match b {
            [0xFF, 0xFE, 0, 0, ..] => Some(Wide::Utf32Le { skip: 4 }),
            [0, 0, 0xFE, 0xFF, ..] => Some(Wide::Utf32Be { skip: 4 }),
            [0x3C, 0, 0, 0, ..] => Some(Wide::Utf32Le { skip: 0 }),
            [0, 0, 0, 0x3C, ..] => Some(Wide::Utf32Be { skip: 0 }),
            [0x3C, 0, c, 0, ..] if ascii(*c) => Some(Wide::Utf16Le { skip: 0 }),
            [0, 0x3C, 0, c, ..] if ascii(*c) => Some(Wide::Utf16Be { skip: 0 }),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Wide::Utf16Le { .. } => "UTF-16LE",
            Wide::Utf16Be { .. } => "UTF-16BE",
            Wide::Utf32Le { .. } => "UTF-32LE",
            Wide::Utf32Be { .. } => "UTF-32BE",
        }
    }

    fn decode(self, bytes: &[u8]) -> (String, bool) {
        match self {
            Wide::Utf16Le { skip } => {
                let (t, e) = encoding_rs::UTF_16LE.decode_without_bom_handling(&bytes[skip..]);
                (t.into_owned(), e)
            }
            Wide::Utf16Be { skip } => {
                let (t, e) = encoding_rs::UTF_16BE.decode_without_bom_handling(&bytes[skip..]);
                (t.into_owned(), e)
            }
            Wide::Utf32Le { skip } | Wide::Utf32Be { skip } => {
                let le = matches!(self, Wide::Utf32Le { .. });
                let chunks = bytes[skip..].chunks(4);
                let mut bad = false;
                let text = chunks
                    .map(|c| {
                        let unit = <[u8; 4]>::try_from(c).ok().and_then(|c| {
                            char::from_u32(if le {
                                u32::from_le_bytes(c)
                            } else {
                                u32::from_be_bytes(c)
                            })
                        });
                        unit.unwrap_or_else(|| {
                            bad = true;
                            '\u{fffd}'
                        })
                    })
                    .collect();
                (text, bad)
            }
        }
    }
}

fn declared_encoding(bytes: &[u8]) -> Option<String> {
    let head = &bytes[..bytes.len().min(512)];
    let head = String::from_utf8_lossy(head);
    let start = head.find("<?xml")?;
    let decl_end = head[start..].find("?>")? + start;
    let decl = &head[start..decl_end];
    let at = decl.find("encoding")?;
    let rest = decl[at + "encoding".len()..]
        .trim_start()
        .strip_prefix('=')?
        .trim_start();
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let value = &rest[1..];
    let end = value.find(quote)?;
    Some(value[..end].trim().to_string())
}

/// Whether the text holds a C1 control (U+0080–U+009F, UTF-8 `C2 80`–`C2 9F`).
pub(super) fn has_c1(s: &str) -> bool {
    let b = s.as_bytes();
    memchr::memchr_iter(0xC2, b).any(|i| b.get(i + 1).is_some_and(|n| (0x80..=0x9F).contains(n)))
}

/// C1 controls in decoded text almost always stand for windows-1252 punctuation.
pub(super) fn demoronize(s: &str, warnings: &mut Vec<String>) -> String {
    let mut warned = false;
    let out = s
        .chars()
        .map(|c| {
            if ('\u{80}'..='\u{9f}').contains(&c) {
                warned = true;
                let byte = [c as u32 as u8];
                encoding_rs::WINDOWS_1252
                    .decode_without_bom_handling(&byte)
                    .0
                    .chars()
                    .next()
                    .unwrap_or('\u{fffd}')
            } else {
                c
            }
        })
        .collect();
    if warned {
        warnings.push("C1 control characters read as windows-1252 punctuation".into());
    }
    out
}
