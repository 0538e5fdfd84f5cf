/* Config and i18n: read the page's JSON blocks once; `P.t` translates, `P.nt` translates text
   with a count, `P.on/emit` connect modules. The messages come from the page (the portal
   extracts every `P.t("...")` and `P.nt("...", "...", n)` from these modules), so a lookup
   must name its message as a literal string for it to be found and translated. */
(function () {
  "use strict";
  // what only works with script (the key hints) shows from here on (interaction.css)
  document.documentElement.setAttribute("data-script", "on");
  function readJSON(id) {
    var el = document.getElementById(id);
    try { return el ? JSON.parse(el.textContent) : {}; } catch (e) { return {}; }
  }
  var catalog = readJSON("choice-i18n");
  var messages = catalog.messages || {};
  var pluralIndex = compilePlural(catalog.plural || "(n != 1)");
  var handlers = {};

  /* The catalog's Plural-Forms expression (C syntax: n, integers, ! * / % + - < > <= >= ==
     != && || ?: and parentheses) as a function of n, parsed here: the page's CSP allows no
     eval. An expression it cannot read means English's rule. */
  function compilePlural(source) {
    var tokens = source.match(/\d+|n|&&|\|\||[=!<>]=|[-+*\/%<>!?:()]|\S/g) || [];
    var at = 0;
    var rank = { "||": 1, "&&": 2, "==": 3, "!=": 3, "<": 4, ">": 4, "<=": 4, ">=": 4,
                 "+": 5, "-": 5, "*": 6, "/": 6, "%": 6 };
    function apply(op, a, b) {
      switch (op) {
        case "||": return a || b ? 1 : 0;
        case "&&": return a && b ? 1 : 0;
        case "==": return a === b ? 1 : 0;
        case "!=": return a !== b ? 1 : 0;
        case "<": return a < b ? 1 : 0;
        case ">": return a > b ? 1 : 0;
        case "<=": return a <= b ? 1 : 0;
        case ">=": return a >= b ? 1 : 0;
        case "+": return a + b;
        case "-": return a - b;
        case "*": return a * b;
        case "/": return Math.floor(a / b);
        default: return a % b;
      }
    }
    function expect(token) { if (tokens[at++] !== token) throw new Error("plural: " + source); }
    function operand() {
      var token = tokens[at++];
      if (token === "(") { var inner = conditional(); expect(")"); return inner; }
      if (token === "!") { var negated = operand(); return function (n) { return negated(n) ? 0 : 1; }; }
      if (token === "n") return function (n) { return n; };
      if (/^\d+$/.test(token || "")) { var value = +token; return function () { return value; }; }
      throw new Error("plural: " + source);
    }
    function binary(least) {
      var left = operand();
      while (rank[tokens[at]] >= least) {
        var op = tokens[at++], a = left, b = binary(rank[op] + 1);
        left = (function (op, a, b) { return function (n) { return apply(op, a(n), b(n)); }; })(op, a, b);
      }
      return left;
    }
    function conditional() {
      var test = binary(1);
      if (tokens[at] !== "?") return test;
      at++;
      var yes = conditional();
      expect(":");
      var no = conditional();
      return function (n) { return test(n) ? yes(n) : no(n); };
    }
    try {
      var rule = conditional();
      if (at !== tokens.length) throw new Error("plural: " + source);
      return function (n) { return +rule(n); };
    } catch (e) {
      return function (n) { return n === 1 ? 0 : 1; };
    }
  }

  function fill(text, values) {
    Object.keys(values || {}).forEach(function (key) {
      text = text.split("{" + key + "}").join(String(values[key]));
    });
    return text;
  }

  window.ChoicePortal = {
    config: readJSON("choice-config"),
    t: function (message, values) {
      var text = messages[message];
      return fill(typeof text === "string" && text ? text : message, values);
    },
    /* `P.nt("{n} second left", "{n} seconds left", n)`: the form the language's plural rule
       picks for n; `{n}` is filled in, with any other `values`. */
    nt: function (singular, plural, n, values) {
      var forms = messages[singular], index;
      if (Array.isArray(forms) && forms.length === catalog.nplurals) {
        index = pluralIndex(n);
      } else {  // untranslated: the English pair, by English's rule
        forms = [singular, plural];
        index = n === 1 ? 0 : 1;
      }
      var all = { n: n };
      Object.keys(values || {}).forEach(function (key) { all[key] = values[key]; });
      return fill(forms[Math.min(Math.max(index, 0), forms.length - 1)], all);
    },
    compilePlural: compilePlural,  // exposed so a test can check it against Python's gettext
    on: function (type, handler) { (handlers[type] = handlers[type] || []).push(handler); },
    emit: function (type, detail) {
      (handlers[type] || []).forEach(function (handler) { handler(detail || {}); });
    }
  };
})();
