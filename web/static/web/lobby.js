// Lobby: pushed updates (Server-Sent Events) take the person to their table as soon as it forms and
// show invitations and acceptances at once; without a stream, the queue and the invitations are polled.
(function () {
  "use strict";
  var box = document.getElementById("queue");
  if (!box) return;
  var streaming = false;

  function goTo(match) { window.location.href = "/play/" + match + "/"; }

  // The lobby's own requests: a server that answers 5xx or cannot be reached is said in the page's
  // status line (live.js), and the answer is not read as the lobby's state.
  function ask(url, options) {
    var report = window.arenaLive && window.arenaLive.answered ? window.arenaLive.answered : function (r) { return r; };
    return fetch(url, options).then(function (response) {
      report(response);
      if (!response.ok) throw new Error(String(response.status));
      return response;
    }, function (failure) { report(null); throw failure; });
  }

  function refreshInvitations() {
    var list = document.getElementById("invitations");
    if (!list) return;
    ask(window.location.pathname, { credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("invitations");
        if (fresh && fresh.innerHTML !== list.innerHTML) list.innerHTML = fresh.innerHTML;
      })
      .catch(function () {});
  }

  function pollQueue() {
    ask(box.dataset.queueUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (status) {
        if (status.match && !document.getElementById("go-table")) goTo(status.match);
        else if (status.waiting) {
          var place = document.getElementById("queue-place");
          if (place) place.textContent = place.textContent.replace(/\d+/, status.waiting.place);
        }
      })
      .catch(function () {});
  }

  if (window.arenaLive) {
    window.arenaLive.listen(box.dataset.eventsUrl, {
      ready: function () { streaming = true; pollQueue(); refreshInvitations(); },
      down: function () { streaming = false; },
      message: function (event) {
        if (event.type === "table") goTo(event.match);
        else if (event.type === "lobby") refreshInvitations();
      }
    });
  }
  // The time waited in the queue, counted here between polls.
  var wait = document.getElementById("queue-wait");
  if (wait) {
    var since = Date.now() - 1000 * parseFloat(wait.dataset.since || "0");
    setInterval(function () {
      var s = Math.round((Date.now() - since) / 1000);
      wait.textContent = wait.dataset.template.replace("{s}", s).replace("{b}", wait.dataset.botsAfter);
    }, 1000);
  }
  var ticks = 0;
  setInterval(function () {
    ticks += 1;
    if (streaming) {
      // The queue place moves as others join and leave: no event names it.
      if (document.getElementById("queue-place") && ticks % 4 === 0) pollQueue();
      return;
    }
    var waiting = document.getElementById("queue-place") || document.querySelector("#invitations li");
    if (waiting) pollQueue();
    if (ticks % 3 === 0) refreshInvitations();
  }, 1500);
})();
