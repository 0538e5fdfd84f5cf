/* Drafts: what is typed and picked on the question is PUT to /api/interactions/{id}/draft
   700 ms after the last change, and put back on load, on reconnect, when another page or
   the terminal changed it (socket `draft`), and after any re-render of the question that is
   not its own submit (Apply, settings, socket swaps): there the box being typed in is kept
   as it is (the node, its caret) and everything around it is swapped. A field with the
   focus is never overwritten. */
(function () {
  "use strict";
  var P = window.ChoicePortal, doc = document;
  var tab = Math.random().toString(36).slice(2), timer = 0, kept = null, restoring = 0, connections = 0;
  var NAME = /^(?:q\.([^.]+)\.)?(selected|custom_input|note\.)(.*)$/;

  function form() { return doc.querySelector("#choice-form[data-mode],#choice-form[data-questions]"); }
  function note() { return doc.getElementById("cancel-note"); }
  function url() {
    var root = P.interaction();
    return root && "/api/interactions/" + encodeURIComponent(root.dataset.interactionId) + "/draft";
  }
  // each named field of the form, with its answer (d itself, or one of several questions')
  function each(f, d, fn, make) {
    [].forEach.call(f.elements, function (el) {
      var m = NAME.exec(el.name), a = d;
      if (!m) return;
      if (m[1]) a = (d.answers = d.answers || {})[m[1]] || (make ? d.answers[m[1]] = {} : null);
      if (a) fn(el, a, m[2], m[3]);
    });
  }

  function state() {
    var f = form(), d = { tab: tab, cancel_reason: note() && note().value || null };
    if (f) {
      each(f, d, function (el, a, kind, id) {
        if (kind === "selected") {
          a.selected_ids = a.selected_ids || [];
          if (el.checked) a.selected_ids.push(el.value);
        } else if (el.value) {
          if (kind === "note.") (a.option_annotations = a.option_annotations || {})[id] = el.value;
          else a.custom_input = el.value;
        }
      }, 1);
      d.global_annotation = f.elements.global_annotation && f.elements.global_annotation.value || null;
    }
    return d;
  }

  function put(el, value) {
    if (!el || el === doc.activeElement) return;
    if (el.type === "radio" || el.type === "checkbox") el.checked = value;
    else if ((el.value = value || "") && el.closest("details")) el.closest("details").open = true;
  }

  function restore(d) {
    var f = form();
    if (!d) return;
    if (f) {
      each(f, d, function (el, a, kind, id) {
        if (kind !== "selected") put(el, kind === "note." ? (a.option_annotations || {})[id] : a.custom_input);
        else if (a.selected_ids) put(el, a.selected_ids.indexOf(el.value) >= 0);
      });
      put(f.elements.global_annotation, d.global_annotation);
      restoring = 1;  // the progress and hints follow; not saved again (nor echoed back)
      f.dispatchEvent(new Event("input", { bubbles: true }));
      restoring = 0;
      P.checkForm(f, true);
    }
    put(note(), d.cancel_reason);
  }

  function load() {
    if (timer || !(form() || note())) return;  // a change of ours is on its way
    fetch(url()).then(function (r) { return r.json(); })
      .then(function (body) { if (!timer) restore(body.draft); }, function () {});
  }

  function changed(event) {
    var t = event.target;
    if (restoring || t !== note() && !(t.form && t.form === form())) return;
    clearTimeout(timer);
    timer = setTimeout(function () {
      timer = 0;
      fetch(url(), { method: "PUT", body: JSON.stringify(state()),
                     headers: { "Content-Type": "application/json" } }).catch(function () {});
    }, 700);
  }
  doc.addEventListener("input", changed);
  doc.addEventListener("change", changed);

  doc.addEventListener("htmx:beforeSwap", function (event) {
    var f = form(), elt = event.detail.requestConfig.elt;  // who asked (detail.elt: the target)
    kept = event.detail.target.id === "interaction" && !(f && f.contains(elt)) &&
      !elt.closest(".cancel-form") ? { state: state(), focus: doc.activeElement } : null;
  });
  doc.addEventListener("htmx:afterSwap", function () {
    var k = kept, focus = k && k.focus, f = form(), same = null, at;
    kept = null;
    if (!k) return;
    if (focus && focus.tagName === "TEXTAREA" && !doc.contains(focus)) {
      same = focus.id ? doc.getElementById(focus.id) : f && f.elements[focus.name];
      if (same && same.tagName === "TEXTAREA") {
        at = [focus.selectionStart, focus.selectionEnd];
        same.replaceWith(focus);  // the box being typed in stays as it is
        focus.focus();
        focus.setSelectionRange(at[0], at[1]);
      }
    }
    restore(k.state);
  });
  doc.addEventListener("DOMContentLoaded", load);
  P.on("connected", function () { if (connections++) load(); });  // back after a break
  P.on("draft", function (message) { if (message.tab !== tab) load(); });
})();
