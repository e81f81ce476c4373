// The 404 page: a static host serves it for any address that has no page, and the address
// says what the reader was after. An arXiv id in it (a link copied from arxiv.org, with a
// version, or old-style) leads to that paper's page here when the digest has it; the
// address's words fill the search box either way.
(function (root) {
  "use strict";

  // Path segments that name a section of a site, not what was looked for.
  var SECTIONS = new Set(["404", "abs", "archive", "authors", "categories", "digests", "html", "index", "page", "papers", "pdf", "search"]);

  // {query, paper}: what to search for, and the slug of the paper page that may exist.
  function lookedFor(path, base) {
    var p = path;
    if (base && p.indexOf(base) === 0) p = p.slice(base.length);
    try { p = decodeURIComponent(p); } catch (e) { /* a bad escape: keep the address as it came */ }
    p = p.replace(/\.(html?|pdf)$/i, "");
    var m = /(?:^|[^\d.])(\d{4}\.\d{4,5})(?:v\d+)?(?![\d])/.exec(p);
    if (m) return { query: m[1], paper: m[1] };
    m = /([a-z][a-z-]*(?:\.[A-Z]{2})?)[/-](\d{7})(?:v\d+)?(?!\d)/.exec(p);
    if (m) return { query: m[1] + "/" + m[2], paper: m[1] + "-" + m[2] };
    var words = p.split(/[/\s_+-]+/).filter(function (w) { return w && !SECTIONS.has(w.toLowerCase()); });
    return { query: words.join(" "), paper: null };
  }

  if (typeof module !== "undefined" && module.exports) {
    module.exports = { lookedFor: lookedFor };
    return;
  }
  var doc = root.document;
  var input = doc.getElementById("notfound-q");
  if (!input) return;
  var base = input.getAttribute("data-base") || "/";
  var wanted = lookedFor(root.location.pathname, base);
  input.value = wanted.query;
  if (!wanted.paper) return;
  var url = base + "papers/" + wanted.paper + "/";
  // The page itself decides: a paper this digest does not have is a 404 like this one.
  // Its title comes from the tag Google Scholar reads, plain text.
  fetch(url).then(function (r) {
    if (!r.ok) return;
    return r.text().then(function (html) {
      var meta = new DOMParser().parseFromString(html, "text/html").querySelector('meta[name="citation_title"]');
      var hint = doc.getElementById("notfound-paper");
      var link = doc.createElement("a");
      link.href = url;
      link.textContent = meta ? meta.getAttribute("content") : "arXiv:" + wanted.query;
      hint.textContent = "This digest has arXiv:" + wanted.query + ", ";
      hint.appendChild(link);
      if (!/[.?!]$/.test(link.textContent)) hint.appendChild(doc.createTextNode("."));
      hint.hidden = false;
    });
  }).catch(function () { /* offline: the search box is still there */ });
})(typeof window !== "undefined" ? window : this);
