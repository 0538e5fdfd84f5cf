/* The pages' hypermedia, in place of htmx: the part of it these templates use and nothing
   more (htmx 2 was 16.8 KB of a 41 KB first load; this is 1.9 KB, gzipped).
   - A form with `hx-post` (or `hx-get`) is sent by fetch with the button that sent it, and
     `hx-confirm` asks first; a link or button with `hx-get` loads on click.
   - `hx-target`: `this`, `closest <selector>` or a selector (the element itself without it);
     `hx-swap`: outerHTML, innerHTML or none.
   - The reply is swapped by status: 2xx, 409, 422 and 429 carry a fragment to show; 204
     shows nothing; any other status is an error (`hx:error`, render.js says so).
   - In the reply, `hx-swap-oob="true"` replaces the element with the same id (keeping
     the <details> the user opened in it open and the fields they changed), and
     `hx-swap-oob="beforeend:<selector>"` appends its children there; both also with
     `swap: "none"`.
   - Headers: `HX-Request` is sent (the server answers a fragment instead of a page);
     `HX-Trigger` (JSON), `HX-Refresh` and `HX-Reswap` in a reply are obeyed.
   - After a swap the focused element comes back by its id, then `[autofocus]` takes the
     focus. Events on the document: `hx:config` (detail.parameters may change),
     `hx:before-swap`, `hx:swapped`, `hx:error`.
   An element sends one request at a time; a second click while it is on its way is dropped.
   Without script every form still posts and every link still loads: the server answers
   both ways. */
(function () {
  "use strict";
  var P = window.ChoicePortal, doc = document, busy = [];
  var SHOWN = /^(2..|409|422|429)$/;

  function fire(el, name, detail) {
    return (el && el.isConnected ? el : doc.body).dispatchEvent(
      new CustomEvent(name, { bubbles: true, cancelable: true, detail: detail }));
  }

  function targetOf(el) {
    var spec = el.getAttribute("hx-target");
    if (!spec || spec === "this") return el;
    return spec.indexOf("closest ") === 0 ? el.closest(spec.slice(8)) : doc.querySelector(spec);
  }

  function parse(html) {
    var template = doc.createElement("template");
    template.innerHTML = html;
    return template.content;
  }

  /* An element replaced out of band is news arriving, not an answer to the user: what they
     are doing in it stays. A <details> they opened stays open; a field they changed keeps
     their value. */
  function keepWhatTheyDo(old, fresh) {
    var now = fresh.querySelectorAll("details");
    [].forEach.call(old.querySelectorAll("details"), function (el, i) {
      if (el.open && now[i]) now[i].open = true;
    });
    [].forEach.call(old.querySelectorAll("input[id], textarea[id]"), function (field) {
      var twin = fresh.querySelector("#" + CSS.escape(field.id));
      if (twin && field.type !== "hidden" && field.value !== field.defaultValue) twin.value = field.value;
    });
  }

  function outOfBand(fragment) {
    [].forEach.call(fragment.querySelectorAll("[hx-swap-oob]"), function (el) {
      if (el.parentElement && el.parentElement.closest("[hx-swap-oob]")) return;  // goes with its own
      var spec = el.getAttribute("hx-swap-oob"), at = spec.indexOf(":"), there;
      el.removeAttribute("hx-swap-oob");
      el.remove();
      if (spec === "true") {
        there = el.id && doc.getElementById(el.id);
        if (there) { keepWhatTheyDo(there, el); there.replaceWith(el); }
      } else if (at > 0 && spec.slice(0, at) === "beforeend") {
        there = doc.querySelector(spec.slice(at + 1));
        if (there) there.append.apply(there, [].slice.call(el.childNodes));
      }
    });
  }

  /* `html` into `target` (`style`: outerHTML, innerHTML or none), out-of-band parts first. */
  function swap(target, html, style) {
    var fragment = parse(html), active = doc.activeElement, id = active && active.id, range = null;
    try { range = active && [active.selectionStart, active.selectionEnd]; } catch (e) { range = null; }
    outOfBand(fragment);
    var added = [].slice.call(fragment.children);
    if (style === "outerHTML") target.replaceWith(fragment);
    else if (style === "innerHTML") target.replaceChildren(fragment);
    else added = [];
    if (id && active && !active.isConnected) {
      var again = doc.getElementById(id);
      if (again) {
        again.focus();
        if (range && range[0] != null && again.setSelectionRange) {
          try { again.setSelectionRange(range[0], range[1]); } catch (e) { /* not a text field */ }
        }
      }
    }
    added.some(function (el) {
      var focus = el.matches("[autofocus]") ? el : el.querySelector("[autofocus]");
      if (focus) focus.focus();
      return !!focus;
    });
  }

  function triggered(el, header) {
    if (!header) return;
    var events = {};
    try { events = JSON.parse(header); } catch (e) { header.split(",").forEach(function (name) { events[name.trim()] = {}; }); }
    Object.keys(events).forEach(function (name) { fire(el, name, events[name]); });
  }

  /* One request: `el` sends it (and is its lock), `target` takes the reply as `style`. */
  function request(verb, path, el, target, style, body) {
    if (busy.indexOf(el) >= 0 || !target) return Promise.resolve();
    var parameters = new URLSearchParams(body || "");
    var detail = { elt: el, target: target, verb: verb, path: path, parameters: parameters };
    if (!fire(el, "hx:config", detail)) return Promise.resolve();
    var query = verb === "GET" && String(parameters);
    var url = query ? detail.path + (detail.path.indexOf("?") < 0 ? "?" : "&") + query : detail.path;
    busy.push(el);
    return fetch(url, {
      method: verb, credentials: "same-origin", headers: { "HX-Request": "true" },
      body: verb === "GET" ? undefined : parameters
    }).then(function (reply) {
      return reply.text().then(function (html) {
        triggered(el, reply.headers.get("HX-Trigger"));
        if (reply.headers.get("HX-Refresh") === "true") { window.location.reload(); return; }
        var status = String(reply.status), reswap = reply.headers.get("HX-Reswap");
        var seen = { elt: el, target: target, status: reply.status, swap: reswap || style };
        if (!SHOWN.test(status)) { fire(el, "hx:error", seen); return; }
        if (status === "204" || !fire(target, "hx:before-swap", seen)) return;
        swap(target, html, seen.swap);
        fire(target, "hx:swapped", seen);
      });
    }, function () {
      fire(el, "hx:error", { elt: el, target: target, status: 0 });
    }).then(release, function (error) { release(); throw error; });
    function release() { if (busy.indexOf(el) >= 0) busy.splice(busy.indexOf(el), 1); }
  }

  function sent(el, verb, path, body) {
    return request(verb, path, el, targetOf(el), el.getAttribute("hx-swap") || "innerHTML", body);
  }

  doc.addEventListener("submit", function (event) {
    var form = event.target, path = form.getAttribute("hx-post") || form.getAttribute("hx-get");
    if (!path || event.defaultPrevented) return;
    event.preventDefault();
    var question = form.getAttribute("hx-confirm");
    if (question && !window.confirm(question)) return;
    sent(form, form.hasAttribute("hx-post") ? "POST" : "GET", path, new FormData(form, event.submitter));
  });

  doc.addEventListener("click", function (event) {
    var el = event.target.closest && event.target.closest("a[hx-get],button[hx-get]");
    if (!el || event.defaultPrevented || event.button || event.ctrlKey || event.metaKey ||
        event.shiftKey || event.altKey) return;
    event.preventDefault();
    sent(el, "GET", el.getAttribute("hx-get"));
  });

  /* For the page's modules: load `path` into `options.target` (an element or a selector),
     from `options.source` (the target by default); the promise settles after the swap. */
  P.load = function (path, options) {
    var target = typeof options.target === "string" ? doc.querySelector(options.target) : options.target;
    return request("GET", path, options.source || target, target, options.swap || "outerHTML");
  };
  /* A fragment from the socket: only its out-of-band parts are placed. */
  P.placeOutOfBand = function (html) { swap(null, html, "none"); };
})();
