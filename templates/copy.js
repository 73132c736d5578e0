// "Copy the link": a button with data-copy="ID" copies that field's value and says so.
// Without script (or clipboard access) the field itself can still be selected and copied.
(function () {
  document.querySelectorAll('button[data-copy]').forEach(function (button) {
    button.addEventListener('click', function () {
      var field = document.getElementById(button.getAttribute('data-copy'));
      if (!field || !navigator.clipboard) { if (field) field.select(); return; }
      navigator.clipboard.writeText(field.value).then(function () {
        button.textContent = 'Copied';
      }, function () { field.select(); });
    });
  });
})();
