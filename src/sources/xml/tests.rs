#[test]
fn whitespace_folds_as_split_whitespace_does() {
    for s in [
        "",
        "   ",
        "one",
        "  two  words ",
        "a\tb\nc\r\nd\u{b}e\u{c}f",
        "\u{a0}non-breaking\u{2003}em\u{3000}ideographic\u{85}next line ",
        "Caf\u{e9}  \u{1F600}\n\n x",
    ] {
        assert_eq!(
            fold_whitespace(s),
            s.split_whitespace().collect::<Vec<_>>().join(" "),
            "{s:?}"
        );
    }
    assert!(has_c1("don\u{92}t") && !has_c1("don\u{2019}t \u{c2}\u{a0}"));
}

use super::*;

#[test]
fn entities_and_namespaces() {
    let doc = parse(
        br#"<feed xmlns="http://www.w3.org/2005/Atom" xmlns:a="http://arxiv.org/schemas/atom"><title>A &amp; B&hellip; &#945;</title><a:comment>c</a:comment></feed>"#,
    )
    .unwrap();
    assert_eq!(
        doc.root.first_own("title").unwrap().text(),
        "A & B\u{2026} \u{3b1}"
    );
    assert_eq!(
        doc.root.first_in_ns(NS_ARXIV, "comment").unwrap().text(),
        "c"
    );
    assert!(doc.error.is_none());
}

#[test]
fn truncated_keeps_what_arrived() {
    let doc = parse(b"<rss><channel><item><title>one</title></item><item><title>tw").unwrap();
    let channel = doc.root.first_own("channel").unwrap();
    let items: Vec<_> = channel.own("item").collect();
    assert_eq!(items.len(), 2);
    assert!(items[0].complete && !items[1].complete);
    assert!(doc.error.unwrap().contains("line 1"));
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = "<a>".repeat(200_000);
    let doc = parse(deep.as_bytes()).unwrap();
    assert!(doc.error.unwrap().contains("nested deeper than 256"));
}

fn utf16le(s: &str) -> Vec<u8> {
    s.encode_utf16().flat_map(|u| u.to_le_bytes()).collect()
}

#[test]
fn sixteen_and_thirty_two_bit_documents_are_read_without_a_byte_order_mark() {
    let doc = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><t>Caf\u{e9} \u{3b1}</t>";
    let be: Vec<u8> = doc.encode_utf16().flat_map(|u| u.to_be_bytes()).collect();
    let le32: Vec<u8> = doc.chars().flat_map(|c| (c as u32).to_le_bytes()).collect();
    let be32: Vec<u8> = doc.chars().flat_map(|c| (c as u32).to_be_bytes()).collect();
    let mut bom16 = vec![0xFF, 0xFE];
    bom16.extend(utf16le(doc));
    let mut bom32 = vec![0xFF, 0xFE, 0, 0];
    bom32.extend(&le32);
    for bytes in [utf16le(doc), be, le32, be32, bom16, bom32] {
        let parsed = parse(&bytes).unwrap();
        assert_eq!(parsed.root.name, "t");
        assert_eq!(parsed.root.text(), "Caf\u{e9} \u{3b1}");
    }
}

#[test]
fn undeclared_legacy_encodings_are_detected_not_read_as_windows_1252() {
    for (enc, text) in [
        (
            encoding_rs::SHIFT_JIS,
            "\u{65e5}\u{672c}\u{8a9e}\u{306e}\u{8ad6}\u{6587}\u{3067}\u{3059}\u{3002}\u{5206}\u{6563}\u{30b7}\u{30b9}\u{30c6}\u{30e0}\u{306e}\u{7814}\u{7a76}",
        ),
        (
            encoding_rs::WINDOWS_1255,
            "\u{5de}\u{5d0}\u{5de}\u{5e8} \u{5e2}\u{5dc} \u{5de}\u{5e2}\u{5e8}\u{5db}\u{5d5}\u{5ea} \u{5de}\u{5d1}\u{5d5}\u{5d6}\u{5e8}\u{5d5}\u{5ea} \u{5d5}\u{5e9}\u{5dc} \u{5de}\u{5d7}\u{5e9}\u{5d1}\u{5d9}\u{5dd}",
        ),
    ] {
        let source = format!("<title>{text}</title>");
        let (bytes, _, _) = enc.encode(&source);
        let doc = parse(&bytes).unwrap();
        assert_eq!(doc.root.text(), text, "{}", enc.name());
        assert!(
            doc.warnings.iter().any(|w| w.contains(enc.name())),
            "{:?}",
            doc.warnings
        );
    }
}

#[test]
fn latin1_declared() {
    let doc =
        parse(b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><t>Inova\xe7\xe3o</t>").unwrap();
    assert_eq!(doc.root.text(), "Inova\u{e7}\u{e3}o");
}
