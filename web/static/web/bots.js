// The bot owners' page: its forms call the REST API with the site's session (upload a bot or a version,
// enter or leave the arena, start a comparison); a bot whose version is being validated is polled, and
// the page is refreshed when its validation ends, so the owner watches it live and reads the build log;
// a comparison that runs is polled too, and the page refreshed as each deal comes in (progress, estimate).
(function () {
  "use strict";
  var page = document.getElementById("my-bots");
  if (!page) return;
  var csrf = (page.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "";

  function detail(body) {
    if (!body || typeof body !== "object") return String(body);
    if (Array.isArray(body)) return body.map(detail).join(" ");
    if (body.detail && Object.keys(body).length === 1) return String(body.detail);
    return Object.keys(body).map(function (key) { return key + ": " + detail(body[key]); }).join("; ");
  }

  function refresh() {
    return fetch(window.location.pathname, { credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("my-bots");
        if (fresh) { page.innerHTML = fresh.innerHTML; watch(); }
      });
  }

  function jsonBody(form) {
    var body = {};
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || field.name === "csrfmiddlewaretoken" || field.value === "") return;
      var value = field.dataset.type === "int" ? parseInt(field.value, 10) : field.value;
      if (field.dataset.type === "list") value = field.value.split(",").map(function (s) { return s.trim(); }).filter(Boolean);
      var path = field.name.split("."), target = body;
      for (var i = 0; i < path.length - 1; i++) target = target[path[i]] = target[path[i]] || {};
      target[path[path.length - 1]] = value;
    });
    return JSON.stringify(body);
  }

  page.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.dataset.api) return;
    event.preventDefault();
    var error = form.querySelector(".form-error");
    var headers = { "X-CSRFToken": csrf, Accept: "application/json" };
    var body = null;
    if (form.dataset.body === "multipart") body = new FormData(form);
    else if (form.dataset.body === "json") { body = jsonBody(form); headers["Content-Type"] = "application/json"; }
    if (error) error.textContent = "";
    form.setAttribute("aria-busy", "true");
    fetch(form.dataset.api, { method: form.dataset.method || "POST", credentials: "same-origin", headers: headers, body: body })
      .then(function (response) {
        if (response.ok) return refresh();
        return response.json().catch(function () { return response.statusText; }).then(function (answer) {
          if (error) error.textContent = detail(answer);
        });
      })
      .catch(function (problem) { if (error) error.textContent = String(problem); })
      .then(function () { form.removeAttribute("aria-busy"); });
  });

  var timer = null;
  function watch() {
    if (timer) clearTimeout(timer);
    var waiting = page.querySelectorAll("[data-validating]");
    var comparing = page.querySelectorAll("[data-comparing]");
    if (!waiting.length && !comparing.length) return;
    timer = setTimeout(function () {
      function get(url) {
        return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
          .then(function (r) { return r.json(); });
      }
      var checks = Array.prototype.map.call(waiting, function (row) {
        return get(row.dataset.validating)
          .then(function (version) {
            var status = row.querySelector(".version-status");
            if (status && status.dataset.status !== version.status) return true;
            return false;
          })
          .catch(function () { return false; });
      }).concat(Array.prototype.map.call(comparing, function (row) {
        return get(row.dataset.comparing)
          .then(function (comparison) {
            return comparison.status !== row.dataset.status ||
              String(comparison.progress.deals_done) !== row.dataset.dealsDone;
          })
          .catch(function () { return false; });
      }));
      Promise.all(checks).then(function (changed) {
        if (changed.indexOf(true) >= 0) refresh(); else watch();
      });
    }, 1500);
  }
  watch();
})();
