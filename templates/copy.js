// agentcards copy buttons: progressive enhancement. Without JavaScript
// (or a clipboard) the page is the same, less the buttons.
(function () {
  if (!navigator.clipboard) return;
  function button(label, text) {
    var b = document.createElement('button');
    b.type = 'button';
    b.className = 'copy';
    b.textContent = 'Copy';
    b.setAttribute('aria-label', label);
    b.addEventListener('click', function () {
      navigator.clipboard.writeText(text()).then(function () {
        b.textContent = 'Copied';
        setTimeout(function () { b.textContent = 'Copy'; }, 1500);
      });
    });
    return b;
  }
  document.querySelectorAll('pre.copyable').forEach(function (pre) {
    pre.appendChild(button('Copy the command', function () { return pre.querySelector('code').textContent; }));
  });
  document.querySelectorAll('a.copy-link').forEach(function (a) {
    a.after(button('Copy the URL of ' + a.textContent, function () { return a.href; }));
  });
})();
