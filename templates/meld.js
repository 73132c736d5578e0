// The meld calculator on the pinochle hand forms. Each meld field has a
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
    l.href = '/static/meld.css?v=__ASSET_VERSION__';
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

  var SUITS = [['S', '\u2660', 'spades'], ['H', '\u2665', 'hearts'], ['D', '\u2666', 'diamonds'],
    ['C', '\u2663', 'clubs']];
  var RANKS = ['A', 'T', 'K', 'Q', 'J', '9'];

  // One player's question: the melds tapped and/or the cards tapped (with the trump).
  function ask(game, counts, cards, trump) {
    var body = { game: game, melds: counts };
    var held = Object.keys(cards).reduce(function (a, c) {
      for (var k = 0; k < cards[c]; k++) a.push(c);
      return a;
    }, []);
    if (held.length) body.cards = held.join(' ');
    if (trump) body.trump = trump;
    return fetch('/api/v1/meld', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body)
    }).then(function (r) { return r.json().then(function (j) { return { ok: r.ok, body: j }; }); });
  }

  // The melds already named for this field (counted before, or a correction's), per player.
  function namedBefore(form, fieldName, who) {
    return who.map(function (p) {
      var c = {};
      form.querySelectorAll('input[data-meld-detail-for="' + fieldName + '"]').forEach(function (h) {
        var rest = h.name.slice('meld_detail.'.length), dot = rest.lastIndexOf('.');
        if (rest.slice(0, dot) === p.name) c[rest.slice(dot + 1)] = Number(h.value) || 0;
      });
      return c;
    });
  }

  function chipRow(legend, name, items, chosen, onPick) {
    var chips = el('fieldset', { 'class': 'chips' });
    chips.appendChild(el('legend', {}, legend));
    items.forEach(function (item) {
      var l = el('label', { 'class': 'chip' });
      var r = el('input', { type: 'radio', name: name, value: item[0] });
      r.checked = item[0] === chosen;
      r.addEventListener('change', function () { onPick(item[0]); });
      l.appendChild(r);
      l.appendChild(el('span', {}, item[1]));
      chips.appendChild(l);
    });
    return chips;
  }

  // A − count + row per meld; `shown` gets each meld's count output.
  function meldRows(calc, shown) {
    var box = el('div', { 'class': 'meld-rows' });
    MELDS.forEach(function (m) {
      var row = el('div', { 'class': 'meld-row', 'data-meld': m[0] });
      row.appendChild(el('span', { 'class': 'name' }, m[1]));
      var less = el('button', { type: 'button', 'class': 'step', 'aria-label': 'one less: ' + m[1] }, '\u2212');
      var more = el('button', { type: 'button', 'class': 'step', 'aria-label': 'one more: ' + m[1] }, '+');
      shown[m[0]] = el('output', {}, '0');
      less.addEventListener('click', function () { calc.step(m[0], -1); });
      more.addEventListener('click', function () { calc.step(m[0], 1); });
      row.appendChild(less); row.appendChild(shown[m[0]]); row.appendChild(more);
      box.appendChild(row);
    });
    return box;
  }

  // "Or tap the cards": the trump and a 44 px button per card (a tap adds one, a third tap
  // takes both away: the deck has two of each); `shown` gets each card's button.
  function cardGrid(calc, shown) {
    var box = el('details', { 'class': 'meld-cards' });
    box.appendChild(el('summary', {}, 'Or tap the cards'));
    box.appendChild(chipRow('Trump', 'meld-trump', SUITS.map(function (s) { return [s[2], s[1] + ' ' + s[2]]; }),
      calc.trump, function (t) { calc.trump = t; calc.refreshAll(); }));
    SUITS.forEach(function (s) {
      var row = el('div', { 'class': 'card-row' });
      RANKS.forEach(function (r) {
        var code = r + s[0], b = el('button', { type: 'button', 'class': 'card', 'data-card': code });
        b.addEventListener('click', function () { calc.card(code); });
        shown[code] = b;
        row.appendChild(b);
      });
      box.appendChild(row);
    });
    return box;
  }

  function cardWords(code, n) {
    var rank = code[0] === 'T' ? '10' : code[0];
    var suit = SUITS.filter(function (s) { return s[0] === code[1]; })[0][1];
    return rank + suit + (n > 1 ? '\u00d72' : '');
  }

  // The dialog's foot: the sum, the warnings, Use and Cancel.
  function foot(calc, hasField) {
    var box = el('div');
    calc.sum = el('p', { 'class': 'meld-sum', role: 'status' }, 'No meld');
    calc.warn = el('p', { 'class': 'meld-warn', role: 'alert' });
    var actions = el('p', { 'class': 'meld-actions' });
    calc.use = el('button', { type: 'button', 'class': 'meld-use' }, 'Use 0');
    var cancel = el('button', { type: 'button', 'class': 'secondary' }, 'Cancel');
    actions.appendChild(calc.use); actions.appendChild(cancel);
    // Contract Pinochle records no meld: there the calculator only counts.
    if (!hasField) { calc.use.hidden = true; cancel.textContent = 'Close'; }
    cancel.addEventListener('click', function () { calc.dialog.close(); });
    calc.use.addEventListener('click', function () { calc.fill(); });
    box.appendChild(calc.sum); box.appendChild(calc.warn); box.appendChild(actions);
    return box;
  }

  function Calculator(box) {
    this.form = box.closest('form');
    this.fieldName = box.getAttribute('data-meld-field');
    this.field = this.fieldName ? this.form.querySelector('input[name="' + this.fieldName + '"]') : null;
    this.game = box.getAttribute('data-meld-game');
    this.who = players(box, this.form);
    this.trump = trumpOf(this.form);
    this.counts = namedBefore(this.form, this.fieldName, this.who);
    this.cards = this.who.map(function () { return {}; });
    this.seq = this.who.map(function () { return 0; });
    this.results = this.who.map(function () { return { total: 0, words: '', ok: true, lines: [] }; });
    this.current = 0;
  }

  Calculator.prototype.build = function () {
    var calc = this, d = el('dialog', { 'class': 'meld-dialog', 'aria-label': 'Count meld' });
    d.appendChild(el('h3', {}, 'Count meld: ' + this.who.map(function (p) { return p.label; }).join(' + ')));
    if (this.who.length > 1) {
      d.appendChild(chipRow('Whose melds', 'meld-whose', this.who.map(function (p, i) { return [String(i), p.label]; }),
        '0', function (i) { calc.current = Number(i); calc.draw(); }));
    }
    this.meldShown = {};
    this.cardShown = {};
    d.appendChild(meldRows(this, this.meldShown));
    d.appendChild(cardGrid(this, this.cardShown));
    d.appendChild(foot(this, !!this.field));
    d.addEventListener('close', function () { d.remove(); });
    this.dialog = d;
    return d;
  };

  Calculator.prototype.total = function () {
    return this.results.reduce(function (a, r) { return a + r.total; }, 0);
  };

  Calculator.prototype.draw = function () {
    var calc = this, c = this.counts[this.current], k = this.cards[this.current];
    MELDS.forEach(function (m) { calc.meldShown[m[0]].textContent = String(c[m[0]] || 0); });
    Object.keys(this.cardShown).forEach(function (code) {
      calc.cardShown[code].textContent = cardWords(code, k[code] || 0);
      calc.cardShown[code].setAttribute('aria-pressed', k[code] ? 'true' : 'false');
    });
    var many = this.who.length > 1;
    var words = this.results.map(function (r, i) {
      return r.ok && r.words ? (many ? calc.who[i].label + ': ' : '') + r.words : '';
    }).filter(Boolean);
    this.sum.textContent = words.length ? words.join('; ') + (words.length > 1 ? ' = ' + this.total() : '') : 'No meld';
    var bad = this.results.filter(function (r) { return !r.ok; });
    this.warn.textContent = bad.map(function (r) { return r.words; }).join(' ');
    this.use.disabled = bad.length > 0;
    this.use.textContent = 'Use ' + this.total();
  };

  Calculator.prototype.step = function (id, by) {
    var c = this.counts[this.current];
    c[id] = Math.max(0, (c[id] || 0) + by);
    if (!c[id]) delete c[id];
    this.draw();
    this.refresh(this.current);
  };

  Calculator.prototype.card = function (code) {
    var k = this.cards[this.current];
    k[code] = ((k[code] || 0) + 1) % 3;
    if (!k[code]) delete k[code];
    this.draw();
    this.refresh(this.current);
  };

  Calculator.prototype.refreshAll = function () {
    for (var i = 0; i < this.who.length; i++) this.refresh(i);
  };

  // Asks the server for player i; a later tap's answer is the one shown.
  Calculator.prototype.refresh = function (i) {
    var calc = this, c = this.counts[i], k = this.cards[i], n = ++this.seq[i];
    var empty = !Object.keys(c).length && !Object.keys(k).length;
    ask(this.game, c, k, this.trump).then(function (a) {
      if (calc.seq[i] !== n) return;
      calc.results[i] = a.ok
        ? { total: a.body.total, words: empty ? '' : a.body.words, ok: true, lines: a.body.lines }
        // The API names its field first ("melds: …"); the player reads the reason.
        : { total: 0, words: a.body.error.message.replace(/^[a-z_.]+: /, ''), ok: false, lines: [] };
      calc.draw();
    }, function () {
      if (calc.seq[i] !== n) return;
      calc.results[i] = { total: 0, words: 'The server did not answer; count by hand.', ok: false, lines: [] };
      calc.draw();
    });
  };

  // Use: the field gets the sum, the form the melds named (the tapped ones, or those the
  // cards show), each as a hidden meld_detail.<player>.<meld> = count.
  Calculator.prototype.fill = function () {
    // A game that records no meld (Contract) has nothing to fill and no melds to name.
    if (!this.field) return;
    var calc = this, form = this.form, name = this.fieldName;
    form.querySelectorAll('input[data-meld-detail-for="' + name + '"]').forEach(function (i) { i.remove(); });
    this.who.forEach(function (p, i) {
      if (!p.name) return;
      var named = calc.counts[i];
      if (!Object.keys(named).length) {
        named = {};
        calc.results[i].lines.forEach(function (l) { named[l.meld] = l.count; });
      }
      Object.keys(named).forEach(function (id) {
        form.appendChild(el('input', { type: 'hidden', name: 'meld_detail.' + p.name + '.' + id,
          value: String(named[id]), 'data-meld-detail-for': name }));
      });
    });
    this.field.value = String(this.total());
    this.field.setAttribute('data-meld-filled', this.field.value);
    this.field.dispatchEvent(new Event('input', { bubbles: true }));
    this.field.dispatchEvent(new Event('change', { bubbles: true }));
    this.dialog.close();
  };

  function open(box) {
    style();
    var calc = new Calculator(box);
    document.body.appendChild(calc.build());
    calc.dialog.showModal();
    calc.draw();
    calc.counts.forEach(function (c, i) { if (Object.keys(c).length) calc.refresh(i); });
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
