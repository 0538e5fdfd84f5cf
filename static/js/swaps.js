/* What the page's modules ask of htmx (static/vendor/htmx.min.js, htmx 2, configured by the
   page's `htmx-config` meta in templates/partials/_assets.html). The templates speak htmx's
   own attributes (hx-post, hx-target, hx-swap, hx-sync, hx-confirm, hx-trigger, hx-boost,
   out-of-band swaps) and the server its headers (HX-Trigger, HX-Refresh, HX-Reswap); this
   module adds only what the modules share:
   - `P.load(path, options)`: a part of the page fetched again (htmx.ajax);
   - `P.placeOutOfBand(html)`: a socket's server-rendered fragment, whose out-of-band parts
     are swapped in by id (htmx.swap);
   - news arriving out of band never closes what a person opened or typed in;
   - an action the portal refused without a fragment to show says so. */
(function () {
  "use strict";
  var P = window.ChoicePortal, doc = document;

  /* Loads `path` into `options.target` (an element or a selector) as `options.swap`
     (outerHTML by default), sent from `options.source` (the target by default, so each
     part of the page has its own request lock); the promise settles after the swap. */
  P.load = function (path, options) {
    var target = typeof options.target === "string" ? doc.querySelector(options.target) : options.target;
    if (!target) return Promise.resolve();
    return htmx.ajax("GET", path, { source: options.source || target, target: target,
                                   swap: options.swap || "outerHTML" });
  };

  P.placeOutOfBand = function (html) {
    htmx.swap(doc.body, html, { swapStyle: "none" });
  };

  /* An element replaced out of band is news, not an answer to the person: a <details>
     they opened stays open and a field they changed keeps their value, each found again by
     its id (never by position: news may add or reorder them). */
  doc.addEventListener("htmx:oobBeforeSwap", function (event) {
    var old = event.detail.target, fresh = event.detail.fragment;
    if (!old || !fresh || !fresh.querySelector) return;
    function twin(el) { return el.id ? fresh.querySelector("#" + CSS.escape(el.id)) : null; }
    [].forEach.call(old.querySelectorAll("details[open][id]"), function (el) {
      var now = twin(el);
      if (now) now.open = true;
    });
    [].forEach.call(old.querySelectorAll("input[id], textarea[id]"), function (field) {
      var now = twin(field);
      if (now && field.type !== "hidden" && field.value !== field.defaultValue) now.value = field.value;
    });
  });

  /* The portal refused an action with no fragment to show (htmx swaps nothing for those,
     see the meta's responseHandling): say so, or the click seems to do nothing. */
  doc.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (status === 401) { window.location.reload(); return; }
    if (status === 503) {
      P.toast(P.t("The portal is busy right now. Try again in a moment."));
    } else if (status >= 500) {
      P.toast(P.t("Something went wrong on the portal. Reload the page and try again."));
    }
  });
})();
