// Every page: the live streams (Server-Sent Events) the other scripts listen to, one connection per
// stream whoever listens. A lost connection is tried again after a growing, jittered wait (1 s, 2 s,
// 4 s... at most 30 s; at once when the browser comes back online; after Retry-After when the server
// is busy), resuming from the last event seen (Last-Event-ID): the server sends what was missed, or
// says it cannot and the page reads its state again. The page says it is offline meanwhile
// (#live-status) and stops saying it once back. A stream answered 204 (no streams here) is not tried
// again: the pages poll.
//
//   window.arenaLive.listen(url, {ready(info), message(event), down(why)}) -> false without fetch streams
//   ready({resumed}): connected; resumed false means "read your state again".
//   down("lost" | "none"): the connection is gone ("none": this server has no streams: poll).
//   window.arenaLive.answered(response or null) -> response: a page's own request, said when it fails.
(function () {
  "use strict";
  var MAX_WAIT_MS = 30000, FIRST_WAIT_MS = 1000;
  var streams = {}, leaving = false;
  var status = document.getElementById("live-status");
  // The page's own requests (window.arenaLive.answered): null while they are answered, else the
  // server's Retry-After in seconds, or null inside when it could not be reached at all.
  var requests = null;

  function each(stream, name, arg) {
    stream.listeners.forEach(function (listener) { if (listener[name]) listener[name](arg); });
  }

  function say() {
    if (!status) return;
    var busy = null, lost = false, on = false;
    Object.keys(streams).forEach(function (url) {
      var stream = streams[url];
      if (stream.state === "on") on = true;
      if (stream.state === "lost") lost = true;
      if (stream.state === "busy") { lost = true; busy = Math.max(busy || 0, stream.busyFor); }
    });
    // "on" only while events come: a page with no stream (204) or a lost one polls instead.
    document.documentElement.dataset.live = on && !lost ? "on" : "off";
    if (requests) {
      lost = true;
      if (requests.busy !== null) busy = Math.max(busy || 0, requests.busy);
    }
    // The region stays in the page, empty when all is well, so that screen readers announce the change.
    var text = !lost ? "" : busy !== null ? status.dataset.busy.replace("{s}", busy) : status.dataset.offline;
    if (status.textContent !== text) status.textContent = text;
  }

  function wait(attempt) {
    // "Equal jitter": half the doubled wait for sure, the other half at random, so pages that lost the
    // same server do not all come back in the same second.
    var full = Math.min(MAX_WAIT_MS, FIRST_WAIT_MS * Math.pow(2, attempt));
    return full / 2 + Math.random() * full / 2;
  }

  function retryAfter(response) {
    var seconds = parseInt(response.headers.get("Retry-After") || "", 10);
    return isNaN(seconds) ? null : Math.min(seconds, MAX_WAIT_MS / 1000);
  }

  function lost(stream, busySeconds) {
    if (leaving || stream.timer) return;
    stream.controller = null;
    var delay;
    if (stream.bye) {
      // Ended on time by the server: straight back, nothing to say.
      stream.bye = false;
      delay = 0;
    } else {
      delay = busySeconds !== null && busySeconds !== undefined ? busySeconds * 1000 : wait(stream.attempt);
      stream.attempt += 1;
      stream.state = busySeconds !== null && busySeconds !== undefined ? "busy" : "lost";
      stream.busyFor = busySeconds;
      say();
      each(stream, "down", "lost");
    }
    stream.timer = setTimeout(function () { stream.timer = null; connect(stream); }, delay);
  }

  function dispatch(stream, block) {
    var type = "message", data = [], id = null;
    block.split(/\r\n|\r|\n/).forEach(function (line) {
      if (line === "" || line.charAt(0) === ":") return;
      var colon = line.indexOf(":");
      var field = colon < 0 ? line : line.slice(0, colon);
      var value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") type = value;
      else if (field === "data") data.push(value);
      else if (field === "id") id = value;
    });
    if (id !== null) stream.lastId = id;
    var parsed = {};
    try { parsed = JSON.parse(data.join("\n") || "{}"); } catch (e) { /* an update all the same */ }
    if (type === "ready") {
      stream.attempt = 0;
      stream.state = "on";
      say();
      each(stream, "ready", { resumed: !!parsed.resumed });
    } else if (type === "bye") {
      stream.bye = true;
    } else if (type === "message") {
      each(stream, "message", parsed);
    }
  }

  function connect(stream) {
    var controller = new AbortController();
    stream.controller = controller;
    var headers = { Accept: "text/event-stream" };
    if (stream.lastId) headers["Last-Event-ID"] = stream.lastId;
    fetch(stream.url, { credentials: "same-origin", headers: headers, cache: "no-store", signal: controller.signal })
      .then(function (response) {
        if (response.status === 204) {
          stream.state = "none";
          say();
          each(stream, "down", "none");
          return;
        }
        if (!response.ok || !response.body) {
          lost(stream, response.status >= 500 ? retryAfter(response) : null);
          return;
        }
        var reader = response.body.getReader(), decoder = new TextDecoder(), buffer = "";
        function pump() {
          return reader.read().then(function (chunk) {
            if (chunk.done) { lost(stream, null); return; }
            buffer += decoder.decode(chunk.value, { stream: true });
            var blocks = buffer.split(/\r\n\r\n|\n\n|\r\r/);
            buffer = blocks.pop();
            blocks.forEach(function (block) { dispatch(stream, block); });
            return pump();
          });
        }
        return pump();
      })
      .catch(function () { lost(stream, null); });
  }

  function reconnectNow() {
    Object.keys(streams).forEach(function (url) {
      var stream = streams[url];
      if (!stream.timer) return;
      clearTimeout(stream.timer);
      stream.timer = null;
      connect(stream);
    });
  }

  // A page being left drops its streams: that is not being offline.
  window.addEventListener("pagehide", function () {
    leaving = true;
    Object.keys(streams).forEach(function (url) { if (streams[url].controller) streams[url].controller.abort(); });
  });
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    leaving = false;
    Object.keys(streams).forEach(function (url) { if (streams[url].state !== "none") connect(streams[url]); });
  });
  window.addEventListener("online", reconnectNow);

  window.arenaLive = {
    // A page's own fetch reports how it went: its response, or null when the server could not be
    // reached. A server error (5xx) or no answer is said in #live-status as a lost stream is; the next
    // answer below 500 clears it. Returns the response, for a promise chain.
    answered: function (response) {
      requests = !response ? { busy: null } : response.status >= 500 ? { busy: retryAfter(response) } : null;
      say();
      return response;
    },
    listen: function (url, listener) {
      if (!url || !window.fetch || !window.ReadableStream || !window.TextDecoder || !window.AbortController) return false;
      var stream = streams[url];
      if (!stream) {
        stream = streams[url] = { url: url, listeners: [], lastId: null, attempt: 0, state: "connecting", timer: null, controller: null, bye: false, busyFor: null };
        stream.listeners.push(listener);
        connect(stream);
      } else {
        stream.listeners.push(listener);
        if (stream.state === "on" && listener.ready) listener.ready({ resumed: false });
        if (stream.state === "none" && listener.down) listener.down("none");
      }
      return true;
    }
  };
})();
