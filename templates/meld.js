// The meld calculator on the pinochle hand forms (issue 28 point 1). Each meld field has a
// hidden "Count meld" button (games/meld_calculator.html); this script shows it and, when
// tapped, opens a dialog: one − count + row per meld (44 px), a player chip per partner on a
// side's field, the sum with each meld named, and the reason when the meld is impossible.
// Every tap asks POST /api/v1/meld, the same pure code that checks the hand's meld_detail,
// so nothing is scored twice. "Use" fills the field and the hidden meld_detail inputs the
// form posts; typing another number in the field drops them. Without this script the
// buttons stay hidden and the forms post exactly as before.
(function () {
  'use strict';
  var MELDS = [['flush', 'Run (A-10-K-Q-J of trump)'], ['royal_marriage', 'Royal marriage'],
    ['marriage', 'Marriage (plain suit)'], ['dix', 'Dix (9 of trump)'], ['aces_100', '100 aces'],
    ['kings_80', '80 kings'], ['queens_60', '60 queens'], ['jacks_40', '40 jacks'],
    ['pinochle', 'Pinochle (Q\u2660 J\u2666)'], ['double_pinochle', 'Double pinochle'],
    ['roundhouse', 'Roundhouse']];
  // The dialog's look is /static/meld.css: the site's policy allows only its own style files.
  function style() {
    if (document.getElementById('meld-style')) return;
    var l = document.createElement('link');
    l.id = 'meld-style';
    l.rel = 'stylesheet';
    l.href = '/static/meld.css';
    document.head.appendChild(l);
  }

  function reveal(root) {
    root.querySelectorAll('.meld-calc[hidden]').forEach(function (box) {
      box.hidden = false;
      prefill(box);
    });
  }

  // A correction opens with the hand's melds named: post them again with the field, as if
  // just counted, for the players of this field (Auction's one field takes the bidder's).
  function prefill(box) {
    var form = box.closest('form'), name = box.getAttribute('data-meld-field');
    var field = name && form ? form.querySelector('input[name="' + name + '"]') : null;
    if (!field) return;
    var mine = Array.prototype.map.call(box.querySelectorAll('[data-meld-player]'), function (s) {
      return s.getAttribute('data-meld-player');
    });
    box.querySelectorAll('[data-meld-named]').forEach(function (s) {
      var key = s.getAttribute('data-meld-named'), rest = key.slice('meld_detail.'.length);
      var player = rest.slice(0, rest.lastIndexOf('.'));
      if (!box.hasAttribute('data-meld-bidder') && mine.indexOf(player) < 0) return;
      if (form.querySelector('input[type=hidden][name="' + key + '"]')) return;
      form.appendChild(el('input', { type: 'hidden', name: key, value: s.getAttribute('data-count'),
        'data-meld-detail-for': name }));
      field.setAttribute('data-meld-filled', field.value);
    });
  }

  function el(tag, props, text) {
    var e = document.createElement(tag);
    Object.keys(props || {}).forEach(function (k) { e.setAttribute(k, props[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // Whose melds fill this field: the partners of a side, the player, or the bidder chosen.
  function players(box, form) {
    var named = Array.prototype.map.call(box.querySelectorAll('[data-meld-player]'), function (s) {
      return { name: s.getAttribute('data-meld-player'), label: s.textContent };
    });
    if (!box.hasAttribute('data-meld-bidder')) return named;
    var bidder = form.querySelector('input[name=bidder]:checked');
    if (!bidder) return [{ name: '', label: 'the bidder' }];
    var label = bidder.closest('label');
    return [{ name: bidder.value, label: label ? label.textContent.trim() : bidder.value }];
  }

  function trumpOf(form) {
    var t = form.querySelector('input[name=trump]:checked') || form.querySelector('select[name=trump]');
    return t && t.value ? t.value : null;
  }

  function ask(game, counts, trump) {
    var body = { game: game, melds: counts };
    if (trump) body.trump = trump;
    return fetch('/api/v1/meld', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body)
    }).then(function (r) { return r.json().then(function (j) { return { ok: r.ok, body: j }; }); });
  }

  function open(box) {
    style();
    var form = box.closest('form');
    var fieldName = box.getAttribute('data-meld-field');
    // Contract Pinochle records no meld: there the calculator only counts (no field to fill).
    var field = fieldName ? form.querySelector('input[name="' + fieldName + '"]') : null;
    var game = box.getAttribute('data-meld-game');
    var who = players(box, form);
    // Start from the melds already named for this field (counted before, or a correction's).
    var counts = who.map(function (p) {
      var c = {};
      form.querySelectorAll('input[data-meld-detail-for="' + fieldName + '"]').forEach(function (h) {
        var rest = h.name.slice('meld_detail.'.length), dot = rest.lastIndexOf('.');
        if (rest.slice(0, dot) === p.name) c[rest.slice(dot + 1)] = Number(h.value) || 0;
      });
      return c;
    });
    var seq = who.map(function () { return 0; });
    var current = 0, results = who.map(function () { return { total: 0, words: '', ok: true }; });
    var dialog = el('dialog', { 'class': 'meld-dialog', 'aria-label': 'Count meld' });
    dialog.appendChild(el('h3', {}, 'Count meld: ' + who.map(function (p) { return p.label; }).join(' + ')));
    if (who.length > 1) {
      var chips = el('fieldset', { 'class': 'chips' });
      chips.appendChild(el('legend', {}, 'Whose melds'));
      who.forEach(function (p, i) {
        var l = el('label', { 'class': 'chip' });
        var r = el('input', { type: 'radio', name: 'meld-whose', value: String(i) });
        if (i === 0) r.checked = true;
        r.addEventListener('change', function () { current = i; draw(); });
        l.appendChild(r);
        l.appendChild(el('span', {}, p.label));
        chips.appendChild(l);
      });
      dialog.appendChild(chips);
    }
    var rows = {};
    MELDS.forEach(function (m) {
      var row = el('div', { 'class': 'meld-row', 'data-meld': m[0] });
      row.appendChild(el('span', { 'class': 'name' }, m[1]));
      var less = el('button', { type: 'button', 'class': 'step', 'aria-label': 'one less: ' + m[1] }, '\u2212');
      var shown = el('output', {}, '0');
      var more = el('button', { type: 'button', 'class': 'step', 'aria-label': 'one more: ' + m[1] }, '+');
      less.addEventListener('click', function () { step(m[0], -1); });
      more.addEventListener('click', function () { step(m[0], 1); });
      row.appendChild(less); row.appendChild(shown); row.appendChild(more);
      rows[m[0]] = shown;
      dialog.appendChild(row);
    });
    var sum = el('p', { 'class': 'meld-sum', role: 'status' }, 'No meld');
    var warn = el('p', { 'class': 'meld-warn', role: 'alert' });
    dialog.appendChild(sum);
    dialog.appendChild(warn);
    var actions = el('p', { 'class': 'meld-actions' });
    var use = el('button', { type: 'button', 'class': 'meld-use' }, 'Use 0');
    var cancel = el('button', { type: 'button', 'class': 'secondary' }, 'Cancel');
    actions.appendChild(use); actions.appendChild(cancel);
    if (!field) { use.hidden = true; cancel.textContent = 'Close'; }
    dialog.appendChild(actions);

    function total() { return results.reduce(function (a, r) { return a + r.total; }, 0); }
    function draw() {
      MELDS.forEach(function (m) { rows[m[0]].textContent = String(counts[current][m[0]] || 0); });
      var words = results.map(function (r, i) {
        return r.ok && r.words ? (who.length > 1 ? who[i].label + ': ' : '') + r.words : '';
      }).filter(Boolean);
      sum.textContent = words.length ? words.join('; ') + (words.length > 1 ? ' = ' + total() : '') : 'No meld';
      var bad = results.filter(function (r) { return !r.ok; });
      warn.textContent = bad.map(function (r) { return r.words; }).join(' ');
      use.disabled = bad.length > 0;
      use.textContent = 'Use ' + total();
    }
    function step(id, by) {
      var c = counts[current];
      c[id] = Math.max(0, (c[id] || 0) + by);
      if (!c[id]) delete c[id];
      draw();
      refresh(current);
    }
    function refresh(i) {
      var c = counts[i], n = ++seq[i];
      ask(game, c, trumpOf(form)).then(function (a) {
        if (seq[i] !== n) return; // a later tap's answer is the one shown
        results[i] = a.ok
          ? { total: a.body.total, words: Object.keys(c).length ? a.body.words : '', ok: true }
          // The API names its field first ("melds: …"); the player reads the reason.
          : { total: 0, words: a.body.error.message.replace(/^[a-z_.]+: /, ''), ok: false };
        draw();
      }, function () {
        if (seq[i] !== n) return;
        results[i] = { total: 0, words: 'The server did not answer; count by hand.', ok: false };
        draw();
      });
    }
    cancel.addEventListener('click', function () { dialog.close(); });
    dialog.addEventListener('close', function () { dialog.remove(); });
    use.addEventListener('click', function () {
      form.querySelectorAll('input[data-meld-detail-for="' + fieldName + '"]').forEach(function (i) { i.remove(); });
      who.forEach(function (p, i) {
        if (!p.name) return;
        Object.keys(counts[i]).forEach(function (id) {
          var h = el('input', { type: 'hidden', name: 'meld_detail.' + p.name + '.' + id,
            value: String(counts[i][id]), 'data-meld-detail-for': fieldName });
          form.appendChild(h);
        });
      });
      field.value = String(total());
      field.setAttribute('data-meld-filled', field.value);
      field.dispatchEvent(new Event('input', { bubbles: true }));
      field.dispatchEvent(new Event('change', { bubbles: true }));
      dialog.close();
    });
    document.body.appendChild(dialog);
    dialog.showModal();
    draw();
    counts.forEach(function (c, i) { if (Object.keys(c).length) refresh(i); });
  }

  document.addEventListener('click', function (e) {
    var b = e.target.closest && e.target.closest('.meld-calc .meld-open');
    if (b) open(b.closest('.meld-calc'));
  });
  // A number typed over the calculator's drops the melds it named (they no longer add up).
  document.addEventListener('input', function (e) {
    var f = e.target;
    if (!f.form || !f.hasAttribute('data-meld-filled') || f.value === f.getAttribute('data-meld-filled')) return;
    f.removeAttribute('data-meld-filled');
    f.form.querySelectorAll('input[data-meld-detail-for="' + f.name + '"]').forEach(function (i) { i.remove(); });
  });
  reveal(document);
  // The live sheet swaps the hand form in again: show its buttons too.
  new MutationObserver(function () { reveal(document); }).observe(document.body, { childList: true, subtree: true });
})();
