// agentcards signature check, in the reader's browser: fetches the agent's
// card and this site's JWKS, canonicalizes the card minus `signatures`
// (RFC 8785, JCS), and verifies each signature over the whole card with
// WebCrypto (A2A v1.0 section 8.4: detached JWS). The result goes into
// #card-signature, as text (card text is never parsed as HTML).
//
// What it shows: the card published here matches the keys published here.
// Someone who controls the whole site controls both.
//
// Outside a page (no document) it only defines agentcardsCanonicalize and
// agentcardsCardPayload, so that tests run the same code under node.
(function () {
  'use strict';

  // ---- RFC 8785: JSON Canonicalization Scheme ----

  // canonicalize returns the JCS form of a JSON value (as JSON.parse
  // returns it): members sorted by UTF-16 code units, numbers as ES6
  // Number.prototype.toString writes them, strings escaped as RFC 8785
  // says. It throws on what JSON cannot carry (NaN, Infinity, lone
  // surrogates).
  function canonicalize(value) {
    var out = [];
    write(value, out);
    return out.join('');
  }

  function write(v, out) {
    if (v === null) {
      out.push('null');
      return;
    }
    switch (typeof v) {
      case 'boolean':
        out.push(v ? 'true' : 'false');
        return;
      case 'number':
        if (!isFinite(v)) throw new Error('a number JSON cannot carry: ' + v);
        // ES6 number serialization (RFC 8785 section 3.2.2.3); -0 is "0".
        out.push(Number.prototype.toString.call(v));
        return;
      case 'string':
        out.push(quote(v));
        return;
      case 'object':
        if (Array.isArray(v)) {
          out.push('[');
          for (var i = 0; i < v.length; i++) {
            if (i > 0) out.push(',');
            write(v[i], out);
          }
          out.push(']');
          return;
        }
        // JS compares strings by UTF-16 code units, which is the order
        // RFC 8785 section 3.2.3 asks for.
        var keys = Object.keys(v).sort(function (a, b) { return a < b ? -1 : a > b ? 1 : 0; });
        out.push('{');
        for (var k = 0; k < keys.length; k++) {
          if (k > 0) out.push(',');
          out.push(quote(keys[k]), ':');
          write(v[keys[k]], out);
        }
        out.push('}');
        return;
    }
    throw new Error('not a JSON value: ' + typeof v);
  }

  var shortEscapes = { 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0c: '\\f', 0x0d: '\\r', 0x22: '\\"', 0x5c: '\\\\' };

  // quote writes a string as RFC 8785 section 3.2.2.2 says: " and \
  // escaped, control characters as \b \t \n \f \r or \u00xx (lower-case
  // hex), everything else (U+2028, U+007F, astral characters) as it is.
  function quote(s) {
    var out = '"';
    var start = 0;
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdfff) {
        var next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
        if (c > 0xdbff || next < 0xdc00 || next > 0xdfff) throw new Error('a lone surrogate in a string');
        i++;
        continue;
      }
      if (c >= 0x20 && c !== 0x22 && c !== 0x5c) continue;
      out += s.slice(start, i) + (shortEscapes[c] || '\\u00' + (c < 0x10 ? '0' : '') + c.toString(16));
      start = i + 1;
    }
    return out + s.slice(start) + '"';
  }

  // cardPayload is the JCS form of a card (an object) minus its
  // signatures member: what A2A signs. Members are copied as own
  // properties, so that a "__proto__" member stays a member (covered by no
  // signature, it fails the check) instead of vanishing into a prototype.
  function cardPayload(card) {
    var rest = {};
    Object.keys(card).forEach(function (k) {
      if (k !== 'signatures') Object.defineProperty(rest, k, { value: card[k], enumerable: true, configurable: true, writable: true });
    });
    return canonicalize(rest);
  }

  if (typeof document === 'undefined') {
    globalThis.agentcardsCanonicalize = canonicalize;
    globalThis.agentcardsCardPayload = cardPayload;
    globalThis.agentcardsCheckCardText = checkCardText;
    return;
  }

  // ---- JWS (RFC 7515), detached, with WebCrypto ----

  // The algorithms A2A cards are signed with: the JWK each needs, and
  // WebCrypto's names for importing the key and verifying.
  var ed25519 = { kty: 'OKP', crv: 'Ed25519', members: ['crv', 'x'], key: { name: 'Ed25519' }, verify: { name: 'Ed25519' } };
  var algs = {
    EdDSA: ed25519,
    Ed25519: ed25519,
    ES256: { kty: 'EC', crv: 'P-256', members: ['crv', 'x', 'y'], key: { name: 'ECDSA', namedCurve: 'P-256' }, verify: { name: 'ECDSA', hash: 'SHA-256' } },
    RS256: { kty: 'RSA', members: ['n', 'e'], key: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, verify: { name: 'RSASSA-PKCS1-v1_5' } },
    PS256: { kty: 'RSA', members: ['n', 'e'], key: { name: 'RSA-PSS', hash: 'SHA-256' }, verify: { name: 'RSA-PSS', saltLength: 32 } }
  };
  var projectionHeader = 'agentcards:payload';
  var projectionValue = 'a2a-sdk-projection';
  var privateMembers = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

  // fromB64url decodes unpadded base64url strictly (one spelling per value).
  function fromB64url(s, what) {
    if (typeof s !== 'string' || !/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) throw new Error(what + ' is not base64url');
    var bin = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4));
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    if (toB64url(bytes) !== s) throw new Error(what + ' is not base64url');
    return bytes;
  }

  function toB64url(bytes) {
    var bin = '';
    for (var i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  function isObject(v) { return v !== null && typeof v === 'object' && !Array.isArray(v); }

  // Refused is a signature this page does not accept, and why.
  function Refused(why) { this.why = why; }
  // Unsupported is a signature this browser cannot check.
  function Unsupported(why) { this.why = why; }
  // Mismatch is a signature by a key of this site that does not match the
  // card: who made it.
  function Mismatch(who) { this.who = who; }

  // readHeader decodes a signature's protected header and applies the
  // rules agentcards verify applies: alg and kid present, no crit, no
  // unencoded payload, nothing security-relevant in the unprotected header.
  function readHeader(sig) {
    if (!isObject(sig) || typeof sig.protected !== 'string' || typeof sig.signature !== 'string') throw new Refused('a signature is not {protected, signature}');
    var h;
    try {
      h = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(fromB64url(sig.protected, 'the protected header')));
    } catch (e) {
      throw new Refused(e instanceof Error ? e.message : 'the protected header cannot be read');
    }
    if (!isObject(h)) throw new Refused('the protected header is not a JSON object');
    if (sig.header !== undefined && !isObject(sig.header)) throw new Refused('the unprotected header is not a JSON object');
    ['alg', 'crit', 'b64'].forEach(function (name) {
      if (sig.header && Object.prototype.hasOwnProperty.call(sig.header, name)) throw new Refused(name + ' must be in the protected header only');
    });
    if (Object.prototype.hasOwnProperty.call(h, 'crit')) throw new Refused('the header has crit, which this check does not understand (RFC 7515 section 4.1.11)');
    if (Object.prototype.hasOwnProperty.call(h, 'b64') && h.b64 !== true) throw new Refused('an unencoded payload (b64: false) is refused');
    if (typeof h.alg !== 'string' || typeof h.kid !== 'string' || h.kid === '') throw new Refused('the header lacks alg or kid');
    if (Object.prototype.hasOwnProperty.call(h, projectionHeader) && h[projectionHeader] !== projectionValue) throw new Refused('unknown ' + projectionHeader + ' in the header');
    return h;
  }

  // findKey picks the JWKS key the header names by kid (never by jku) and
  // checks it fits the header's alg.
  function findKey(jwks, h) {
    var spec = Object.prototype.hasOwnProperty.call(algs, h.alg) ? algs[h.alg] : null;
    if (!spec) throw new Refused('alg ' + h.alg + ' is not one A2A cards are signed with here');
    var found = (Array.isArray(jwks.keys) ? jwks.keys : []).filter(function (k) { return isObject(k) && k.kid === h.kid; });
    if (found.length === 0) throw new Refused('the key is not in this site\'s JWKS');
    if (found.length > 1) throw new Refused('the JWKS has several keys with this kid');
    var k = found[0];
    if (privateMembers.some(function (m) { return Object.prototype.hasOwnProperty.call(k, m); })) throw new Refused('the JWKS key carries private material');
    if (!(k.alg === h.alg || k.alg === 'EdDSA' && h.alg === 'Ed25519')) throw new Refused('the header\'s alg does not match the key\'s alg ' + String(k.alg));
    if (k.kty !== spec.kty || spec.crv && k.crv !== spec.crv) throw new Refused('the JWKS key is not a ' + spec.kty + (spec.crv ? ' ' + spec.crv : '') + ' key');
    var jwk = { kty: k.kty, ext: true };
    spec.members.forEach(function (m) { jwk[m] = k[m]; });
    return { jwk: jwk, spec: spec };
  }

  // checkSignature verifies one signature over the signing input made from
  // payload (the base64url of the canonical card). It resolves to the
  // signer's {kid, alg}, or null for a projection signature, which does not
  // cover the whole card and is left out; it throws Refused or Unsupported.
  async function checkSignature(sig, jwks, payload) {
    var h = readHeader(sig);
    if (h[projectionHeader] === projectionValue) return null;
    var who = 'key ' + h.kid + ' (' + h.alg + ')';
    try {
      var k = findKey(jwks, h);
      var signature = fromB64url(sig.signature, 'the signature');
    } catch (e) {
      throw new Refused(who + ': ' + (e instanceof Refused ? e.why : e.message));
    }
    var key;
    try {
      key = await crypto.subtle.importKey('jwk', k.jwk, k.spec.key, false, ['verify']);
    } catch (e) {
      if (e && e.name === 'NotSupportedError') throw new Unsupported('this browser cannot check ' + h.alg + ' signatures');
      throw new Refused(who + ': the key in the JWKS cannot be read');
    }
    var input = new TextEncoder().encode(sig.protected + '.' + payload);
    if (!await crypto.subtle.verify(k.spec.verify, key, signature, input)) {
      throw new Mismatch(who);
    }
    return { kid: h.kid, alg: h.alg };
  }

  // checkCardText refuses a card (valid JSON text) that names a member
  // twice in one object, or two that differ only in letter case, or holds
  // a number that is not exactly the number its RFC 8785 form means, as
  // agentcards verify does: JSON.parse keeps the last of two members and
  // rounds a number to a double, other readers keep the first member and
  // the exact number, so such a card means different things to different
  // clients while its signature still verifies.
  function checkCardText(text) {
    var token = /"(?:[^"\\]|\\.)*"|[{}[\]:]|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
    var stack = [], last = null, m;
    while ((m = token.exec(text)) !== null) {
      var t = m[0];
      if (t === '{') stack.push({});
      else if (t === '[') stack.push(null);
      else if (t === '}' || t === ']') stack.pop();
      else if (t === ':' && last !== null && stack.length > 0 && stack[stack.length - 1]) {
        var name = JSON.parse(last), seen = stack[stack.length - 1], folded = '~' + name.toLowerCase();
        if (seen[folded]) throw new Error('the card names the member "' + name + '" twice (or twice in different letter case)');
        seen[folded] = true;
      } else if (t.charAt(0) !== '"' && t !== ':') {
        checkNumber(t);
      }
      last = t.charAt(0) === '"' ? t : null;
    }
  }

  // checkNumber refuses a number literal longer than 40 characters, out of
  // range, or whose value differs from that of its canonical form (RFC
  // 8785 writes the nearest double: 30.000000000000001 becomes 30).
  function checkNumber(literal) {
    if (literal.length > 40) throw new Error('the card holds a number longer than 40 characters');
    var n = Number(literal);
    if (!isFinite(n)) throw new Error('the card holds the number ' + literal + ', which is out of range');
    var canonical = Number.prototype.toString.call(n);
    if (decimalValue(literal) !== decimalValue(canonical)) {
      throw new Error('the card holds the number ' + literal + ', which canonicalizes to ' + canonical + ', another value, so no signature can pin it');
    }
  }

  // decimalValue writes the exact value of a JSON number literal as
  // sign, significant digits and exponent: equal strings, equal values.
  function decimalValue(s) {
    var m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(s);
    var frac = m[3] || '';
    var digits = (m[2] + frac).replace(/^0+/, '');
    if (digits === '') return '0';
    var exp = parseInt(m[4] || '0', 10) - frac.length;
    var zeros = /0*$/.exec(digits)[0].length;
    return m[1] + digits.slice(0, digits.length - zeros) + 'e' + (exp + zeros);
  }

  // verifyCard checks every signature of the card (its text) against jwks:
  // {state, signers, reasons}.
  async function verifyCard(text, jwks) {
    var card = JSON.parse(text);
    checkCardText(text);
    if (!isObject(card)) throw new Error('the card is not a JSON object');
    if (!Array.isArray(card.signatures) || card.signatures.length === 0) throw new Error('the card has no signatures');
    var sigs = card.signatures;
    var payload = toB64url(new TextEncoder().encode(cardPayload(card)));
    var signers = [], refused = [], unsupported = [], mismatched = [];
    for (var i = 0; i < sigs.length; i++) {
      try {
        var who = await checkSignature(sigs[i], jwks, payload);
        if (who) signers.push(who);
      } catch (e) {
        if (e instanceof Mismatch) mismatched.push(e.who);
        else if (e instanceof Unsupported) unsupported.push(e.why);
        else if (e instanceof Refused) refused.push(e.why);
        else refused.push(e && e.message ? e.message : String(e));
      }
    }
    if (signers.length > 0) return { state: 'verified', signers: signers };
    if (mismatched.length > 0) {
      refused.unshift('the card does not match the signature' + (mismatched.length > 1 ? 's' : '') + ' of ' + list(mismatched) + ': it was changed after signing');
    }
    // A signature this browser could not check might have verified.
    if (unsupported.length > 0) return { state: 'unsupported', reasons: unsupported.concat(refused) };
    if (refused.length === 0) refused.push('the card has no signature over the whole card');
    return { state: 'failed', reasons: refused };
  }

  // fetchText fetches a file of this site, revalidating any cached copy so
  // that the card and the JWKS are from the same build.
  async function fetchText(url, what) {
    var res = await fetch(url.href, { cache: 'no-cache' });
    if (!res.ok) throw new Error('could not fetch ' + what + ' (HTTP ' + res.status + ')');
    if (new URL(res.url).origin !== location.origin) throw new Error(what + ' was redirected to another site');
    return res.text();
  }

  function list(words) {
    return words.length < 2 ? words.join('') : words.slice(0, -1).join(', ') + ' and ' + words[words.length - 1];
  }

  function show(el, state, text) {
    el.setAttribute('data-state', state);
    el.textContent = text;
  }

  async function run(el) {
    var jwksURL = new URL(el.getAttribute('data-jwks'), document.baseURI);
    var cards = [{ url: new URL(el.getAttribute('data-card'), document.baseURI), where: '' }];
    // The default agent's card is served at the site's root too: both
    // copies must verify.
    if (el.getAttribute('data-root-card')) {
      var rootURL = new URL(el.getAttribute('data-root-card'), document.baseURI);
      cards.push({ url: rootURL, where: ' (the copy at ' + rootURL.pathname + ')' });
    }
    var keysAt = ' from this site\'s ' + jwksURL.pathname + '.';
    show(el, 'checking', 'Checking the card\'s signature…');
    if (!window.crypto || !crypto.subtle) {
      show(el, 'unsupported', 'Signature not checked: this browser offers no WebCrypto here (it needs an https page). Check with agentcards verify, below.');
      return;
    }
    var results = [];
    try {
      var got = await Promise.all([fetchText(jwksURL, 'the JWKS')].concat(cards.map(function (c) { return fetchText(c.url, 'the card' + c.where); })));
      var jwks = JSON.parse(got[0]);
      if (!isObject(jwks)) throw new Error('the JWKS is not a JSON object');
      for (var i = 0; i < cards.length; i++) results.push(await verifyCard(got[i + 1], jwks));
    } catch (e) {
      show(el, 'failed', 'Signature check failed: ' + (e && e.message ? e.message : String(e)) + '.');
      return;
    }
    for (var j = 0; j < results.length; j++) {
      if (results[j].state === 'failed') {
        show(el, 'failed', 'Signature check failed' + cards[j].where + ': ' + results[j].reasons.join('; ') + '.');
        return;
      }
    }
    for (var k = 0; k < results.length; k++) {
      if (results[k].state === 'unsupported') {
        show(el, 'unsupported', 'Signature not checked' + cards[k].where + ': ' + results[k].reasons.join('; ') + '. Check with agentcards verify, below.');
        return;
      }
    }
    var signers = results[0].signers;
    var text = 'Signature verified: signed by ' + list(signers.map(function (s) { return 'key ' + s.kid + ' (' + s.alg + ')'; })) + keysAt;
    if (signers.every(function (s) { return s.kid.indexOf('dev-') === 0; })) {
      text += ' That is an agentcards development key: this is a local preview, not a published site.';
    }
    show(el, 'verified', text);
  }

  var el = document.getElementById('card-signature');
  if (el && el.getAttribute('data-card') && el.getAttribute('data-jwks')) run(el);
})();
