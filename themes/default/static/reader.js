// paperboy's reader tools, all in this browser: save papers, list them, export and import
// them, and rank the newest weeks by them ("For you"). Saved papers live in localStorage;
// the only requests go to this site (its foryou/*.json files and, for a BibTeX export, the
// saved papers' own pages). Without JavaScript the site is unchanged.
(function (root) {
  "use strict";

  // ---- Ranking: pure functions, shared with the benchmarks (node) ----

  // A vector from a week file: [term, weight, term, weight, ...] -> Map, unit length.
  function toVector(flat) {
    var v = new Map();
    var norm = 0;
    for (var i = 0; i + 1 < flat.length; i += 2) {
      v.set(flat[i], flat[i + 1]);
      norm += flat[i + 1] * flat[i + 1];
    }
    norm = Math.sqrt(norm) || 1;
    v.forEach(function (w, t) { v.set(t, w / norm); });
    return v;
  }

  // Ranks `candidates` ({id, vector: Map}) by the `saved` ones: each candidate's score is
  // its similarity to the nearest saved paper, plus a little of its similarity to all of
  // them (their centroid); the nearest is why. Saved papers and candidates without terms in
  // common score 0 and come last. An inverted index over the saved vectors keeps this
  // proportional to the terms, not to saved x candidates.
  function rank(saved, candidates) {
    var byTerm = new Map();
    var centroid = new Map();
    saved.forEach(function (s, si) {
      s.vector.forEach(function (w, t) {
        if (!byTerm.has(t)) byTerm.set(t, []);
        byTerm.get(t).push([si, w]);
        centroid.set(t, (centroid.get(t) || 0) + w / saved.length);
      });
    });
    var cnorm = 0;
    centroid.forEach(function (w) { cnorm += w * w; });
    cnorm = Math.sqrt(cnorm) || 1;
    var out = [];
    candidates.forEach(function (c, ci) {
      var sims = new Map();
      var toCentroid = 0;
      c.vector.forEach(function (w, t) {
        var list = byTerm.get(t);
        if (list) for (var k = 0; k < list.length; k++) sims.set(list[k][0], (sims.get(list[k][0]) || 0) + w * list[k][1]);
        var cw = centroid.get(t);
        if (cw) toCentroid += w * cw / cnorm;
      });
      var best = -1, bestSim = 0;
      sims.forEach(function (s, si) { if (s > bestSim || (s === bestSim && si < best)) { bestSim = s; best = si; } });
      out.push({ index: ci, score: 0.8 * bestSim + 0.2 * toCentroid, because: best });
    });
    out.sort(function (a, b) { return b.score - a.score || a.index - b.index; });
    return out;
  }

  if (typeof module !== "undefined" && module.exports) {
    module.exports = { toVector: toVector, rank: rank };
    return;
  }
  if (!root.document) return;

  // ---- Storage ----

  var KEY = "paperboy.saved";
  var doc = root.document;
  var nav = doc.getElementById("site-nav");
  var base = nav ? nav.getAttribute("data-base") : "/";
  var notice = null;

  // The saved papers: {id: {id, url, title, headline, authors, category, date, week, vector}}.
  // A value that cannot be read is kept aside, not lost, and the reader is told.
  function load() {
    var raw;
    try { raw = root.localStorage.getItem(KEY); } catch (e) { return {}; }
    if (!raw) return {};
    try {
      var data = JSON.parse(raw);
      if (!data || typeof data !== "object" || data.version !== 1 || typeof data.papers !== "object" || data.papers === null) throw new Error("not a list of saved papers");
      var papers = {};
      Object.keys(data.papers).forEach(function (id) {
        var p = data.papers[id];
        if (isPaper(p)) papers[id] = p;
      });
      return papers;
    } catch (e) {
      var aside = KEY + ".unreadable-" + Date.now();
      try { root.localStorage.setItem(aside, raw); root.localStorage.removeItem(KEY); } catch (e2) { /* full: leave it */ }
      notice = "Your saved papers could not be read (" + e.message + "); they were kept aside in this browser as \"" + aside + "\", and the list starts afresh.";
      return {};
    }
  }
  function store(papers) {
    root.localStorage.setItem(KEY, JSON.stringify({ version: 1, papers: papers }));
  }

  var weekFiles = {};
  function week(name) {
    if (!weekFiles[name]) {
      weekFiles[name] = fetch(base + "foryou/" + name + ".json").then(function (r) {
        if (!r.ok) throw new Error("foryou/" + name + ".json: HTTP " + r.status);
        return r.json();
      });
    }
    return weekFiles[name];
  }
  function row(file, id) {
    for (var i = 0; i < file.papers.length; i++) if (file.papers[i][0] === id) return file.papers[i];
    return null;
  }
  function fromRow(r, weekName) {
    return { id: r[0], url: base + r[1], title: r[2], headline: r[3], authors: r[4], category: r[5], date: r[6], week: weekName, vector: r[7],
      titleHtml: r[8] || "", headlineHtml: r[9] || "", machine: r[10] === 1, article: typeof r[11] === "string" ? r[11] : "" };
  }

  // A saved paper as this page can show it: an id, and a link to its page that is a web
  // address or one on this site, never "javascript:" (an imported file may hold anything).
  function isPaper(p) {
    return !!p && typeof p.id === "string" && typeof p.url === "string" && /^(?:https?:\/\/|\/(?!\/))/i.test(p.url);
  }

  function el(tag, props, children) {
    var e = doc.createElement(tag);
    Object.keys(props || {}).forEach(function (k) { if (k === "text") e.textContent = props[k]; else e.setAttribute(k, props[k]); });
    (children || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }

  // ---- Math in titles ----

  // Titles and headlines with math come with their HTML (MathML, made by the build), and a
  // saved paper keeps it in this browser, where an imported file may have put anything in
  // its place: so only MathML elements, their text and their presentation attributes are
  // copied out of it, and anything else is dropped.
  var MATHML = "http://www.w3.org/1998/Math/MathML";
  var MATH_TAGS = new Set(["math", "mi", "mn", "mo", "ms", "mtext", "mspace", "mrow", "msub", "msup", "msubsup", "mfrac",
    "msqrt", "mroot", "mover", "munder", "munderover", "mstyle", "mpadded", "mphantom", "menclose", "mtable", "mtr", "mtd",
    "mmultiscripts", "mprescripts", "none", "semantics"]);
  var MATH_ATTRS = new Set(["display", "mathvariant", "stretchy", "symmetric", "fence", "separator", "movablelimits",
    "largeop", "accent", "accentunder", "form", "width", "height", "depth", "lspace", "rspace", "minsize", "maxsize",
    "linethickness", "displaystyle", "scriptlevel", "columnalign", "rowspacing", "columnspacing", "notation"]);
  function copyMath(from, to) {
    Array.prototype.forEach.call(from.childNodes, function (n) {
      if (n.nodeType === 3) {
        to.appendChild(doc.createTextNode(n.data));
      } else if (n.nodeType === 1 && n.namespaceURI === MATHML && MATH_TAGS.has(n.localName)) {
        var m = doc.createElementNS(MATHML, n.localName);
        Array.prototype.forEach.call(n.attributes, function (a) { if (MATH_ATTRS.has(a.name)) m.setAttribute(a.name, a.value); });
        copyMath(n, m);
        to.appendChild(m);
      }
    });
  }
  // `text` as nodes, with its math when `html` has it.
  function withMath(text, html) {
    var out = doc.createDocumentFragment();
    if (typeof html === "string" && html) {
      var parsed = doc.createElement("template");
      parsed.innerHTML = html;
      copyMath(parsed.content, out);
    } else {
      out.appendChild(doc.createTextNode(text || ""));
    }
    return out;
  }
  function headlineOrTitle(p) {
    return p.headline ? withMath(p.headline, p.headlineHtml) : withMath(p.title, p.titleHtml);
  }
  // For search.js's results.
  root.paperboyWithMath = withMath;

  // ---- Save buttons on cards and paper pages ----

  var saved = load();
  // A toggle's name stays as it is and `aria-pressed` says its state (the stylesheet shows
  // it): a screen reader announced "Saved, pressed". The name says which paper, a week has
  // 86 of them, and starts with the word the button shows, for a reader who speaks it.
  function label(button, on, title) {
    button.textContent = "Save";
    button.setAttribute("aria-pressed", on ? "true" : "false");
    if (title) button.setAttribute("aria-label", "Save " + title.replace(/\s+/g, " ").trim());
  }
  function titleOf(article) {
    return (article.querySelector(".paper-title, h1") || article.querySelector(".card-title a") || {}).textContent || "";
  }
  // Keeps paper `p` as saved paper `id`, or with no `p` lets it go; its button says which.
  function keep(id, p, button) {
    saved = load();
    if (p) saved[id] = p; else delete saved[id];
    store(saved);
    label(button, !!p);
    updateNav();
    if (p) offerWeekOrder();
  }
  function toggle(article, button) {
    var id = article.getAttribute("data-id");
    if (load()[id]) { keep(id, null, button); return; }
    var weekName = article.getAttribute("data-week");
    var save = function (p) { keep(id, p, button); };
    var link = article.querySelector(".card-title a");
    var fallback = {
      id: id, url: link ? link.href : root.location.href,
      title: titleOf(article) || id,
      headline: link ? link.textContent : "", authors: "", category: "", date: "", week: weekName || "", vector: [],
    };
    if (!weekName) { save(fallback); return; }
    week(weekName).then(function (file) {
      var r = row(file, id);
      save(r ? fromRow(r, weekName) : fallback);
    }).catch(function () { save(fallback); });
  }
  Array.prototype.forEach.call(doc.querySelectorAll("article[data-id]"), function (article) {
    var bar = article.querySelector(".actions") || article.querySelector(".links");
    if (!bar) return;
    var button = el("button", { type: "button", class: "save" });
    label(button, !!saved[article.getAttribute("data-id")], titleOf(article));
    button.addEventListener("click", function () { toggle(article, button); });
    bar.appendChild(button);
  });

  function updateNav() {
    if (!nav) return;
    var n = Object.keys(load()).length;
    var link = doc.getElementById("nav-saved");
    if (!link) {
      link = el("a", { id: "nav-saved", href: base + "saved/" });
      nav.insertBefore(link, nav.firstChild);
      nav.insertBefore(el("a", { id: "nav-foryou", href: base + "foryou/", text: "For you" }), link.nextSibling);
    }
    link.textContent = n > 0 ? "Saved (" + n + ")" : "Saved";
  }
  updateNav();

  // ---- A result or saved paper as a small card ----

  function card(p, extra) {
    var title = el("a", { href: p.url }, [headlineOrTitle(p)]);
    var kids = [
      el("p", { class: "card-meta" }, [el("span", { class: "cat-text", text: p.category || "" }), el("span", { text: p.date || "" })]),
      el("h2", { class: "card-title" }, [title]),
    ];
    if (p.headline && p.title) kids.push(el("p", { class: "paper-title" }, [withMath(p.title, p.titleHtml)]));
    if (p.authors) kids.push(el("p", { class: "authors", text: p.authors }));
    if (extra) kids.push(extra);
    return el("article", { class: "card", "data-result": p.id }, [el("div", { class: "card-body" }, kids)]);
  }
  // A card's links out and its mark, as the site's own cards have them: arXiv and PDF for
  // an arXiv id, else the article's page (kept only as a web address: a saved paper may
  // come from an imported file), and "machine review" where the machine wrote its headline.
  function outLinks(p) {
    var links = [];
    if (/^(\d{4}\.\d{4,5}|[a-z][a-z.-]*\/\d{7})$/.test(p.id)) {
      links.push(el("a", { href: "https://arxiv.org/abs/" + p.id, text: "arXiv" }), el("a", { href: "https://arxiv.org/pdf/" + p.id, text: "PDF" }));
    } else if (typeof p.article === "string" && /^https?:\/\//i.test(p.article)) {
      links.push(el("a", { href: p.article, text: "Article" }));
    }
    if (p.machine === true && p.headline) {
      links.push(el("span", { class: "review-by", title: "Written by a program from the paper's own abstract and metadata", text: "machine review" }));
    }
    return links;
  }
  // A Save button for a card made here from a week's file, which holds what saving keeps.
  function saveButton(p) {
    var button = el("button", { type: "button", class: "save" });
    label(button, !!load()[p.id], p.title || p.headline || p.id);
    button.addEventListener("click", function () { keep(p.id, load()[p.id] ? null : p, button); });
    return button;
  }

  // ---- The Saved page: list, remove, export, import ----

  var savedList = doc.getElementById("saved-list");
  if (savedList) {
    var status = doc.getElementById("saved-status");
    var tools = doc.getElementById("saved-tools");
    var show = function () {
      saved = load();
      savedList.textContent = "";
      var ids = Object.keys(saved).sort(function (a, b) { return (saved[b].date || "").localeCompare(saved[a].date || "") || a.localeCompare(b); });
      status.textContent = (notice ? notice + " " : "") + (ids.length === 0 ? "Nothing saved yet: the Save button on any paper keeps it here." : ids.length + (ids.length === 1 ? " paper saved." : " papers saved."));
      tools.hidden = false;
      // Nothing to export until something is saved.
      ["export-json", "export-bibtex"].forEach(function (b) { doc.getElementById(b).disabled = ids.length === 0; });
      ids.forEach(function (id) {
        var remove = el("button", { type: "button", class: "save", text: "Remove" });
        remove.addEventListener("click", function () { var s = load(); delete s[id]; store(s); show(); updateNav(); });
        savedList.appendChild(card(saved[id], el("p", { class: "actions" }, outLinks(saved[id]).concat([remove]))));
      });
    };
    var download = function (name, type, text) {
      var a = el("a", { href: URL.createObjectURL(new Blob([text], { type: type })), download: name });
      doc.body.appendChild(a);
      a.click();
      a.remove();
    };
    doc.getElementById("export-json").addEventListener("click", function () {
      download("saved-papers.json", "application/json", JSON.stringify({ version: 1, papers: load() }, null, 2));
    });
    doc.getElementById("export-bibtex").addEventListener("click", function () {
      var papers = Object.values(load());
      status.textContent = "Gathering " + papers.length + " BibTeX entries…";
      // Each paper's page carries its BibTeX; a few at a time.
      var entries = new Array(papers.length);
      var next = 0;
      var worker = function () {
        if (next >= papers.length) return Promise.resolve();
        var i = next++;
        return fetch(papers[i].url).then(function (r) { return r.text(); }).then(function (html) {
          var pre = new DOMParser().parseFromString(html, "text/html").querySelector(".bibtex pre");
          entries[i] = pre ? pre.textContent : null;
        }).catch(function () { entries[i] = null; }).then(worker);
      };
      Promise.all([worker(), worker(), worker(), worker()]).then(function () {
        var text = papers.map(function (p, i) {
          if (entries[i]) return entries[i];
          return "@misc{" + p.id.replace(/[^A-Za-z0-9.:-]/g, "") + ",\n      title={" + p.title + "},\n      url={" + p.url + "},\n}";
        }).join("\n\n") + "\n";
        download("saved-papers.bib", "application/x-bibtex", text);
        status.textContent = papers.length + " BibTeX entries exported.";
      });
    });
    doc.getElementById("import-json").addEventListener("change", function (ev) {
      var file = ev.target.files[0];
      if (!file) return;
      file.text().then(function (text) {
        var data = JSON.parse(text);
        if (!data || data.version !== 1 || typeof data.papers !== "object") throw new Error("not a file of saved papers");
        var s = load();
        var added = 0;
        Object.keys(data.papers).forEach(function (id) {
          var p = data.papers[id];
          if (isPaper(p) && !s[id]) { s[id] = p; added++; }
        });
        store(s);
        show();
        updateNav();
        status.textContent += " Imported " + added + " new.";
      }).catch(function (e) { status.textContent = "That file could not be imported: " + e.message; });
    });
    show();
  }

  // ---- For you: the page, and a sort option on each week's page ----

  // A saved paper keeps the vector it was saved with, made by the build of that day; when
  // a week file loaded now has the paper with another (a later paperboy counts words
  // otherwise, or its abstract was mended), that one is taken and kept, so an old save still
  // meets new papers on the same words. `files`: [[week, file]].
  function refreshVectors(files) {
    var s = load();
    var changed = false;
    files.forEach(function (wf) {
      wf[1].papers.forEach(function (r) {
        var p = s[r[0]];
        if (p && Array.isArray(r[7]) && JSON.stringify(p.vector) !== JSON.stringify(r[7])) { p.vector = r[7]; changed = true; }
        // Saved before week files said who wrote a headline and where a journal's article is.
        // Whether the saved headline is the machine's only where it is the one saved.
        if (p && r.length > 11 && p.headline === r[3] && p.machine !== (r[10] === 1)) { p.machine = r[10] === 1; changed = true; }
        if (p && r.length > 11 && p.article !== r[11]) { p.article = r[11]; changed = true; }
        // Saved when week files wrote "A, B, C, et al.".
        if (p && typeof r[4] === "string" && p.authors !== r[4]) { p.authors = r[4]; changed = true; }
      });
    });
    // A full storage keeps the old vectors: they still rank, as before.
    if (changed) try { store(s); } catch (e) { /* full: leave them */ }
  }
  // The week files of the saved papers' own weeks that `weeks` does not hold; one that
  // cannot be had (a week no longer on the site) is left out, its papers keep their vectors.
  function savedWeeks(weeks) {
    var names = new Set();
    Object.values(load()).forEach(function (p) {
      if (typeof p.week === "string" && /^[\w-]+$/.test(p.week) && weeks.indexOf(p.week) < 0) names.add(p.week);
    });
    return Promise.all(Array.from(names).map(function (w) {
      return week(w).then(function (f) { return [w, f]; }, function () { return null; });
    })).then(function (files) { return files.filter(Boolean); });
  }

  function savedVectors() {
    var list = Object.values(load()).filter(function (p) { return Array.isArray(p.vector) && p.vector.length > 0; });
    return list.map(function (p) { return { paper: p, vector: toVector(p.vector) }; });
  }

  var foryouList = doc.getElementById("foryou-list");
  if (foryouList) {
    var fstatus = doc.getElementById("foryou-status");
    var mine = savedVectors();
    if (notice) fstatus.textContent = notice + " ";
    if (mine.length === 0) {
      fstatus.textContent += "Save a few papers (the Save button on any card) and this page ranks the newest weeks' papers by them.";
    } else {
      fstatus.textContent += "Ranking…";
      fetch(base + "foryou/weeks.json").then(function (r) { return r.json(); }).then(function (meta) {
        return Promise.all([
          Promise.all(meta.weeks.map(function (w) { return week(w).then(function (f) { return [w, f]; }); })),
          savedWeeks(meta.weeks),
        ]);
      }).then(function (loaded) {
        var files = loaded[0];
        refreshVectors(files.concat(loaded[1]));
        mine = savedVectors();
        var savedIds = new Set(mine.map(function (s) { return s.paper.id; }));
        var candidates = [];
        files.forEach(function (wf) {
          wf[1].papers.forEach(function (r) { if (!savedIds.has(r[0])) candidates.push({ paper: fromRow(r, wf[0]), vector: toVector(r[7]) }); });
        });
        var ranked = rank(mine, candidates).filter(function (r) { return r.score > 0; }).slice(0, 30);
        var weeks = files.length === 1 ? "the newest week" : "the " + files.length + " newest weeks";
        var yours = mine.length === 1 ? "the paper" : "the " + mine.length;
        fstatus.textContent = (notice ? notice + " " : "") + (ranked.length === 0
          ? "None of the " + candidates.length + " papers in " + weeks + " shares a word with " + yours + " you saved."
          : (ranked.length === 1 ? "The paper" : "The " + ranked.length + " papers") + " most like " + yours +
            " you saved, out of " + candidates.length + " in " + weeks + ".");
        ranked.forEach(function (r) {
          var c = candidates[r.index].paper;
          var why = mine[r.because].paper;
          var because = el("p", { class: "because" }, [doc.createTextNode("Like: "), el("a", { href: why.url }, [headlineOrTitle(why)])]);
          var actions = el("p", { class: "actions" }, outLinks(c).concat([saveButton(c)]));
          foryouList.appendChild(el("li", {}, [card(c, el("div", {}, [because, actions]))]));
        });
      }).catch(function (e) { fstatus.textContent = "Ranking is unavailable: " + e.message; });
    }
  }

  // ---- A card's abstract, in place ----

  // A card on a list page links to its abstract on the paper's page; here the link opens
  // it under the card instead, fetched once from that page. Without JavaScript, or when
  // the page cannot be had, the link leads there.
  doc.addEventListener("click", function (ev) {
    var link = ev.target && ev.target.closest ? ev.target.closest("a.abstract-link") : null;
    if (!link || ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
    var body = link.closest(".card-body");
    if (!body) return;
    ev.preventDefault();
    var shown = body.querySelector(".abstract-inline");
    if (shown) {
      shown.hidden = !shown.hidden;
      link.setAttribute("aria-expanded", String(!shown.hidden));
      return;
    }
    var href = link.getAttribute("href");
    fetch(href.split("#")[0]).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.text();
    }).then(function (html) {
      var page = new DOMParser().parseFromString(html, "text/html");
      var text = page.querySelector("section.abstract-full p");
      if (!text) throw new Error("no abstract");
      var box = el("div", { class: "abstract-inline" }, [doc.importNode(text, true)]);
      body.appendChild(box);
      link.setAttribute("aria-expanded", "true");
    }).catch(function () { root.location.href = href; });
  });

  // On a week's page, once something is saved (now or before): sort its papers for this
  // reader.
  var weekHeader = doc.querySelector(".week-header");
  var overview = doc.querySelector("nav.overview");
  var firstCard = doc.querySelector("main section.group article.card[data-week]");
  var weekName = weekHeader && overview && firstCard ? firstCard.getAttribute("data-week") : null;
  var weekOrderOffered = false;
  offerWeekOrder();
  function offerWeekOrder() {
    if (!weekName || weekOrderOffered || savedVectors().length === 0) return;
    weekOrderOffered = true;
    var select = el("select", { id: "sort-week" }, [el("option", { value: "digest", text: "as the digest groups them" }), el("option", { value: "foryou", text: "for you" })]);
    var ranked = el("div", { class: "cards", id: "foryou-sorted", hidden: "" });
    var sections = Array.prototype.slice.call(doc.querySelectorAll("main section.group"));
    // Each group's cards in the digest's order, to put them back.
    var original = sections.map(function (s) {
      var box = s.querySelector(".cards");
      return [box, Array.prototype.slice.call(box.children)];
    });
    weekHeader.appendChild(el("p", { class: "sort" }, [el("label", { for: "sort-week", text: "Order: " }), select]));
    sections[0].parentNode.insertBefore(ranked, sections[0]);
    select.addEventListener("change", function () {
      if (select.value === "digest") {
        original.forEach(function (o) { o[1].forEach(function (c) { o[0].appendChild(c); }); });
        ranked.hidden = true;
        sections.forEach(function (s) { s.hidden = false; });
        overview.hidden = false;
        return;
      }
      week(weekName).then(function (file) {
        refreshVectors([[weekName, file]]);
        var mine = savedVectors();
        var savedIds = new Set(Object.keys(load()));
        var cards = Array.prototype.slice.call(doc.querySelectorAll("main section.group article.card[data-id]"));
        var byId = new Map(cards.map(function (c) { return [c.getAttribute("data-id"), c]; }));
        // What the reader has not saved, most like what they have; what they saved is
        // known to them and goes last, in the digest's order.
        // The whole week, not only the cards this page shows: a paper further down its
        // group (on the group's own pages) gets a small card made from the week's file.
        var candidates = file.papers.filter(function (r) { return !savedIds.has(r[0]); }).map(function (r) { return { id: r[0], row: r, vector: toVector(r[7]) }; });
        ranked.textContent = "";
        rank(mine, candidates).forEach(function (r) {
          var c = candidates[r.index];
          if (byId.has(c.id)) { ranked.appendChild(byId.get(c.id)); return; }
          var p = fromRow(c.row, weekName);
          ranked.appendChild(card(p, el("p", { class: "actions" }, outLinks(p).concat([saveButton(p)]))));
        });
        cards.forEach(function (c) { if (savedIds.has(c.getAttribute("data-id"))) ranked.appendChild(c); });
        ranked.hidden = false;
        sections.forEach(function (s) { s.hidden = true; });
        // Its links lead to the groups, which this order does not show.
        overview.hidden = true;
      });
    });
  }
})(typeof window !== "undefined" ? window : this);
