use super::*;

#[test]
fn html_only_for_text_with_math_or_tex() {
    assert_eq!(html_if_tex("Strip Planarity Testing"), "");
    assert_eq!(
        html_if_tex("Schr\\\"odinger & <b>"),
        "Schrödinger &amp; &lt;b&gt;"
    );
    assert_eq!(html_if_tex("Costs $35,000 & more"), "");
    assert_eq!(
        html_if_tex("Graph $A_n$ & <b>"),
        "Graph <math display=\"inline\"><msub><mi>A</mi><mi>n</mi></msub></math> &amp; &lt;b&gt;"
    );
}

#[test]
fn plain_text_keeps_formulas_as_latex() {
    assert_eq!(
        plain_text("Well-posedness for Schr\\\"odinger equations on $\\mathbb{R}^4$ -- a note"),
        "Well-posedness for Schrödinger equations on $\\mathbb{R}^4$ – a note"
    );
}

/// Feed text is untrusted: strings of TeX's pieces in any order (a backslash at the
/// end was a panic) give HTML whose only tags outside MathML are emphasis.
#[test]
fn any_mix_of_tex_pieces_is_safe_html() {
    const PIECES: &[&str] = &[
        "\\",
        "{",
        "}",
        "$",
        "$$",
        "\\(",
        "\\)",
        "\\[",
        "\\]",
        "--",
        "``",
        "''",
        "'",
        "\"",
        "é",
        " ",
        "a",
        "1",
        "\\emph",
        "{\\em ",
        "\\'",
        "\\v",
        "\\i",
        "\\href",
        "\\url",
        "\\begin{equation}",
        "\\end{equation}",
        "<script>",
        "&",
        "<",
        "~",
        "\\ ",
        "\\%",
        "x^2",
        "日本",
        "\u{301}",
    ];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as usize
    };
    for _ in 0..20_000 {
        let len = next() % 30;
        let s: String = (0..len).map(|_| PIECES[next() % PIECES.len()]).collect();
        let html = text_with_math(&s);
        plain_text(&s);
        for tag in html.split('<').skip(1) {
            let name: String = tag
                .trim_start_matches('/')
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect();
            assert!(
                ["em", "strong"].contains(&name.as_str())
                    || MATHML_ELEMENTS.contains(&name.as_str()),
                "<{name}> in {html} from {s:?}"
            );
        }
    }
}

#[test]
fn a_tex_space_in_a_formula_is_a_space() {
    for latex in ["a\\ b", "a~b"] {
        let mathml = to_mathml(latex).unwrap();
        assert!(
            mathml.contains("&nbsp;") && !mathml.contains("&amp;"),
            "{mathml}"
        );
    }
}

#[test]
fn mu_lengths_become_em() {
    assert_eq!(
        mu_to_em(r#"<mspace width="-0.11111111mu"/><mspace width="3mu"/>"#),
        r#"<mspace width="-0.0062em"/><mspace width="0.1667em"/>"#
    );
}

#[test]
fn math_becomes_mathml_and_money_stays() {
    let html = text_with_math("$\\mu$path costs $35,000 and $O(n|m|)$ time");
    assert!(html.starts_with("<math"), "{html}");
    assert!(html.contains("path costs $35,000 and <math"), "{html}");
    assert!(html.ends_with("</math> time"), "{html}");
    assert_eq!(text_with_math("from $5 to $10"), "from $5 to $10");
    assert_eq!(text_with_math("a < b & c"), "a &lt; b &amp; c");
    // `\$` is a literal dollar, outside a formula and inside one.
    let escaped = text_with_math("costs \\$5 and $x$");
    assert!(escaped.starts_with("costs $5 and <math"), "{escaped}");
    let inner: Vec<Formula> = formulas("$a\\$b$ end").collect();
    assert_eq!(
        inner,
        [Formula {
            source: 0..6,
            body: 1..5,
            display: false
        }]
    );
    assert_eq!(formulas("$ x$ and $y $").count(), 0);
    // arXiv 2411.17737: a space before the closing dollar of a body that is TeX.
    let spaced = text_with_math("the matrix $W_Q\\left( A_n \\right) $ of the graph");
    assert!(
        spaced.starts_with("the matrix <math") && spaced.ends_with("</math> of the graph"),
        "{spaced}"
    );
    assert_eq!(text_with_math("from $5 or $10"), "from $5 or $10");
}

#[test]
fn display_math_and_bracketed_math_are_formulas_too() {
    // A real abstract's (arXiv 2411.17737): display math in running text.
    let html = text_with_math(
        "its Smith normal form is $$ \\mathrm{diag}\\left( 1,2,0 \\right), $$ where $r$ is",
    );
    assert!(
        html.starts_with("its Smith normal form is <math display=\"block\">"),
        "{html}"
    );
    assert!(
        html.contains("</math> where <math display=\"inline\">"),
        "{html}"
    );
    assert!(!html.contains('$'), "{html}");
    let bracketed = text_with_math("to be \\[\\tilde\\Theta(n)\\] and \\(x^2\\) here");
    assert!(!bracketed.contains('\\'), "{bracketed}");
    assert_eq!(bracketed.matches("<math").count(), 2, "{bracketed}");
    // arXiv 2411.17730's abstract sets its equation in an environment.
    let env = text_with_math(
        "with potential \\begin{equation*} \\left\\{\\begin{array}{l} i \\partial_t u+\\Delta u=0,\\\\ u|_{t=0}=f, \\end{array}\\right. \\end{equation*} where",
    );
    assert!(
        env.starts_with("with potential <math display=\"block\">")
            && env.ends_with("</math> where"),
        "{env}"
    );
    assert_eq!(
        formulas("a \\begin{itemize} b \\end{itemize} \\begin{align} x").count(),
        0
    );
    // Unclosed, an empty pair, a line break: text.
    for text in [
        "$$ x and more",
        "\\( y",
        "$$$$",
        "a line\\\\[2pt] break",
        "ends in a backslash \\",
    ] {
        assert_eq!(formulas(text).count(), 0, "{text}");
    }
    assert_eq!(
        formulas("a $$x$$ b").next(),
        Some(Formula {
            source: 2..7,
            body: 4..5,
            display: true
        })
    );
}

#[test]
fn broken_math_stays_source_and_nothing_is_injected() {
    assert_eq!(text_with_math("$\\frac{1}{$ x"), "$\\frac{1}{$ x");
    let hostile = text_with_math("$\\text{<script>alert(1)</script>}$ <img src=x onerror=y>");
    assert!(
        !hostile.contains("<script") && !hostile.contains("<img"),
        "{hostile}"
    );
    assert!(text_with_math("$\\text{ on the way}$").starts_with("<math"));
    let lt = text_with_math("$<26\\%$ and $a > b$");
    assert!(
        lt.contains("<mo>&lt;</mo>") && lt.contains("<mo>&gt;</mo>"),
        "{lt}"
    );
    assert!(!lt.contains("<<"), "{lt}");
}

#[test]
fn readable_text_writes_small_formulas_as_unicode() {
    // arXiv 2103.07442 and 2411.17737: their tabs read "QC$_2$D" and "graph $A_n$".
    assert_eq!(
        readable_text("Quark Density in Lattice QC$_2$D and $ω$Test"),
        "Quark Density in Lattice QC₂D and ωTest"
    );
    assert_eq!(
        readable_text("the Dynkin graph $A_n$"),
        "the Dynkin graph Aₙ"
    );
    // TeX's dashes and quotes apply without a formula too, as in `plain_text`.
    assert_eq!(
        readable_text("Cognitive Workspace -- An ``Empirical'' Study"),
        "Cognitive Workspace – An “Empirical” Study"
    );
    // What has no Unicode form keeps its LaTeX; money is not a formula.
    assert_eq!(
        readable_text("Schr\\\"odinger on $\\mathbb{R}^4$ for $5 or $10"),
        "Schrödinger on ℝ⁴ for $5 or $10"
    );
    assert_eq!(
        readable_text("Schr\\\"odinger on $\\frac{1}{2}\\mathbb{R}^4$ for $5 or $10"),
        "Schrödinger on $\\frac{1}{2}\\mathbb{R}^4$ for $5 or $10"
    );
}
