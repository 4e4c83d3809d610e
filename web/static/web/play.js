// Play table: polls the state endpoint, swaps in the server-drawn panel when the game moves on,
// sends the decision without reloading, and runs the clock.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var panel = document.getElementById("panel");
  if (!panel) return;
  var turn = panel.dataset.turn, status = panel.dataset.status;
  var busy = false;

  function csrf() {
    var input = panel.querySelector("input[name=csrfmiddlewaretoken]") || document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  // Listeners are added once per element: a decision form kept across a redraw keeps its own.
  function on(element, type, handler) {
    var key = "bound" + type;
    if (element.dataset[key]) return;
    element.dataset[key] = "1";
    element.addEventListener(type, handler);
  }

  function showGap(box) {
    var line = panel.querySelector('line.cut[data-gap="' + box.value + '"]');
    var dot = panel.querySelector('.gap-button[data-gap="' + box.value + '"]');
    if (line) line.classList.toggle("pending", box.checked);
    if (dot) { dot.classList.toggle("on", box.checked); dot.setAttribute("aria-pressed", box.checked ? "true" : "false"); }
  }

  function bind() {
    // Gap dots on the pizza mirror the gap checkboxes.
    panel.querySelectorAll(".gap-button, .gap-hit").forEach(function (dot) {
      on(dot, "click", function () {
        var box = panel.querySelector('input[name=gap][data-gap="' + dot.dataset.gap + '"]');
        if (box) { box.checked = !box.checked; box.dispatchEvent(new Event("change", { bubbles: true })); }
      });
    });
    panel.querySelectorAll("input[name=gap]").forEach(function (box) {
      on(box, "change", function () { showGap(box); countGaps(); showError(""); unprepare(); });
      showGap(box);
    });
    // Eating a slice and giving it with La Marianne exclude each other; so do eating a double
    // finisher and stealing with it.
    panel.querySelectorAll("input[name^=eat-]").forEach(function (box) {
      on(box, "change", function () { exclusions(); unprepare(); });
    });
    panel.querySelectorAll("input[name=give], input[name=take], select[name^=steal-]").forEach(function (box) {
      on(box, "change", function () { exclusions(); unprepare(); });
    });
    exclusions();
    function choosePortion() {
      var chosen = panel.querySelector("input[name=portion]:checked");
      panel.querySelectorAll(".portion").forEach(function (div) {
        div.classList.toggle("selected", !!chosen && div.dataset.portion === chosen.value);
      });
      panel.querySelectorAll("svg.pizza .slice[data-portion]").forEach(function (g) {
        g.classList.toggle("chosen", !!chosen && g.dataset.portion === chosen.value);
      });
      panel.querySelectorAll(".card-choices label.with-portion").forEach(function (label) {
        var shown = !!chosen && label.dataset.portion === chosen.value;
        label.hidden = !shown;
        if (!shown) label.querySelector("input").checked = false;
      });
    }
    panel.querySelectorAll("input[name=portion]").forEach(function (radio) {
      on(radio, "change", function () { choosePortion(); exclusions(); showError(""); unprepare(); });
    });
    panel.querySelectorAll("svg.pizza .slice[data-portion]").forEach(function (g) {
      on(g, "click", function () {
        var radio = panel.querySelector('input[name=portion][value="' + g.dataset.portion + '"]');
        if (radio) { radio.checked = true; choosePortion(); unprepare(); radio.focus(); }
      });
    });
    choosePortion();
    var card = document.getElementById("use-card");
    if (card) {
      var using = function () { card.closest(".marianne").classList.toggle("using", card.checked); };
      on(card, "change", function () { using(); unprepare(); });
      using();
    }
    panel.querySelectorAll("button[data-confirm]").forEach(function (button) {
      on(button, "click", function (event) { if (!window.confirm(button.dataset.confirm)) event.preventDefault(); });
    });
    var cancel = document.getElementById("change-decision");
    if (cancel) on(cancel, "click", function () { unprepare(); });
    // The table's own forms (a decision, leaving); the game-over forms go to the lobby as usual.
    panel.querySelectorAll("form:not([action])").forEach(function (f) {
      on(f, "submit", function (event) {
        event.preventDefault();
        send(f);
      });
    });
    tick();
    countGaps();
    attention();
  }

  // The tab's title, an optional sound and the screen reader's announcement follow the turn.
  var lastAnnounced = null, wasMyTurn = false, logSeen = null;
  function attention() {
    var line = document.getElementById("status-line");
    var mine = !!(line && line.dataset.yourTurn);
    document.title = (mine ? "● " + panel.dataset.yourTurnTitle + " — " : "") + panel.dataset.title;
    // Every log line that came since the last redraw (two moves landing together are both told),
    // oldest first; the log lists the newest first.
    var lines = panel.querySelectorAll(".game-log li[data-entry]");
    var fresh = [];
    for (var i = 0; i < lines.length && logSeen !== null && i < lines.length - logSeen; i++) fresh.unshift(lines[i].textContent.trim());
    logSeen = lines.length;
    var text = fresh.join(" ") + " " + (line ? line.textContent.trim().replace(/\s+/g, " ") : "");
    var announce = document.getElementById("announce");
    if (announce && lastAnnounced !== null && text !== lastAnnounced) announce.textContent = text.trim();
    lastAnnounced = text;
    var sound = document.getElementById("sound-on");
    if (mine && !wasMyTurn && sound && sound.checked) beep();
    wasMyTurn = mine;
  }

  function beep() {
    try {
      var Context = window.AudioContext || window.webkitAudioContext;
      var audio = new Context(), tone = audio.createOscillator(), gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.value = 0.08;
      tone.connect(gain); gain.connect(audio.destination);
      tone.start(); tone.stop(audio.currentTime + 0.18);
    } catch (e) { /* no audio: the title still changes */ }
  }

  var soundBox = document.getElementById("sound-on");
  if (soundBox) {
    soundBox.checked = window.localStorage && localStorage.getItem("arena-sound") === "on";
    soundBox.addEventListener("change", function () {
      if (window.localStorage) localStorage.setItem("arena-sound", soundBox.checked ? "on" : "off");
    });
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) { return String(values[key]); });
  }

  function chosenGaps() { return panel.querySelectorAll("input[name=gap]:checked").length; }

  function countGaps() {
    var counter = document.getElementById("gap-count");
    if (!counter) return;
    counter.textContent = fill(counter.dataset.counting, { n: chosenGaps(), need: counter.dataset.need });
    counter.classList.toggle("complete", chosenGaps() === parseInt(counter.dataset.need, 10));
  }

  function exclusions() {
    var eaten = {};
    var chosen = panel.querySelector("input[name=portion]:checked");
    panel.querySelectorAll("input[name^=eat-]:checked").forEach(function (box) {
      if (chosen && box.name === "eat-" + chosen.value) eaten[box.value] = true;
    });
    panel.querySelectorAll("input[name=give]").forEach(function (box) {
      var label = box.closest("label");
      if (eaten[box.value]) box.checked = false;
      box.disabled = !!eaten[box.value];
      if (label) label.classList.toggle("excluded", !!eaten[box.value]);
    });
    panel.querySelectorAll("select[name^=steal-]").forEach(function (select) {
      var finisher = select.name.split("-")[2];
      if (eaten[finisher]) select.value = "";
      select.disabled = !!eaten[finisher];
    });
  }

  function showError(text, field) {
    var box = document.getElementById("play-error");
    if (!box) return;
    box.textContent = text;
    panel.querySelectorAll("fieldset.invalid").forEach(function (f) { f.classList.remove("invalid"); f.removeAttribute("aria-invalid"); });
    if (text && field) {
      var target = panel.querySelector('.portion.selected [data-field="' + field + '"]') || panel.querySelector('[data-field="' + field + '"]');
      if (target) { target.classList.add("invalid"); target.setAttribute("aria-invalid", "true"); }
    }
  }

  // The confirm step: with the option on, the first press prepares the decision (it shows on the
  // pizza: the cut lines, or the portion chosen) and a second press sends it; any change unprepares.
  var prepared = false;
  var confirmBox = document.getElementById("confirm-on");
  if (confirmBox) {
    confirmBox.checked = !!(window.localStorage && localStorage.getItem("arena-confirm") === "on");
    confirmBox.addEventListener("change", function () {
      if (window.localStorage) localStorage.setItem("arena-confirm", confirmBox.checked ? "on" : "off");
      unprepare();
    });
  }
  function unprepare() {
    prepared = false;
    var form = document.getElementById("play-form");
    var button = document.getElementById("send"), change = document.getElementById("change-decision");
    if (form) form.classList.remove("prepared");
    if (button && button.dataset.label) button.textContent = button.dataset.label;
    if (change) change.hidden = true;
  }
  function prepare(form) {
    var button = document.getElementById("send"), change = document.getElementById("change-decision");
    if (form.id === "play-form" && !form.querySelector("input[name=portion]:checked") && form.querySelector("input[name=portion]")) {
      showError(form.dataset.choosePortion || "", "portion");
      return;
    }
    prepared = true;
    form.classList.add("prepared");
    if (button) { button.dataset.label = button.dataset.label || button.textContent; button.textContent = button.dataset.confirmLabel; button.focus({ preventScroll: true }); }
    if (change) change.hidden = false;
  }

  // What went wrong with a request, in the person's words: no answer at all (offline), or the server's
  // error (busy: try again in Retry-After seconds, or in a moment).
  function trouble(failure) {
    if (!failure || !failure.status) return panel.dataset.offline;
    var seconds = parseInt(failure.retryAfter || "", 10);
    return isNaN(seconds) ? panel.dataset.serverError : panel.dataset.busy.replace("{s}", seconds);
  }

  function send(form) {
    var button = form.querySelector("button[type=submit]");
    var counter = document.getElementById("gap-count");
    if (form.id === "play-form" && counter && chosenGaps() !== parseInt(counter.dataset.need, 10)) {
      // What the rules would refuse, said before asking them.
      showError(fill(counter.dataset.wrong, { n: chosenGaps(), need: counter.dataset.need }), "cut");
      return;
    }
    if (form.id === "play-form" && confirmBox && confirmBox.checked && !prepared) { showError(""); prepare(form); return; }
    if (button) button.disabled = true;
    showError("");
    fetch(window.location.pathname, {
      method: "POST",
      body: new FormData(form),
      headers: { "X-Requested-With": "fetch", "X-CSRFToken": csrf() },
      credentials: "same-origin",
    }).then(function (response) {
      // A server that answered with an error is not a lost connection: it says so, and when to retry.
      if (response.status >= 500) throw { status: response.status, retryAfter: response.headers.get("Retry-After") };
      return response.json();
    }).then(function (answer) {
      if (!answer.ok) { unprepare(); showError(answer.error, answer.field); if (button) button.disabled = false; return; }
      refresh(true);
    }).catch(function (failure) { showError(trouble(failure)); if (button) button.disabled = false; });
  }

  var again = false;
  function done() {
    busy = false;
    delete panel.dataset.reading;
    // Counted for whoever waits on the table (tests, scripts): one more reading of the panel.
    panel.dataset.refreshes = String(+(panel.dataset.refreshes || 0) + 1);
    // An update announced while this one was under way: read again.
    if (again) { again = false; refresh(false); }
  }

  // At the same decision the person's form and the pizza stay the very nodes they are, and the rest is
  // taken from the fresh panel around them: a node taken out of the page, even for a moment, loses a
  // press that went down on it before the redraw and comes up after (the click never fires).
  function holds(node, kept) {
    return kept.some(function (k) { return node.contains(k); });
  }
  function sameShape(old, fresh, kept) {
    if (kept.indexOf(old) >= 0 || !holds(old, kept)) return true;
    if (old.nodeName !== fresh.nodeName || old.childNodes.length !== fresh.childNodes.length) return false;
    for (var i = 0; i < old.childNodes.length; i++) {
      if (!sameShape(old.childNodes[i], fresh.childNodes[i], kept)) return false;
    }
    return true;
  }
  function graft(old, fresh, kept) {
    if (kept.indexOf(old) >= 0) return;
    if (!holds(old, kept)) { old.replaceWith(fresh); return; }
    if (old !== panel) {
      Array.prototype.slice.call(old.attributes).forEach(function (a) {
        if (!fresh.hasAttribute(a.name)) old.removeAttribute(a.name);
      });
      Array.prototype.slice.call(fresh.attributes).forEach(function (a) { old.setAttribute(a.name, a.value); });
    }
    var olds = Array.prototype.slice.call(old.childNodes), freshes = Array.prototype.slice.call(fresh.childNodes);
    for (var i = 0; i < olds.length; i++) graft(olds[i], freshes[i], kept);
  }

  // One request gives the panel and the turn it was drawn at, so the turn and the form always agree.
  // A redraw at the same decision keeps the person's form as it is (ticks, choices, focus); the rest
  // of the panel (players, log, clock) is redrawn around it.
  var drawn = "";
  function refresh(force) {
    if (busy) { again = true; return; }
    busy = true;
    // Shown while a reading is under way, for whoever waits on the table (tests, scripts).
    panel.dataset.reading = "1";
    fetch(panel.dataset.panelUrl, { credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.text(); })
      .then(function (html) {
        var fresh = document.createElement("div");
        fresh.innerHTML = html;
        var layout = fresh.querySelector(".table-layout");
        if (!layout) { done(); return; }
        var newTurn = layout.dataset.turn, newStatus = layout.dataset.status;
        // A finished table does not change any more: drawn once, it stays as it is.
        if (!force && (html === drawn || (status === "finished" && newStatus === "finished"))) { done(); return; }
        var oldForm = document.getElementById("play-form");
        var newForm = fresh.querySelector("#play-form");
        var sameDecision = oldForm && newForm && newTurn === turn && newStatus === status;
        var active = document.activeElement;
        // What the person opened stays open (the earlier pizzas).
        var earlier = document.getElementById("earlier"), newEarlier = fresh.querySelector("#earlier");
        if (earlier && newEarlier && earlier.open) newEarlier.open = true;
        if (newStatus === "finished") {
          var playing = document.querySelector('header a.playing[data-table="' + panel.dataset.match + '"]');
          if (playing) playing.remove();
        }
        if (!sameDecision) prepared = false;
        var focused = document.activeElement && document.activeElement !== document.body && panel.contains(document.activeElement);
        var kept = sameDecision ? [oldForm, panel.querySelector("svg.pizza")].filter(Boolean) : [];
        if (kept.length && sameShape(panel, fresh, kept)) graft(panel, fresh, kept);
        else {
          if (sameDecision) newForm.replaceWith(oldForm);
          panel.replaceChildren.apply(panel, Array.prototype.slice.call(fresh.childNodes));
        }
        drawn = html;
        var moved = newTurn !== turn || newStatus !== status;
        turn = newTurn; status = newStatus;
        panel.dataset.turn = turn; panel.dataset.status = status;
        bind();
        if (sameDecision && active && oldForm.contains(active)) active.focus({ preventScroll: true });
        var first = panel.querySelector("#play-form input:not([type=hidden])");
        if (moved && first && !focused) first.focus({ preventScroll: true });
        done();
      })
      .catch(function () { done(); });
  }

  var clockTimer = null;
  function tick() {
    var clock = panel.querySelector(".clock");
    if (clockTimer) clearInterval(clockTimer);
    if (!clock) return;
    var deadline = Date.now() + 1000 * parseFloat(clock.dataset.seconds || "0");
    var template = clock.textContent.replace(/\d+/, "{s}");
    clockTimer = setInterval(function () {
      var left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
      clock.textContent = template.replace("{s}", left);
      clock.classList.toggle("low", left <= 10);
    }, 1000);
  }

  // Pushed updates: each move is announced on the table's stream; polling stays as the fallback,
  // rarer while the stream is open.
  var streaming = false;
  if (window.arenaLive) {
    window.arenaLive.listen(panel.dataset.eventsUrl, {
      ready: function () { streaming = true; refresh(false); window.dispatchEvent(new CustomEvent("table-chat")); },
      down: function () { streaming = false; },
      message: function (event) {
        if (event.type === "chat") { window.dispatchEvent(new CustomEvent("table-chat")); return; }
        refresh(false);
      }
    });
  }
  bind();
  var ticks = 0;
  setInterval(function () {
    ticks += 1;
    if (status !== "finished" && (!streaming || ticks % 8 === 0)) refresh(false);
  }, 1500);
})();
