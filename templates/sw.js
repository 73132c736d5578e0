// The service worker: the sheet at a table whose Wi-Fi comes and goes.
// - Pages: network first. Every page a phone opens is kept (the sheet, the session list,
//   the club and history pages); when the server does not answer, the copy kept is shown
//   with a line "offline: showing the sheet as of 21:14". Nothing is served stale while
//   the server answers.
// - A hand, undo, payment or void posted while the server does not answer is queued on
//   the phone (queue.js) and the phone is sent back to the sheet, which shows it as waiting
//   to be sent; the page's script (offline.js) sends the queue when the server answers.
// - Logging out forgets the pages kept, and so does a kept page the server now refuses
//   (the login ended: a new passphrase ends every other phone's).
//   Every such post carries an Idempotency-Key, so a post whose answer was lost is not
//   recorded twice when the queue sends it again.
// - The live stream, the JSON API and everything else go straight to the network.
// The styles and scripts are linked by their release's version (the server writes it in
// here), so the worker keeps the very addresses the pages ask for, in a cache of that
// version: a new release's worker keeps the new ones and drops the old.
var VERSION = '__ASSET_VERSION__';
function versioned(name) { return '/static/' + name + '?v=' + VERSION; }
importScripts(versioned('queue.js'));

var PAGES = 'scorekeeper-pages-v1';
var STATIC = 'scorekeeper-static-' + VERSION;
var ASSETS = ['style.css', 'live.js', 'queue.js', 'offline.js', 'history.js', 'copy.js']
  .map(versioned).concat(['/static/icon.svg', '/static/icon-192.png', '/favicon.ico']);
// The hand forms' what-if preview: kept too, so a page opened offline loads it (its
// questions wait for the server; the form posts or queues as ever).
ASSETS.push(versioned('preview.js'));
// The meld calculator's script and look: kept too, so Count meld opens offline (its sums
// wait for the server; the meld field is typed as ever); and the poker form's card picker,
// which needs no server at all.
ASSETS.push(versioned('meld.js'), versioned('meld.css'), versioned('cards.js'));
// A house game's hand form (chips, new totals, the hand's sum): no server needed either.
ASSETS.push(versioned('house.js'));
// Pages kept at most; the oldest kept goes first.
var KEPT = 40;

self.addEventListener('install', function (event) {
  event.waitUntil(caches.open(STATIC).then(function (c) { return c.addAll(ASSETS); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener('activate', function (event) {
  var current = [PAGES, STATIC];
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return current.indexOf(n) < 0; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener('fetch', function (event) {
  var request = event.request, url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  var path = url.pathname;
  if (request.method === 'POST') {
    // Logging out forgets the pages kept: a phone passed round the table keeps no club's
    // sheets after its member logs out.
    if (path === '/logout') caches.delete(PAGES);
    if (request.mode === 'navigate' && SkQueue.QUEUEABLE.test(path)) {
      event.respondWith(postOrQueue(request, path));
    }
    return;
  }
  if (request.method !== 'GET' || path.indexOf('/api/') === 0 || /\/live$/.test(path)) return;
  if (path.indexOf('/static/') === 0 || path === '/favicon.ico') {
    event.respondWith(fetch(request).catch(function () {
      return caches.match(request, { ignoreSearch: true }).then(function (r) { return r || Response.error(); });
    }));
  } else if (request.mode === 'navigate') {
    event.respondWith(page(request));
  } else {
    // The live sheet's own fetch: kept when it answers, but an error when it does not, so
    // the page knows the server is away.
    event.respondWith(fetch(request).then(function (r) { keep(request, r); return r; }));
  }
});

// Network first; the kept copy, marked as such, when the server does not answer.
function page(request) {
  return fetch(request).then(function (response) {
    if ([401, 403, 404].indexOf(response.status) >= 0) return forgetIfRefused(request, response);
    keep(request, response);
    return response;
  }).catch(function () {
    return caches.open(PAGES).then(function (c) { return c.match(request.url.split('#')[0]); })
      .then(function (kept) { return kept ? marked(kept, request) : notKept(); });
  });
}

// A page kept here that the server now refuses: this phone's login ended (a logout on
// another tab, a new passphrase that ends every other login), so every page kept goes,
// and the club's sheets cannot be read from the phone offline any more.
function forgetIfRefused(request, response) {
  return caches.open(PAGES).then(function (c) { return c.match(request.url.split('#')[0]); })
    .then(function (kept) { return kept || response.status === 401 ? caches.delete(PAGES) : null; })
    .then(function () { return response; });
}

// Keeps a page that answered 200 with HTML, stamped with the time it was seen.
function keep(request, response) {
  var type = response.headers.get('content-type') || '';
  if (response.status !== 200 || type.indexOf('text/html') !== 0) return;
  var url = request.url.split('#')[0];
  response.clone().blob().then(function (body) {
    var copy = new Response(body, { headers: { 'content-type': type, 'x-seen-at': new Date().toISOString() } });
    return caches.open(PAGES).then(function (c) {
      return c.put(url, copy).then(function () { return c.keys(); }).then(function (keys) {
        return Promise.all(keys.slice(0, Math.max(0, keys.length - KEPT)).map(function (k) { return c.delete(k); }));
      });
    });
  });
}

// The kept copy with the offline line at the top of the page's main part.
function marked(kept, request) {
  var seen = kept.headers.get('x-seen-at') || new Date().toISOString();
  var sheet = /^\/sessions\/\d+$/.test(new URL(request.url).pathname);
  var clock = new Date(seen).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  var line = '<p id="offline" class="offline" role="status" data-as-of="' + seen + '">offline: showing the ' +
    (sheet ? 'sheet' : 'page') + ' as of ' + clock + '</p>';
  return kept.text().then(function (html) {
    return new Response(html.replace('<main>', '<main>' + line), {
      headers: { 'content-type': kept.headers.get('content-type') }
    });
  });
}

function notKept() {
  return new Response('<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>Offline · Scorekeeper</title><link rel="stylesheet" href="' + versioned('style.css') + '"><main>' +
    '<p class="offline">offline: this page was not opened on this phone before, so there is no copy to show. ' +
    'Go back to the sheet: it was kept.</p></main>', { status: 503, headers: { 'content-type': 'text/html; charset=utf-8' } });
}

// A form the table may fill in offline: posted with an Idempotency-Key when the server
// answers (its answer, a redirect or a refusal, goes to the page as ever), else queued and
// the phone sent back to the sheet. While older entries wait, a new one waits behind them,
// so they are recorded in the order entered.
function postOrQueue(request, path) {
  var session = SkQueue.QUEUEABLE.exec(path)[1], sheet = '/sessions/' + session + '#latest';
  return request.clone().text().then(function (body) {
    var seen = Number(new URLSearchParams(body).get('expected_events')) || 0;
    var key = self.crypto.randomUUID();
    var queue = function () {
      return SkQueue.add(path, body, seen, key).then(function () { return Response.redirect(sheet, 303); });
    };
    return SkQueue.all(session).then(function (waiting) {
      if (waiting.length > 0) return queue();
      return fetch(request.url, {
        method: 'POST', body: body, credentials: 'same-origin', redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': key }
      }).catch(queue);
    });
  });
}
