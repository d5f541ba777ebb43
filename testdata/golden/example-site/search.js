// agentcards search: filters the agent list by name, description, skill and
// tag, using the prebuilt search-index.json. Without JavaScript the full
// list stays, and the search box stays hidden.
(function () {
  'use strict';
  var form = document.querySelector('form.search');
  var input = document.getElementById('q');
  var list = document.getElementById('agents');
  var count = document.getElementById('count');
  var none = document.getElementById('no-match');
  if (!form || !input || !list) return;
  var items = Array.prototype.slice.call(list.querySelectorAll('li.agent'));
  var base = document.querySelector('script[src$="search.js"]').getAttribute('src').replace(/search\.js$/, '');
  fetch(base + 'search-index.json').then(function (r) {
    if (!r.ok) throw new Error('search index: HTTP ' + r.status);
    return r.json();
  }).then(function (index) {
    var text = {};
    index.agents.forEach(function (a) {
      text[a.id] = [a.name, a.description].concat(a.tags, a.skills).join('\n').toLowerCase();
    });
    function update() {
      var terms = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      items.forEach(function (li) {
        var t = text[li.getAttribute('data-id')] || '';
        var match = terms.every(function (w) { return t.indexOf(w) !== -1; });
        li.hidden = !match;
        if (match) shown++;
      });
      count.textContent = terms.length ? shown + ' of ' + items.length + ' agents' : '';
      none.hidden = shown !== 0;
    }
    input.addEventListener('input', update);
    form.addEventListener('submit', function (e) { e.preventDefault(); });
    var q = new URLSearchParams(location.search).get('q');
    if (q) input.value = q;
    form.hidden = false;
    update();
  }).catch(function (e) {
    // Keep the full list; say why search is missing.
    console.error(e);
  });
})();
