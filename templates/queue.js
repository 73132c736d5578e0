// The phone's queue of entries made without a connection, shared by the page
// (offline.js) and the service worker (sw.js, through importScripts): one IndexedDB store,
// in the order entered. Each item is one form post as the phone made it:
//   { id, session, path, body, key, expected, words, at, state, message, theirs, current }
// `body` is the form, url-encoded, as the server's form reads it; `key` its
// Idempotency-Key, made once, so a retry whose answer was lost records nothing new;
// `expected` the count of events the phone saw before it (the sheet's own count, plus one
// for each entry queued before it), sent as the form's expected_events so the server
// refuses it (409) rather than record a hand twice when another phone got there first.
// `state` is "waiting", "conflict" (409: the player chooses) or "refused" (the rules said
// no: the player reads why and drops it). Nothing is ever removed but by a sent answer or
// the player's own choice.
var SkQueue = (function () {
  var NAME = 'scorekeeper-offline', STORE = 'queue';
  // The forms a phone may fill in without a connection: a hand (or its correction), the
  // undo of the last hand, a payment and a payment's void.
  var QUEUEABLE = /^\/sessions\/(\d+)\/(hands|undo|payments|payments\/void)$/;

  function open() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(NAME, 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore(STORE, { keyPath: 'id', autoIncrement: true });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  // Runs `work(store, done)` in one transaction; resolves with what `done` was given once
  // the transaction has committed.
  function transaction(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode), result;
        tx.oncomplete = function () { db.close(); resolve(result); };
        tx.onerror = function () { db.close(); reject(tx.error); };
        work(tx.objectStore(STORE), function (value) { result = value; });
      });
    });
  }

  // The session's items, oldest first; every session's without `session`.
  function all(session) {
    return transaction('readonly', function (store, done) {
      var request = store.getAll();
      request.onsuccess = function () {
        done(request.result.filter(function (i) { return !session || i.session === session; }));
      };
    });
  }

  // Forgets every item of every session (a logout: the phone keeps nothing of the club).
  function clear() {
    return transaction('readwrite', function (store) { store.clear(); });
  }

  // Queues one post. `seen` is the form's expected_events; the item expects one more than
  // the last item queued for the session, if any, since that one will be recorded first.
  // `key`: the Idempotency-Key of a first try whose answer never came (it may have been
  // recorded), else a new one.
  function add(path, body, seen, key) {
    var session = QUEUEABLE.exec(path)[1];
    return transaction('readwrite', function (store, done) {
      var request = store.getAll();
      request.onsuccess = function () {
        var mine = request.result.filter(function (i) { return i.session === session; });
        var last = mine[mine.length - 1];
        var item = {
          session: session, path: path, body: body,
          key: key || self.crypto.randomUUID(), expected: last ? last.expected + 1 : seen,
          words: describe(path, body), at: new Date().toISOString(), state: 'waiting'
        };
        store.add(item).onsuccess = function (e) { item.id = e.target.result; done(item); };
      };
    });
  }

  function put(item) {
    return transaction('readwrite', function (store) { store.put(item); });
  }

  function remove(id) {
    return transaction('readwrite', function (store) { store.delete(id); });
  }

  // Moves the expected count of the session's items from `fromId` on by `delta`: after the
  // player sends a stale item as the next hand (the later ones come after it still), or
  // drops one (the later ones no longer come after it).
  function shift(session, fromId, delta) {
    return transaction('readwrite', function (store) {
      store.getAll().onsuccess = function (e) {
        e.target.result.forEach(function (i) {
          if (i.session === session && i.id >= fromId) {
            i.expected += delta;
            store.put(i);
          }
        });
      };
    });
  }

  // What the phone can say about a queued post without the rules: the form's fields as
  // the player filled them in ("Hand: dealer Ann · bid 250 · trump hearts"), never money.
  function describe(path, body) {
    var what = QUEUEABLE.exec(path)[2];
    var form = new URLSearchParams(body);
    if (what === 'undo') return 'Undo the last hand';
    if (what === 'payments/void') return 'Void a payment';
    if (what === 'payments') {
      return 'Payment: ' + form.get('from') + ' paid ' + form.get('to') + ' ' + form.get('amount');
    }
    var parts = [];
    form.forEach(function (value, name) {
      if (name === 'expected_events' || value.trim() === '') return;
      parts.push(name.replace(/^a\./, '').replace(/[._]/g, ' ') + ' ' + value.trim());
    });
    return (form.get('correct_event') ? 'Correction: ' : 'Hand: ') + parts.join(' · ');
  }

  // The form with the expected count this item is sent with.
  function bodyToSend(item) {
    var form = new URLSearchParams(item.body);
    form.set('expected_events', String(item.expected));
    return form.toString();
  }

  return {
    QUEUEABLE: QUEUEABLE, all: all, add: add, put: put, remove: remove, shift: shift,
    clear: clear, bodyToSend: bodyToSend
  };
})();
