//! Words as readers type them: one spelling for a word however its accents were written,
//! shared by the search index and related papers.

/// Whether `c` belongs to a word: a letter, a digit, or an accent `fold` drops (so a word
/// typed with its accents decomposed stays one word). `search.js` splits queries alike.
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || is_accent_mark(c)
}

/// The combining accents (U+0300 to U+036F) that `fold` drops.
fn is_accent_mark(c: char) -> bool {
    ('\u{300}'..='\u{36f}').contains(&c)
}

/// A word as the index knows it: lower case, with its Latin and Greek accents dropped and
/// the few letters that have no decomposition spelt as readers type them without a
/// special keyboard, so "Schrodinger" finds "Schrödinger", "Moller" finds "Møller" and
/// "Erdos" finds "Erdős". Marks of other scripts stay: they make different words there.
/// `search.js` folds a query the same way (a test compares the two), and related papers
/// count words folded.
pub fn fold(word: &str) -> String {
    use icu_normalizer::{ComposingNormalizerBorrowed, DecomposingNormalizerBorrowed};
    let decomposed = DecomposingNormalizerBorrowed::new_nfd().normalize(word);
    let mut bare = String::with_capacity(decomposed.len());
    for c in decomposed.chars() {
        match c {
            c if is_accent_mark(c) => {}
            'ø' | 'Ø' => bare.push('o'),
            'ł' | 'Ł' => bare.push('l'),
            'đ' | 'Đ' => bare.push('d'),
            'ı' => bare.push('i'),
            'æ' | 'Æ' => bare.push_str("ae"),
            'œ' | 'Œ' => bare.push_str("oe"),
            'ß' | 'ẞ' => bare.push_str("ss"),
            c => bare.push(c),
        }
    }
    // Composed again: a Hangul syllable NFD took apart is one character again (search.js
    // does the same, so the few that NFC leaves apart are apart on both sides).
    ComposingNormalizerBorrowed::new_nfc()
        .normalize(&bare)
        .to_lowercase()
}
