//! The built-in summarizer's headline and one-liner for each paper of a file, to read a
//! sample by eye: one paper a line, `id<TAB>title<TAB>abstract`; prints `id<TAB>headline`
//! (empty where the summarizer gives none) and, with `-s`, the one-liner on the next line.
//!
//!   cargo run --release --example headlines -- sample.tsv [-s]

use paperboy::review::summarize::extractive;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let with_summary = args.iter().any(|a| a == "-s");
    let Some(path) = args.iter().find(|a| *a != "-s") else {
        eprintln!("usage: headlines FILE.tsv [-s]");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    for (n, line) in text.lines().enumerate() {
        let mut fields = line.splitn(3, '\t');
        let (Some(id), Some(title), Some(abstract_text)) =
            (fields.next(), fields.next(), fields.next())
        else {
            panic!("{path}:{}: not id<TAB>title<TAB>abstract", n + 1);
        };
        let s = extractive::summarize_titled(title, abstract_text);
        println!("{id}\t{}", s.headline);
        if with_summary {
            println!("\t{}", s.summary);
        }
    }
}
