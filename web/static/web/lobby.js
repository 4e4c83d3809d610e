// Lobby: while waiting in the queue, poll it and go to the table as soon as one is formed.
(function () {
  "use strict";
  var box = document.getElementById("queue");
  if (!box || !document.getElementById("queue-place")) return;
  setInterval(function () {
    fetch(box.dataset.queueUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (status) {
        if (status.match) window.location.href = "/play/" + status.match + "/";
        else if (status.waiting) {
          var place = document.getElementById("queue-place");
          place.textContent = place.textContent.replace(/\d+/, status.waiting.place);
        }
      });
  }, 1500);
})();
