"""The rules' words in the reader's language (issue #29).

The kernel imports no Django, yet what it says reaches people: a deck's violations, a game entry the rules refuse,
a decklist line that can't be read, a format's end-of-round procedure.  Each such sentence is a :class:`Phrase`,
made with :func:`phrase` (or :func:`phrases`, for a sentence that counts)::

    raise RuleViolation("not_your_turn", SETUP, phrase("The next turn is player %(seat)s's.", seat=expected))

* A phrase **is** a ``str``: the English sentence, with its values filled in.  What logs, the audit trail, the
  engines' tests and every existing caller read is unchanged.
* It also keeps its template and its values, so :func:`say` words it in the language of the moment (the request's:
  the app hands in Django's translation functions at start-up, :func:`speak_with`, as :mod:`tournaments.words`
  does), and a stored one (a deck version's violations, :meth:`Phrase.as_data`) is said again later, in the
  language of whoever reads it, with :func:`say_stored`.
* ``phrase`` and ``phrases`` are keywords of ``manage.py makemessages`` (the project's command), so every template
  is in the catalogues; the values (card names, seats, counts, codes) are never translated.

Without :func:`speak_with` (the engines' tests, the benchmarks, a worker outside Django) everything is English.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["Phrase", "phrase", "phrases", "player", "players", "say", "say_any", "say_stored", "speak_with"]

#: How a phrase names a player of a game by id ("player 3"): a phrase of its own, so the judge console puts the
#: player's name in its place (``say(message, names={3: "Ash"})``) in any language.
PLAYER = "player %(id)s"
PLAYERS = "players %(ids)s"


def _english(message: str) -> str:
    return message


def _english_counted(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


_gettext: Callable[[str], str] = _english
_ngettext: Callable[[str, str, int], str] = _english_counted


def speak_with(*, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str]) -> None:
    """Say the rules' phrases in the language these functions translate to (the app's, at start-up)."""
    global _gettext, _ngettext
    _gettext, _ngettext = gettext, ngettext


class Phrase(str):
    """A sentence of the rules: the English text (the ``str`` itself), its template and its values.

    ``plural`` and ``counted`` (the number) are set for a sentence that counts (:func:`phrases`): the template is
    then the singular.  (Not ``count``: that is ``str.count``.)"""

    template: str
    plural: str | None
    counted: int | None
    params: dict[str, Any]

    def as_data(self) -> dict[str, Any]:
        """What a stored row keeps to say this phrase again (JSON: the values are plain data)."""
        data: dict[str, Any] = {"template": self.template, "params": _plain(self.params)}
        if self.plural is not None:
            data["plural"], data["count"] = self.plural, self.counted
        return data

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuilt, (str(self), self.template, self.plural, self.counted, self.params))


def _rebuilt(text: str, template: str, plural: str | None, count: int | None, params: dict[str, Any]) -> Phrase:
    made = Phrase(text)
    made.template, made.plural, made.counted, made.params = template, plural, count, params
    return made


def _plain(params: Mapping[str, Any]) -> dict[str, Any]:
    return {name: (value.as_data() if isinstance(value, Phrase) else value) for name, value in params.items()}


def _fill(template: str, params: Mapping[str, Any]) -> str:
    """``template`` filled in; a sentence that opens with a value opens with a capital ("Player 3 has ...")."""
    if not params:
        return template
    filled = template % params
    return filled[:1].upper() + filled[1:] if template.startswith("%(") else filled


def phrase(template: str, /, **params: Any) -> Phrase:
    """A sentence of the rules: ``template`` (a ``%(name)s`` format, the msgid) filled with ``params``."""
    made = Phrase(_fill(template, params))
    made.template, made.plural, made.counted, made.params = template, None, None, dict(params)
    return made


def phrases(singular: str, plural: str, count: int, /, **params: Any) -> Phrase:
    """A sentence that counts: ``singular`` or ``plural`` as the language says for ``count`` (``%(count)s`` may
    appear in either; it is filled in with the other ``params``)."""
    values = {"count": count, **params}
    made = Phrase(_fill(singular if count == 1 else plural, values))
    made.template, made.plural, made.counted, made.params = singular, plural, count, values
    return made


def player(player_id: Any) -> Phrase:
    """A player of a game named by id, inside another phrase: ``phrase("%(player)s has no Pokémon.",
    player=player(3))`` says "player 3 has no Pokémon." (or the player's name, :func:`say`'s ``names``)."""
    return phrase(PLAYER, id=player_id)


def players(player_ids: Any) -> Phrase:
    """Several players of a game by id ("players 3, 4"), as :func:`player`."""
    return phrase(PLAYERS, ids=", ".join(str(pid) for pid in player_ids))


Names = Mapping[int, str]


def say(message: str, names: Names | None = None) -> str:
    """``message`` in the language of the moment: a :class:`Phrase` is translated (its values too, when they are
    phrases); any other text is returned as it is.  ``names``: ``{player id: name}``, said in place of
    :func:`player` and :func:`players`."""
    if not isinstance(message, Phrase):
        return message
    return _said(message.template, message.plural, message.counted, message.params, names)


def say_stored(data: Mapping[str, Any], fallback: str = "", names: Names | None = None) -> str:
    """A stored phrase (:meth:`Phrase.as_data`, or a row holding its keys beside its ``message``) in the language of
    the moment; ``fallback`` (or the row's ``message``) when the row predates phrases or can't be said."""
    fallback = fallback or str(data.get("message", ""))
    template = data.get("template")
    if not isinstance(template, str):
        return fallback
    params = data.get("params") or {}
    if not isinstance(params, Mapping):
        return fallback
    try:
        return _said(template, data.get("plural"), data.get("count"), params, names)
    except (KeyError, TypeError, ValueError):
        return fallback


def say_any(value: Any) -> str:
    """Whatever holds a sentence of the rules, in the language of the moment: a stored row (:func:`say_stored`), a
    phrase or text (:func:`say`), or an object with a ``message`` (a violation, a refusal)."""
    if isinstance(value, Mapping):
        return say_stored(value)
    message = value if isinstance(value, str) else getattr(value, "message", value)
    return say(message) if isinstance(message, str) else str(message)


def _named(template: str, params: Mapping[str, Any], names: Names) -> str | None:
    """The names of the players a :func:`player` or :func:`players` phrase refers to, if all are known."""
    ids = [params.get("id")] if template == PLAYER else str(params.get("ids", "")).split(", ")
    try:
        return ", ".join(names[int(str(pid))] for pid in ids)
    except (KeyError, ValueError):
        return None


def _said_value(value: Any, names: Names | None) -> Any:
    """A value of a phrase as said: a phrase (live or stored) in words, any other value as it is."""
    if isinstance(value, Mapping) and "template" in value:
        return say_stored(value, names=names)
    if isinstance(value, str):
        return say(value, names)
    return value


def _said(
    template: str, plural: str | None, count: int | None, params: Mapping[str, Any], names: Names | None = None
) -> str:
    if names and template in (PLAYER, PLAYERS) and (named := _named(template, params, names)) is not None:
        return named
    values = {name: _said_value(value, names) for name, value in params.items()}
    if plural is not None and isinstance(count, int):
        translated = _ngettext(template, plural, count)
    else:
        translated = _gettext(template)
    try:
        return _fill(translated, values)
    except (KeyError, TypeError, ValueError):  # a translation that lost a placeholder: the English still reads
        return _fill(template if plural is None or count == 1 else plural, values)
