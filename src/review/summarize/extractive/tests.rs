use super::*;

#[test]
fn sentences_split_where_sentences_end() {
    let s = sentences(
        "Graphs (e.g. social ones) are big. We use Fig. 2 of Smith et al. to show 3.5x gains. Does it work? Yes!",
    );
    assert_eq!(
        s,
        [
            "Graphs (e.g. social ones) are big.",
            "We use Fig. 2 of Smith et al. to show 3.5x gains.",
            "Does it work?",
            "Yes!"
        ]
    );
}

#[test]
fn a_structured_abstracts_section_labels_are_not_part_of_its_sentences() {
    assert_eq!(
        sentences(
            "Motivation: Cells differ. RESULTS: We present Foo. Conclusion: It works. GraphBAN: A tool. Results:"
        ),
        [
            "Cells differ.",
            "We present Foo.",
            "It works.",
            "GraphBAN: A tool.",
            "Results:"
        ]
    );
}

#[test]
fn a_span_does_not_end_between_the_words_of_a_pair() {
    for (before, after) in [
        ("a combination of energy", " and timing cuts"),
        ("it is possible to design", " and perform experiments"),
        ("across environments, scalability", " and reproducibility"),
        (
            "the asymmetry between $\\varepsilon_1$",
            " and $\\varepsilon_2$",
        ),
    ] {
        assert!(splits_a_pair(before, after), "{before}|{after}");
    }
    for (before, after) in [
        ("Foo reduces latency by up to 42%", " and cuts cost"),
        ("it accelerates the testing process", " and improves it"),
        ("a maneuver recall of 55.4%", " and a precision"),
        ("a combination of energy", ", timing and cuts"),
    ] {
        assert!(!splits_a_pair(before, after), "{before}|{after}");
    }
}

#[test]
fn an_empty_abstract_gives_no_headline_not_the_title() {
    let s = summarize("  ");
    assert_eq!((s.headline.as_str(), s.summary.as_str()), ("", ""));
}

#[test]
fn the_result_sentence_becomes_the_headline_in_the_abstracts_words() {
    let abstract_text = "Large language models are increasingly used for code. However, their cost remains a challenge. In this paper, we present Foo, a caching layer for LLM inference that reuses prefixes across requests. Experiments on three benchmarks show that Foo reduces latency by up to 42% and cuts cost by 3.1x compared to vLLM.";
    let s = summarize(abstract_text);
    assert!(
        s.headline.starts_with("Foo reduces latency by up to 42%"),
        "{}",
        s.headline
    );
    assert!(s.headline.chars().count() <= HEADLINE_CHARS);
    assert!(
        s.summary.starts_with("We present Foo, a caching layer"),
        "{}",
        s.summary
    );
    assert!(s.summary.chars().count() <= SUMMARY_CHARS);
    for word in s
        .headline
        .split_whitespace()
        .chain(s.summary.split_whitespace())
    {
        let word = word.trim_matches(|c: char| !c.is_alphanumeric());
        assert!(
            abstract_text.to_lowercase().contains(&word.to_lowercase()),
            "{word} is not the abstract's"
        );
    }
}

#[test]
fn long_text_is_cut_at_a_clause_not_a_word() {
    let t = shorten(
        "Our scheduler cuts tail latency by 38% on a 64-node cluster, while keeping throughput within 2% of the best static policy for every workload",
        90,
    );
    assert_eq!(
        t,
        "Our scheduler cuts tail latency by 38% on a 64-node cluster"
    );
    let t = shorten(&"word ".repeat(40), 30);
    assert!(t.ends_with('…') && t.chars().count() <= 31, "{t}");
}
