"""An event's format options (the rulebooks' variants and Podium's house rules) and the
interpretations Podium makes where a rulebook leaves a choice open.

Terms
-----
*option*
    A choice an organiser makes once for an event, before it starts, among the values an
    :class:`Option` allows: a rulebook's own variant (Mintayn Master's LP 6000/8000/10000) or a
    *house rule* (Master Trainer played on to the last player standing, Mt. Silver's 3-player
    pods).  Every option has a default, the rulebook's text; an event that sets nothing plays by
    the book.
*use*
    Where an option takes effect: ``deck`` (the deck rules read it), ``game`` (the game engine
    reads it when a table's game starts) and ``tables`` (the pairing seats tables by it).  The
    same value reaches every place it is used: the event holds it once.
*house rule*
    A value other than the default of an option marked ``house_rule``: the rulebook's text says
    otherwise, so pages and the API label it, and nobody learns it at the table.
*interpretation*
    :class:`Interpretation`: what a rulebook says (or leaves unsaid), what Podium does, and the
    option that changes it, if any.  Each format lists its own; the docs and the format's page
    show them as one table.

Contract
--------
:meth:`Option.check` returns the value to store or raises :class:`OptionError` whose message
states the values allowed ("hand_size is 8 to 12 (Balance Levers & Variants)").
:func:`clean` checks a mapping of options against a format's, refusing unknown names;
:func:`effective` fills in the defaults.  Pure Python: no Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rules.speech import phrase


class Use(StrEnum):
    """Where an option takes effect."""

    DECK = "deck"
    GAME = "game"
    TABLES = "tables"


class OptionError(ValueError):
    """An option's name or value that the format does not allow; ``option`` names it (``None``: not one)."""

    def __init__(self, message: str, option: str | None = None):
        super().__init__(message)
        self.message = message
        self.option = option


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def same(a: Any, b: Any) -> bool:
    """Equal and of one type: ``1 == True`` in Python, but an option's ``1`` is not its ``true``."""
    return a == b and type(a) is type(b)


@dataclass(frozen=True, slots=True, kw_only=True)
class Option:
    """One option of a format: its values, its default, where it is used and what the rulebook says.

    The values allowed are ``choices`` (any JSON scalars), or the integers from ``minimum`` to
    ``maximum``, or (``named``) a name the caller supplies the choices of (an imported banlist:
    the kernel does not know the catalogue).  ``value_names`` says how values read to people.

    What people read (``label``, ``help``, ``value_names``, ``unit``) is made of phrases (:mod:`rules.speech`):
    English for every caller, said in the reader's language by the pages; ``quote`` is the rulebook's own
    (English) words and stays as written.
    """

    name: str
    label: str
    default: Any
    uses: frozenset[Use]
    #: The rulebook section that offers the option, or that the house rule departs from.
    rule: str
    #: The rulebook's own words for it.
    quote: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    named: bool = False
    #: A value other than the default is a house rule (the rulebook says otherwise), not a variant it offers.
    house_rule: bool = False
    value_names: Mapping[Any, str] = field(default_factory=dict)
    #: What the option does, for the settings form and the API.
    help: str = ""
    #: What a number counts, for pages: "cards" reads 12 as "12 cards".
    unit: str = ""

    def __post_init__(self) -> None:
        ranged = self.minimum is not None and self.maximum is not None
        if sum((bool(self.choices), ranged, self.named)) != 1:
            raise ValueError(f"option {self.name}: give choices, or a minimum and maximum, or named")
        if not self.named:
            self.check(self.default)  # a default the option does not allow is a typo in the format
        if not self.uses:
            raise ValueError(f"option {self.name}: say where it is used")

    def allowed(self, names: Iterable[str] | None = None) -> str:
        """The values allowed, as a phrase: "6000, 8000 or 10000", "8 to 12", "true or false"."""
        if self.minimum is not None and self.maximum is not None:
            return f"{self.minimum} to {self.maximum}"
        offered = sorted(names or ()) if self.named else self.choices
        values = [str(v).lower() if isinstance(v, bool) else str(v) for v in offered]
        if not values:
            return "none available"
        return values[0] if len(values) == 1 else f"{', '.join(values[:-1])} or {values[-1]}"

    def check(self, value: Any, *, names: Iterable[str] | None = None) -> Any:
        """The value to store, or :class:`OptionError` saying what is allowed (``names``: a named option's)."""
        if self.named:
            known = set(names or ())
            if value is None or (isinstance(value, str) and value in known):
                return value
        elif self.choices:
            if any(same(value, c) for c in self.choices):
                return value
        elif _is_int(value) and self.minimum is not None and self.maximum is not None:
            if self.minimum <= value <= self.maximum:
                return value
        raise OptionError(f"{self.name} is {self.allowed(names)} ({self.rule}), not {value!r}.", self.name)

    def describe(self, value: Any) -> str:
        """How a value reads on a page: its name, or the value itself (a phrase: :func:`rules.speech.say` it)."""
        for key, text in self.value_names.items():
            if same(key, value):
                return text
        if isinstance(value, bool):
            return phrase("yes") if value else phrase("no")
        return phrase("%(value)s %(unit)s", value=value, unit=self.unit) if self.unit else str(value)

    def is_default(self, value: Any) -> bool:
        return same(value, self.default)

    def is_house_rule(self, value: Any) -> bool:
        return self.house_rule and not self.is_default(value)

    def as_dict(self) -> dict[str, Any]:
        """The option as JSON: what it is, its values and default, where it is used, the rulebook's words."""
        out: dict[str, Any] = {
            "name": self.name,
            "label": self.label,
            "default": self.default,
            "uses": sorted(u.value for u in self.uses),
            "rule": self.rule,
            "quote": self.quote,
            "house_rule": self.house_rule,
            "help": self.help,
        }
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"], out["maximum"] = self.minimum, self.maximum
        if self.named:
            out["named"] = True
        return out


@dataclass(frozen=True, slots=True)
class Interpretation:
    """A place where Podium reads a rulebook: its ``text`` (quoted, or what it leaves unsaid), Podium's
    ``choice``, and the ``option`` an event may set to play it otherwise (``None``: no option).

    ``choice`` is a phrase (:mod:`rules.speech`), said in the reader's language; ``text`` quotes the English
    rulebook and stays as written."""

    rule: str
    text: str
    choice: str
    option: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "text": self.text, "choice": self.choice, "option": self.option}


def by_name(options: Iterable[Option]) -> dict[str, Option]:
    return {o.name: o for o in options}


def clean(
    options: Iterable[Option],
    given: Mapping[str, Any],
    *,
    format_name: str,
    names: Mapping[str, Iterable[str]] | None = None,
) -> dict[str, Any]:
    """``given`` checked against ``options``: the values to store (a value equal to the default is dropped,
    and so is ``None``, which asks for the default).  Raises :class:`OptionError` for an unknown name or a
    value not allowed; ``names`` gives named options their choices."""
    if not isinstance(given, Mapping):
        raise OptionError("Options are a mapping of option names to values.")
    known = by_name(options)
    out: dict[str, Any] = {}
    for key, value in given.items():
        option = known.get(key) if isinstance(key, str) else None
        if option is None:
            offered = ", ".join(sorted(known)) or "none"
            raise OptionError(f"{format_name} has no option {key!r} (its options: {offered}).", str(key))
        if value is None:
            continue
        value = option.check(value, names=(names or {}).get(key))
        if not option.is_default(value):
            out[key] = value
    return out


def effective(options: Iterable[Option], stored: Mapping[str, Any], *, use: Use | None = None) -> dict[str, Any]:
    """Every option's value (``stored``, else the default), only those with ``use`` when it is given."""
    return {o.name: stored.get(o.name, o.default) for o in options if use is None or use in o.uses}


def read(
    options: Iterable[Option], given: Mapping[str, Any] | None, *, format_name: str, extra: Iterable[str] = ()
) -> dict[str, Any]:
    """An engine's options, checked, with every default filled in (for ``new_game``).

    ``extra`` names keys the engine reads itself (a Deck Masters duel's named Deck Masters): they
    are left out.  Raises :class:`OptionError` like :func:`clean`.
    """
    own = [o for o in options if not o.named]
    skip = set(extra)
    if given is not None and not isinstance(given, Mapping):
        raise OptionError("Options are a mapping of option names to values.")
    checked = clean(own, {k: v for k, v in (given or {}).items() if k not in skip}, format_name=format_name)
    return {**{o.name: o.default for o in own}, **checked}
