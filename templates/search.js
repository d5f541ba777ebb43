// agentcards search. The list on each page shows that page's agents and
// works without JavaScript (the pager links every page). Typing in the
// search box fetches the search shards (search/1.json ...) once, on the
// first keystroke, and lists every matching agent of the whole site.
(function () {
  'use strict';
  var form = document.querySelector('form.search');
  var input = document.getElementById('q');
  var list = document.getElementById('agents');
  var count = document.getElementById('count');
  var none = document.getElementById('no-match');
  if (!form || !input || !list) return;
  var shards = parseInt(form.getAttribute('data-shards'), 10) || 0;
  var base = document.querySelector('script[src$="search.js"]').getAttribute('src').replace(/search\.js$/, '');
  var original = Array.prototype.slice.call(list.children);
  var pager = document.querySelector('nav.pager');
  var entries = null, loading = null, shown = 200, mcp = false;

  function load() {
    if (loading) return loading;
    var parts = [];
    for (var k = 1; k <= shards; k++) {
      parts.push(fetch(base + 'search/' + k + '.json').then(function (r) {
        if (!r.ok) throw new Error('search shard: HTTP ' + r.status);
        return r.json();
      }));
    }
    loading = Promise.all(parts).then(function (all) {
      entries = [];
      all.forEach(function (s) { entries = entries.concat(s); });
      entries.forEach(function (e) { e.t = (e.n + ' ' + e.w).toLowerCase(); if (e.k === 'mcp') mcp = true; });
    });
    return loading;
  }

  function item(e) {
    var li = document.createElement('li');
    li.className = 'agent';
    li.setAttribute('data-id', e.i);
    var h = document.createElement('h2');
    var a = document.createElement('a');
    // An MCP server's page is mcp/<id>/, an agent's agents/<id>/.
    a.href = base + (e.k === 'mcp' ? 'mcp/' : 'agents/') + encodeURIComponent(e.i) + '/';
    a.textContent = e.n;
    var v = document.createElement('span');
    v.className = 'version';
    v.textContent = 'v' + e.v;
    h.appendChild(a);
    h.appendChild(document.createTextNode(' '));
    h.appendChild(v);
    if (e.k === 'mcp') {
      var b = document.createElement('span');
      b.className = 'badge';
      b.textContent = 'MCP server';
      h.appendChild(document.createTextNode(' '));
      h.appendChild(b);
    }
    var p = document.createElement('p');
    p.textContent = e.s;
    li.appendChild(h);
    li.appendChild(p);
    return li;
  }

  function update() {
    var terms = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    while (list.firstChild) list.removeChild(list.firstChild);
    if (!terms.length) {
      original.forEach(function (li) { list.appendChild(li); });
      count.textContent = '';
      none.hidden = true;
      if (pager) pager.hidden = false;
      return;
    }
    if (pager) pager.hidden = true;
    var matches = entries.filter(function (e) {
      return terms.every(function (w) { return e.t.indexOf(w) !== -1; });
    });
    matches.slice(0, shown).forEach(function (e) { list.appendChild(item(e)); });
    count.textContent = matches.length + ' of ' + entries.length + (mcp ? ' agents and MCP servers' : ' agents') +
      (matches.length > shown ? ' (the first ' + shown + ' shown)' : '');
    none.hidden = matches.length !== 0;
  }

  function search() {
    load().then(update).catch(function (e) {
      count.textContent = 'Search is unavailable.';
      console.error(e);
    });
  }
  input.addEventListener('input', search);
  form.addEventListener('submit', function (e) { e.preventDefault(); });
  form.hidden = false;
  var q = new URLSearchParams(location.search).get('q');
  if (q) {
    input.value = q;
    search();
  }
})();
