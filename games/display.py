"""How the judge console words a game for people: names instead of ids, values as a judge reads them.

Engines speak in player ids ("Player 30 is out of the duel.", ``{"changes": {"30": -1000}}``):
they are pure and know no names.  Everything the console shows passes through here:

* :func:`with_names` rewrites "player 30" / "player(s) 30, 31" in an engine's message or a
  result's reason into the players' names, and a quoted field name into its label;
* :func:`entry_summary` renders a log entry's payload by the kinds its vocabulary declares;
* :func:`state_rows` renders a player's (or the game's) state: the Deck Master as its card name
  and where it is, Special Conditions with who caused them, a Status Condition with its turn,
  chains and drafts by name.

No models here: the views pass the names in; the fixed words are translated (gettext) when a page is rendered.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.codes import WORDS
from rules.engine import EventSpec, Kind
from rules.engine import Field as SpecField
from rules.speech import say

Names = Mapping[int, str]

_PLAYER_REFERENCE = re.compile(r"\b[Pp]layer(?:\(s\))? ((?:'\d+'|\d+)(?:, (?:'\d+'|\d+))*)")


def label(name: str) -> str:
    """A code of the vocabulary (an entry type, a field, a choice) in the reader's words (:mod:`games.codes`); a code
    the table doesn't know, with spaces for its underscores."""
    words = WORDS.get(name)
    return str(words) if words is not None else name.replace("_", " ")


def field_label(name: str, spec_field: SpecField | None) -> str:
    """The field's label in the reader's language (a phrase of the vocabulary), else its name."""
    return say(spec_field.label) if spec_field is not None and spec_field.label else label(name)


def name_of(pid: Any, names: Names) -> str:
    try:
        return names[int(pid)]
    except (KeyError, TypeError, ValueError):
        return _("player %(id)s") % {"id": pid}


def with_names(text: str, names: Names, spec: EventSpec | None = None) -> str:
    """``text`` with each "player <id>" of this game replaced by the player's name.

    Ids that are not this game's players are left as they are (a message about an unknown id says
    so).  With ``spec``, a quoted field name (``'changes'``) becomes its label ("LP changes").
    """

    def replace(match: re.Match[str]) -> str:
        ids = [part.strip("'") for part in match.group(1).split(", ")]
        if not all(pid.isdigit() and int(pid) in names for pid in ids):
            return match.group(0)
        return ", ".join(names[int(pid)] for pid in ids)

    text = _PLAYER_REFERENCE.sub(replace, text)
    if spec is not None:
        for name, spec_field in spec.fields.items():
            text = text.replace(f"'{name}'", f"“{field_label(name, spec_field)}”")
    return text


# --- values --------------------------------------------------------------------------------------


def readable(value: Any, *, nested: bool = False) -> str:
    """A compact one-line rendering of a JSON value: ``yes``, ``none``, ``a: 1, b: 2``."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, dict):
        if not value:
            return _("none")
        text = ", ".join(f"{label(str(k))}: {readable(v, nested=True)}" for k, v in value.items())
        return f"({text})" if nested else text
    if isinstance(value, list | tuple):
        if not value:
            return _("none")
        text = ", ".join(readable(v, nested=True) for v in value)
        return f"[{text}]" if nested else text
    return str(value)


def signed(amount: Any) -> str:
    """``+500`` / ``−1000`` (a real minus sign), as a change reads."""
    if isinstance(amount, int) and not isinstance(amount, bool):
        return f"+{amount}" if amount > 0 else f"−{-amount}"
    return readable(amount)


def field_value(spec_field: SpecField | None, value: Any, names: Names) -> str:
    """One payload value, rendered by its field's kind."""
    if spec_field is None:
        return readable(value)
    kind = spec_field.kind
    if kind == Kind.PLAYER:
        return name_of(value, names)
    if kind == Kind.PLAYERS and isinstance(value, list):
        return ", ".join(name_of(v, names) for v in value)
    if kind == Kind.PLAYER_AMOUNTS and isinstance(value, dict):
        return ", ".join(f"{name_of(k, names)} {signed(v)}" for k, v in value.items())
    if kind == Kind.PLACEMENTS and isinstance(value, dict):
        ordered = sorted(value.items(), key=lambda kv: (kv[1], str(kv[0])) if isinstance(kv[1], int) else (0, ""))
        return ", ".join(f"{name_of(k, names)} #{v}" for k, v in ordered)
    if kind == Kind.AMOUNT:
        return signed(value)
    if kind == Kind.CHOICE and isinstance(value, str):
        return label(value)
    if kind == Kind.COUNTS and isinstance(value, dict):
        return ", ".join(f"{label(str(k))} {v}" for k, v in value.items()) or _("none")
    if kind == Kind.ENTRIES and isinstance(value, list):
        item = spec_field.item_fields
        rows = [
            "("
            + ", ".join(f"{field_label(k, item.get(k))}: {field_value(item.get(k), v, names)}" for k, v in row.items())
            + ")"
            if isinstance(row, dict)
            else readable(row)
            for row in value
        ]
        return " ".join(rows)
    if kind in (Kind.CARD, Kind.TEXT, Kind.TAG) and isinstance(value, str):
        return value
    return readable(value)


def entry_summary(spec: EventSpec | None, payload: Mapping[str, Any], names: Names) -> str:
    """A log entry's payload for people: ``player: Ash Ketch · amount: −10 · reason: card effect``."""
    fields = spec.fields if spec is not None else {}
    return " · ".join(
        f"{field_label(key, fields.get(key))}: {field_value(fields.get(key), value, names)}"
        for key, value in payload.items()
    )


# --- state ---------------------------------------------------------------------------------------

#: Short labels for state keys whose names read poorly.
LABELS: dict[str, Any] = {
    "lp": "LP",
    "deck_master": gettext_lazy("Deck Master"),
    "abilities_used": gettext_lazy("Abilities used this turn"),
    "hand_size": gettext_lazy("hand"),
    "pending_drafts": gettext_lazy("draft offers"),
    "badges_taken": gettext_lazy("Badge Tokens taken"),
    "pokemon_in_play": gettext_lazy("Pokémon in play"),
    "status_condition": gettext_lazy("Status Condition"),
    "status_locked": gettext_lazy("Status Conditions not reapplied before their turn"),
}

_POSITIONS = {
    "attack": gettext_lazy("Attack Position"),
    "defence": gettext_lazy("Defence Position"),
    "defense": gettext_lazy("Defense Position"),
}


def deck_master(value: Any, names: Names) -> str:
    """``Blue-Eyes White Dragon · in its Deck Master Position`` (Deck Masters' ``deck_master``)."""
    if not isinstance(value, dict):
        return readable(value)
    card = value.get("card") or _("name not recorded")
    location = value.get("location")
    if location == "position":
        where = _("in its Deck Master Position")
    elif location == "field":
        position = _POSITIONS.get(value.get("position") or "")
        where = _("on the field, %(position)s") % {"position": position} if position else _("on the field")
    elif location == "lost":
        where = _("lost")
    else:
        where = readable(location)
    return f"{card} · {where}"


def _abilities_used(value: Any, names: Names) -> str:
    """``Hyper Hammerhead (negated), Goldd, Wu-Lord of Dark World`` (Deck Masters' ``abilities_used``)."""
    if not isinstance(value, list):
        return readable(value)
    parts = []
    for used in value:
        if not isinstance(used, dict):
            parts.append(readable(used))
            continue
        text = used.get("deck_master") or _("Deck Master")
        if used.get("ability"):
            text += f": {used['ability']}"
        parts.append(_("%(ability)s (negated)") % {"ability": text} if used.get("negated") else text)
    return "; ".join(parts) or _("none")


def _conditions(value: Any, names: Names) -> str:
    if not isinstance(value, dict):
        return readable(value)
    return ", ".join(
        _("%(condition)s (by %(player)s)") % {"condition": label(c), "player": name_of(pid, names)}
        for c, pid in value.items()
    ) or _("none")


def _status_condition(value: Any, names: Names) -> str:
    """``poisoned, since turn 5`` (Master Trainer's §18 ``status_condition`` on the Active), ``none``."""
    if value is None:
        return _("none")
    if not isinstance(value, dict):
        return readable(value)
    return _("%(condition)s, since turn %(turn)s") % {
        "condition": label(str(value.get("condition"))),
        "turn": value.get("turn"),
    }


def _player_list(value: Any, names: Names) -> str:
    if not isinstance(value, list):
        return name_of(value, names)
    return ", ".join(name_of(pid, names) for pid in value) or _("none")


def _stadium(value: Any, names: Names) -> str:
    if not isinstance(value, dict):
        return readable(value)
    stadium = value.get("name") or _("a Stadium")
    return _("%(stadium)s (%(player)s's)") % {"stadium": stadium, "player": name_of(value.get("owner"), names)}


def _chain(value: Any, names: Names) -> str:
    if not isinstance(value, dict):
        return readable(value)
    links = ", ".join(f"{name_of(pid, names)} {n}" for pid, n in (value.get("links") or {}).items())
    after = _("after a %(trigger)s") % {"trigger": label(str(value.get("trigger")))}
    return _("%(after)s; links: %(links)s") % {"after": after, "links": links} if links else after


def _drafts(value: Any, names: Names) -> str:
    if not isinstance(value, list):
        return readable(value)
    return "; ".join(
        _("pile %(pile)s: %(player)s (picks %(picks)s)")
        % {
            "pile": d.get("pile"),
            "player": name_of(d.get("earner"), names),
            "picks": _player_list(d.get("picks"), names),
        }
        for d in value
        if isinstance(d, dict)
    ) or _("none")


def _counts(value: Any, names: Names) -> str:
    if not isinstance(value, dict):
        return readable(value)
    return ", ".join(f"{label(str(k))} {v}" for k, v in value.items() if v) or _("none")


def _monsters(value: Any, names: Names) -> str:
    if not isinstance(value, dict):
        return readable(value)
    parts = []
    for mid, m in value.items():
        if not isinstance(m, dict):
            parts.append(f"{mid}: {readable(m)}")
            continue
        bits = [
            label(str(m.get("class"))),
            label(str(m.get("position"))),
            _("stage %(stage)s") % {"stage": m.get("stage")},
        ]
        if m.get("prime_singular"):
            bits.append(_("Prime Singular"))
        parts.append(f"{mid} ({', '.join(bits)})")
    return "; ".join(parts) or _("none")


#: State keys with their own rendering: ids become names, nested records read as sentences.
RENDERERS: dict[str, Callable[[Any, Names], str]] = {
    "deck_master": deck_master,
    "abilities_used": _abilities_used,
    "conditions": _conditions,
    "status_condition": _status_condition,
    "pending_drafts": _player_list,
    "drafts": _drafts,
    "stadium": _stadium,
    "chain": _chain,
    "mana_zone": _counts,
    "mana_spent": _counts,
    "mana_available": _counts,
    "monsters": _monsters,
}


def state_rows(items: Iterable[tuple[str, Any]], names: Names, *, prefix: str = "") -> list[tuple[str, str, bool]]:
    """``(label, value, long)`` rows of state keys; a long value, or a long label ("Abilities used this turn"),
    gets a row of its own, so neither is squeezed into a column a letter wide."""
    rows = []
    for key, value in items:
        render = RENDERERS.get(key)
        text = render(value, names) if render is not None else readable(value)
        if isinstance(value, str) and render is None:
            text = label(value)
        name = prefix + str(LABELS.get(key, label(key)))
        rows.append((name, text, len(text) > 22 or len(name) > 20))
    return rows
