// Replay viewer: the server draws the final position; this steps through the frames it embeds.
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var data = document.getElementById("frames");
  if (!root || !data) return;
  var frames = JSON.parse(data.textContent);
  var step = parseInt(root.querySelector('[data-role="step"]').textContent, 10) || 0;
  var chipsCache = {};
  document.querySelectorAll(".chip[data-slice]").forEach(function (chip) {
    chipsCache[chip.dataset.slice] = chip.cloneNode(true);
  });
  root.querySelectorAll("svg.pizza .slice").forEach(function (g) {
    if (!chipsCache[g.dataset.slice]) {
      var title = g.querySelector("title").textContent.split(" — ")[0];
      var chip = document.createElement("span");
      chip.className = "chip " + Array.prototype.filter.call(g.classList, function (c) { return c.indexOf("sort-") === 0; }).join(" ");
      chip.title = title;
      chip.innerHTML = '<span aria-hidden="true"></span><span class="visually-hidden"></span>';
      chip.firstChild.textContent = g.querySelector(".letter").textContent;
      chip.lastChild.textContent = title;
      if (g.querySelector(".medallion")) chip.classList.add("finisher");
      chipsCache[g.dataset.slice] = chip;
    }
    g.dataset.title = g.querySelector("title").textContent.split(" — ")[0];
  });
  function chip(sid, eaten) {
    var node = chipsCache[String(sid)].cloneNode(true);
    node.classList.toggle("eaten-chip", !!eaten);
    return node;
  }
  function show(target) {
    step = Math.max(0, Math.min(frames.length - 1, target));
    var frame = frames[step];
    root.querySelector('[data-role="step"]').textContent = step;
    root.querySelector('[data-role="caption"]').textContent = frame.caption;
    root.querySelectorAll("svg.pizza").forEach(function (svg) {
      var p = parseInt(svg.dataset.pizza, 10);
      svg.classList.toggle("dimmed", p > frame.pizza);
      var cuts = frame.cuts[p] || [];
      svg.querySelectorAll("line.cut").forEach(function (line) {
        line.classList.toggle("shown", cuts.indexOf(parseInt(line.dataset.gap, 10)) >= 0);
      });
      svg.querySelectorAll(".slice").forEach(function (g) {
        var sid = g.dataset.slice, eaten = frame.eaten[sid], owner = frame.owner[sid];
        g.classList.toggle("eaten", eaten !== undefined);
        g.classList.toggle("kept", eaten === undefined && owner !== undefined);
        g.classList.toggle("moved", frame.moved.indexOf(parseInt(sid, 10)) >= 0);
        var who = eaten !== undefined ? eaten : owner;
        g.querySelector(".owner").textContent = who === undefined ? "" : String(who + 1);
        g.querySelector("title").textContent = g.dataset.title + (who === undefined ? "" : " — " + (eaten !== undefined ? "✕ " : "") + (who + 1));
        g.setAttribute("aria-label", g.querySelector("title").textContent);
      });
    });
    root.querySelectorAll('[data-role="kept"]').forEach(function (cell) {
      cell.replaceChildren.apply(cell, frame.kept[cell.dataset.seat].map(function (s) { return chip(s, false); }));
    });
    root.querySelectorAll('[data-role="eaten"]').forEach(function (cell) {
      cell.replaceChildren.apply(cell, frame.eatenBySeat[cell.dataset.seat].map(function (s) { return chip(s, true); }));
    });
    root.querySelectorAll('[data-role="total"]').forEach(function (cell) {
      cell.textContent = frame.totals[cell.dataset.seat];
    });
    var links = { first: 0, prev: Math.max(0, step - 1), next: Math.min(frames.length - 1, step + 1), last: frames.length - 1 };
    root.querySelectorAll("[data-step]").forEach(function (a) { a.href = "?step=" + links[a.dataset.step]; });
    history.replaceState(null, "", "?step=" + step);
  }
  root.querySelectorAll("[data-step]").forEach(function (a) {
    a.setAttribute("role", "button");
    a.addEventListener("click", function (event) {
      event.preventDefault();
      var where = a.dataset.step;
      show(where === "first" ? 0 : where === "last" ? frames.length - 1 : where === "prev" ? step - 1 : step + 1);
    });
  });
  document.addEventListener("keydown", function (event) {
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    if (event.key === "ArrowRight") show(step + 1);
    else if (event.key === "ArrowLeft") show(step - 1);
    else if (event.key === "Home") show(0);
    else if (event.key === "End") show(frames.length - 1);
    else return;
    event.preventDefault();
  });
})();
