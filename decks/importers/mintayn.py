"""Mintayn card pool, read from a CSV file an organiser imports.

Mintayn cards are full-art with no printed stats (the format defines them), so there is no
public data file: the organiser keeps the Master format's card list as CSV.

Format
------
The first row is exactly the header ``name,card_type,class,level,def,stage,mana_cost`` (any
case, spaces around names allowed).  Each further row is one card:

``name``
    The card's name, unique in the file (compared without regard to case); it is the card's key.
``card_type``
    ``monster``, ``spell`` or ``counter``.
``class``
    Coreon, Fluxion, Synaphera, Obscura or Aetherion.  Required for monsters (each belongs to
    one class); optional for spells and counters (they are class-bound, but the list may leave
    the class out).
``level``, ``def``
    Whole numbers, required for monsters and empty for other cards.
``stage``
    ``basic``, ``evolution``, ``prime evolution`` or ``prime singular``; required for monsters
    and empty for other cards.
``mana_cost``
    A whole number, or empty when the card has none.

Values are read without regard to case and stored as :mod:`rules.cards` spells them (the
class title-cased, stage and type lower-case).  Blank rows are skipped, and so are comment rows,
whose first cell starts with ``#`` (before the header too: a file may say what it is at its top).

Contract
--------
:func:`load_mintayn_csv` returns the cards it could read and one ``unparseable_line`` problem per
row it could not (with the line number in the file; a later row with a name already taken is
such a row).  A wrong header is not a row problem but a ``ValueError`` saying what was expected,
since then no row can be trusted.  Pure Python: no Django imports.
"""

from __future__ import annotations

import csv
import io

from rules.cards import MintaynCard, MintaynCardType
from rules.deckrules import Problem
from rules.speech import Phrase, phrase

HEADER = ("name", "card_type", "class", "level", "def", "stage", "mana_cost")
CLASSES = ("Coreon", "Fluxion", "Synaphera", "Obscura", "Aetherion")
STAGES = ("basic", "evolution", "prime evolution", "prime singular")
PRIME_STAGES = frozenset({"prime evolution", "prime singular"})


class _RowError(ValueError):
    """A row that can't be read; ``message`` says why, a whole sentence (a phrase of :mod:`rules.speech`)."""

    def __init__(self, message: Phrase) -> None:
        super().__init__(message)
        self.message = message


def load_mintayn_csv(text: str) -> tuple[list[MintaynCard], list[Problem]]:
    """The cards of a Mintayn card CSV, and a problem per row that could not be read."""
    rows = csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""))
    try:
        header = next(rows, None)
        while header is not None and _is_comment(header):
            header = next(rows, None)
    except csv.Error as exc:
        raise ValueError(f"the Mintayn card CSV header could not be read: {exc}") from exc
    found = tuple(cell.strip().lower() for cell in header or ())
    if found != HEADER:
        raise ValueError(
            f"a Mintayn card CSV must start with the header row {','.join(HEADER)!r}; "
            f"this one starts with {','.join(header or ())[:120]!r}"
        )
    cards: list[MintaynCard] = []
    problems: list[Problem] = []
    taken: set[str] = set()
    line = rows.line_num + 1
    while True:
        try:
            row = next(rows, None)
        except csv.Error as exc:
            problems.append(
                Problem(
                    code="unparseable_line",
                    line=line,
                    text="",
                    message=phrase("Unreadable CSV: %(error)s.", error=str(exc)),
                )
            )
            break
        if row is None:
            break
        first_line, line = line, rows.line_num + 1
        if not any(cell.strip() for cell in row) or _is_comment(row):
            continue
        try:
            card = _card_from_row(row)
            if card.name.casefold() in taken:
                raise _RowError(phrase("a card called '%(card)s' is already listed.", card=card.name))
        except _RowError as exc:
            problems.append(
                Problem(code="unparseable_line", line=first_line, text=",".join(row)[:200], message=exc.message)
            )
            continue
        taken.add(card.name.casefold())
        cards.append(card)
    return cards, problems


def _is_comment(row: list[str]) -> bool:
    return bool(row) and row[0].lstrip().startswith("#")


def _card_from_row(row: list[str]) -> MintaynCard:
    if len(row) != len(HEADER):
        raise _RowError(
            phrase(
                "expected %(expected)s columns (%(columns)s), found %(found)s.",
                expected=len(HEADER),
                columns=", ".join(HEADER),
                found=len(row),
            )
        )
    name, card_type, card_class, level, defense, stage, mana_cost = (cell.strip() for cell in row)
    name = " ".join(name.split())
    if not name:
        raise _RowError(phrase("the name is empty."))
    try:
        kind = MintaynCardType(card_type.lower())
    except ValueError:
        raise _RowError(
            phrase(
                "%(card)s: card_type must be monster, spell or counter, not '%(value)s'.", card=name, value=card_type
            )
        ) from None
    classes = {c.lower(): c for c in CLASSES}
    if card_class and card_class.lower() not in classes:
        raise _RowError(
            phrase(
                "%(card)s: class must be one of %(classes)s, not '%(value)s'.",
                card=name,
                classes=", ".join(CLASSES),
                value=card_class,
            )
        )
    is_monster = kind == MintaynCardType.MONSTER
    if is_monster:
        if not card_class:
            raise _RowError(phrase("%(card)s: a monster needs a class.", card=name))
        if " ".join(stage.lower().split()) not in STAGES:
            raise _RowError(
                phrase(
                    "%(card)s: stage must be one of %(stages)s, not '%(value)s'.",
                    card=name,
                    stages=", ".join(STAGES),
                    value=stage,
                )
            )
        level_value = _whole(name, "level", level, required=True)
        defense_value = _whole(name, "def", defense, required=True)
    else:
        for column, value in (("level", level), ("def", defense), ("stage", stage)):
            if value and kind == MintaynCardType.SPELL:
                raise _RowError(
                    phrase("%(card)s: a spell has no %(column)s; leave that cell empty.", card=name, column=column)
                )
            if value:
                raise _RowError(
                    phrase("%(card)s: a counter has no %(column)s; leave that cell empty.", card=name, column=column)
                )
        level_value = defense_value = None
    return MintaynCard(
        key=name,
        name=name,
        card_type=kind,
        card_class=classes[card_class.lower()] if card_class else "",
        level=level_value,
        defense=defense_value,
        stage=" ".join(stage.lower().split()) if is_monster else "",
        mana_cost=_whole(name, "mana_cost", mana_cost, required=False),
    )


def _whole(name: str, column: str, value: str, *, required: bool) -> int | None:
    if not value:
        if required:
            raise _RowError(phrase("%(card)s: %(column)s is required for a monster.", card=name, column=column))
        return None
    if not value.isdecimal() or len(value) > 6:
        raise _RowError(
            phrase(
                "%(card)s: %(column)s must be a whole number, not '%(value)s'.", card=name, column=column, value=value
            )
        )
    return int(value)
