// A house game's hand form (rules §1.12): under each player's number, buttons that add
// ±1, ±5, ±10 and the game's common values to it; beside his name, his new total as the
// hand is typed; under the rows, what the hand adds up to, and before Enter, a hand that
// does not add up to one of the agreed totals is stopped with the words the server would
// say. Without script the numbers are typed and the server checks the same.
function houseForms(root) {
  root.querySelectorAll('form.house-form').forEach(function (form) {
    if (form.hasAttribute('data-house-done')) return;
    form.setAttribute('data-house-done', '');
    var totals = (form.getAttribute('data-totals') || '').split(/\s+/).filter(Boolean).map(Number);
    var line = form.querySelector('.hand-sum');
    var fields = Array.prototype.slice.call(form.querySelectorAll('input[data-running]'));
    var minus = function (n) { return n < 0 ? '\u2212' + (-n) : String(n); };
    var read = function (field) { return parseInt(field.value.replace('\u2212', '-'), 10) || 0; };
    function sum() {
      var hand = 0;
      fields.forEach(function (field) {
        var n = read(field);
        hand += n;
        var shown = form.querySelector('[data-total-for="' + field.name.replace(/"/g, '\\"') + '"]');
        if (shown) shown.textContent = field.value.trim() === '' ? '' : ' \u2192 ' + minus(Number(field.getAttribute('data-running')) + n);
      });
      var fits = totals.length === 0 || totals.indexOf(hand) >= 0;
      var allowed = totals.map(String).join(' or ');
      line.textContent = 'This hand adds up to ' + minus(hand) +
        (totals.length === 0 ? '.' : fits ? ', as it should.' : ': every hand adds up to ' + allowed + '. Check each player\u2019s count.');
      line.classList.toggle('error', !fits);
      return fits;
    }
    fields.forEach(function (field) {
      var row = document.createElement('span');
      row.className = 'quick add';
      var who = field.closest('.house-row').querySelector('b').textContent;
      (field.getAttribute('data-add') || '').split(/\s+/).filter(Boolean).forEach(function (v) {
        var b = document.createElement('button');
        b.type = 'button';
        b.className = 'quick';
        b.textContent = Number(v) > 0 ? '+' + v : minus(Number(v));
        b.setAttribute('aria-label', who + ' ' + b.textContent);
        b.addEventListener('click', function () {
          field.value = String(read(field) + Number(v));
          field.dispatchEvent(new Event('input', { bubbles: true }));
        });
        row.appendChild(b);
      });
      field.parentNode.appendChild(row);
    });
    form.addEventListener('input', sum);
    form.addEventListener('submit', function (event) {
      var by = event.submitter;
      if (by && (by.name === 'moon' || by.name === 'game_over')) return;
      if (sum()) return;
      event.preventDefault();
      event.stopPropagation();
      line.focus();
    });
    sum();
  });
}
houseForms(document);
document.addEventListener('sheet:updated', function () { houseForms(document); });
