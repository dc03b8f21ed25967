"""Check a decklist for a format: parse, resolve against the catalogue, apply the format's deck rules.

``deck_check`` is what the stateless ``POST /api/v1/deck-checks/`` endpoint and
the validation task both call.  It reads the catalogue (through the cached
pools of :mod:`decks.catalogue`) and writes nothing.

A list may hold up to :data:`DECKLIST_MAX_LENGTH` characters, so up to 25,000
lines that are each a violation.  What is kept of them is bounded: the
anonymous check lists :data:`LISTED_PER_CODE` of each code, a stored deck
version :data:`STORED_VIOLATIONS` (:meth:`CheckResult.kept`); both count them
all, in total and by code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from core.exceptions import ApplicationError
from decks import catalogue
from decks.parsers.mintayn import parse_mintayn, resolve_mintayn
from decks.parsers.pokemon import parse_pokemon_decklist
from decks.parsers.yugioh import parse_yugioh, resolve_reference, resolve_yugioh
from decks.resolve import resolve_pokemon_decklist
from rules import FORMATS, Format, GameFamily, get_format
from rules.deckrules import ROLES, Deck, DeckRules, Entry, Problem, Violation
from rules.options import OptionError, Use
from rules.speech import Phrase, phrase

#: The longest decklist taken (pasted on the deck page, or sent to the API), in characters.
DECKLIST_MAX_LENGTH = 50_000
#: The anonymous check lists at most this many violations of each code (a list of 5,000 unknown cards would
#: answer hundreds of kilobytes); ``violation_count`` and ``violations_by_code`` count them all.
LISTED_PER_CODE = 20
#: A stored deck version keeps at most this many violations (a 25,000-line list of unreadable lines would store
#: 3 MB a version); it counts them all, in total and by code.
STORED_VIOLATIONS = 200


@dataclass(frozen=True)
class CheckResult:
    legal: bool
    card_count: int
    violations: list[Violation]

    def as_dict(self, *, per_code: int | None = None) -> dict[str, Any]:
        """The verdict; ``per_code``: list only the first that many violations of each code, and count them all."""
        by_code: dict[str, int] = {}
        listed = []
        for violation in self.violations:
            by_code[violation.code] = by_code.get(violation.code, 0) + 1
            if per_code is None or by_code[violation.code] <= per_code:
                listed.append(violation.as_dict())
        return {
            "legal": self.legal,
            "card_count": self.card_count,
            "violation_count": len(self.violations),
            "violations_by_code": by_code,
            "violations": listed,
        }

    def by_code(self) -> dict[str, int]:
        """How many violations of each code, in the order the codes first appear."""
        counts: dict[str, int] = {}
        for violation in self.violations:
            counts[violation.code] = counts.get(violation.code, 0) + 1
        return counts

    def kept(self, at_most: int = STORED_VIOLATIONS) -> list[dict[str, Any]]:
        """What a deck version stores: :func:`kept_violations` of the violations as plain data."""
        return kept_violations([v.as_dict() for v in self.violations], at_most)


def kept_violations(violations: list[dict[str, Any]], at_most: int = STORED_VIOLATIONS) -> list[dict[str, Any]]:
    """At most ``at_most`` of ``violations``, in their order: the first of every code, then the first ones.

    Decklist problems come first, so a list of thousands of unreadable lines would otherwise leave no room for
    the rule it breaks (too many cards) found after them.
    """
    if len(violations) <= at_most:
        return list(violations)
    firsts: dict[str, int] = {}
    for position, violation in enumerate(violations):
        firsts.setdefault(violation["code"], position)
    must = set(sorted(firsts.values())[:at_most])
    room = at_most - len(must)
    kept = []
    for position, violation in enumerate(violations):
        if position in must:
            kept.append(violation)
        elif room > 0:
            kept.append(violation)
            room -= 1
    return kept


def deck_rules(slug: str) -> DeckRules:
    """A format's deck rules (``check(deck, options)``), as its registry record holds them."""
    return get_format(slug).deck_rules


def _role_problem(role: str, ref: str, suggestion: str | None) -> Problem:
    return Problem(code="unknown_card", line=0, text=ref, message=_no_card_for_role(role, ref), suggestion=suggestion)


def _no_card_for_role(role: str, card: str) -> Phrase:
    """The sentence saying that a role's card matches no card: one per role, the roles being words to translate."""
    match role:
        case "master":
            return phrase("The master '%(card)s' matches no card.", card=card)
        case "apex":
            return phrase("The apex '%(card)s' matches no card.", card=card)
        case "paragon":
            return phrase("The paragon '%(card)s' matches no card.", card=card)
        case "signature":
            return phrase("The signature '%(card)s' matches no card.", card=card)
        case "trainer":
            return phrase("The trainer '%(card)s' matches no card.", card=card)
        case "starting_pokemon":
            return phrase("The starting pokemon '%(card)s' matches no card.", card=card)
        case "starting_energy":
            return phrase("The starting energy '%(card)s' matches no card.", card=card)
        case "deck_master":
            return phrase("The deck master '%(card)s' matches no card.", card=card)
    return phrase("'%(card)s' matches no card.", card=card)  # no other role gets here: deck_check refuses it


def deck_check(
    *, format: str, decklist: str, roles: Mapping[str, str] | None = None, options: Mapping[str, Any] | None = None
) -> CheckResult:
    if format not in FORMATS:
        raise ApplicationError(
            _("Unknown format '%(format)s'.") % {"format": format}, code="unknown_format", field="format"
        )
    roles = dict(roles or {})
    unknown_roles = sorted(set(roles) - set(ROLES))
    if unknown_roles:
        raise ApplicationError(
            _("Unknown role(s) %(unknown)s; roles are %(roles)s.")
            % {"unknown": ", ".join(unknown_roles), "roles": ", ".join(ROLES)},
            code="unknown_role",
            field="roles",
        )
    fmt = get_format(format)
    options = _checked_options(fmt, options or {})
    resolved_roles: dict[str, Any] = {}
    role_problems: list[Problem] = []

    entries, problems = READERS[fmt.family](decklist, roles, options, resolved_roles, role_problems)
    deck = Deck(entries=tuple(entries), roles=resolved_roles, problems=tuple(problems) + tuple(role_problems))
    try:
        violations = fmt.deck_rules.check(deck, options)
    except ValueError as exc:
        # A phrase of the rules (the exception's one argument) is said in the request's language.
        message = exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], Phrase) else str(exc)
        raise ApplicationError(message, code="invalid_option", field="options") from exc
    return CheckResult(legal=not violations, card_count=deck.count(), violations=list(violations))


def _checked_options(fmt: Format, options: Mapping[str, Any]) -> dict[str, Any]:
    """The deck options as the format allows them (a refusal says which values are); a named option (the
    banlist) is looked up by the reader, which turns its name into what the rules need."""
    named = {o.name for o in fmt.options_for(Use.DECK) if o.named}
    try:
        checked = fmt.clean_options({k: v for k, v in options.items() if k not in named}, use=Use.DECK)
    except OptionError as exc:
        raise ApplicationError(exc.message, code="invalid_option", field="options") from None
    return {**checked, **{k: v for k, v in options.items() if k in named}}


# --- reading a decklist, by card family ------------------------------------------------------------
# A format names its card family (``Format.family``); the family says which card pool and which
# decklist parser a deck is read with.  Each reader resolves the list and the role cards, adding what
# it cannot resolve to ``role_problems``, and may turn an option's name into what the rules need.

Reader = Callable[
    [str, Mapping[str, str], dict[str, Any], dict[str, Any], list[Problem]], tuple[list[Entry], list[Problem]]
]


def _read_pokemon(decklist, roles, options, resolved_roles, role_problems):
    index = catalogue.pokemon_index()
    entries, problems = resolve_pokemon_decklist(parse_pokemon_decklist(decklist), index)
    for role, ref in roles.items():
        card = index.resolve_reference(ref)
        if card is None:
            role_problems.append(_role_problem(role, ref, index.suggest(ref)))
        else:
            resolved_roles[role] = card
    return entries, problems


def _read_yugioh(decklist, roles, options, resolved_roles, role_problems):
    index = catalogue.yugioh_index()
    entries, problems = resolve_yugioh(parse_yugioh(decklist), index.by_passcode)
    for role, ref in roles.items():
        found = resolve_reference(ref, index)
        if isinstance(found, Problem):
            role_problems.append(_role_problem(role, ref, found.suggestion))
        else:
            resolved_roles[role] = found
    banlist_name = options.pop("banlist", None)
    banlist = catalogue.banlist(banlist_name)
    if banlist_name and banlist is None:
        raise ApplicationError(
            _("No banlist named '%(banlist)s' has been imported.") % {"banlist": banlist_name},
            code="unknown_banlist",
            field="options",
        )
    if banlist is not None:
        options["banlist"] = banlist
    return entries, problems


def _read_mintayn(decklist, roles, options, resolved_roles, role_problems):
    pool = catalogue.mintayn_pool()
    entries, problems = resolve_mintayn(parse_mintayn(decklist), pool.by_name)
    for role, ref in roles.items():
        card = pool.by_name.get(ref.strip())
        if card is None:
            role_problems.append(_role_problem(role, ref, None))
        else:
            resolved_roles[role] = card
    return entries, problems


READERS: dict[GameFamily, Reader] = {
    GameFamily.POKEMON: _read_pokemon,
    GameFamily.YUGIOH: _read_yugioh,
    GameFamily.MINTAYN: _read_mintayn,
}
