
(function () {
  'use strict';
  var table = document.getElementById('items-table');
  if (!table) return;
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var filter = document.getElementById('filter');
  var positive = document.getElementById('positive');
  var shown = document.getElementById('shown');
  function apply() {
    var q = filter.value.toLowerCase();
    var count = 0;
    rows.forEach(function (r) {
      var ok = (!q || r.textContent.toLowerCase().indexOf(q) >= 0) &&
               (!positive.checked || parseFloat(r.getAttribute('data-diff')) > 0);
      r.hidden = !ok;
      if (ok) count++;
    });
    shown.textContent = count + ' of ' + rows.length + ' rows';
  }
  function key(r, i) {
    var c = r.cells[i];
    var v = c.getAttribute('data-v');
    return v === null ? c.textContent.toLowerCase() : parseFloat(v);
  }
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (th, i) {
    function sort() {
      var dir = th.getAttribute('aria-sort') === 'descending' ? 1 : -1;
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
      rows.sort(function (a, b) {
        var x = key(a, i), y = key(b, i);
        return x < y ? -dir : x > y ? dir : 0;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    }
    th.addEventListener('click', sort);
    th.addEventListener('keydown', function (e) { if (e.key === 'Enter') sort(); });
  });
  filter.addEventListener('input', apply);
  positive.addEventListener('change', apply);
  apply();
})();
