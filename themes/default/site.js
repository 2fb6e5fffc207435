// fairbench: sortable tables and a target filter. The pages work without
// this script; it only reorders and hides rows. State lives in the URL
// (?sort=column&dir=asc&q=text) so a sorted, filtered view can be shared.
(function () {
  "use strict";
  var params = new URLSearchParams(location.search);

  function save() {
    var q = params.toString();
    history.replaceState(null, "", location.pathname + (q ? "?" + q : "") + location.hash);
  }

  // units the pages print after numbers, in base units
  var scale = { "µs": 1e-6, "ms": 1e-3, "s": 1, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "%": 1 };

  // key is a cell's sort key: its data-v, else the number it shows
  // ("12,345", "1.23M", "404 µs"); cells without a number sort last.
  function key(cell, kind) {
    var shown = (cell.querySelector("a, span") || cell).textContent.trim();
    if (kind !== "num") return shown.toLowerCase();
    var v = cell.getAttribute("data-v");
    if (v !== null) return parseFloat(v);
    var m = /^([-+]?[\d,]*\.?\d+)\s*(µs|ms|s|k|K|M|G|%)?$/.exec(shown);
    if (!m) return -Infinity;
    return parseFloat(m[1].replace(/,/g, "")) * (m[2] ? scale[m[2]] : 1);
  }

  function sortBy(table, col, dir) {
    var th = table.tHead.rows[0].cells[col];
    var kind = th.getAttribute("data-sort");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (r, i) { r.fbIndex = i; });
    rows.sort(function (a, b) {
      var x = key(a.cells[col], kind), y = key(b.cells[col], kind);
      if (x < y) return dir === "asc" ? -1 : 1;
      if (x > y) return dir === "asc" ? 1 : -1;
      return a.fbIndex - b.fbIndex;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) { c.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir === "asc" ? "ascending" : "descending");
  }

  var tables = document.querySelectorAll("table.sortable");
  Array.prototype.forEach.call(tables, function (table, n) {
    var prefix = n === 0 ? "" : table.id + ".";
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      if (!th.hasAttribute("data-sort")) return;
      th.tabIndex = 0;
      function go() {
        var dir = th.getAttribute("aria-sort") === "descending" ? "asc" : "desc";
        if (th.getAttribute("data-sort") === "text" && !th.hasAttribute("aria-sort")) dir = "asc";
        sortBy(table, col, dir);
        params.set(prefix + "sort", String(col));
        params.set(prefix + "dir", dir);
        save();
      }
      th.addEventListener("click", go);
      th.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
    });
    var col = parseInt(params.get(prefix + "sort"), 10);
    if (!isNaN(col) && col >= 0 && col < table.tHead.rows[0].cells.length && table.tHead.rows[0].cells[col].hasAttribute("data-sort")) {
      sortBy(table, col, params.get(prefix + "dir") === "asc" ? "asc" : "desc");
    }
  });

  // Filters: a form's controls each name their table (data-filter) and
  // the column they test (data-col, 0 if absent); a search box keeps rows
  // whose cell contains its text, a select rows whose cell equals its
  // choice ("" keeps all). A row shows when every control keeps it. Each
  // control's value is kept in the URL under its name.
  Array.prototype.forEach.call(document.querySelectorAll("form.filter"), function (form) {
    var controls = Array.prototype.slice.call(form.querySelectorAll("[data-filter]"));
    if (controls.length === 0) return;
    var table = document.getElementById(controls[0].getAttribute("data-filter"));
    if (!table) return;
    form.hidden = false;
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    function keeps(control, row) {
      var q = control.value.trim().toLowerCase();
      if (q === "") return true;
      var cell = row.cells[parseInt(control.getAttribute("data-col") || "0", 10)];
      var text = cell ? cell.textContent.trim().toLowerCase() : "";
      return control.tagName === "SELECT" ? text === q : text.indexOf(q) >= 0;
    }
    function apply() {
      Array.prototype.forEach.call(table.tBodies[0].rows, function (r) {
        r.classList.toggle("filtered", !controls.every(function (c) { return keeps(c, r); }));
      });
    }
    controls.forEach(function (c) {
      c.value = params.get(c.name) || "";
      c.addEventListener(c.tagName === "SELECT" ? "change" : "input", function () {
        if (c.value) params.set(c.name, c.value); else params.delete(c.name);
        save();
        apply();
      });
    });
    apply();
  });
})();
