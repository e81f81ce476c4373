use super::*;

fn hashes(s: &str) -> Vec<u64> {
    let mut out = Vec::new();
    for_each_term(s, &mut String::new(), |_, term| out.push(term));
    out
}

#[test]
fn ascii_and_unicode_text_give_the_same_terms() {
    let ascii = "Byzantine GPUs: 2024 x86 ab abc-DEF Ok";
    // One word that is not ASCII sends the whole text down the character path.
    let mixed = format!("{ascii} é");
    assert_eq!(hashes(ascii), hashes(&mixed));
    assert_eq!(
        hashes(ascii),
        ["byzantine", "gpu", "x86", "abc", "def"].map(term_hash)
    );
    // Accents folded, typed as one character or two.
    assert_eq!(
        hashes("Ünïcode naïve Schro\u{308}dinger Kő"),
        ["unicode", "naive", "schrodinger"].map(term_hash)
    );
}

#[test]
fn a_plural_is_one_term_with_its_singular() {
    assert_eq!(
        hashes("Transformers processes graphs class"),
        hashes("transformer process graph class")
    );
    assert_ne!(hashes("class"), hashes("clas"));
    // Text with a character outside ASCII is split another way.
    assert_eq!(
        hashes("Schrödinger equations"),
        hashes("Schrödinger equation")
    );
    // "1990s" is a number.
    assert!(hashes("1990s").is_empty());
}

#[test]
fn a_plural_of_a_stop_word_is_not_a_stop_word() {
    let counter = TermCounter::default();
    let terms = counter.terms("News of quantum wells", "");
    assert_eq!(terms.len(), 3, "news, quantum, wells: {terms:?}");
}

#[test]
fn a_word_is_one_term_however_the_feed_wrote_its_accents() {
    let counter = TermCounter::default();
    let terms = |title: &str| {
        let mut t = counter.terms(title, r#"We bound \emph{Schr\"{o}dinger} operators."#);
        t.sort_by_key(|x| x.0);
        t
    };
    let plain = terms("Schrodinger operators");
    assert_eq!(plain.len(), 3, "schrodinger, operator, bound");
    for title in [
        r#"Schr\"odinger operators"#,
        "Schrödinger operators",
        "Schro\u{308}dinger operators",
    ] {
        assert_eq!(terms(title), plain, "{title}");
    }
}

/// Up to `k` related papers for each of `docs` (title, abstract).
fn related_of(docs: &[(&str, &str)], k: usize) -> Vec<Vec<usize>> {
    let counter = TermCounter::default();
    related(
        docs.len(),
        |range| {
            Ok::<_, ()>(Cow::Owned(
                docs[range]
                    .iter()
                    .map(|d| counter.terms(d.0, d.1))
                    .collect(),
            ))
        },
        k,
    )
    .unwrap()
}

#[test]
fn finds_the_paper_on_the_same_topic() {
    let docs = [
        (
            "Byzantine consensus for blockchains",
            "We study Byzantine fault tolerant consensus protocols for permissioned blockchains.",
        ),
        (
            "Graph neural network training",
            "Sampling neighbors for distributed graph neural network training on GPUs.",
        ),
        (
            "Faster Byzantine agreement",
            "A consensus protocol tolerating Byzantine faults with fewer messages for blockchains.",
        ),
        (
            "Prefetching for GNN training",
            "Remote node prefetching speeds up distributed graph neural network training.",
        ),
        ("Cooking pasta", "Boil water, add salt and pasta."),
    ];
    let r = related_of(&docs, 2);
    assert_eq!(r[0].first(), Some(&2));
    assert_eq!(r[1].first(), Some(&3));
    assert!(r[4].is_empty());
}

#[test]
fn one_shared_word_is_not_a_relation() {
    // The fish study has no abstract (Nature's feeds give none): a few title words,
    // each weighing much, one of them "exposure".
    let docs = [
        (
            "Probabilistic forecasting of radiation exposure for spaceflight",
            "Solar particle events threaten astronauts; we forecast the dose they receive.",
        ),
        ("Cypermethrin exposure of aquacultured fish", ""),
        (
            "Forecasting solar particle events",
            "Probabilistic forecasting of solar particle events from flare observations.",
        ),
        ("Boiling pasta", "Boil water and add salt."),
        ("Baking bread", "Knead dough and bake."),
        ("Brewing tea", "Steep leaves in water."),
    ];
    let r = related_of(&docs, 5);
    assert_eq!(
        r[0],
        [2],
        "shares probabilistic, forecasting, solar, particle, events"
    );
    assert!(r[1].is_empty(), "{:?}", r[1]);
}

#[test]
fn thousands_of_identical_abstracts_do_not_relate_through_their_shared_words() {
    // 30,000 papers: 2,500 withdrawn stubs with one text (in more papers than MAX_DF,
    // fewer than a tenth of the corpus), and pairs of papers that share two rare words.
    let n = 30_000;
    let text = |i: usize| -> (String, String) {
        if i < 2_500 {
            (
                "Withdrawn".into(),
                "This paper has been withdrawn by the author".into(),
            )
        } else {
            let pair = i / 2;
            (
                format!("Paper zq{pair}x"),
                format!("About topic zq{pair}x, yv{pair}k and ww{i}y"),
            )
        }
    };
    let counter = TermCounter::default();
    let r = related(
        n,
        |range| {
            Ok::<_, ()>(Cow::Owned(
                range
                    .map(|i| {
                        let (t, a) = text(i);
                        counter.terms(&t, &a)
                    })
                    .collect(),
            ))
        },
        5,
    )
    .unwrap();
    assert!(r[..2_500].iter().all(Vec::is_empty), "{:?}", &r[..3]);
    assert_eq!(r[10_000], [10_001]);
}
