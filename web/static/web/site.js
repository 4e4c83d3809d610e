// Every page: the phone menu, and for a signed-in person the notices bar (invitations, tables waiting,
// declines), kept live by their stream, with optional browser notifications (asked for by a button,
// never on load) when it is their turn or they are invited.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var header = document.getElementById("top"), menuButton = document.getElementById("menu-button");
  if (header && menuButton) {
    menuButton.hidden = false;
    menuButton.addEventListener("click", function () {
      var open = header.classList.toggle("open");
      menuButton.setAttribute("aria-expanded", open ? "true" : "false");
    });
  }

  var box = document.getElementById("notices");
  if (!box) return;
  var onLobby = !!box.dataset.lobby;
  var known = null;

  function notify(text, url) {
    if (!window.Notification || Notification.permission !== "granted" || !document.hidden) return;
    var note = new Notification(text);
    note.onclick = function () { window.focus(); if (url) window.location.href = url; };
  }

  function load() {
    if (onLobby) return;  // the lobby lists them itself, at its top
    fetch(box.dataset.url, { credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.text(); })
      .then(function (html) {
        if (html.trim() !== box.innerHTML.trim()) box.innerHTML = html;
        // The invitations the page opened with are known, even when there were none (an empty bar):
        // every one after them is news, the first one included.
        var tables = Array.prototype.map.call(box.querySelectorAll("li.invitation"), function (li) { return li.dataset.table; });
        if (known !== null && tables.some(function (t) { return known.indexOf(t) < 0; })) notify(box.dataset.invited, "/play/");
        known = tables;
        // Counted for whoever waits on the bar (tests, scripts): one more reading of the notices.
        box.dataset.loaded = String(+(box.dataset.loaded || 0) + 1);
      })
      .catch(function () {});
  }

  var row = document.getElementById("notify-row"), button = document.getElementById("notify-on");
  if (row && button && window.Notification && Notification.permission === "default") {
    row.hidden = false;
    button.addEventListener("click", function () {
      Notification.requestPermission().then(function () { row.hidden = true; });
    });
  }

  var listening = window.arenaLive && window.arenaLive.listen(box.dataset.eventsUrl, {
    ready: function () { box.dataset.listening = "on"; load(); },
    down: function (why) { box.dataset.listening = "off"; if (why === "none") load(); },
    message: function (event) {
      if (event.type === "lobby") load();
      else if (event.type === "your-turn") {
        var here = window.location.pathname === "/play/" + event.match + "/";
        var text = box.dataset.yourTurn.replace("{match}", event.match), url = "/play/" + event.match + "/";
        if (!here) {
          // Said on the page too, as a link to the table.
          var notice = document.getElementById("turn-notice");
          if (notice) { notice.firstChild.textContent = text; notice.firstChild.href = url; notice.hidden = false; }
        }
        if (!here || document.hidden) notify(text, url);
      }
    }
  });
  if (!listening) load();
})();
