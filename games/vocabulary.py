"""The vocabulary docs, written from the engines' ``VOCABULARY`` and ``QUICK_ENTRIES``, and each format's
rules tables, written from its record's ``options`` and ``interpretations``.

``docs/games/<format>.md`` and ``docs/games/README.md`` each hold a section between the markers
:data:`BEGIN` and :data:`END` that is generated here, so the docs, the console's forms and the
engines read one source; each format's doc also holds its options and its interpretations
(rulebook text → Podium's choice → event option) between :data:`RULES_BEGIN` and :data:`RULES_END`,
which the format's public page shows too.  ``python manage.py vocabulary_docs`` rewrites the
sections; ``--check`` says whether they are current (the test suite checks it too).  Pure: no Django.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from rules.base import Format
from rules.engine import COMMON_VOCABULARY, THE_PLAYER, TURN_PLAYER, EventSpec, Field, Kind, QuickEntry
from rules.options import Option

BEGIN = "<!-- vocabulary: generated from the engine by `python manage.py vocabulary_docs`; do not edit by hand -->"
END = "<!-- /vocabulary -->"
RULES_BEGIN = (
    "<!-- rules: generated from the format's record by `python manage.py vocabulary_docs`; do not edit by hand -->"
)
RULES_END = "<!-- /rules -->"

#: What each kind means, in the docs' words.
KIND_TEXT: dict[Kind, str] = {
    Kind.PLAYER: "a player's id",
    Kind.PLAYERS: "a list of player ids, each once",
    Kind.AMOUNT: "a signed integer, not 0 (a change)",
    Kind.COUNT: "an integer within the bounds listed (0 or more unless stated)",
    Kind.CHOICE: "one of the values listed",
    Kind.PLAYER_AMOUNTS: "`{player id: signed integer}` for one or more players",
    Kind.PLACEMENTS: "`{player id: placement}` for the players still in",
    Kind.COUNTS: "`{value: count}` for the values listed",
    Kind.CARD: "a card's name",
    Kind.TAG: "the judge's own label for a card in play, unique in the game (a Mintayn monster)",
    Kind.BOOLEAN: "`true` or `false`",
    Kind.TEXT: "free text",
    Kind.ENTRIES: "a list of sub-entries, each with the fields named (several things at the same moment)",
}

_WHEN = {
    "always": "any time",
    "in_a_turn": "while a turn is under way",
    "between_turns": "between turns",
    "their_turn": "during their turn",
    "plays_next": "when they play next",
    "other_turn": "during another player's turn",
}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _values(field: Field) -> str:
    parts = []
    if field.choices:
        parts.append(", ".join(f"`{c}`" for c in field.choices))
    if field.kind == Kind.COUNT:
        low = field.minimum or 0
        parts.append(f"{low}–{field.maximum}" if field.maximum is not None else f"≥ {low}")
    if field.item:
        parts.append("rows of " + ", ".join(f"`{name}`" for name, _ in field.item))
    if field.default is not None:
        parts.append(f"default `{json.dumps(field.default)}`")
    return "; ".join(parts)


def _kind(field: Field) -> str:
    return field.kind.value + (", optional" if field.optional else "")


def fields_table(specs: Iterable[EventSpec]) -> list[str]:
    lines = ["| event type | field | kind | values | what it is |", "|---|---|---|---|---|"]
    for spec in specs:
        if not spec.fields:
            lines.append(f"| `{spec.type}` | — | | | |")
            continue
        for i, (name, field) in enumerate(spec.fields.items()):
            event = f"`{spec.type}`" if i == 0 else ""
            lines.append(
                f"| {event} | `{name}` | {_kind(field)} | {_cell(_values(field))} | {_cell(field.description)} |"
            )
    return lines


def _shown(value: object) -> object:
    if value == THE_PLAYER:
        return "<the player>"
    if value == TURN_PLAYER:
        return "<the turn player>"
    if isinstance(value, Mapping):
        return {str(_shown(k)): _shown(v) for k, v in value.items()}
    return value


def quick_table(quick: Iterable[QuickEntry]) -> list[str]:
    lines = ["| button | entry | offered on a player's card |", "|---|---|---|"]
    for q in quick:
        data = json.dumps(_shown(dict(q.data)), ensure_ascii=False)
        offered = _WHEN[q.when.value] + (f", while `{q.needs}`" if q.needs else "")
        label = q.label.replace("{turn}", "‹turn player›")
        lines.append(f"| {label} | `{q.type}` `{_cell(data)}` | {offered} |")
    return lines


def format_section(vocabulary: Mapping[str, EventSpec], quick: Iterable[QuickEntry]) -> str:
    own = [spec for t, spec in vocabulary.items() if t not in COMMON_VOCABULARY]
    lines = [
        BEGIN,
        "### Entry fields",
        "",
        "Each field's kind (see [the README](README.md#field-kinds)), its values and what it is. The judge "
        "console builds its forms from these; the API takes the same fields as JSON `data`.",
        "",
        *fields_table(own),
        "",
        "### One-tap entries",
        "",
        "Buttons on each player's card in the judge console, each recording a whole entry (`<the player>` is "
        "the card's player, `<the turn player>` whoever's turn it is):",
        "",
        *quick_table(quick),
        END,
    ]
    return "\n".join(lines)


def _option_values(option: Option) -> str:
    if option.named:
        return "the name of an imported banlist"
    if option.choices:
        return ", ".join(f"`{json.dumps(c)}`" for c in option.choices)
    return f"{option.minimum}–{option.maximum}"


def rules_section(fmt: Format) -> str:
    """The format's options (the event sets them once) and its interpretations, as two tables."""
    lines = [RULES_BEGIN, "## Event options", ""]
    if fmt.options:
        lines += [
            "An event sets these once, before round 1 (dashboard: the event's settings; API: `options` on the "
            "event); every page of the event shows them, and a house rule says so. Left out, the rulebook's "
            "default.",
            "",
            "| option | values | default | used by | kind | rulebook |",
            "|---|---|---|---|---|---|",
        ]
        for o in fmt.options:
            kind = "house rule" if o.house_rule else "rulebook variant"
            uses = ", ".join(
                {"deck": "deck rules", "game": "game engine", "tables": "pairing"}[u] for u in sorted(o.uses)
            )
            default = "the newest imported list" if o.named else f"`{json.dumps(o.default)}`"
            lines.append(
                f"| `{o.name}` ({_cell(o.label)}) | {_cell(_option_values(o))} | {default} | {uses} | {kind} | "
                f"{_cell(o.rule)}: “{_cell(o.quote)}” |"
            )
    else:
        lines.append("None: every event plays by the rulebook as Podium reads it below.")
    lines += [
        "",
        "## Interpretations",
        "",
        "Where the rulebook leaves a choice open, or where an event may play it otherwise: the rulebook's text, "
        "Podium's choice, and the event option that changes it.",
        "",
        "| rule | rulebook text | Podium's choice | event option |",
        "|---|---|---|---|",
    ]
    for i in fmt.interpretations:
        option = f"`{i.option}`" if i.option else "—"
        text = _cell(i.text) if i.text.startswith("Silent:") else f"“{_cell(i.text)}”"
        lines.append(f"| {_cell(i.rule)} | {text} | {_cell(i.choice)} | {option} |")
    lines.append(RULES_END)
    return "\n".join(lines)


def common_section() -> str:
    lines = [BEGIN, *fields_table(COMMON_VOCABULARY.values()), "", "#### Field kinds", ""]
    lines += [f"- `{kind.value}`: {text}" for kind, text in KIND_TEXT.items()]
    lines.append(END)
    return "\n".join(lines)


def rewrite(text: str, section: str) -> str:
    """``text`` with the generated section that ``section``'s markers (its first and last lines) delimit replaced
    by ``section`` (appended when it has none)."""
    begin, end = section.split("\n", 1)[0], section.rsplit("\n", 1)[-1]
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        return head + section + tail
    return text.rstrip("\n") + "\n\n" + section + "\n"


def documents(docs: Path) -> dict[Path, list[str]]:
    """Every generated doc and the generated sections it should hold."""
    from rules import FORMATS

    sections = {docs / "README.md": [common_section()]}
    for slug, fmt in FORMATS.items():
        sections[docs / f"{slug}.md"] = [format_section(fmt.vocabulary, fmt.quick_entries), rules_section(fmt)]
    return sections
