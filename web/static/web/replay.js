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
    var targets = { first: 0, prev: Math.max(0, step - 1), next: Math.min(frames.length - 1, step + 1), last: frames.length - 1 };
    root.querySelectorAll("[data-step]").forEach(function (b) { b.value = targets[b.dataset.step]; });
    if (scrub) scrub.value = step;
    history.replaceState(null, "", "?step=" + step);
  }
  var scrub = root.querySelector('[data-role="scrub"]');
  root.querySelectorAll("[data-step]").forEach(function (b) {
    b.addEventListener("click", function (event) {
      event.preventDefault();
      var where = b.dataset.step;
      stop();
      show(where === "first" ? 0 : where === "last" ? frames.length - 1 : where === "prev" ? step - 1 : step + 1);
    });
  });
  if (scrub) scrub.addEventListener("input", function () { stop(); show(parseInt(scrub.value, 10)); });
  // Autoplay at the chosen speed; any other control stops it.
  var play = root.querySelector('[data-role="autoplay"]');
  var speed = root.querySelector('[data-role="speed"]');
  var timer = null;
  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    if (play) { play.textContent = play.dataset.play; play.setAttribute("aria-pressed", "false"); }
  }
  function start() {
    if (step >= frames.length - 1) show(0);
    play.textContent = play.dataset.pause;
    play.setAttribute("aria-pressed", "true");
    timer = setInterval(function () {
      if (step >= frames.length - 1) { stop(); return; }
      show(step + 1);
    }, parseInt(speed.value, 10));
  }
  if (play && speed) {
    play.hidden = false;
    root.querySelector('[data-role="speed-box"]').hidden = false;
    play.addEventListener("click", function () { if (timer) stop(); else start(); });
    speed.addEventListener("change", function () { if (timer) { stop(); start(); } });
  }
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
