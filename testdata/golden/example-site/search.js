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

  function el(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined) n.textContent = text;
    return n;
  }

  // A result shows what the list shows of the agent or server: its icon,
  // badges, facts and tags.
  function item(e) {
    var mcpEntry = e.k === 'mcp';
    var li = el('li', 'agent');
    li.setAttribute(mcpEntry ? 'data-mcp' : 'data-id', e.i);
    var h = el('h2');
    if (e.c && /^https?:\/\//i.test(e.c)) {
      var img = el('img', 'icon');
      img.src = e.c;
      img.alt = '';
      img.width = 28;
      img.height = 28;
      img.loading = 'lazy';
      h.appendChild(img);
      h.appendChild(document.createTextNode(' '));
    }
    var a = el('a', '', e.n);
    // An MCP server's page is mcp/<id>/, an agent's agents/<id>/.
    a.href = base + (mcpEntry ? 'mcp/' : 'agents/') + encodeURIComponent(e.i) + '/';
    h.appendChild(a);
    h.appendChild(document.createTextNode(' '));
    h.appendChild(el('span', 'version', 'v' + e.v));
    var flags = e.f || '';
    if (mcpEntry || flags.indexOf('d') !== -1) {
      h.appendChild(document.createTextNode(' '));
      h.appendChild(el('span', 'badge', mcpEntry ? 'MCP server' : 'default'));
    }
    li.appendChild(h);
    var p = el('p', '', e.s);
    if (mcpEntry) {
      p.appendChild(document.createTextNode(' '));
      p.appendChild(el('span', 'note', '(' + e.o + ' tool' + (e.o === 1 ? '' : 's') + ')'));
    }
    li.appendChild(p);
    if (!mcpEntry) {
      var facts = el('p', 'facts', e.a && e.a.length ? 'Auth: ' + e.a.join(' or ') : 'No authentication');
      [['s', 'streaming'], ['p', 'push']].forEach(function (f) {
        if (flags.indexOf(f[0]) === -1) return;
        facts.appendChild(document.createTextNode(' · '));
        facts.appendChild(el('span', 'badge', f[1]));
      });
      li.appendChild(facts);
    }
    if (e.g && e.g.length) {
      var tags = el('ul', 'tags');
      tags.setAttribute('aria-label', 'Tags');
      e.g.forEach(function (t) { tags.appendChild(el('li', '', t)); });
      li.appendChild(tags);
    }
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
