/* Config and i18n: read the page's JSON blocks once; `P.t` translates, `P.on/emit` connect modules. */
(function () {
  "use strict";
  function readJSON(id) {
    var el = document.getElementById(id);
    try { return el ? JSON.parse(el.textContent) : {}; } catch (e) { return {}; }
  }
  var catalog = readJSON("choice-i18n");
  var handlers = {};
  window.ChoicePortal = {
    config: readJSON("choice-config"),
    t: function (message, values) {
      var text = catalog[message] || message;
      Object.keys(values || {}).forEach(function (key) {
        text = text.split("{" + key + "}").join(String(values[key]));
      });
      return text;
    },
    on: function (type, handler) { (handlers[type] = handlers[type] || []).push(handler); },
    emit: function (type, detail) {
      (handlers[type] || []).forEach(function (handler) { handler(detail || {}); });
    }
  };
})();
