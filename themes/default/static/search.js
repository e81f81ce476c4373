// paperboy search: finds every paper that has all the words of a query. It loads the
// lexicon shard of each word (its words, their stems, how many papers have each), the
// complete postings of those stems, and the document details of the page it shows; the
// index is written by `paperboy build` under search/ (layout in src/render/search/mod.rs).
// Works on any static host. The core (`paperboySearch`) has no DOM, so tests run it in
// Node against a built site.
(function () {
  "use strict";
  var PAGE = 30;

  // As the index's words (`tokenize` in src/render/search/terms.rs, `fold` in src/words.rs): split on
  // what is not a letter, a digit or an accent; accents dropped and a few letters spelt as
  // they are typed without them, so "Schrodinger" finds "Schrödinger"; lower case.
  var WORD_BREAK = /[^\p{Alphabetic}\p{N}\u0300-\u036f]+/u;
  var SPELT = { "ø": "o", "Ø": "o", "ł": "l", "Ł": "l", "đ": "d", "Đ": "d", "ı": "i", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ß": "ss", "ẞ": "ss" };
  function fold(word) {
    return word.normalize("NFD").replace(/[\u0300-\u036f]/g, "")
      .replace(/[øØłŁđĐıæÆœŒßẞ]/g, function (c) { return SPELT[c]; })
      .normalize("NFC").toLowerCase();
  }
  function tokenize(q) {
    return q.split(WORD_BREAK).map(fold).filter(function (t) { return t.length > 0; });
  }
  // An arXiv id in the form the site shows it or arXiv links it ("arXiv:2202.06515",
  // "https://arxiv.org/abs/2202.06515v2", "hep-ph/0301050v1") is looked for as the bare
  // id: the index has the id's words, and "arxiv", "org", "abs" or the version are in no
  // paper's. The forms are notfound.js's (`lookedFor`).
  var URL_WORDS = /\b(?:arxiv|https?|www|org|abs|pdf|html|export)\b[:/.]*/gi;
  function idQuery(q) {
    var m = /(?:^|[^\d.])(\d{4}\.\d{4,5})(?:v\d+)?(?!\d)/.exec(q);
    var old = m ? null : /([a-z][a-z-]*(?:\.[A-Z]{2})?)\/(\d{7})(?:v\d+)?(?!\d)/.exec(q);
    var found = m || old;
    if (!found) return q;
    var id = m ? m[1] : old[1] + "/" + old[2];
    var rest = (q.slice(0, found.index) + " " + q.slice(found.index + found[0].length)).replace(URL_WORDS, " ");
    return rest + " " + id;
  }
  function shardFile(key) {
    var out = "";
    for (var ch of key) {
      out += /^[a-z0-9]$/i.test(ch) ? ch : "_" + ch.codePointAt(0).toString(16);
    }
    return out;
  }
  // Optimal string alignment distance, stopping early once it exceeds `max`.
  function distance(a, b, max) {
    if (Math.abs(a.length - b.length) > max) return max + 1;
    var prev2 = null, prev = [], cur;
    for (var j = 0; j <= b.length; j++) prev.push(j);
    for (var i = 1; i <= a.length; i++) {
      cur = [i];
      var best = i;
      for (var j2 = 1; j2 <= b.length; j2++) {
        var cost = a[i - 1] === b[j2 - 1] ? 0 : 1;
        var v = Math.min(prev[j2] + 1, cur[j2 - 1] + 1, prev[j2 - 1] + cost);
        if (prev2 && i > 1 && j2 > 1 && a[i - 1] === b[j2 - 2] && a[i - 2] === b[j2 - 1]) v = Math.min(v, prev2[j2 - 2] + 1);
        cur.push(v);
        if (v < best) best = v;
      }
      if (best > max) return max + 1;
      prev2 = prev; prev = cur;
    }
    return prev[b.length];
  }
  // Typos tolerated in a word of this length: none below 5 letters, one, two from 9.
  function typos(word) {
    if (/\d/.test(word)) return 0;
    return word.length >= 9 ? 2 : word.length >= 5 ? 1 : 0;
  }
  // A list (or a part of one) into `out`: doc -> its weight times the stem's idf.
  function decode(list, idf, out) {
    var doc = 0;
    for (var i = 0; i < list.length; i += 2) {
      doc = i === 0 ? list[0] : doc + list[i];
      out.set(doc, list[i + 1] * idf);
    }
    return out;
  }

  // getJSON(path) -> Promise of the parsed file under search/.
  function paperboySearch(getJSON) {
    // doc -> score of a stem that `papers` papers have. The files hold each paper's own
    // weight; the idf is the build's: ln((docs + 1) / papers) + 1, unless one is given.
    function postings(meta, stem, papers, idf) {
      if (idf === undefined) idf = Math.log((meta.docs + 1) / papers) + 1;
      if (papers >= meta.big) {
        // In parts of `meta.part` postings, documents ascending.
        var parts = [];
        for (var k = 0; k * meta.part < papers; k++) parts.push(getJSON("term/" + shardFile(stem) + "." + k + ".json"));
        return Promise.all(parts).then(function (lists) {
          var out = new Map();
          lists.forEach(function (l) { decode(l, idf, out); });
          return out;
        });
      }
      var key = Array.from(stem).slice(0, meta.prefix).join("");
      if (meta.post.indexOf(key) < 0) return Promise.resolve(new Map());
      return getJSON("post/" + shardFile(key) + ".json").then(function (shard) {
        return decode(shard[stem] || [], idf, new Map());
      });
    }
    // The stems a typed word stands for: itself; or, if no paper has it, the words it
    // begins (as you type) and the words one or two typos away.
    function expand(meta, word) {
      var key = Array.from(word).slice(0, meta.prefix).join("");
      if (meta.lex.indexOf(key) < 0) return Promise.resolve({ word: word, alts: [] });
      return getJSON("lex/" + shardFile(key) + ".json").then(function (lex) {
        if (lex[word]) return { word: word, alts: [[word].concat(lex[word])] };
        var max = typos(word), alts = [];
        Object.keys(lex).forEach(function (w) {
          if (w.indexOf(word) === 0 || (max > 0 && distance(word, w, max) <= max)) alts.push([w].concat(lex[w]));
        });
        // The likeliest first (most papers); a word's stems once.
        alts.sort(function (a, b) { return b[2] - a[2] || (a[0] < b[0] ? -1 : 1); });
        var seen = {};
        alts = alts.filter(function (a) { if (seen[a[1]]) return false; seen[a[1]] = true; return true; }).slice(0, 10);
        return { word: word, alts: alts };
      });
    }
    // A word matches a paper through any of its stems; its score there is the best one.
    function papersFor(meta, exp) {
      return Promise.all(exp.alts.map(function (a) { return postings(meta, a[1], a[2]); })).then(function (lists) {
        if (lists.length === 1) return lists[0];
        var union = new Map();
        lists.forEach(function (l) { l.forEach(function (s, d) { if (!(union.get(d) >= s)) union.set(d, s); }); });
        return union;
      });
    }
    // doc -> the paper's first day (since 1970) for a category's term, as the files hold
    // it: no idf, which is for words.
    function filterTerm(meta, tag, name, table) {
      var row = table.find(function (r) { return r[0].toLowerCase() === name.toLowerCase(); });
      return row ? postings(meta, tag + row[0].toLowerCase(), row[1], 1) : Promise.resolve(new Map());
    }
    // A filter keeps papers out; it adds nothing to a word's score.
    function unweighted(m) {
      m.forEach(function (s, d) { m.set(d, 0); });
      return m;
    }

    // opts: {category, from, to (years), page (1-based)}. Resolves to
    // {total, category (the one the query named, if it is one's name), page, pages,
    // results: [{doc, score, url, title, authors, date, category,
    // abstract, titleHtml, headline, summary, math ({LaTeX: MathML})}],
    // words: [[typed, [matched words]]],
    // stems: [...]}.
    return function query(q, opts) {
      opts = opts || {};
      var words = tokenize(idQuery(q));
      return getJSON("meta.json").then(function (meta) {
        // A query that is a category's name ("cs.LG") asks for the category: the papers
        // filed under it first, then those cross-listed there, each newest first. As words
        // it matched every paper with "cs" and "lg", the shortest abstracts first. So does
        // a category chosen with no words.
        var typed = words.length === 0 ? String(opts.category || "").toLowerCase() : opts.category ? "" : q.trim().toLowerCase();
        var named = typed ? meta.categories.find(function (r) { return r[0].toLowerCase() === typed; }) : null;
        if (words.length === 0 && !named) return { total: 0, page: 1, pages: 0, results: [], words: [], stems: [] };
        return (named ? Promise.resolve([]) : Promise.all(words.map(function (w) { return expand(meta, w); }))).then(function (exps) {
          var lists = exps.map(function (e) { return papersFor(meta, e); });
          if (named) {
            lists.push(Promise.all([filterTerm(meta, "c:", named[0], meta.categories), filterTerm(meta, "p:", named[0], meta.primary || [])]).then(function (l) {
              // Filed there first, then by day, newest first.
              var ranked = new Map();
              l[0].forEach(function (day, d) { ranked.set(d, (l[1].has(d) ? 1e6 : 0) + day); });
              return ranked;
            }));
          }
          if (opts.category && !named) lists.push(filterTerm(meta, "c:", opts.category, meta.categories).then(unweighted));
          if (opts.from || opts.to) {
            var years = meta.years.filter(function (y) {
              return (!opts.from || y[0] >= String(opts.from)) && (!opts.to || y[0] <= String(opts.to));
            });
            lists.push(Promise.all(years.map(function (y) { return postings(meta, "y:" + y[0], y[1]); })).then(function (ls) {
              var u = new Map();
              ls.forEach(function (l) { l.forEach(function (s, d) { u.set(d, 0); }); });
              return u;
            }));
          }
          return Promise.all(lists).then(function (maps) {
            // Intersect from the shortest list: every paper that has every word.
            var order = maps.slice().sort(function (a, b) { return a.size - b.size; });
            var hits = [];
            order[0].forEach(function (s, d) {
              var score = s;
              for (var i = 1; i < order.length; i++) {
                var t = order[i].get(d);
                if (t === undefined) return;
                score += t;
              }
              hits.push([d, score]);
            });
            hits.sort(function (a, b) { return b[1] - a[1] || b[0] - a[0]; });
            var pages = Math.ceil(hits.length / PAGE);
            var page = Math.min(Math.max(1, opts.page || 1), Math.max(1, pages));
            var shown = hits.slice((page - 1) * PAGE, page * PAGE);
            var chunks = Array.from(new Set(shown.map(function (h) { return Math.floor(h[0] / meta.chunk); })));
            return Promise.all(chunks.map(function (c) { return getJSON("docs/" + c + ".json"); })).then(function (loaded) {
              var byChunk = {};
              chunks.forEach(function (c, i) { byChunk[c] = loaded[i]; });
              return {
                total: hits.length,
                category: named ? named[0] : "",
                page: page,
                pages: pages,
                words: exps.map(function (e) { return [e.word, e.alts.map(function (a) { return a[0]; })]; }),
                stems: [].concat.apply([], exps.map(function (e) { return e.alts.map(function (a) { return a[1]; }); })),
                results: shown.map(function (h) {
                  var d = byChunk[Math.floor(h[0] / meta.chunk)][h[0] % meta.chunk];
                  return { doc: h[0], score: h[1], url: d[0], title: d[1], authors: d[2], date: d[3], category: d[4], abstract: d[5] || "", titleHtml: d[6] || "", headline: d[7] || "", summary: d[8] || "", math: d[9] || {} };
                }),
              };
            });
          });
        });
      });
    };
  }
  paperboySearch.tokenize = tokenize;
  if (typeof window !== "undefined") window.paperboySearch = paperboySearch;
  if (typeof document === "undefined" || !document.getElementById) return;

  var form = document.getElementById("search-form");
  if (!form) return;
  var input = form.querySelector("input[name=q]");
  var catSelect = document.getElementById("search-category");
  var fromSelect = document.getElementById("search-from");
  var toSelect = document.getElementById("search-to");
  var list = document.getElementById("search-results");
  var status = document.getElementById("search-status");
  var pager = document.getElementById("search-pager");
  var base = form.getAttribute("data-index");
  var cache = {};
  function getJSON(path) {
    if (!cache[path]) {
      cache[path] = fetch(base + path).then(function (r) {
        if (!r.ok) throw new Error(path + ": " + r.status);
        return r.json();
      });
    }
    return cache[path];
  }
  var query = paperboySearch(getJSON);
  var number = new Intl.NumberFormat("en");

  function option(select, value, label) {
    var o = document.createElement("option");
    o.value = value;
    o.textContent = label;
    select.appendChild(o);
  }
  var filtersReady = getJSON("meta.json").then(function (meta) {
    if (catSelect) meta.categories.forEach(function (c) { option(catSelect, c[0], c[0] + " (" + number.format(c[1]) + ")"); });
    [fromSelect, toSelect].forEach(function (s) {
      if (s) meta.years.forEach(function (y) { option(s, y[0], y[0]); });
    });
  }).catch(function () {});

  // Whether a word of a text is one the query matched (or starts with its stem).
  function hitTest(stems, words) {
    return function (t) {
      var low = fold(t);
      return words.indexOf(low) >= 0 || stems.some(function (s) { return s.length >= 3 && low.indexOf(s) === 0 && !/^[cy]:/.test(s); });
    };
  }
  function wordsOf(text) {
    return text.split(new RegExp("(" + WORD_BREAK.source + ")", "u"));
  }
  function firstHit(parts, isHit) {
    return parts.findIndex(function (t, i) { return i % 2 === 0 && t && isHit(t); });
  }
  // The text a result shows under its title: the abstract, or the card's headline and
  // summary when only they have a matched word (the reader searched for what a card said).
  function snippetText(d, isHit) {
    var said = [d.headline, d.summary].filter(Boolean).join(" — ");
    if (said && firstHit(wordsOf(d.abstract), isHit) < 0 && firstHit(wordsOf(said), isHit) >= 0) return said;
    return d.abstract;
  }
  // A result's whole abstract, for one whose start (all the index keeps: #78 wants it
  // small) has none of the matched words: from the paper's page, its formulas as the page
  // shows them. Resolves to {text, math} (math as `snippet` takes it: each formula's
  // MathML by a mark that stands for it in the text), or null.
  var wholeAbstracts = {};
  function wholeAbstract(url) {
    if (!wholeAbstracts[url]) {
      wholeAbstracts[url] = fetch(url).then(function (r) { return r.ok ? r.text() : ""; }).then(function (html) {
        var p = new DOMParser().parseFromString(html, "text/html").querySelector(".abstract-full p");
        if (!p) return null;
        var text = "", math = {}, n = 0;
        (function walk(node) {
          node.childNodes.forEach(function (c) {
            if (c.nodeType === 3) text += c.nodeValue;
            else if (c.nodeName.toLowerCase() === "math") {
              if (window.paperboyWithMath) {
                var mark = "\u2063" + (n++) + "\u2063";
                math[mark] = c.outerHTML;
                text += mark;
              } else text += c.textContent;
            } else if (c.nodeType === 1) walk(c);
          });
        })(p);
        return { text: text, math: math };
      }).catch(function () { return null; });
    }
    return wholeAbstracts[url];
  }
  // `text` as its words and what is between them, a formula whose MathML `math` has
  // (by its LaTeX) kept whole as one piece.
  function piecesOf(text, math) {
    var sources = Object.keys(math);
    var pieces = [];
    function words(t) {
      wordsOf(t).forEach(function (w, i) { pieces.push({ text: w, word: i % 2 === 0 }); });
    }
    var at = 0;
    for (;;) {
      var next = -1, source = "";
      sources.forEach(function (s) {
        var i = text.indexOf(s, at);
        if (i >= 0 && (next < 0 || i < next || (i === next && s.length > source.length))) { next = i; source = s; }
      });
      if (next < 0) break;
      words(text.slice(at, next));
      pieces.push({ text: source, html: math[source] });
      at = next + source.length;
    }
    words(text.slice(at));
    return pieces;
  }
  // The text around its first matched word, matched words marked (as DOM text, never as
  // HTML: an abstract is feed text, a headline a machine's), formulas as MathML when
  // reader.js is there to copy it.
  function snippet(text, isHit, math) {
    var p = document.createElement("p");
    p.className = "snippet";
    var pieces = piecesOf(text, window.paperboyWithMath ? math : {});
    var first = pieces.findIndex(function (t) { return t.word && t.text && isHit(t.text); });
    var start = first > 24 ? first - 16 : 0;
    var end = Math.min(pieces.length, start + 80);
    // Cut where a space is, not inside "state-of-the-art" or "prompt/response"; and where
    // only the "…" the index cut a long abstract with is left, show it rather than a mark.
    // A formula is a word here: "$k$-means" is not cut after the formula either. Word
    // pieces are empty at a formula's edges, so the text on each side is looked for.
    var cutOk = function (i) {
      if (i <= 0 || i >= pieces.length) return true;
      var j = i - 1, k = i;
      while (j > 0 && !pieces[j].html && !pieces[j].text) j--;
      while (k < pieces.length - 1 && !pieces[k].html && !pieces[k].text) k++;
      var a = pieces[j], b = pieces[k];
      return (!a.html && /\s$/.test(a.text)) || (!b.html && /^\s/.test(b.text));
    };
    while (start > 0 && start < first && !cutOk(start)) start++;
    while (end < pieces.length && end < start + 96 && !cutOk(end)) end++;
    if (pieces.slice(end).every(function (t) { return !t.html && !(t.word && t.text); })) end = pieces.length;
    // One space between a mark and the words: a cut can fall just after a space (", ").
    var spaced = function (t, re) { return t && !t.html && re.test(t.text); };
    if (start > 0) p.appendChild(document.createTextNode(spaced(pieces[start], /^\s/) ? "…" : "… "));
    for (var i = start; i < end; i++) {
      var t = pieces[i];
      if (t.html) {
        var f = document.createElement("span");
        f.className = "formula";
        f.appendChild(window.paperboyWithMath(t.text, t.html));
        p.appendChild(f);
      } else if (t.word && t.text && isHit(t.text)) {
        var m = document.createElement("mark");
        m.textContent = t.text;
        p.appendChild(m);
      } else {
        p.appendChild(document.createTextNode(t.text));
      }
    }
    if (end < pieces.length) p.appendChild(document.createTextNode(spaced(pieces[end - 1], /\s$/) ? "…" : " …"));
    return p;
  }
  function pageLink(label, page, rel) {
    var a = document.createElement("a");
    var url = new URL(location.href);
    url.searchParams.set("page", page);
    a.href = url.pathname + url.search;
    a.textContent = label;
    a.rel = rel;
    a.addEventListener("click", function (ev) { ev.preventDefault(); go(page, true); });
    return a;
  }
  var seq = 0;
  function current() {
    return {
      category: catSelect ? catSelect.value : "",
      from: fromSelect ? fromSelect.value : "",
      to: toSelect ? toSelect.value : "",
    };
  }
  // A new page of results is a step Back returns from; a query typed or refined replaces
  // the one before, or every keystroke would be a step.
  function remember(page, step) {
    var url = new URL(location.href);
    var o = current();
    url.searchParams.set("q", input.value);
    ["category", "from", "to"].forEach(function (k) { if (o[k]) url.searchParams.set(k, o[k]); else url.searchParams.delete(k); });
    if (page > 1) url.searchParams.set("page", page); else url.searchParams.delete("page");
    if (step) history.pushState(null, "", url); else history.replaceState(null, "", url);
  }
  function go(page, step) {
    remember(page, step);
    run(input.value, page, step);
  }
  // `focus`: move the focus to the first result once shown (a pager link that was
  // pressed is gone, and the focus with it).
  function run(q, page, focus) {
    var mine = ++seq;
    var opts = current();
    opts.page = page || 1;
    if (tokenize(q).length === 0 && !opts.category) {
      list.textContent = "";
      if (pager) pager.textContent = "";
      // Only signs ("&", "+"): say so, rather than nothing.
      status.textContent = q.trim() ? "Type a word to search for: \u201c" + q.trim() + "\u201d has none." : "";
      return;
    }
    status.textContent = "Searching…";
    query(q, opts).then(function (r) {
      if (mine !== seq) return;
      list.textContent = "";
      if (pager) pager.textContent = "";
      list.start = (r.page - 1) * PAGE + 1;
      var matched = [].concat.apply([], r.words.map(function (w) { return w[1]; }));
      var isHit = hitTest(r.stems, matched);
      var guessed = r.words.filter(function (w) { return w[1].length > 0 && w[1].indexOf(w[0]) < 0; });
      var backwards = opts.from && opts.to && opts.from > opts.to;
      status.textContent = r.total === 0 ? "No papers match" + (backwards ? ": the years run from " + opts.from + " to " + opts.to + ", which is backwards." : ".") :
        number.format(r.total) + (r.total === 1 ? " paper" : " papers") +
        (r.category ? " in " + r.category + ", those filed there first" : "") +
        (r.pages > 1 ? ", page " + r.page + " of " + r.pages : "") +
        (guessed.length ? " (also for " + guessed.map(function (w) { return w[1].slice(0, 3).join(", "); }).join("; ") + ")" : "");
      r.results.forEach(function (d) {
        var li = document.createElement("li");
        var a = document.createElement("a");
        a.href = d.url;
        // reader.js (loaded first) shows a title's math; without it, the title's LaTeX.
        if (window.paperboyWithMath) a.appendChild(window.paperboyWithMath(d.title, d.titleHtml));
        else a.textContent = d.title;
        var small = document.createElement("span");
        small.className = "muted";
        small.appendChild(document.createTextNode(" " + d.category + " · "));
        // A date is one word: a narrow screen broke "2022-" from "05-19".
        var when = document.createElement("time");
        when.textContent = d.date;
        small.appendChild(when);
        if (d.authors) small.appendChild(document.createTextNode(" · " + d.authors));
        li.appendChild(a);
        li.appendChild(small);
        var text = snippetText(d, isHit);
        var shown = text ? snippet(text, isHit, d.math) : null;
        if (shown) li.appendChild(shown);
        list.appendChild(li);
        // Found by a word past the start the index keeps ("consensus" some 1,000
        // characters in): the snippet is the whole abstract's, around that word.
        if (text === d.abstract && /…$/.test(d.abstract) && firstHit(wordsOf(d.abstract), isHit) < 0) {
          wholeAbstract(d.url).then(function (whole) {
            if (mine !== seq || !whole || firstHit(wordsOf(whole.text), isHit) < 0) return;
            var better = snippet(whole.text, isHit, whole.math);
            if (shown) li.replaceChild(better, shown);
            else li.appendChild(better);
          });
        }
      });
      if (pager && r.pages > 1) {
        if (r.page > 1) pager.appendChild(pageLink("← Previous", r.page - 1, "prev"));
        if (r.page < r.pages) pager.appendChild(pageLink("Next →", r.page + 1, "next"));
      }
      var first = focus && list.querySelector("a");
      if (first) first.focus();
    }).catch(function (err) {
      if (mine === seq) status.textContent = "Search is unavailable: " + err.message;
    });
  }
  var timer = null;
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { go(1); }, 150);
  });
  [catSelect, fromSelect, toSelect].forEach(function (s) { if (s) s.addEventListener("change", function () { go(1); }); });
  form.addEventListener("submit", function (ev) { ev.preventDefault(); go(1); });
  // The page's query and filters from its address: on arrival, and on Back or Forward.
  function fromAddress() {
    var params = new URLSearchParams(location.search);
    var q = params.get("q") || "";
    if (catSelect) catSelect.value = params.get("category") || "";
    if (fromSelect) fromSelect.value = params.get("from") || "";
    if (toSelect) toSelect.value = params.get("to") || "";
    input.value = q;
    run(q, parseInt(params.get("page"), 10) || 1);
  }
  // Not over words typed before the filters loaded, when the address asks for nothing.
  filtersReady.then(function () {
    var asked = new URLSearchParams(location.search);
    if (asked.get("q") || asked.get("category")) fromAddress();
  });
  window.addEventListener("popstate", function () { filtersReady.then(fromAddress); });
})();
