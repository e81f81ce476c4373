use super::clauses::*;
use super::subject::points_back;
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
        (
            "a pipeline for long-read single-cell",
            " and single-nuclei RNA",
        ),
    ] {
        assert!(splits_a_pair(before, after), "{before}|{after}");
    }
    for (before, after) in [
        ("Foo reduces latency by up to 42%", " and cuts cost"),
        ("it accelerates the testing process", " and improves it"),
        ("a maneuver recall of 55.4%", " and a precision"),
        ("a combination of energy", ", timing and cuts"),
        ("the privacy-utility trade-off", " and show it holds"),
        ("Foo cuts latency by 2-fold", " and cost by 3-fold"),
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
fn a_one_liner_is_not_the_stub_left_of_a_sentence_once_its_frame_is_cut() {
    // 1605.01097 and MHSNet (2508.13676), whose cards said "How to implement" and "The
    // effectiveness of MHSNet": all that was left of their contribution sentences.
    for (abstract_text, was, now) in [
        (
            "This paper presents the core principles of reliability in software engineering - outlining why reliability testing is critical and specifying the process of measuring reliability. The paper provides insight for both novice and experts in the software engineering field for assessing failure intensity as well as predicting failure of software systems. Measurements are conducted by utilizing information from an operational profile to further enhance a test plan and test cases, all of which this paper demonstrates how to implement.",
            "How to implement",
            // The headline cannot be "This paper presents …" (it names nothing): the
            // one-liner is.
            "This paper presents the core principles of reliability",
        ),
        (
            "To maintain the company's talent pool, recruiters need to continuously search for resumes from third-party websites (e.g., LinkedIn, Indeed). However, fetched resumes are often incomplete and inaccurate. To improve the quality of third-party resumes and enrich the company's talent pool, it is essential to conduct duplication detection between the fetched resumes and those already in the company's talent pool. Such duplication detection is challenging due to the semantic complexity, structural heterogeneity, and information incompleteness of resume texts. To this end, we propose MHSNet, an multi-level identity verification framework that fine-tunes BGE-M3 using contrastive learning. With the fine-tuned , Mixture-of-Experts (MoE) generates multi-level sparse and dense representations for resumes, enabling the computation of corresponding multi-level semantic similarities. Moreover, the state-aware Mixture-of-Experts (MoE) is employed in MHSNet to handle diverse incomplete resumes. Experimental results verify the effectiveness of MHSNet",
            "The effectiveness of MHSNet",
            // The contribution, rather than another sentence's motivation.
            "We propose MHSNet",
        ),
    ] {
        let s = summarize(abstract_text);
        assert_ne!(s.summary, was);
        assert!(s.summary.starts_with(now), "{}", s.summary);
    }
    // With no other sentence to say it, the stub is still better than nothing.
    let s = summarize("We propose Foo, a cache that cuts latency by 42%. It works.");
    assert_eq!(s.summary, "It works");
}

#[test]
fn a_headline_does_not_end_on_a_noun_its_next_words_name_or_qualify() {
    // 2304.14166: "…for the cases" said nothing of which cases; with the clause it is cut
    // at a word, not after the mark of the list's first item.
    let s = summarize(
        "We study the Chernoff-Stein exponent of the following binary hypothesis testing problem: Associated with each hypothesis is a set of channels. A transmitter, without knowledge of the hypothesis, chooses the vector of inputs to the channel. We study the Chernoff-Stein exponent for the cases where the transmitter (i) is deterministic, (ii) may privately randomize, and (iii) shares randomness with the detector that is unavailable to the adversary.",
    );
    assert_eq!(
        s.headline,
        "We study the Chernoff-Stein exponent of the following binary hypothesis testing problem"
    );
    // nf-core/scnanoseq: "…a pipeline for long-read single-cell" ended on an adjective.
    let s = summarize(
        "Though these methods now exist, the limited availability of modular and portable workflows remains a challenge. Here we present, nf-core/scnanoseq, a secondary analysis pipeline for long-read single-cell and single-nuclei RNA that delivers gene and transcript-level quantification.",
    );
    assert!(!s.headline.ends_with("single-cell"), "{}", s.headline);
    assert!(
        s.headline.starts_with("We present, nf-core/scnanoseq"),
        "{}",
        s.headline
    );
}

#[test]
fn a_headline_keeps_what_an_adjective_is_said_of_and_drops_a_frame_that_generalizes() {
    // 2505.05162 ended "…input parameters that are sufficient", 1401.3665 "More generally,
    // we show that the natural divisibility conditions are sufficient": sufficient for
    // what, each abstract says after it.
    for (before, after) in [
        (
            "Our lower bounds characterize minimal input parameters that are sufficient",
            " for hardness to arise",
        ),
        ("a method suitable", " for large graphs"),
    ] {
        assert!(!may_end_at(before, after), "{before}|{after}");
    }
    assert!(may_end_at(
        "the conditions are sufficient",
        ", and thus shed light"
    ));
    assert_eq!(
        strip_openers(
            "More generally, we show that the natural divisibility conditions are sufficient."
        ),
        "The natural divisibility conditions are sufficient"
    );
}

#[test]
fn a_headline_names_what_it_speaks_of_rather_than_pointing_back() {
    // The strongest result says "it": on a card, with nothing before it, the reader cannot
    // tell what achieves 48x. The result that names Foo speaks first; the other follows.
    let s = summarize(
        "Graph processing needs elastic clusters. We present Foo, a serverless graph engine. Foo outperforms existing systems by up to 127x in execution time. Even with limited resources, it achieves up to 48x speedup and 99.97% cost reduction over prior serverless solutions.",
    );
    assert!(s.headline.starts_with("Foo outperforms"), "{}", s.headline);
    assert!(s.summary.contains("it achieves up to 48x"), "{}", s.summary);

    for pointing in [
        "It achieves up to 48x speedup",
        "These enhanced models enable more tests",
        "This result contrasts the known scaling",
        "They showed that any rule is refined",
        "Such predictions may have been confirmed",
        "Its evolution in games reveals tension",
    ] {
        assert!(points_back(pointing), "{pointing}");
    }
    for naming in [
        "This paper presents Foo",
        "This short paper reports work in progress",
        "It proposes a diagnosis model",
        "It is sufficient to test any base",
        "Thistle grows in testing fields",
        "Itô calculus gives the bound",
    ] {
        assert!(!points_back(naming), "{naming}");
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

#[test]
fn a_line_cut_at_a_word_ends_on_a_phrase_not_inside_one() {
    // Headlines of the example site and the fixtures that ended on a modifier, its noun cut
    // off ("…in adjacent…", "…of the chemical…"): now on the noun before that phrase.
    for (sentence, line) in [
        (
            "We propose a scheme to characterize the exchange coupling between electrons in adjacent quantum dots",
            "We propose a scheme to characterize the exchange coupling between electrons…",
        ),
        (
            "The introduction of a simple scaling form allows for the extrapolation of the chemical potential to the thermodynamic limit",
            "The introduction of a simple scaling form allows for the extrapolation…",
        ),
        (
            "We present our ongoing work on introducing human-centred considerations into modelling and simulation practice",
            "We present our ongoing work on introducing human-centred considerations…",
        ),
    ] {
        assert_eq!(shorten(sentence, 90), line);
    }
    // A line that ends on a noun keeps it ("…of a Boolean model…"); and where no earlier
    // cut holds a verb, nor follows a noun, the cut is at the last word, as it was: a
    // subject alone ("The experimental realization and tomographic analysis…") says
    // nothing, and "comparable…" needs what it is compared to.
    for (sentence, line) in [
        (
            "We present MRBM, a method for efficiently identifying the components of a Boolean model to be multivalued in order to capture specific fixed-point reachabilities",
            "We present MRBM, a method for efficiently identifying the components of a Boolean model…",
        ),
        (
            "The experimental realization and tomographic analysis of novel quantum light states obtained by exciting a classical thermal field by a single photon",
            "The experimental realization and tomographic analysis of novel quantum light states…",
        ),
        (
            "The location accuracy achieved by the intelligent locator is comparable to that obtained by the conventional triangulation method",
            "The location accuracy achieved by the intelligent locator is comparable to that obtained…",
        ),
    ] {
        assert_eq!(shorten(sentence, 90), line);
    }
}

#[test]
fn the_one_liner_does_not_open_as_the_headline_does() {
    // From the fixture feed api_2026-04_query_all-testing_100entries.xml: two sentences
    // open "We study the Chernoff-Stein exponent"; the card said it twice.
    let abstract_text = "We study the Chernoff-Stein exponent of the following binary hypothesis testing problem: Associated with each hypothesis is a set of channels. A transmitter, without knowledge of the hypothesis, chooses the vector of inputs to the channel. Given the hypothesis, from the set associated with the hypothesis, an adversary chooses channels, one for each element of the input vector. Based on the channel outputs, a detector attempts to distinguish between the hypotheses. We study the Chernoff-Stein exponent for the cases where the transmitter (i) is deterministic, (ii) may privately randomize, and (iii) shares randomness with the detector that is unavailable to the adversary. It turns out that while a memoryless transmission strategy is optimal under shared randomness, it may be strictly suboptimal when the transmitter only has private randomness.";
    let s = summarize(abstract_text);
    assert!(
        s.headline
            .starts_with("We study the Chernoff-Stein exponent"),
        "{}",
        s.headline
    );
    assert!(
        !s.summary.starts_with("We study the Chernoff-Stein"),
        "{}",
        s.summary
    );
    assert!(!s.summary.is_empty());
}

#[test]
fn the_one_liner_is_not_where_the_code_is() {
    // The example's arXiv 2508.13250: the card's one-liner was "To benefit the research
    // community, we release this project at https://github.com/nuster1128/MPR", beside
    // the card's own Code link.
    let abstract_text = "In large language model-based agents, memory serves as a critical capability for achieving personalization by storing and utilizing users' information. Although some previous studies have adopted memory to implement user personalization, they typically focus on preference alignment and simple question-answering. However, in the real world, complex tasks often require multi-hop reasoning on a large amount of user information, which poses significant challenges for current memory approaches. To address this limitation, we propose the multi-hop personalized reasoning task to explore how different memory mechanisms perform in multi-hop reasoning over personalized information. We explicitly define this task and construct a dataset along with a unified evaluation framework. Then, we implement various explicit and implicit memory methods and conduct comprehensive experiments. We evaluate their performance on this task from multiple perspectives and analyze their strengths and weaknesses. Besides, we explore hybrid approaches that combine both paradigms and propose the HybridMem method to address their limitations. We demonstrate the effectiveness of our proposed model through extensive experiments. To benefit the research community, we release this project at https://github.com/nuster1128/MPR.";
    let s = summarize(abstract_text);
    assert!(!s.summary.contains("://"), "{}", s.summary);
    // Nor the headline, which took that sentence once no other was a whole statement.
    assert!(!s.headline.contains("://"), "{}", s.headline);
    // A line that goes to the card is without the "Besides," that ties it to the
    // sentence before.
    assert!(
        strip_openers("Besides, we explore hybrid approaches that combine both paradigms.")
            .starts_with("We explore hybrid approaches")
    );
    // An abstract that says nothing else keeps its address rather than no line.
    let only = summarize(
        "We present Foo, a tool for testing compilers. The code is available at https://github.com/example/foo.",
    );
    assert!(!only.summary.is_empty(), "{:?}", only);
}

#[test]
fn a_span_starts_outside_brackets() {
    // The example site's bioRxiv 2025.04.10.648097 had the headline "DOI:
    // 10.5281/zenodo.14967337) to fill this gap".
    let sentence = "We have developed EnviroAmpDesigner (v0.1.3, DOI: 10.5281/zenodo.14967337) to fill this gap, which we used to design a multiplex amplicon panel for detection, genotyping and AMR profiling of the typhoidal pathogens Salmonella enterica serovars Typhi and Paratyphi A";
    let span = best_span(
        sentence,
        90,
        &|t| {
            if t.contains("fill this gap") {
                5.0
            } else {
                0.0
            }
        },
        Span::Any,
    );
    assert_eq!(
        span.matches('(').count(),
        span.matches(')').count(),
        "{span}"
    );
    assert!(
        span.starts_with("We have developed EnviroAmpDesigner"),
        "{span}"
    );
}

#[test]
fn a_dash_between_spaces_ends_a_clause() {
    // The example site's 1605.01097 had the headline "… in software engineering -…".
    for dash in ["-", "--", "–", "—"] {
        let sentence = format!(
            "This paper presents the core principles of reliability in software engineering {dash} outlining why reliability testing is critical and specifying the process of measuring reliability"
        );
        assert_eq!(
            best_span(&sentence, 90, &|_| 0.0, Span::Any),
            "This paper presents the core principles of reliability in software engineering",
            "{dash}"
        );
        assert_eq!(
            shorten(&sentence, 85),
            "This paper presents the core principles of reliability in software engineering",
            "{dash}"
        );
    }
}

// Sentences below are from real abstracts in the shared fixtures and the example site.

#[test]
fn a_headline_drops_the_words_that_tie_it_to_the_sentence_before() {
    for (sentence, starts) in [
        (
            "Using these, we demonstrate that the number of stars with sensitivity to HJs and VHJs is only 4--16% of those in the OGLE-III fields.",
            "The number of stars with sensitivity",
        ),
        (
            "To address these limitations of mutation testing, we introduce property-based mutation testing, a method for assessing the capability of a test suite.",
            "We introduce property-based mutation testing",
        ),
        (
            "Indeed, modern AI alignment tools such as Reward Modelling and Direct Preference Optimization are based on the Plackett-Luce model.",
            "Modern AI alignment tools",
        ),
        (
            "Interestingly, chemical modification on the ribose increases the structural stability of analogs.",
            "Chemical modification on the ribose increases",
        ),
        (
            "We demonstrate that: i) Delaunay tessellation can be used to reconstruct the density field.",
            "Delaunay tessellation can be used",
        ),
        (
            "(1) Themis is effective at discovering software discrimination.",
            "Themis is effective",
        ),
        (
            "To combat these problems we propose MET-POSE, a metamorphic testing framework for pose estimation systems.",
            "We propose MET-POSE",
        ),
        (
            "To automate this process, this paper proposes ViTAD, a method that efficiently analyzes the root causes of timing violations.",
            "This paper proposes ViTAD",
        ),
        (
            "We then experimentally show the effectiveness of MET-POSE by applying it to Mediapipe Holistic.",
            "We experimentally show the effectiveness of MET-POSE",
        ),
        (
            "We also provide a similar characterization for the problem of tolerant equivalence testing.",
            "We provide a similar characterization",
        ),
        // "Further" before a determiner may be the verb.
        (
            "We further this line of work with a tight bound.",
            "We further this line of work",
        ),
        // The frame ends at its first "we" or comma.
        (
            "To evaluate these methods we compare them on four benchmarks, finding that none dominates.",
            "We compare them on four benchmarks, finding",
        ),
        // A purpose of the paper's own, or one that says more than "these problems", is
        // not only a tie to the sentence before.
        (
            "To improve accuracy, we propose a new loss.",
            "To improve accuracy, we propose",
        ),
        (
            "To tackle these unique challenges from real-world tables, we present a continuously learning, agentic table extraction system.",
            "To tackle these unique challenges from real-world tables, we present",
        ),
        // A condition is part of the claim, not a tie to the sentence before.
        (
            "For large n, we show that the bound is tight.",
            "For large n, we show that the bound is tight",
        ),
    ] {
        let stripped = strip_openers(sentence);
        assert!(stripped.starts_with(starts), "{sentence}\n -> {stripped}");
    }
}

#[test]
fn a_structured_abstracts_label_glued_to_its_first_word_is_dropped() {
    assert_eq!(
        sentences(
            "BackgroundThis study aimed to find the cause. ResultsHence, in this work, we propose Robin. ContextNet is a model. MethodsÉtude du cas."
        ),
        [
            "This study aimed to find the cause.",
            "Hence, in this work, we propose Robin.",
            "ContextNet is a model.",
            "Étude du cas."
        ]
    );
    assert_eq!(
        summarize(
            "ResultsHence, in this work, we propose Robin, an advanced ready-to-go platform."
        )
        .headline,
        "We propose Robin, an advanced ready-to-go platform"
    );
}

#[test]
fn a_cut_does_not_part_a_subject_from_its_verb_or_fall_inside_brackets() {
    assert!(verb_follows(
        " with sensitivity to HJs and VHJs is only 4--16%"
    ));
    assert!(verb_follows(" and behavioural diagrams can be used"));
    for after in [
        " and it is fast",
        " which is aimed at making tests",
        ", which is widely supported",
        " through real-world experiments, accelerating discovery",
        " on GPUs that might fail",
        " and costs less",
    ] {
        assert!(!verb_follows(after), "{after}");
    }
    for sentence in [
        "Using these, we demonstrate that the number of stars with sensitivity to HJs and VHJs is only 4--16% of those in the OGLE-III fields satisfying the spectroscopic-followup limit of V_max<17.5.",
        "In this research, it is shown that both structural and behavioural diagrams can be used to represent specifications in a single model using High Level Petri Nets (HLPN).",
        "Indeed, modern AI alignment tools such as Reward Modelling and Direct Preference Optimization are based on the statistical assumptions posed by the Plackett-Luce model.",
        "Extensive benchmarking on histopathological, simulated, and real ST data from five distinct cancer types shows that SpatioCell outperforms state-of-the-art methods in both nuclear segmentation and cell annotation accuracy.",
        "This new major version includes recent pocket prediction, structural alignment and clustering methods, as well as a refined amino acid distance matrix, thereby improving the relevance of results.",
        "To achieve this, we performed a systematic mapping study of recent (2020 and later) studies on AI adoption in software testing in the industry, and applied thematic analysis to identify common themes and categories, such as the real-world use cases and benefits, in the found papers.",
    ] {
        let headline = best_span(
            &strip_openers(sentence),
            HEADLINE_CHARS,
            &|_| 0.0,
            Span::Any,
        );
        let cut = headline.trim_end_matches('…');
        let next = &sentence[sentence.find(cut).map_or(0, |at| at + cut.len())..];
        assert!(
            headline.ends_with('…') || !verb_follows(next),
            "{headline} | {next}"
        );
        assert!(
            headline.matches('(').count() == headline.matches(')').count(),
            "{headline}"
        );
        assert!(
            ![
                "stars",
                "structural",
                "Reward Modelling",
                "of recent",
                "simulated",
                "structural alignment"
            ]
            .iter()
            .any(|end| cut.ends_with(end)),
            "{headline}"
        );
    }
}

#[test]
fn a_span_does_not_start_at_the_last_items_of_a_list_or_a_which_clause() {
    let s = summarize(
        "On three capability benchmarks: Humanity's Last Exam (HLE), SimpleQA, and GPQA, we demonstrate that for approximately 3% of questions, search-based agents directly find the datasets with ground truth labels on HuggingFace.",
    );
    assert!(!s.headline.starts_with("SimpleQA"), "{}", s.headline);
    // Nor the list before the subject, nor "we demonstrate that" without what; and cut at
    // a word the clause has no verb ("…, search-based…"): no statement fits, and there is
    // no headline.
    assert_eq!(s.headline, "");
    let s = summarize(
        "We introduce OpenCat, a converter that transforms OpenDRIVE test cases into the Catmull-Rom spline format, which is widely supported by many current test generators.",
    );
    assert!(!s.headline.starts_with("Is widely"), "{}", s.headline);
    let s = summarize(
        "We set out a five-point action plan centred on (i) a policy approach that protects the human rights of those most vulnerable to the harmful effects of AI; (ii) the establishment of an African AI Safety Institute; and (v) an annual AU-level AI Safety & Security Forum.",
    );
    assert!(!s.headline.starts_with('('), "{}", s.headline);
}

#[test]
fn a_line_never_ends_inside_a_formula() {
    // arXiv 2411.17737: the headline was "Its Smith normal form is $$ \mathrm{diag}\left…",
    // half a formula that no page can render.
    let s = summarize(
        r"In this paper, we give an explicit formula for the rank of the $Q$-walk matrix of the Dynkin graph $A_n$. Moreover, we prove that its Smith normal form is $$ \mathrm{diag}\left( \underset{r=\lceil \frac{n}{2} \rceil}{\underbrace{1,2,2,...,2}},0,...,0 \right), $$ where $r$ is the rank of the $Q$-walk matrix $W_Q\left( A_n \right) $ of the Dynkin graph $A_n$.",
    );
    for line in [&s.headline, &s.summary] {
        let html = crate::render::math::text_with_math(line);
        assert!(!html.contains('$') && !html.contains('\\'), "{line}");
    }
    // Cut before the formula, that sentence would be a stub; the other one speaks.
    assert!(
        s.headline
            .starts_with("We give an explicit formula for the rank"),
        "{}",
        s.headline
    );
    // A clause boundary inside a formula is not one either.
    let t = shorten(
        r"We bound the error of the scheme by $\max\{a_1, a_2, a_3, a_4, a_5, a_6, a_7, a_8, a_9, a_{10}, a_{11}\}$ for every input",
        60,
    );
    assert_eq!(t, "We bound the error of the scheme");
}

#[test]
fn a_span_does_not_end_on_a_participle_whose_complement_it_cuts_off() {
    for (before, after) in [
        (
            "the ICL ability of LLMs, especially focusing",
            " on their ability to solve",
        ),
        ("a new scheduler, relying", " on idle cores"),
        ("a dataset of trials, based", " on registries"),
        // A past participle's agent or ground (feed abstracts of 2207.08388 and others).
        (
            "we study the dynamics of a nonlinear system governed",
            " by an ordinary differential equation",
        ),
        (
            "a system which models an infectious disease caused",
            " by a virus",
        ),
    ] {
        assert!(!may_end_at(before, after), "{before}|{after}");
    }
    for (before, after) in [
        ("the ICL ability of LLMs, especially focusing", ", as we do"),
        ("the ICL ability of LLMs", ", especially focusing on"),
        (
            "we train on large datasets, outperforming baselines",
            " on three benchmarks",
        ),
        ("a method for efficient training", " on GPUs"),
        ("the tension is reduced", ", as the data show"),
        ("the red one is", " by far the best"),
    ] {
        assert!(may_end_at(before, after), "{before}|{after}");
    }
    // The abstract this came from (arXiv 2508.12448): its headline ended "…, especially
    // focusing", a clause with nothing to focus on.
    let summary = summarize(concat!(
        "Physics-based tasks offer a promising testbed for probing this challenge. ",
        "Here, we mechanistically investigate the ICL ability of LLMs, especially focusing on ",
        "their ability to reason about physics. Using a dynamics forecasting task in physical ",
        "systems as a proxy, we evaluate whether LLMs can learn physics in context. To uncover ",
        "how such capability emerges in LLMs, we analyze the model's residual stream ",
        "activations using sparse autoencoders (SAEs). In sum, our work provides a novel case ",
        "study that broadens our understanding of how LLMs learn in context."
    ));
    assert!(
        !summary.headline.ends_with("focusing"),
        "{}",
        summary.headline
    );
}

#[test]
fn a_headline_is_not_only_the_clause_before_the_subject() {
    for (span, after) in [
        (
            "To further boost the accuracy of angular information",
            ", a deep neural network is introduced to map the misaligned target angular positions",
        ),
        (
            "Building on recent work by Levenshtein (2003)",
            " and Tonchev (2008), several new infinite families are given",
        ),
        ("Leveraging sparse autoencoders", ", we find features"),
        // The example's headlines before: arXiv 2508.13234, 2406.19956, 2508.13180 and
        // 2411.17724.
        (
            "Contrary to the widespread belief that AI facilitates interdisciplinary collaboration",
            ", our findings show that AlphaFold increased structural biology-computer science collaborations by just 0.48%",
        ),
        (
            "In spite of the optimality properties of the score statistic shown in Rao and Poti (1946)",
            ", the Rao score (RS) test remained unnoticed for almost 20 years",
        ),
        (
            "We demonstrate that for approximately 3% of questions",
            ", the evidence is ambiguous",
        ),
        (
            "I am able to show that among governing systems",
            " and institutions of the extended AI-Economist, under the Inclusive government, the ratios are higher",
        ),
    ] {
        assert!(fronted_clause_alone(span, after), "{span}|{after}");
    }
    for (span, after) in [
        (
            "Using simulations we study bosons on a lattice",
            ", finding a supersolid",
        ),
        (
            "To boost accuracy, a network is introduced",
            " to map angles",
        ),
        ("Foo reduces latency by 42%", ", and cuts cost"),
        ("To boost accuracy", " we introduce a network"),
        // What "that" says is there before the cut.
        (
            "We show that in most cases the method works",
            ", and that it is fast",
        ),
        (
            "We show that for all n, the bound holds",
            ", which is tight",
        ),
    ] {
        assert!(!fronted_clause_alone(span, after), "{span}|{after}");
    }
    // arXiv 2411.17734, whose headline was "To further boost the accuracy of angular
    // information".
    let summary = summarize(concat!(
        "In this paper, a low-cost monopulse receiver with an enhanced direction of arrival ",
        "(DoA) estimation accuracy via deep neural network (DNN) is proposed. The entire system ",
        "is composed of a 4-element patch array, a fully planar symmetrical monopulse ",
        "comparator network, and a down conversion link. In addition, the monopulse radiation ",
        "patterns and direction of arrival are also decently evaluated. To further boost the ",
        "accuracy of angular information, a deep neural network is introduced to map the ",
        "misaligned target angular positions in the measurement to the actual physical location ",
        "under detection."
    ));
    assert!(
        summary
            .headline
            .starts_with("A deep neural network is introduced"),
        "{}",
        summary.headline
    );
}

#[test]
fn a_cut_before_a_character_of_more_than_one_byte_is_no_panic() {
    // What the re-review of the example met, past a comma: a quotation mark, a formula's π.
    assert!(!fronted_clause_alone(
        "We ask",
        ", “Who was the ninth Chancellor of Germany?”"
    ));
    assert!(!fronted_clause_alone("Here", ", 1-π)$, it holds"));
    let s = summarize(
        "Given the names of the chancellors, “Who was the ninth Chancellor of Germany?” is answered correctly by 91% of the models we tested with retrieval.",
    );
    assert!(!s.summary.is_empty());
}

#[test]
fn a_sentence_cut_from_its_subject_on_is_not_cut_in_a_formula_or_an_aside() {
    let long = " of the random matrices drawn from the ensemble described above is bounded by a constant almost surely.";
    for (sentence, start) in [
        (
            format!("For all $a, b \\in X$, the operator norm{long}"),
            "The operator norm of the random matrices",
        ),
        (
            format!("Given $\\epsilon, \\delta > 0$, the minimal number{long}"),
            "The minimal number of the random matrices",
        ),
        (
            format!("This is, we believe, the first demonstration{long}"),
            "This is, we believe, the first demonstration",
        ),
        (
            format!("Motivated by epidemics, we design a procedure{long}"),
            "We design a procedure",
        ),
    ] {
        let line = best_span(&sentence, 90, &|_| 0.0, Span::Any);
        assert!(line.starts_with(start), "{line}");
    }
}

#[test]
fn a_keyword_list_is_no_sentence() {
    // arXiv 2503.23466, whose headline was its keywords.
    let summary = summarize(concat!(
        "We present a dataset of 5,000 competitive programming problems with tests. ",
        "Models solve 41% of them. ",
        "Keywords: competitive programming, language model, dataset"
    ));
    assert!(
        !summary.headline.contains("Keywords"),
        "{}",
        summary.headline
    );
    assert!(!summary.summary.contains("Keywords"), "{}", summary.summary);
    for list in [
        "Keywords: a, b",
        "Key words: a, b",
        "Index Terms—testing, fuzzing",
        "PACS numbers: 05.30.Jp",
        "MSC 2020: 05B05",
    ] {
        assert_eq!(
            sentences(&format!("We do it. {list}")),
            ["We do it."],
            "{list}"
        );
    }
    assert_eq!(
        sentences("Keyword spotting works."),
        ["Keyword spotting works."]
    );
}

#[test]
fn a_span_does_not_end_before_the_question_its_verb_asks_nor_on_i_e() {
    // arXiv 2411.17702 and 2411.17720: their lines ended "…, and assess" and "…, i.e.".
    assert!(!may_end_at(
        "we investigate several ways to define positive samples, and assess",
        " which approach yields the best performance"
    ));
    assert!(!may_end_at("we determine", " whether the bound is tight"));
    assert!(may_end_at(
        "we train a new model",
        " which outperforms the baselines"
    ));
    assert_eq!(
        tidy_end("or focus on detection rather"),
        "or focus on detection"
    );
    assert_eq!(
        tidy_end("by parallelizing the utilization of heterogeneous compute units, i.e."),
        "by parallelizing the utilization of heterogeneous compute units"
    );
}

#[test]
fn a_percent_in_a_formula_stays_escaped_and_shows() {
    // arXiv 2004.03322: `$25\%$` became `$25%$`, whose `%` TeX reads as a comment, and the
    // headline said "achieve 25 accuracy".
    let s = sentences(r"A set of $100$ tests achieves $25\%$ accuracy, or 30\% in all.");
    assert_eq!(
        s,
        [r"A set of $100$ tests achieves $25\%$ accuracy, or 30% in all."]
    );
    let html = crate::render::math::text_with_math(&s[0]);
    let text = regex::Regex::new("<[^>]*>").unwrap().replace_all(&html, "");
    assert!(text.contains("25%"), "{html}");
}

#[test]
fn a_one_liner_that_stops_before_its_sentence_does_says_so() {
    // 1709.03221's last sentence is longer than a one-liner: its line stopped at "provide
    // initial tools", which read as if the sentence ended there.
    let s = summarize(
        "This paper defines software fairness and discrimination and develops a testing-based method for measuring if and how much software discriminates, focusing on causality in discriminatory behavior. Evidence of software discrimination has been found in modern software systems that recommend criminal sentences, grant access to financial products, and determine who is allowed to participate in promotions. Our approach, Themis, generates efficient test suites to measure discrimination. Given a schema describing valid system inputs, Themis generates discrimination tests automatically and does not require an oracle. We evaluate Themis on 20 software systems, 12 of which come from prior work with explicit focus on avoiding discrimination. We find that (1) Themis is effective at discovering software discrimination, (2) state-of-the-art techniques for removing discrimination from algorithms fail in many situations, at times discriminating against as much as 98% of an input subdomain, (3) Themis optimizations are effective at producing efficient test suites for measuring discrimination, and (4) Themis is more efficient on systems that exhibit more discrimination. We thus demonstrate that fairness testing is a critical aspect of the software development cycle in domains with possible discrimination and provide initial tools for measuring software discrimination.",
    );
    assert!(
        s.summary.ends_with('…') && s.summary.chars().count() <= SUMMARY_CHARS,
        "{}",
        s.summary
    );
    // Nor does a span that runs to the sentence's end from inside it, capitalised.
    let sentence = "To support scalable and robust training, we develop an online RL system.";
    assert_eq!(
        ellipsis_unless_whole(sentence, "We develop an online RL system".into()),
        "We develop an online RL system"
    );
    // A whole sentence has no "…".
    let s = summarize(
        "Large language models are increasingly used for code. In this paper, we present Foo, a caching layer for LLM inference. Experiments on three benchmarks show that Foo reduces latency by up to 42% and cuts cost by 3.1x compared to vLLM.",
    );
    assert_eq!(
        s.summary,
        "We present Foo, a caching layer for LLM inference"
    );
}

/// The example's two headlines that were a subject without its verb: cut at the comma that
/// closes an aside ("…, especially the 1' and 3'-ribose positions | , increases").
#[test]
fn a_headline_drops_an_aside_in_its_subject_rather_than_end_before_the_verb() {
    for (abstract_text, headline) in [
        (
            "Interestingly, chemical modification on the ribose, especially the 1' and 3'-ribose positions, increases the structural stability of analogs through hydrogen bond interactions.",
            "Chemical modification on the ribose increases the structural stability of analogs",
        ),
        (
            "CPU-only deployment of lightweight models, such as Yi, Phi, and Llama3, can effectively support edge applications, achieving a generation throughput of 5 to 12 tokens per second with less than 50\\% CPU and RAM usage.",
            "CPU-only deployment of lightweight models can effectively support edge applications",
        ),
    ] {
        assert_eq!(summarize(abstract_text).headline, headline);
    }
    assert!(predicate_follows(", increases the structural stability"));
    assert!(predicate_follows(", can effectively support"));
    for after in [
        ", tools, and trends",
        ", thus reducing cost",
        ", whereas others fail",
        ", which increases",
        ", achieving 5 tokens",
        ", physics and chemistry",
        " increases the stability",
    ] {
        assert!(!predicate_follows(after), "{after}");
    }
    // Only a list of examples in a subject goes. Not an aside after the verb, nor one
    // that holds a condition, nor one inside brackets; a noun in -es the summarizer knows
    // ("diabetes") is an item, not the verb.
    for (sentence, without) in [
        (
            "Sequence models, such as LSTMs, transformers of various sizes, and state-space models, struggle with long contexts",
            "Sequence models, such as LSTMs, transformers of various sizes, and state-space models, struggle with long contexts",
        ),
        (
            "Chronic conditions, such as obesity, diabetes mellitus, and hypertension, remain common among older adults",
            "Chronic conditions remain common among older adults",
        ),
        (
            "Our toolkit supports many common formats, including CSV and JSON, runs on Windows and Linux, and is open source",
            "Our toolkit supports many common formats, including CSV and JSON, runs on Windows and Linux, and is open source",
        ),
        (
            "Our toolkit supports common formats, including CSV and JSON, runs on Windows and Linux, and is open source",
            "Our toolkit supports common formats, including CSV and JSON, runs on Windows and Linux, and is open source",
        ),
        (
            "Lightweight models, such as Yi and Phi, when quantized to 4 bits, can run on a Raspberry Pi at 5 tokens per second",
            "Lightweight models, such as Yi and Phi, when quantized to 4 bits, can run on a Raspberry Pi at 5 tokens per second",
        ),
        (
            "Small language models (SLMs, such as Phi-3), trained on curated data, are competitive with larger models on reasoning",
            "Small language models (SLMs, such as Phi-3), trained on curated data, are competitive with larger models on reasoning",
        ),
        (
            "We evaluate the method on many public benchmarks of graph learning, such as Cora, Citeseer and PubMed, and report gains",
            "We evaluate the method on many public benchmarks of graph learning, such as Cora, Citeseer and PubMed, and report gains",
        ),
    ] {
        assert_eq!(without_subject_aside(sentence), without, "{sentence}");
    }
    assert!(!predicate_follows(", diabetes mellitus, and"));
    // A one-liner of the sentence without its examples ends where the sentence does: no
    // "…" after it.
    let one_liner = summarize(
        "We study retrieval for clinical questions. Retrieval-augmented generation for clinical question answering, such as MedRAG, Almanac, Clinfo.ai and AskHERA, can reduce hallucinated answers by a third on three public benchmarks of clinical questions.",
    )
    .summary;
    assert_eq!(
        one_liner,
        "Retrieval-augmented generation for clinical question answering can reduce hallucinated answers by a third on three public benchmarks of clinical questions"
    );
}

/// A span that starts at a comma inside its sentence holds a verb: without one it was an
/// item of a list, or a noun put beside another that it then spoke for ("Llama Guard 3-1B,
/// despite being approximately 7 times smaller", which the smaller model is).
#[test]
fn a_headline_that_starts_inside_its_sentence_holds_a_verb() {
    let llama = "This paper presents Llama Guard 3-1B-INT4, a compact and efficient Llama Guard model, which has been open-sourced to the community during Meta Connect 2024. We demonstrate that Llama Guard 3-1B-INT4 can be deployed on resource-constrained devices, achieving a throughput of at least 30 tokens per second and a time-to-first-token of 2.5 seconds or less on a commodity Android mobile CPU. Notably, our experiments show that Llama Guard 3-1B-INT4 attains comparable or superior safety moderation scores to its larger counterpart, Llama Guard 3-1B, despite being approximately 7 times smaller in size (440MB).";
    assert_eq!(
        summarize(llama).headline,
        "Llama Guard 3-1B-INT4 attains comparable or superior safety moderation scores…"
    );
    let bert = "BERT is conceptually simple and empirically powerful. It obtains new state-of-the-art results on eleven natural language processing tasks, including pushing the GLUE score to 80.5% (7.7% point absolute improvement), MultiNLI accuracy to 86.7% (4.6% absolute improvement), SQuAD v1.1 question answering Test F1 to 93.2 (1.5 point absolute improvement) and SQuAD v2.0 Test F1 to 83.1 (5.1 point absolute improvement).";
    // "It" is BERT, as the title names it; without the title it names nothing.
    assert_eq!(
        summarize_titled(
            "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
            bert
        )
        .headline,
        "BERT obtains new state-of-the-art results on eleven natural language processing tasks"
    );
    assert_eq!(
        summarize(bert).headline,
        "BERT is conceptually simple and empirically powerful"
    );
    assert!(!starts_clause(
        ", Llama Guard 3-1B, despite being approximately 7 times smaller"
    ));
    assert!(!starts_clause(
        ", MultiNLI accuracy to 86.7% (4.6% absolute improvement)"
    ));
    for rest in [
        ", we design sampling procedures",
        ", SPANER demonstrates competitive retrieval",
        ", The Rao score test remained unnoticed",
        ", GriNNder achieves 2x",
        ", GPT-4 fell short of the 90% human baseline on this split",
        ", LLMs fail to apply this knowledge",
    ] {
        assert!(starts_clause(rest), "{rest}");
    }
}

#[test]
fn a_results_frame_ends_at_its_own_verb_not_at_a_later_one() {
    // The frame is "Our evaluation reveals", not everything up to "agents demonstrate":
    // that made the object of a "while" clause the subject of its main clause.
    let sentence = r"Our evaluation reveals two critical performance gaps that resemble the generator-validator gaps observed in LMs: while agents demonstrate near-perfect risk knowledge ($>98\%$ pass rates), they fail to apply this knowledge when identifying risks in actual scenarios (with performance dropping by $>23\%$) and often still execute risky actions ($<26\%$ pass rates).";
    let stripped = strip_openers(sentence);
    assert!(
        stripped.starts_with("Two critical performance gaps that resemble"),
        "{stripped}"
    );
    assert_eq!(
        best_span(&stripped, HEADLINE_CHARS, &|_| 0.0, Span::Any),
        "Two critical performance gaps that resemble the generator-validator gaps observed in LMs"
    );
    // Nor past "that" to the verb of what is shown: AFM is what establishes the result.
    let sentence = "Our empirical studies demonstrate that AFM establishes new state-of-the-art performance across diverse benchmarks in both web agent and code agent settings.";
    assert!(
        strip_openers(sentence).starts_with("AFM establishes new state-of-the-art performance"),
        "{}",
        strip_openers(sentence)
    );
    let sentence = "Empirical validation demonstrates Cognitive Workspace achieves an average 58.6% memory reuse rate (ranging from 54-60% across different tasks) compared to 0% for traditional RAG.";
    assert!(
        strip_openers(sentence).starts_with("Cognitive Workspace achieves an average 58.6%"),
        "{}",
        strip_openers(sentence)
    );
    // A frame in the passive, in the present: "It is also found that", "It is observed that".
    for (sentence, starts) in [
        (
            r"It is also found that at $(k_F a)^{-1} \ge 1$, both definitions give similar results.",
            r"At $(k_F a)^{-1} \ge 1$, both definitions give similar results",
        ),
        (
            "It is observed that the ensemble approach is formally identical to the positive operator valued measure approach.",
            "The ensemble approach is formally identical",
        ),
        (
            "It is remarked that only the mass of a sterile neutrino is variable.",
            "Only the mass of a sterile neutrino is variable",
        ),
        // In the past, it is often what the paper disputes.
        (
            "It has been argued that dark matter is cold; we show that it need not be.",
            "It has been argued that dark matter is cold",
        ),
    ] {
        let stripped = strip_openers(sentence);
        assert!(stripped.starts_with(starts), "{sentence}\n -> {stripped}");
    }
    // Words between the frame's noun and its verb are still part of it.
    assert_eq!(
        strip_openers("Experiments on three benchmarks show that the method is faster."),
        "The method is faster"
    );
}

#[test]
fn a_headline_is_not_a_phrase_left_of_what_a_paper_reports_on_nor_ends_on_an_adverb_or_modal() {
    // "We report on …" says what the paper is; without "We report", a phrase.
    let sentence = "To address these challenges, we report on the organization, challenges, and results of the first edition of the Python Testing Competition.";
    assert!(
        strip_openers(sentence).starts_with("We report on the organization"),
        "{}",
        strip_openers(sentence)
    );
    let sentence = "We report here on our efforts to develop effective potentials especially for quasicrystalline alloy systems.";
    let headline = best_span(
        &strip_openers(sentence),
        HEADLINE_CHARS,
        &|_| 0.0,
        Span::Any,
    );
    assert_eq!(
        headline,
        "We report here on our efforts to develop effective potentials"
    );
    // Nor on a modal or an adverb whose verb or phrase is cut off.
    assert_eq!(
        tidy_end(
            "Increasing the number of available recordings improves predictive accuracy and may"
        ),
        "Increasing the number of available recordings improves predictive accuracy"
    );
    assert_eq!(
        tidy_end(
            "This work explores environmentally driven performance optimization methods especially"
        ),
        "This work explores environmentally driven performance optimization methods"
    );
    assert_eq!(
        tidy_end("The number of stars with sensitivity to HJs and VHJs is only 4--16% of those"),
        "The number of stars with sensitivity to HJs and VHJs is only 4--16%"
    );
    assert_eq!(
        tidy_end(
            "We developed a new approach that places each cell from a single-cell dataset within"
        ),
        "We developed a new approach that places each cell from a single-cell dataset"
    );
    // Nor on a sign that joins the words either side of it.
    let sentence = "We also investigate the related problem of constructing a finite basis of concept inclusions / TGDs for a given set of finite structures.";
    let headline = best_span(
        &strip_openers(sentence),
        HEADLINE_CHARS,
        &|_| 0.0,
        Span::Any,
    );
    assert!(headline.ends_with("concept inclusions…"), "{headline}");
    assert_eq!(
        tidy_end("research & development for R &"),
        "research & development for R"
    );
    // Only as written: "CAN" is a bus, "May" a month.
    assert_eq!(
        tidy_end("We present an intrusion detection system for CAN"),
        "We present an intrusion detection system for CAN"
    );
    assert_eq!(
        tidy_end("Sea ice was tracked from February to May"),
        "Sea ice was tracked from February to May"
    );
    // Nor before the "than" of a quantity.
    let sentence = r"At $(k_F a)^{-1} \ge 1$, both definitions give similar results, where more than 90% of the atoms occupy the corresponding molecular condensates.";
    let headline = best_span(sentence, HEADLINE_CHARS, &|_| 0.0, Span::Any);
    assert!(!headline.ends_with("where more"), "{headline}");
    // Nor before what a comparison is measured against, or a change's size.
    let sentence = r"Based on our benchmark, Image2Net achieves 80.77\% successful rate, which is 34.62\%-45.19\% higher than previous works.";
    let headline = best_span(
        &strip_openers(&percent_as_text(sentence)),
        HEADLINE_CHARS,
        &|_| 0.0,
        Span::Any,
    );
    assert!(!headline.ends_with("higher"), "{headline}");
    let sentence = "SFT boosts held-out association Precision at 5 by 16-20% in English and 43-165% in Mandarin, lifts median concreteness by +0.20, and attains human-level valence and arousal.";
    let headline = best_span(sentence, HEADLINE_CHARS, &|_| 0.0, Span::Any);
    assert!(headline.contains("by 16-20%"), "{headline}");
    assert!(!may_end_at(
        "X improves accuracy",
        " by up to 12% on ImageNet"
    ));
    assert!(!may_end_at(
        "There is no gain for languages other",
        " than English"
    ));
    // A means that starts with a figure is no size.
    assert!(may_end_at(
        "We enable real-time inference on phones",
        " by 4-bit quantization of the weights"
    ));
    // A phrase that "In" opens is no headline alone, and stays with the sentence: "In
    // simulations" says the result is not a measurement.
    let sentence = "In simulations for the 7 TeV Large Hadron Collider, a crystal adapted to the accelerator lattice traps 90% of diffractively scattered protons emerging from the interaction point with a divergence 100 times the critical angle.";
    let headline = best_span(
        &strip_openers(sentence),
        HEADLINE_CHARS,
        &|_| 0.0,
        Span::Any,
    );
    assert!(
        headline.starts_with("In simulations for the 7 TeV Large Hadron Collider, a crystal"),
        "{headline}"
    );
    // "In silico …" is the subject, and a comma before "which" opens a clause about it.
    for sentence in [
        "In silico screening identified 12 candidate inhibitors of SARS-CoV-2 Mpro, of which three were validated experimentally.",
        "In this regime the ground state is a chiral spin liquid, which we characterize by its entanglement spectrum and its edge modes in detail.",
    ] {
        let headline = best_span(sentence, HEADLINE_CHARS, &|_| 0.0, Span::Any);
        assert!(!headline.ends_with('…'), "{sentence}\n -> {headline}");
    }
}

#[test]
fn a_span_neither_ends_nor_starts_inside_a_list() {
    // Not before a later item of a list: it would read as if the list were whole.
    for (sentence, not_end) in [
        (
            "Effective drug combinations are vital to address disease heterogeneity, enhance efficacy, reduce resistance, and improve patient outcomes.",
            "enhance efficacy",
        ),
        (
            "Evaluations on the Spoken Wikipedia dataset, a benchmark with long audios and rich entities demonstrate significant improvements in Word Error Rate (WER), NER, capitalization, and punctuation success.",
            "NER",
        ),
        (
            "We provide an overview of these software testing methods, namely differential, metamorphic, mutation, and property-based testing, and their use for quantum programs.",
            "metamorphic",
        ),
    ] {
        let headline = best_span(
            &strip_openers(sentence),
            HEADLINE_CHARS,
            &|_| 0.0,
            Span::Any,
        );
        assert!(!headline.ends_with(not_end), "{sentence}\n -> {headline}");
    }
    // Nor after an item of one.
    let sentence = "We study the strong decays of the S-wave, P-wave, D-wave and radially excited charmed baryons using the $^3P_0$ model.";
    let headline = best_span(sentence, HEADLINE_CHARS, &|_| 0.0, Span::Any);
    assert!(
        headline.starts_with("We study the strong decays") && !headline.ends_with("P-wave"),
        "{headline}"
    );
    let sentence = "The intended audience of this document includes providers of GPAI models presenting systemic risk (GPAISR), for whom the EU AI Act lays out specific evaluation requirements; third-party evaluators; policymakers assessing the rigour of evaluations; and academic researchers developing or conducting GPAI evaluations.";
    let headline = best_span(sentence, HEADLINE_CHARS, &|_| 0.0, Span::Any);
    assert!(headline.starts_with("The intended audience"), "{headline}");
    // Nor on a verb whose preposition takes its object.
    let sentence = "The introduction of a simple scaling form allows for the extrapolation of the chemical potential to the thermodynamic limit, where we observe excellent agreement with known experimental results for helium-4 at saturated vapor pressure.";
    let headline = best_span(sentence, HEADLINE_CHARS, &|_| 0.0, Span::Any);
    assert!(!headline.ends_with("allows"), "{headline}");
    // A subject of two names joined by "and" still opens a span.
    assert!(starts_clause(
        ", BERT and GPT-2 achieve the best scores on every task"
    ));
}

#[test]
fn a_headline_is_the_finding_not_its_announcement_nor_its_formula() {
    // 2507.10541 of the example: the lead-in announced the finding the headline shows.
    // (The finding itself, 109 characters, fits a card only cut inside its noun phrase,
    // "…exhibit substantial performance…": no statement; the first sentence speaks.)
    let summary = summarize(
        "Recent Large Reasoning Models (LRMs) have achieved remarkable progress on task-specific benchmarks. Several striking findings: Even state-of-the-art (SOTA) models like DeepSeek-R1 exhibit substantial performance degradation under stress testing.",
    );
    assert_eq!(
        summary.headline,
        "Recent Large Reasoning Models (LRMs) have achieved remarkable progress"
    );
    assert!(strip_openers("Our key results are: the error halves").starts_with("The error halves"));
    // A section label is not a lead-in to drop when nothing follows it.
    assert_eq!(strip_openers("Findings matter"), "Findings matter");
    // 2507.16734 of the example: the words, without their restatement as a formula.
    assert_eq!(
        without_restatement_in_symbols(
            r"We study the Gaussian sequence model, i.e. $X \sim N(\mathbfθ, I_\infty)$"
        ),
        "We study the Gaussian sequence model"
    );
    assert_eq!(
        without_restatement_in_symbols(r"A class of graphs (i.e. $\mathcal{G}$)"),
        "A class of graphs"
    );
    // A formula with a number or a relation is the finding; "e.g." and "namely" name
    // something else or something new.
    for kept in [
        r"We find the minimax rate, i.e. $O(n^{-1/2})$",
        r"We find the critical exponent, i.e. $\nu = 0.6301(4)$",
        r"A tight bound, i.e. $k \le n$",
        r"A bound (e.g. $n^2$)",
        r"The critical exponent, namely $\nu$",
    ] {
        assert_eq!(without_restatement_in_symbols(kept), kept);
    }
    // A formula that is the line's subject stays.
    assert_eq!(
        without_restatement_in_symbols(r"$X \sim N(0, 1)$ is sub-Gaussian"),
        r"$X \sim N(0, 1)$ is sub-Gaussian"
    );
}
