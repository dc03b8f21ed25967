"""One voice for results in words: :mod:`tournaments.words` is the only place that words them.

Results in words were once written twice, in two voices ("2-1" on the dashboard, "2–1" on /me/; "Top cut,
round 5" on /me/, "Semi-finals" everywhere else).  This reads the apps' Python (outside
``tournaments/words.py``) and the templates, and names every line that starts a second copy:

1. a function named like one of the module's helpers: a name (leading underscores aside) with ``ordinal`` in
   it, or ``score``/``game_score``/``score_text``/``score_of``, ``outcome_words``/``outcome_text``,
   ``your_outcome``, ``rounds_words``/``rounds_text``, ``kept_as_paired``, ``were_paired``,
   ``stage_name``/``stage_label``, ``*out_label``, ``final_label``, ``report_lines``, ``round_name``;
2. a table of ordinal suffixes: a dict with the values ``"st"``, ``"nd"``, ``"rd"``, or ``"1st"``, ``"2nd"``;
3. a string that is a top-cut stage or out label on its own (``"Final"``, ``"Semi-finals"``,
   ``"Quarter-finals"``, ``"Final pod"``, ``"Semi-final pods"``, ``"Finalist"``, ``"Semi-finalist"``,
   ``"Quarter-finalist"``, ``"Champion"``), or one that starts ``"Top cut, round"``;
4. a game score joined by hand in an f-string: ``{won}``/``{games_won}`` followed by a dash and another value,
   or a value, an en dash and ``{lost}``/``{games_lost}`` (``I won {w}–{lost}``);
5. in a template: a seat's game score joined by hand (``{{ s.games_won }}-{{ s.games_lost }}``), ``Top cut,
   round``, or a run of rounds joined by hand (``Rounds {{ later|join:", " }}``).

Not matched, on purpose: docstrings and help texts that quote the words inside a longer sentence, numbers as
data (form values ``"2-1-0"``, CSV columns, API fields), a standings record ``3-1-0`` (wins, losses and draws
of matches, not a game score), and ranges such as ``3–4``.  The last tests check the patterns against the
copies this module replaced and against those look-alikes.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = (
    "accounts",
    "bench",
    "config",
    "core",
    "decks",
    "demo",
    "floor",
    "games",
    "leagues",
    "live",
    "notifications",
    "rules",
    "tournaments",
)
HOME = ROOT / "tournaments" / "words.py"

HELPER = re.compile(
    r"ordinal|^(game_)?score(_text|_of)?$|^outcome_(words|text)$|^your_outcome$|^rounds_(words|text)$"
    r"|^kept_as_paired$|^were_paired$|^stage_(name|label)$|out_label$|^final_label$|^report_lines$|^round_name$"
)
STAGE_WORDS = frozenset(
    {"Final", "Semi-finals", "Quarter-finals", "Final pod", "Semi-final pods", "Finalist", "Semi-finalist",
     "Quarter-finalist", "Champion"}
)  # fmt: skip
SUFFIX_TABLES = ({"st", "nd", "rd"}, {"1st", "2nd"})
WON = re.compile(r"(^|[._])(games_)?won$")
LOST = re.compile(r"(^|[._])(games_)?lost$")
TEMPLATE_COPIES = (
    re.compile(r"games_won\s*\}\}\s*[-–]"),
    re.compile(r"Top cut, round"),
    re.compile(r"Rounds?\s*\{\{[^}]*\|\s*join"),
)


def python_offences(source: str) -> list[str]:
    """The lines of ``source`` that start a second copy of a words helper (what the module docstring lists)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and HELPER.search(node.name.lstrip("_")):
            found.append((node.lineno, f"def {node.name}"))
        elif isinstance(node, ast.Dict):
            values = {v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)}
            if any(table <= values for table in SUFFIX_TABLES):
                found.append((node.lineno, "a table of ordinal suffixes"))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value in STAGE_WORDS or node.value.startswith("Top cut, round"):
                found.append((node.lineno, repr(node.value)))
        elif isinstance(node, ast.JoinedStr):
            parts = node.values
            for before, dash, after in zip(parts, parts[1:], parts[2:], strict=False):
                if not (
                    isinstance(before, ast.FormattedValue)
                    and isinstance(dash, ast.Constant)
                    and isinstance(after, ast.FormattedValue)
                ):
                    continue
                joined = str(dash.value)
                won = WON.search(ast.unparse(before.value)) and joined.startswith(("-", "–"))
                lost = LOST.search(ast.unparse(after.value)) and joined.startswith("–")
                if won or lost:
                    found.append((node.lineno, "a game score joined by hand"))
    return [f"{line}: {what}" for line, what in sorted(set(found))]


def template_offences(text: str) -> list[str]:
    return [
        f"{number}: {pattern.pattern}"
        for number, line in enumerate(text.splitlines(), start=1)
        for pattern in TEMPLATE_COPIES
        if pattern.search(line)
    ]


def _python_files():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if path != HOME:
                yield path


def test_results_are_worded_in_tournaments_words_alone():
    offenders = [
        f"{path.relative_to(ROOT)}:{offence}"
        for path in _python_files()
        for offence in python_offences(path.read_text(encoding="utf-8"))
    ]
    assert not offenders, "results worded outside tournaments/words.py:\n" + "\n".join(offenders)


def test_no_template_words_a_result_by_hand():
    templates = sorted((ROOT / "templates").rglob("*.html"))
    assert templates
    offenders = [
        f"{path.relative_to(ROOT)}:{offence}"
        for path in templates
        for offence in template_offences(path.read_text(encoding="utf-8"))
    ]
    assert not offenders, "results worded in templates rather than by tournaments/words.py:\n" + "\n".join(offenders)


def test_the_module_itself_holds_what_the_scan_looks_for():
    """The patterns match the real thing: were the module's helpers copied elsewhere, the scan would see them."""
    assert len(python_offences(HOME.read_text(encoding="utf-8"))) >= 10


# --- the patterns, against the copies this module replaced and against their look-alikes -------------------------

REPLACED = {
    "views' _ordinal": "def _ordinal(n):\n    return {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')",
    "a suffix table": "suffix = 'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')",
    "views' _score": 'def _score(games, pid):\n    won, lost, _ = games[pid]\n    return f"{won}-{lost}"',
    "views' outcome_words": "def outcome_words(placements, games, intentional_draw, names):\n    return ''",
    "views' _rounds_words": "def _rounds_words(numbers):\n    return ''",
    "views' _kept_as_paired": "def _kept_as_paired(numbers, *, when=''):\n    return ''",
    "forms' ordinal": "def ordinal(n):\n    return str(n)",
    "panels' score_text": 'def score_text(games):\n    won, lost, drawn = games\n    return f"{won}–{lost}"',
    "panels' cut round": 'label = f"Top cut, round {m.round_number}" if m.cut else f"Round {m.round_number}"',
    "bracket's _ORDINALS": '_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}',
    "bracket's _out_label": 'def _out_label(tables):\n    return {1: "Finalist", 2: "Semi-finalist"}.get(tables, "")',
    "selectors' stage": 'label = {1: "Final", 2: "Semi-finals", 4: "Quarter-finals"}.get(tables, "")',
    "services' _rounds_text": "def _rounds_text(numbers):\n    return ''",
    "a seat's score": 'score = f"{s.games_won}-{s.games_lost}"',
    "the report form's labels": 'label = f"I won {w}–{lost}"',
}
LOOK_ALIKES = {
    "a form value": 'choices = [(f"{w}-{lost}-0", label) for w, lost in wins]',
    "a record": 'record = f"{standing.wins}-{standing.losses}-{standing.draws}"',
    "a range": 'band = f"{last + 1}–{down_to}"; limits = f"{low}–{field.maximum}"',
    "a help text": 'help_text = "Champion, Finalist, Semi-finalist, Quarter-finalist, Top 16 ..."',
    "a docstring": 'def history_rows():\n    """A top-cut round named by its stage ("Semi-finals")."""',
    "a round in a message": 'message = f"Round {number} has not been paired."',
    "a DB bridge": "def round_label(*, round_):\n    return ''",
}


@pytest.mark.parametrize("source", REPLACED.values(), ids=REPLACED.keys())
def test_the_scan_names_each_copy_this_module_replaced(source):
    assert python_offences(source)


@pytest.mark.parametrize("source", LOOK_ALIKES.values(), ids=LOOK_ALIKES.keys())
def test_the_scan_leaves_data_ranges_and_prose_alone(source):
    assert python_offences(source) == []


def test_the_template_scan_names_a_score_or_a_run_of_rounds_joined_by_hand_and_nothing_else():
    copies = [
        '<span class="score">{{ s.games_won }}-{{ s.games_lost }}</span>',
        '{% if later|length == 1 %}Round {{ later.0 }} was{% else %}Rounds {{ later|join:", " }} were{% endif %}',
        "<td>Top cut, round {{ m.round_number }}</td>",
    ]
    assert all(template_offences(line) for line in copies)
    alike = [
        "<td>{{ s.wins }}-{{ s.losses }}-{{ s.draws }}</td>",
        '<span class="score">{{ score }}</span>',
        "<h1>Round {{ round.number }}, table {{ table }}: extra time</h1>",
    ]
    assert not any(template_offences(line) for line in alike)
