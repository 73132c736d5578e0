// The card picker on the poker hand form (rules §1.11: ranks 2–9 T J Q K A, suits S H D C).
// Every card field of the form (the board, each player's hole cards or own cards) names how
// many cards it takes (data-cards, data-cards-min); this script puts one 52-card panel under
// the field being filled: a tap writes the card into the field, a card already written
// anywhere in the hand is greyed out, and a full field hands the panel on to the next one
// still showing (a folded player's fields are hidden), so a showdown is one tap per card.
// The fields stay plain text: typing still works and greys the cards typed, and without
// this script the form posts exactly as before.
(function () {
  'use strict';
  var SUITS = [['S', '\u2660', 'spades'], ['H', '\u2665', 'hearts'], ['D', '\u2666', 'diamonds'],
    ['C', '\u2663', 'clubs']];
  var RANKS = [['A', 'A', 'ace'], ['K', 'K', 'king'], ['Q', 'Q', 'queen'], ['J', 'J', 'jack'],
    ['T', '10', '10'], ['9', '9', '9'], ['8', '8', '8'], ['7', '7', '7'], ['6', '6', '6'],
    ['5', '5', '5'], ['4', '4', '4'], ['3', '3', '3'], ['2', '2', '2']];

  function el(tag, props, text) {
    var e = document.createElement(tag);
    Object.keys(props || {}).forEach(function (k) { e.setAttribute(k, props[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function cardsIn(field) {
    return field.value.toUpperCase().split(/[\s,]+/).filter(Boolean);
  }

  function most(field) { return Number(field.getAttribute('data-cards')) || 5; }

  // "A♠ 10♦" for a field's cards, as the panel shows them.
  function shown(codes) {
    return codes.map(function (c) {
      var rank = RANKS.filter(function (r) { return r[0] === c[0]; })[0];
      var suit = SUITS.filter(function (s) { return s[0] === c[1]; })[0];
      return rank && suit && c.length === 2 ? rank[1] + suit[1] : c;
    }).join(' ');
  }

  function Picker(form) {
    this.form = form;
    this.panel = el('div', { 'class': 'card-picker', role: 'group', 'aria-label': 'Tap the cards' });
    this.caption = el('p', { 'class': 'picking', role: 'status', 'aria-live': 'polite' });
    this.panel.appendChild(this.caption);
    this.buttons = {};
    var grid = el('div', { 'class': 'card-grid' }), picker = this;
    SUITS.forEach(function (s) {
      RANKS.forEach(function (r) {
        var code = r[0] + s[0];
        var b = el('button', { type: 'button', 'class': 'card suit-' + s[0], 'data-card': code,
          'aria-label': r[2] + ' of ' + s[2] }, r[1] + s[1]);
        b.addEventListener('click', function () { picker.tap(code); });
        picker.buttons[code] = b;
        grid.appendChild(b);
      });
      grid.appendChild(el('span', { 'class': 'card-gap', 'aria-hidden': 'true' }));
    });
    this.panel.appendChild(grid);
    var actions = el('p', { 'class': 'card-actions' });
    var back = el('button', { type: 'button', 'class': 'secondary' }, '\u232b Take back a card');
    back.addEventListener('click', function () { picker.back(); });
    var next = el('button', { type: 'button', 'class': 'secondary' }, 'Next \u203a');
    next.addEventListener('click', function () { picker.next(true); });
    actions.appendChild(back);
    actions.appendChild(next);
    if (form.querySelector('[data-jokers]')) {
      var joker = el('button', { type: 'button', 'class': 'secondary', 'aria-label': 'joker' }, 'JK');
      joker.addEventListener('click', function () { picker.tap('JK', true); });
      actions.appendChild(joker);
    }
    this.panel.appendChild(actions);
  }

  function showing(f) { return f.getClientRects().length > 0; }

  // The card fields now showing, in the form's order: the board, then seat by seat.
  Picker.prototype.fields = function () {
    return Array.prototype.filter.call(this.form.querySelectorAll('input[data-cards]'), showing);
  };

  Picker.prototype.attach = function (field) {
    if (this.field) this.field.closest('label').classList.remove('picking-here');
    this.field = field;
    var label = field.closest('label');
    label.classList.add('picking-here');
    label.after(this.panel);
    this.draw();
  };

  // Writes `code` into the field; a full field passes the panel on. A joker may repeat.
  Picker.prototype.tap = function (code, repeats) {
    var field = this.field, cards = field ? cardsIn(field) : [];
    if (!field || cards.length >= most(field) || (!repeats && this.used()[code])) return;
    cards.push(code);
    field.value = cards.join(' ');
    field.dispatchEvent(new Event('input', { bubbles: true }));
    field.dispatchEvent(new Event('change', { bubbles: true }));
    if (cards.length >= most(field)) this.next(false);
    this.draw();
  };

  // Takes the field's last card back; from an empty field, the previous field's.
  Picker.prototype.back = function () {
    var fields = this.fields(), i = fields.indexOf(this.field);
    if (!cardsIn(this.field).length && i > 0) this.attach(fields[i - 1]);
    var cards = cardsIn(this.field);
    cards.pop();
    this.field.value = cards.join(' ');
    this.field.dispatchEvent(new Event('input', { bubbles: true }));
    this.draw();
  };

  // On to the next field still to fill (`any`: the next one at all, full or not).
  Picker.prototype.next = function (any) {
    var fields = Array.prototype.slice.call(this.form.querySelectorAll('input[data-cards]'));
    var rest = fields.slice(fields.indexOf(this.field) + 1).filter(function (f) {
      return showing(f) && (any || cardsIn(f).length < most(f));
    });
    if (!rest.length) return;
    this.attach(rest[0]);
    this.panel.scrollIntoView({ block: 'nearest' });
  };

  Picker.prototype.used = function () {
    var used = {};
    this.fields().forEach(function (f) { cardsIn(f).forEach(function (c) { used[c] = true; }); });
    return used;
  };

  Picker.prototype.draw = function () {
    if (!this.field) return;
    var used = this.used(), picker = this, cards = cardsIn(this.field);
    Object.keys(this.buttons).forEach(function (code) {
      picker.buttons[code].disabled = !!used[code];
    });
    var name = this.field.getAttribute('data-cards-label') || 'Cards';
    this.caption.textContent = name + ': ' + (cards.length ? shown(cards) : 'none yet') +
      ' (' + cards.length + ' of ' + most(this.field) + ')';
  };

  function start(form) {
    if (form.cardPicker || !form.querySelector('input[data-cards]')) return;
    var picker = new Picker(form);
    form.cardPicker = picker;
    var first = picker.fields()[0];
    if (first) picker.attach(first);
    form.addEventListener('focusin', function (e) {
      if (e.target.matches('input[data-cards]')) picker.attach(e.target);
    });
    // Typed cards grey out as tapped ones do; a fold that hides the field moves the panel on.
    form.addEventListener('input', function (e) {
      if (e.target.matches('input[data-cards]')) picker.draw();
    });
    form.addEventListener('change', function (e) {
      if (!e.target.matches('input[type=checkbox]') || !picker.field) return;
      if (!picker.field.getClientRects().length) picker.next(false);
      picker.draw();
    });
  }

  function startAll() {
    document.querySelectorAll('form.hand-form').forEach(start);
  }
  startAll();
  // The live sheet swaps the hand form in again: give the new one its panel.
  new MutationObserver(startAll).observe(document.body, { childList: true, subtree: true });
})();
