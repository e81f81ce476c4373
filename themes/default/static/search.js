// paperboy search: loads one index shard per query word and the chunks of its results.
// Works on any static host; the index is written by `paperboy build` under search/.
(function () {
  "use strict";
  var form = document.getElementById("search-form");
  if (!form) return;
  var input = form.querySelector("input[name=q]");
  var list = document.getElementById("search-results");
  var status = document.getElementById("search-status");
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
  function tokenize(q) {
    return q.toLowerCase().split(/[^\p{Alphabetic}\p{N}]+/u).filter(function (t) { return t.length > 0; });
  }
  function shardFile(key) {
    var out = "";
    for (var ch of key) {
      out += /^[a-z0-9]$/i.test(ch) ? ch : "_" + ch.codePointAt(0).toString(16);
    }
    return out;
  }
  function postingsFor(meta, term) {
    var key = Array.from(term).slice(0, meta.prefix).join("");
    if (meta.shards.indexOf(key) < 0) return Promise.resolve(null);
    return getJSON("index/" + shardFile(key) + ".json").then(function (shard) {
      var scores = new Map();
      var terms = shard[term] ? [term] : Object.keys(shard).filter(function (t) { return t.indexOf(term) === 0; }).slice(0, 20);
      if (terms.length === 0) return null;
      terms.forEach(function (t) {
        var p = shard[t];
        for (var i = 0; i < p.length; i += 2) scores.set(p[i], (scores.get(p[i]) || 0) + p[i + 1]);
      });
      return scores;
    });
  }
  var seq = 0;
  function run(q) {
    var mine = ++seq;
    var terms = tokenize(q);
    list.textContent = "";
    if (terms.length === 0) { status.textContent = ""; return; }
    status.textContent = "Searching…";
    getJSON("meta.json").then(function (meta) {
      return Promise.all(terms.map(function (t) { return postingsFor(meta, t); })).then(function (sets) {
        if (sets.some(function (s) { return s === null; })) return [meta, []];
        var total = new Map(sets[0]);
        sets.slice(1).forEach(function (s) {
          total.forEach(function (v, d) { if (s.has(d)) total.set(d, v + s.get(d)); else total.delete(d); });
        });
        var top = Array.from(total.entries()).sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; }).slice(0, 30);
        return [meta, top];
      });
    }).then(function (r) {
      var meta = r[0], top = r[1];
      var chunks = Array.from(new Set(top.map(function (e) { return Math.floor(e[0] / meta.chunk); })));
      return Promise.all(chunks.map(function (c) { return getJSON("docs/" + c + ".json"); })).then(function (loaded) {
        if (mine !== seq) return;
        var byChunk = {};
        chunks.forEach(function (c, i) { byChunk[c] = loaded[i]; });
        status.textContent = top.length === 0 ? "No papers match." : top.length + (top.length === 30 ? "+" : "") + (top.length === 1 ? " paper" : " papers");
        top.forEach(function (e) {
          var d = byChunk[Math.floor(e[0] / meta.chunk)][e[0] % meta.chunk];
          var li = document.createElement("li");
          var a = document.createElement("a");
          a.href = d[0];
          a.textContent = d[1];
          var small = document.createElement("span");
          small.className = "muted";
          small.textContent = " " + d[4] + " · " + d[3] + (d[2] ? " · " + d[2] : "");
          li.appendChild(a);
          li.appendChild(small);
          list.appendChild(li);
        });
      });
    }).catch(function (err) {
      status.textContent = "Search is unavailable: " + err.message;
    });
  }
  var timer = null;
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var url = new URL(location.href);
      url.searchParams.set("q", input.value);
      history.replaceState(null, "", url);
      run(input.value);
    }, 150);
  });
  form.addEventListener("submit", function (ev) { ev.preventDefault(); run(input.value); });
  var q = new URLSearchParams(location.search).get("q");
  if (q) { input.value = q; run(q); }
})();
