#!/usr/bin/env python3
"""Writes src/review/summarize/extractive/clauses/lexicon.txt, the parts of speech the
headline picker reads words by, from WordNet 3.0 as Debian's wordnet-base installs it
(/usr/share/wordnet). Run from the repository's root after `apt-get install
wordnet-base`; the output is the same for the same WordNet.

Each line is a word and the parts of speech WordNet gives it, most used first, each with
the number of times the word was tagged so in WordNet's sense-tagged texts (n noun, v
verb, a adjective, r adverb): "heavy a7 n0 r0". Only words that may be something other
than a noun: a word not listed is read as a noun. Lines that start with ">" give an
irregular form and its lemma (">found find v"): the forms of verbs and adjectives that
adding -s, -ed, -ing, -er or -est does not make.
"""
import collections, re, sys

WORDNET = "/usr/share/wordnet/"
OUT = "src/review/summarize/extractive/clauses/lexicon.txt"
WORD = re.compile(r"[a-z][a-z-]*[a-z]")

LICENSE = """\
# Parts of speech of English words, from WordNet 3.0 (tools/wordnet_lexicon.py writes it).
#
# WordNet Release 3.0. This software and database is being provided to you, the LICENSEE,
# by Princeton University under the following license. By obtaining, using and/or copying
# this software and database, you agree that you have read, understood, and will comply
# with these terms and conditions.: Permission to use, copy, modify and distribute this
# software and database and its documentation for any purpose and without fee or royalty
# is hereby granted, provided that you agree to comply with the following copyright notice
# and statements, including the disclaimer, and that the same appear on ALL copies of the
# software, database and documentation, including modifications that you make for
# internal use or for distribution. WordNet 3.0 Copyright 2006 by Princeton University.
# All rights reserved. THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON
# UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED. BY WAY OF
# EXAMPLE, BUT NOT LIMITATION, PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES
# OF MERCHANT- ABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE OF THE
# LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT INFRINGE ANY THIRD PARTY PATENTS,
# COPYRIGHTS, TRADEMARKS OR OTHER RIGHTS. The name of Princeton University or Princeton
# may not be used in advertising or publicity pertaining to distribution of the software
# and/or database. Title to copyright in this software, database and any associated
# documentation shall at all times remain with Princeton University and LICENSEE agrees to
# preserve same.
"""


def main():
    counts = collections.defaultdict(dict)
    for pos, name in [("n", "noun"), ("v", "verb"), ("a", "adj"), ("r", "adv")]:
        for line in open(WORDNET + "index." + name, encoding="latin-1"):
            if line.startswith(" "):
                continue
            fields = line.split()
            lemma = fields[0]
            if not WORD.fullmatch(lemma):
                continue
            pointers = int(fields[3])
            # lemma pos synset_cnt p_cnt [ptr_symbol]... sense_cnt tagsense_cnt ...
            counts[lemma][pos] = int(fields[5 + pointers])
    out = [LICENSE.rstrip("\n")]
    for word in sorted(counts):
        parts = counts[word]
        if set(parts) == {"n"}:
            continue
        order = sorted(parts, key=lambda p: (-parts[p], p))
        out.append(word + " " + " ".join(f"{p}{parts[p]}" for p in order))
    for pos, name in [("v", "verb"), ("a", "adj")]:
        for line in open(WORDNET + name + ".exc", encoding="latin-1"):
            form, lemma = line.split()[:2]
            if WORD.fullmatch(form) and lemma in counts and form != lemma:
                out.append(f">{form} {lemma} {pos}")
    with open(OUT, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"{OUT}: {len(out) - 1} lines", file=sys.stderr)


if __name__ == "__main__":
    main()
