"""The configuration reference: every `CHOICE_*` variable, from `choice.core.variables.VARIABLES`,
the same table `Settings.from_env` reads them with."""

from __future__ import annotations

from choice.core.variables import OTHER_ENVIRONMENT, VARIABLES, Variable
from docs.gen._markdown import code, table

FLAG_OFF = "`0`, `false`, `no` or `off` (any case) turn it off; anything else turns it on"


def default(variable: Variable) -> str:
    if variable.shown_default is not None:
        return variable.shown_default
    value = variable.default
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None or value == ():
        return "unset"
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return code(text) + (f" {variable.unit}" if variable.unit else "")


def _number(value: float | None) -> str:
    assert value is not None
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


def allowed(variable: Variable) -> str:
    if variable.kind in ("whole", "number"):
        unit = f" {variable.unit}" if variable.unit else ""
        bounds = f"{_number(variable.low)} to {_number(variable.high)}{unit}"
        return ("a whole number, " if variable.kind == "whole"
                else "a number (decimals allowed), ") + bounds
    if variable.kind == "flag":
        return FLAG_OFF
    if variable.kind == "choice":
        return " or ".join(code(choice) for choice in variable.choices) + " (any case)"
    return {
        "names": "comma-separated names; spaces around them are ignored",
        "url": "an `http://` or `https://` URL",
        "public_url": "an `http://` or `https://` root: a scheme, a host, maybe a port; no "
                      "path, query or credentials",
        "remote_url": "an `http://` or `https://` URL, maybe with a path prefix; no query, "
                      "fragment or credentials",
        "secret": "as given (never written to the data dir)",
        "language": "`en` or `zh`",
        "path": "a folder",
        "paths": "folders separated by `:` (`;` on Windows); `~` is your home",
        "text": "as given",
    }[variable.kind]


def render(arg: str = "") -> str:
    out = ["Unset and empty both mean the default. A value out of range stops the process "
           "at start with a message naming the variable and what to set it to.", "",
           table(("Variable", "Default", "Allowed"),
                 ((f"[{code(v.name)}](#{v.name.lower()})", default(v), allowed(v))
                  for v in VARIABLES)), ""]
    for variable in VARIABLES:
        out += [f"### `{variable.name}` {{#{variable.name.lower()}}}", "", variable.doc, "",
                f"- **Default:** {default(variable)}",
                f"- **Allowed:** {allowed(variable)}",
                f"- **Read by:** {variable.read_by}"]
        if variable.option:
            out += [f"- **For one run:** {variable.option} sets it"]
        out += [""]
    out += ["## Other variables", "", "Not ours, but read:", "",
            table(("Variable", "Effect"), ((code(name), effect)
                                           for name, effect in OTHER_ENVIRONMENT)), ""]
    return "\n".join(out)
