"""Find the Pokémon cards a parsed decklist names.

``PokemonIndex.build(cards, sets)`` indexes the card pool once;
``index.resolve(name, set_code, number)`` returns the card a decklist line
means, or ``None``; ``resolve_pokemon_decklist(parsed, index)`` turns a
``ParsedDecklist`` into deck ``Entry`` records and ``Problem`` records.  Pure
Python, no Django.

Terms:

- A *code* is what decklists print for a set: its PTCGO/PTCGL code
  (``ptcgoCode``: ``OBF``, ``PR-SV``) or, as a fallback, its pokemon-tcg-data
  set id (``sv3``, ``SV3PT5``), case-insensitive.  Several sets can share a code
  (subsets: ``BRS`` is ``swsh9`` and ``swsh9tg``; ``HIF`` is ``sm115`` and
  ``sma``; ``CEL`` is ``cel25`` and ``cel25c``): every set with the code is
  searched.  Gallery spellings ``BRS-TG`` / ``BRSTG`` / ``CRZ-GG`` / ``SHF-SV``
  name the subset alone, and a few promo spellings are aliases
  (``PR-SWSH`` = ``PR-SW``, ``PR-BW`` = ``PR-BLW``, ``PR-DP`` = ``PR-DPP``,
  ``PR-HGSS`` = ``PR-HS``; ``SVP``, ``SWSHP`` ... work as set ids).
- A *normalised number* is upper case with the leading zeros of its digits
  dropped: ``TG05`` -> ``TG5``, ``SWSH076`` -> ``SWSH76``, ``007`` -> ``7``.
- A *normalised name* (``normalize_name``) drops accents (é -> e), apostrophes
  (' and ’ alike), punctuation and extra spaces, and lower-cases every word
  except ``EX``, so that Black & White / XY ``Charizard-EX`` stays apart from
  Scarlet & Violet ``Charizard ex`` (``Charizard EX``, ``Charizard-EX`` and
  ``charizard EX`` are the same name).  ◇ reads as ``Prism Star``, ★ as
  ``Star``, δ as ``delta``, ♂/♀ as ``M``/``F``, ``&`` as ``and``, a leading
  ``M`` as ``Mega`` (``M Rayquaza-EX`` = ``Mega Rayquaza EX``), Energy symbols
  as types (``{R}`` = ``Fire``), and ``Basic Fire Energy`` as ``Fire Energy``.
  When no card has the name with that case of ``EX``/``ex``, the name is
  matched ignoring case.
- The *preferred print* among cards of one name is the newest: latest release
  date, then a plain collector number over a lettered one (``166`` over
  ``TG05``), then the latest set, then the lowest number.

Resolution of ``resolve(name, set_code, number)``, first rule that gives a card:

1. **Basic Energy** written with no set, or with the PTCGO pseudo-set
   ``Energy`` (whose number is ignored): by type (``Fire Energy``,
   ``Basic Fire Energy``, ``{R} Energy``, ``Basic {R} Energy``) to the preferred
   print of that type's Basic Energy.
2. **Set and number** (known code): the card(s) with that normalised number in
   the sets with the code -- for a number written without its letter prefix
   (``PR-SW 76``), the one card of the set whose number has those digits.  A
   card whose normalised name matches is the answer.  Otherwise (wrong number,
   or another name printed there): the preferred print of that name within the
   sets with the code; else of that name anywhere; else the card at that number
   if its name is close (difflib ratio >= 0.6, e.g. ``Professor's Research`` at
   the number of ``Professor's Research (Professor Oak)``); else nothing.
3. **Unknown code**: the code may be the end of the name (``Tapu Lele GX 60``):
   the name with it, then the name alone.
4. **Name alone**: the preferred print of that name.

``resolve_pokemon_decklist`` resolves each ``ParsedLine``; lines that resolve
to the same card are merged into one ``Entry`` (counts added, ``line`` of the
first, zone ``main``), in the order of first appearance.  A line that resolves
to nothing becomes ``Problem(code="unknown_card")`` with ``suggestion`` from
``index.suggest(name)`` ("did you mean": the closest normalised name, by
difflib, at a ratio of at least 0.6) for the first :data:`SUGGESTIONS_AT_MOST`
of them: the search reads every name of the pool (about 30 ms), and pages and
answers list only the first problems.  The problems returned are the parser's
problems followed by the resolver's, sorted by line.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Sequence

from decks.importers.pokemon import ENERGY_TYPES, PokemonSet
from decks.parsers.pokemon import ParsedDecklist, parse_card_reference
from rules.cards import PokemonCard
from rules.deckrules import Entry, Problem
from rules.speech import phrase

CLOSE_RATIO = 0.6
#: Unknown cards of one list that get a "did you mean" (a list of thousands of unknown names would otherwise keep
#: a check busy for minutes).
SUGGESTIONS_AT_MOST = 20
PROMO_ALIASES = {"PR-SWSH": "PR-SW", "PR-BW": "PR-BLW", "PR-DP": "PR-DPP", "PR-HGSS": "PR-HS"}
SUBSET_SUFFIXES = (("tg", "TG"), ("gg", "GG"), ("sv", "SV"), ("sma", "SV"))

_ENERGY_SYMBOLS = {
    "G": "Grass",
    "R": "Fire",
    "W": "Water",
    "L": "Lightning",
    "P": "Psychic",
    "F": "Fighting",
    "D": "Darkness",
    "M": "Metal",
    "Y": "Fairy",
    "C": "Colorless",
    "N": "Dragon",
}
_SYMBOLS = {"◇": " Prism Star ", "★": " Star ", "δ": " delta ", "♂": " M ", "♀": " F ", "&": " and "}
_APOSTROPHES = re.compile("['’‘`´ʼ]")
_ENERGY_SYMBOL = re.compile(r"\{([A-Za-z])\}")
_WORD = re.compile(r"[^\W_]+")
_NUMBER = re.compile(r"^([A-Z]*)0*([0-9]+)(.*)$")
_COUNT_PREFIX = re.compile(r"^\s*(?:[*•-]\s*)?[0-9]+[xX×]?\s+(?=\S)")
_BASIC_ENERGY_KEYS = {f"{t.lower()} energy": t for t in ENERGY_TYPES}
_QUALIFIER = re.compile(r"\s*\([^()]*\)\s*$")


def normalize_name(name: str) -> str:
    """The name as the index compares it (see the module docstring); ``"EX"`` keeps its case."""
    text = _ENERGY_SYMBOL.sub(lambda m: f" {_ENERGY_SYMBOLS.get(m.group(1).upper(), m.group(1))} ", name)
    for symbol, words in _SYMBOLS.items():
        text = text.replace(symbol, words)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = _APOSTROPHES.sub("", text)
    words = [w if w == "EX" else w.lower() for w in _WORD.findall(text)]
    joined: list[str] = []
    for word in words:
        if word == "star" and joined and joined[-1] == "prism":
            joined[-1] = "prismstar"
        else:
            joined.append(word)
    if len(joined) > 1 and joined[0] == "m":
        joined[0] = "mega"
    if len(joined) == 3 and joined[0] == "basic" and f"{joined[1]} {joined[2]}" in _BASIC_ENERGY_KEYS:
        joined = joined[1:]
    return " ".join(joined)


def normalize_number(number: str) -> str:
    """``TG05`` -> ``TG5``, ``swsh076`` -> ``SWSH76``; other numbers upper-cased."""
    number = number.strip().upper()
    if m := _NUMBER.match(number):
        return f"{m.group(1)}{int(m.group(2))}{m.group(3)}"
    return number


def _digits(number: str) -> str | None:
    m = _NUMBER.match(number.strip().upper())
    return str(int(m.group(2))) if m and not m.group(3) else None


class PokemonIndex:
    """The card pool, indexed for decklist resolution (build once, query many times)."""

    def __init__(
        self,
        cards: dict[str, PokemonCard],
        set_ids_by_code: dict[str, tuple[str, ...]],
        by_number: dict[tuple[str, str], list[PokemonCard]],
        by_digits: dict[tuple[str, str], list[PokemonCard]],
        by_name: dict[str, list[PokemonCard]],
        by_set_name: dict[tuple[str, str], list[PokemonCard]],
        basic_energy: dict[str, PokemonCard],
    ) -> None:
        self.cards = cards
        self._set_ids_by_code = set_ids_by_code
        self._by_number = by_number
        self._by_digits = by_digits
        self._by_name = by_name
        self._by_set_name = by_set_name
        self._by_loose: dict[str, list[PokemonCard]] = {}
        self._by_set_loose: dict[tuple[str, str], list[PokemonCard]] = {}
        for key, group in by_name.items():
            self._by_loose.setdefault(key.lower(), []).extend(group)
        for (set_id, key), group in by_set_name.items():
            self._by_set_loose.setdefault((set_id, key.lower()), []).extend(group)
        for groups in (self._by_loose, self._by_set_loose):
            for group in groups.values():
                group.sort(key=_preference)
        self._basic_energy = basic_energy
        self._loose_keys = list(self._by_loose)

    @classmethod
    def build(cls, cards: Iterable[PokemonCard], sets: Iterable[PokemonSet]) -> PokemonIndex:
        sets = list(sets)
        cards_by_key = {card.key: card for card in cards}
        set_ids_by_code: dict[str, list[str]] = {}

        def add_code(code: str, set_id: str) -> None:
            ids = set_ids_by_code.setdefault(code.upper(), [])
            if set_id not in ids:
                ids.append(set_id)

        for s in sets:
            if s.ptcgo_code:
                add_code(s.ptcgo_code, s.id)
        for card in cards_by_key.values():
            if card.set_code:
                add_code(card.set_code, card.set_id)
        for s in sets:
            add_code(s.id, s.id)
        for card in cards_by_key.values():
            add_code(card.set_id, card.set_id)
        for s in sets:
            for ending, suffix in SUBSET_SUFFIXES:
                if s.ptcgo_code and s.id.endswith(ending) and s.id != s.ptcgo_code.lower():
                    add_code(f"{s.ptcgo_code}{suffix}", s.id)
                    add_code(f"{s.ptcgo_code}-{suffix}", s.id)
        for alias, code in PROMO_ALIASES.items():
            for set_id in set_ids_by_code.get(code, ()):
                add_code(alias, set_id)

        by_number: dict[tuple[str, str], list[PokemonCard]] = {}
        by_digits: dict[tuple[str, str], list[PokemonCard]] = {}
        by_name: dict[str, list[PokemonCard]] = {}
        by_set_name: dict[tuple[str, str], list[PokemonCard]] = {}
        basic_energy: dict[str, PokemonCard] = {}
        for card in sorted(cards_by_key.values(), key=_preference):
            by_number.setdefault((card.set_id, normalize_number(card.number)), []).append(card)
            if (digits := _digits(card.number)) is not None:
                by_digits.setdefault((card.set_id, digits), []).append(card)
            for key in _name_keys(card):
                by_name.setdefault(key, []).append(card)
                by_set_name.setdefault((card.set_id, key), []).append(card)
            if card.is_basic_energy and card.types:
                basic_energy.setdefault(card.types[0], card)
        return cls(
            cards_by_key,
            {code: tuple(ids) for code, ids in set_ids_by_code.items()},
            by_number,
            by_digits,
            by_name,
            by_set_name,
            basic_energy,
        )

    def set_ids_for_code(self, code: str) -> tuple[str, ...]:
        """The set ids a decklist code names (``()`` when unknown)."""
        return self._set_ids_by_code.get(code.strip().upper(), ())

    def resolve(self, name: str, set_code: str | None = None, number: str | None = None) -> PokemonCard | None:
        """The card a decklist line means, or ``None``; the rules are in the module docstring."""
        key = normalize_name(name)
        code = set_code.strip() if set_code and set_code.strip() else None
        if code is None or code.lower() == "energy":
            if key in _BASIC_ENERGY_KEYS and (energy := self._basic_energy.get(_BASIC_ENERGY_KEYS[key])):
                return energy
            code = None
        if code is not None:
            set_ids = self.set_ids_for_code(code)
            if set_ids:
                return self._resolve_in_sets(key, set_ids, number)
            if found := self._named(normalize_name(f"{name} {code}")):
                return found
        return self._named(key)

    def resolve_reference(self, ref: str) -> PokemonCard | None:
        """A role reference: ``NAME SET NUMBER`` (a PTCGL line, its count optional) or a name."""
        ref = _COUNT_PREFIX.sub("", ref, count=1)
        parts = parse_card_reference(ref)
        return self.resolve(*parts) if parts else None

    def suggest(self, name: str) -> str | None:
        """The printed name closest to ``name`` ("did you mean"), or ``None``."""
        loose = normalize_name(name).lower()
        if not loose:
            return None
        if loose in self._by_loose:
            return self._by_loose[loose][0].name
        close = difflib.get_close_matches(loose, self._loose_keys, n=1, cutoff=CLOSE_RATIO)
        return self._by_loose[close[0]][0].name if close else None

    def _named(self, key: str, set_ids: Sequence[str] | None = None) -> PokemonCard | None:
        if set_ids is None:
            found = self._by_name.get(key) or self._by_loose.get(key.lower())
            return found[0] if found else None
        for strict in (True, False):
            candidates = [
                card
                for set_id in set_ids
                for card in (
                    self._by_set_name.get((set_id, key)) if strict else self._by_set_loose.get((set_id, key.lower()))
                )
                or ()
            ]
            if candidates:
                return min(candidates, key=_preference)
        return None

    def _resolve_in_sets(self, key: str, set_ids: tuple[str, ...], number: str | None) -> PokemonCard | None:
        at_number: list[PokemonCard] = []
        if number:
            wanted = normalize_number(number)
            at_number = [card for set_id in set_ids for card in self._by_number.get((set_id, wanted), ())]
            digits = _digits(number)
            if not at_number and digits is not None and wanted == digits:
                at_number = [
                    card
                    for set_id in set_ids
                    if len(group := self._by_digits.get((set_id, digits), ())) == 1
                    for card in group
                ]
        for card in at_number:
            if key in _name_keys(card):
                return card
        for card in at_number:
            if key.lower() in (k.lower() for k in _name_keys(card)):
                return card
        found = self._named(key, set_ids) or self._named(key)
        if found is not None:
            return found
        if at_number:
            loose = key.lower()
            best = max(at_number, key=lambda c: difflib.SequenceMatcher(None, loose, _loose(c)).ratio())
            if difflib.SequenceMatcher(None, loose, _loose(best)).ratio() >= CLOSE_RATIO:
                return best
        return None


def _name_keys(card: PokemonCard) -> tuple[str, ...]:
    """The normalised name, and without a trailing qualifier: ``Boss's Orders (Ghetsis)`` is also ``Boss's Orders``."""
    key = normalize_name(card.name)
    base = normalize_name(_QUALIFIER.sub("", card.name))
    return (key, base) if base and base != key else (key,)


def _loose(card: PokemonCard) -> str:
    return normalize_name(card.name).lower()


def _preference(card: PokemonCard) -> tuple[object, ...]:
    """Sort key: the preferred print first (see "preferred print" in the module docstring)."""
    m = _NUMBER.match(card.number.upper())
    lettered = bool(m.group(1)) if m else True
    digits = int(m.group(2)) if m else 0
    return (_negated(card.release_date), lettered, _negated(card.set_id), digits, card.number)


def _negated(text: str) -> tuple[int, ...]:
    """A key that sorts strings in reverse order (for a descending field inside an ascending sort)."""
    return tuple(-ord(ch) for ch in text) + (1,)


def resolve_pokemon_decklist(parsed: ParsedDecklist, index: PokemonIndex) -> tuple[list[Entry], list[Problem]]:
    """Entries for the lines that resolve (duplicates merged), and every problem, by line."""
    merged: dict[str, Entry] = {}
    problems = list(parsed.problems)
    unknown = 0
    for line in parsed.lines:
        card = index.resolve(line.name, line.set_code, line.number)
        if card is None:
            unknown += 1
            problems.append(
                Problem(
                    code="unknown_card",
                    line=line.line,
                    text=line.text,
                    message=phrase(
                        "No card matches '%(card)s' (%(set)s %(number)s).",
                        card=line.name,
                        set=line.set_code,
                        number=line.number,
                    )
                    if line.set_code and line.number
                    else phrase("No card matches '%(card)s'.", card=line.name),
                    suggestion=index.suggest(line.name) if unknown <= SUGGESTIONS_AT_MOST else None,
                )
            )
            continue
        previous = merged.get(card.key)
        count = line.count + (previous.count if previous else 0)
        merged[card.key] = Entry(card=card, count=count, zone="main", line=previous.line if previous else line.line)
    problems.sort(key=lambda p: p.line)
    return list(merged.values()), problems
