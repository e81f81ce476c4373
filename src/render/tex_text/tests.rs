use super::*;

fn html(text: &str) -> String {
    let mut out = String::new();
    push_html(&mut out, text);
    out
}

#[test]
fn accents_become_the_letters_they_make() {
    assert_eq!(
        html(r#"the nonlinear Schr\"odinger equation"#),
        "the nonlinear Schrödinger equation"
    );
    assert_eq!(html(r"the R\'{e}nyi entropy"), "the Rényi entropy");
    assert_eq!(html(r"works of \v{S}penko"), "works of Špenko");
    assert_eq!(
        html(r"Fran\c cois, Stra\ss e, Erd\H{o}s"),
        "François, Straße, Erdős"
    );
    assert_eq!(html(r#"na\"{\i}ve"#), "naïve");
    // One character each, as a reader's search types them.
    assert_eq!(html(r"R\'{e}nyi").chars().count(), 5);
}

#[test]
fn emphasis_is_markup_and_font_commands_are_their_words() {
    assert_eq!(
        html(r"we introduce \textsf{TS-Agent}, a framework"),
        "we introduce TS-Agent, a framework"
    );
    assert_eq!(
        html(r"the \emph{oracle problem} and {\em Dynamic Signatures} of \textbf{it}"),
        "the <em>oracle problem</em> and <em>Dynamic Signatures</em> of <strong>it</strong>"
    );
    assert_eq!(
        html(r"code at \href{https://example.org/x}{our site} and \url{https://example.org}"),
        "code at our site and https://example.org"
    );
}

#[test]
fn quotes_dashes_and_reserved_characters() {
    assert_eq!(
        html(r"``interesting'' subsets with 3--5 day periods, Hasse--Weil---and 50\% \& more"),
        "“interesting” subsets with 3–5 day periods, Hasse–Weil—and 50% &amp; more"
    );
    assert_eq!(html(r"i.i.d.\ samples"), "i.i.d. samples");
    // A tie is a space that does not break; a tilde before a figure means "about".
    assert_eq!(
        html("more powerful (it~detects sparse ones) on the Artemis~1 mission, ~10 ms"),
        "more powerful (it\u{a0}detects sparse ones) on the Artemis\u{a0}1 mission, ~10 ms"
    );
    // After an abbreviation's full stop too.
    assert_eq!(
        html("as Fig.~3 shows, after Smith et al.~[4] and in~[5], by Eqs.~(2)"),
        "as Fig.\u{a0}3 shows, after Smith et al.\u{a0}[4] and in\u{a0}[5], by Eqs.\u{a0}(2)"
    );
    // And after an initial before a name, or a Latin abbreviation.
    assert_eq!(
        html("taught by C.~Vafa and M.~J.~Kang, e.g.~[3], i.e.~the same"),
        "taught by C.\u{a0}Vafa and M.\u{a0}J.\u{a0}Kang, e.g.\u{a0}[3], i.e.\u{a0}the same"
    );
    // A range and a distribution keep their tilde.
    assert_eq!(
        html("a 2~3x speedup in 10~20% of cases, with X~N(0,1), from 10.~5 or x.~2, 10~(20%)"),
        "a 2~3x speedup in 10~20% of cases, with X~N(0,1), from 10.~5 or x.~2, 10~(20%)"
    );
    assert_eq!(
        crate::render::math::text_with_math("the index set of~$X$"),
        crate::render::math::text_with_math("the index set of\u{a0}$X$")
    );
    assert_eq!(
        html("SBFT Tool Competition 2024 -- Python Test Case Generation Track"),
        "SBFT Tool Competition 2024 – Python Test Case Generation Track"
    );
    // Not between a word and a space: an option, a minus.
    assert_eq!(
        html("run it with --help or --5"),
        "run it with --help or --5"
    );
}

#[test]
fn a_character_in_braces_is_the_character_and_greek_letters_are_letters() {
    assert_eq!(
        html(r#"Bj{\o}rn, G{\"o}del, {\AA}ngstr{\"{o}}m"#),
        "Bjørn, Gödel, Ångström"
    );
    // arXiv 2411.17734 and 2411.17706, as their feeds give them.
    assert_eq!(
        html(r"the sum ({\Sigma}) / delta ({\Delta}) ports, a 360{\deg} delay"),
        r"the sum (Σ) / delta (Δ) ports, a 360° delay"
    );
    // Only after a number: else TeX's operator, left as typed.
    assert_eq!(
        html(r"turned 90\deg{} and 45 {\deg}; the {\deg} of p"),
        r"turned 90° and 45 {\deg}; the {\deg} of p"
    );
    assert_eq!(
        html(r"restitution (( \kappa )) and \varepsilon-nets"),
        "restitution (( κ )) and ε-nets"
    );
    // Braces around more than one character stay, as text.
    assert_eq!(html(r"{\o\o} {\emph{x}}"), "{øø} {<em>x</em>}");
}

#[test]
fn plain_text_has_no_markup() {
    let mut out = String::new();
    push_plain(&mut out, r#"the \emph{Schr\"odinger} equation & <b>"#);
    assert_eq!(out, "the Schrödinger equation & <b>");
}

#[test]
fn what_it_does_not_know_stays_and_nothing_is_injected() {
    assert_eq!(
        html(r"\foo{bar} {BERT} \emph{open"),
        r"\foo{bar} {BERT} \emph{open"
    );
    assert_eq!(
        html(r#"\emph{<script>alert(1)</script>} \textsf{"a" & b}"#),
        "<em>&lt;script&gt;alert(1)&lt;/script&gt;</em> &quot;a&quot; &amp; b"
    );
    let deep = format!("{}x{}", r"\emph{".repeat(40), "}".repeat(40));
    let out = html(&deep);
    assert!(out.matches("<em>").count() <= MAX_DEPTH, "{out}");
    assert!(out.contains('x'), "{out}");
    // A command at the very end, an accent on nothing.
    assert_eq!(html(r"ends with \'"), r"ends with \&#x27;");
    assert_eq!(html("ends with \\"), "ends with \\");
}
