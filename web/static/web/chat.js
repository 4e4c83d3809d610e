// The chat beside a table: read when the table's stream says it moved (or every few seconds without a
// stream), sent without reloading; muting hides an author's messages in this browser; a message can be
// reported to the staff.
(function () {
  "use strict";
  var box = document.getElementById("chat");
  if (!box) return;
  var list = document.getElementById("chat-messages"), form = document.getElementById("chat-form");
  var muted = {};
  try { muted = JSON.parse(localStorage.getItem("arena-muted") || "{}"); } catch (e) { muted = {}; }

  function applyMutes() {
    list.querySelectorAll("li[data-author]").forEach(function (li) {
      var off = !!muted[li.dataset.author];
      li.classList.toggle("muted-author", off);
      var text = li.querySelector(".text");
      if (text) text.hidden = off;
      var button = li.querySelector("button.mute");
      if (button) button.textContent = off ? box.dataset.unmute : button.dataset.label || button.textContent;
    });
  }

  function load() {
    fetch(box.dataset.url, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : ""; })
      .then(function (html) {
        if (!html) return;
        list.innerHTML = html;
        list.querySelectorAll("button.mute").forEach(function (b) { b.dataset.label = b.textContent; });
        applyMutes();
        var log = document.getElementById("chat-log");
        if (log) log.scrollTop = log.scrollHeight;
        box.dataset.loaded = String(+(box.dataset.loaded || 0) + 1);
      })
      .catch(function () {});
  }

  list.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button) return;
    if (button.classList.contains("mute")) {
      var author = button.dataset.author;
      if (muted[author]) delete muted[author]; else muted[author] = true;
      try { localStorage.setItem("arena-muted", JSON.stringify(muted)); } catch (e) { /* kept for this page */ }
      applyMutes();
    } else if (button.classList.contains("report")) {
      var token = document.querySelector("input[name=csrfmiddlewaretoken]");
      fetch(button.dataset.url, {
        method: "POST", credentials: "same-origin",
        headers: { "X-Requested-With": "fetch", "X-CSRFToken": token ? token.value : "" },
      }).then(function (r) {
        if (!r.ok) return;
        button.replaceWith(document.createTextNode(box.dataset.reported));
        load(); // a log drawn by a request sent before the report would show its button again
      });
    }
  });

  if (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var error = document.getElementById("chat-error");
      fetch(box.dataset.sayUrl, {
        method: "POST", body: new FormData(form), credentials: "same-origin",
        headers: { "X-Requested-With": "fetch" },
      }).then(function (r) {
        if (r.status >= 500) throw { status: r.status };
        return r.json();
      }).then(function (answer) {
        error.textContent = answer.ok ? "" : answer.error;
        if (answer.ok) { form.elements.text.value = ""; load(); }
      }).catch(function (failure) {
        // Never silent: the message stays in the field, and the person is told why.
        error.textContent = failure && failure.status ? box.dataset.serverError : box.dataset.offline;
      });
    });
  }

  window.addEventListener("table-chat", load);
  load();
  setInterval(function () { if (document.documentElement.dataset.live !== "on") load(); }, 4000);
})();
