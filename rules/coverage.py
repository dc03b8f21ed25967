"""Every rule accounted for: each rulebook's rules, the check that enforces each and the test that proves it, or
why it is the judge's call.

Terms
-----
*row*
    :class:`Row`: a rulebook section, a sentence (or the part of one that states the rule) quoted verbatim from
    the rulebook, and either the :class:`Check` rows that enforce it or ``judge``, the reason it is the judge's
    call (card text Podium does not hold, a table procedure, an example...).
*check*
    :class:`Check`: where Podium refuses what the rule forbids - an engine event and the ``RuleViolation`` code
    it raises, or a deck check's violation code - and the test (a pytest node id, ``path::function``) that
    proves it.
*checkable unit*
    A sentence of the rulebook that states a limit, found mechanically by :func:`checkable_units`: each line of
    the rulebook (list markers, quote markers and headings' ``#`` stripped) is split into sentences after ``.``,
    ``!`` or ``?`` (not after "e.g." or "i.e."), and a sentence is a unit when it holds one of :data:`KEYWORDS`
    as a word ("must", "cannot", "only", "up to", "once per", ...).  A unit is *accounted for* when a row's
    quote holds it or it holds a row's quote (whitespace made single spaces).  Every unit of every rulebook
    must be accounted for (tests/rules/test_rule_coverage.py), so a new rule sentence fails the tests until
    it has a row.  The numbered sections and headings of a rulebook are checkable units too (a section whose
    sentences hold no limit word still states rules: "discard the previous Stadium"): see *heading*.
*heading*
    A line of the rulebook that opens a section, found mechanically by :func:`headings` with the format's own
    pattern (:attr:`Coverage.heading`: numbered headings in one rulebook, Markdown ``#`` headings or upper-case
    lines in another).  A heading is *accounted for* when a row's section names it (:func:`names_heading`:
    the same words, case-blind, or one of the two followed by more words, "THE ABILITY (Continuous)" naming
    "THE ABILITY"), or when the format's ``NOT_RULES`` (:attr:`Coverage.not_rules`) excludes it with the
    reason (a title, a table of contents, an example).  Every heading of every rulebook must be accounted for.
*coverage*
    :class:`Coverage`: one format's rows, its rulebook's file name and the modules its check codes live in.
    Each format keeps it in ``rules/<format>/coverage.py`` as ``COVERAGE``; :func:`coverages` loads them all.

Contract
--------
:func:`document` renders a coverage as the Markdown of ``docs/games/<slug>-coverage.md``; ``python manage.py
rule_coverage`` writes those files (``--check`` fails when one is out of date) and prints the counts per format.
Pure Python: no Django.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

#: The words that make a rulebook sentence a checkable unit (matched case-blind, as whole words).
KEYWORDS: tuple[str, ...] = (
    "must",
    "may not",
    "cannot",
    "can't",
    "not allowed",
    "only",
    "at most",
    "maximum",
    "max",
    "no more than",
    "exactly",
    "required",
    "up to",
    "once per",
    "limit",
    "restricted",
    "restriction",
    "minimum",
)
_KEYWORD = re.compile(r"\b(" + "|".join(re.escape(k) for k in KEYWORDS) + r")\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bI\.e\.)(?<=[.!?])\s+(?=[^a-z])")
_LINE_MARKERS = re.compile(r"^[\s>#\-•*]*(\[![^\]]*\]-?)?\s*")

#: The packages under ``rules/`` that keep a ``coverage.py``, in the order the docs list them.
FORMAT_PACKAGES: tuple[str, ...] = ("format3_trinity", "mintayn_master", "mt_silver", "deck_masters", "master_trainer")


@dataclass(frozen=True)
class Check:
    code: str  #: the RuleViolation or deck Violation code; empty when the engine follows the rule with no refusal
    entry: str  #: where it is raised: "`end_turn`" (an engine event) or "deck check"
    test: str  #: the test that proves it: ``tests/rules/test_x.py::test_y``


@dataclass(frozen=True)
class Row:
    section: str
    quote: str
    checks: tuple[Check, ...] = ()
    judge: str = ""  #: why it is the judge's call; empty when ``checks`` enforce it

    @property
    def enforced(self) -> bool:
        return bool(self.checks)


@dataclass(frozen=True)
class Coverage:
    slug: str
    title: str
    rulebook: str  #: the rulebook's file name (tests read it from the shared rulebooks)
    modules: tuple[str, ...]  #: the source files (relative to the repository) the check codes are raised in
    rows: tuple[Row, ...]
    #: the pattern (``re.MULTILINE``) of a heading line: group ``title``, or another named group, and the
    #: optional group ``number`` ("9.2"), which makes the heading "§9.2 <title>"
    heading: str = ""
    #: the headings that state no rule, each with the reason (a title, a table of contents, an example)
    not_rules: Mapping[str, str] = field(default_factory=dict)

    def counts(self) -> tuple[int, int]:
        """(rows enforced by a check, rows that are the judge's call)."""
        enforced = sum(1 for r in self.rows if r.enforced)
        return enforced, len(self.rows) - enforced


def check(code: str, entry: str, test: str) -> Check:
    return Check(code, entry, test)


def follows(entry: str, test: str) -> Check:
    """A rule the engine follows with nothing to refuse (a player who cannot select does not lose): no code."""
    return Check("", entry, test)


def rule(section: str, quote: str, *checks: Check) -> Row:
    """A rule Podium enforces: ``checks`` name the refusals and their tests."""
    if not checks:
        raise ValueError(f"{section}: an enforced rule names at least one check")
    return Row(section, quote, checks=checks)


def judge(section: str, quote: str, reason: str) -> Row:
    """A rule that is the judge's call, and why."""
    if not reason:
        raise ValueError(f"{section}: the judge's call needs its reason")
    return Row(section, quote, judge=reason)


def normalise(text: str) -> str:
    """Whitespace runs made one space, the ends trimmed."""
    return " ".join(text.split())


def checkable_units(text: str) -> list[str]:
    """The sentences of a rulebook that state a limit (see *checkable unit* above), in order, each once."""
    units: list[str] = []
    for line in text.splitlines():
        line = normalise(_LINE_MARKERS.sub("", line))
        for sentence in _SENTENCE_END.split(line):
            sentence = sentence.strip()
            if sentence and _KEYWORD.search(sentence) and sentence not in units:
                units.append(sentence)
    return units


def unaccounted(text: str, rows: Iterable[Row]) -> list[str]:
    """The checkable units of rulebook ``text`` that no row's quote holds or is held by."""
    quotes = [normalise(r.quote) for r in rows]
    return [u for u in checkable_units(text) if not any(q in u or u in q for q in quotes)]


def headings(text: str, pattern: str) -> list[str]:
    """The headings of a rulebook (see *heading* above), in order, each once (case-blind): "§9.2 Energy
    Generation" when the pattern matches a ``number``, else the title as written."""
    names: list[str] = []
    for m in re.finditer(pattern, text, re.MULTILINE):
        groups = m.groupdict()
        title = normalise(next(v for k, v in groups.items() if k != "number" and v))
        name = f"§{groups['number'].rstrip('.')} {title}" if groups.get("number") else title
        if name.casefold() not in (n.casefold() for n in names):
            names.append(name)
    return names


def names_heading(section: str, heading: str) -> bool:
    """Whether a row's ``section`` names ``heading``: the same words case-blind, or one followed by more words."""
    s, h = normalise(section).casefold(), normalise(heading).casefold()
    return s == h or s.startswith(h + " ") or h.startswith(s + " ")


def unnamed_headings(text: str, coverage: Coverage) -> list[str]:
    """The headings of rulebook ``text`` that no row's section names and ``not_rules`` does not exclude."""
    excluded = {normalise(k).casefold() for k in coverage.not_rules}
    return [
        h
        for h in headings(text, coverage.heading)
        if h.casefold() not in excluded and not any(names_heading(r.section, h) for r in coverage.rows)
    ]


def coverages() -> list[Coverage]:
    """Every format's :class:`Coverage` (``rules/<format>/coverage.py``)."""
    return [importlib.import_module(f"rules.{pkg}.coverage").COVERAGE for pkg in FORMAT_PACKAGES]


# --- the docs -------------------------------------------------------------------------------------------------


def _cell(text: str) -> str:
    return normalise(text).replace("|", "\\|")


def document(coverage: Coverage) -> str:
    """The Markdown of ``docs/games/<slug>-coverage.md``."""
    enforced, judged = coverage.counts()
    lines = [
        f"# {coverage.title}: every rule accounted for",
        "",
        "<!-- Generated by `python manage.py rule_coverage` from "
        f"`rules/{coverage.slug.replace('-', '_')}/coverage.py`; do not edit by hand. -->",
        "",
        f"Each rule of the rulebook `{coverage.rulebook}`, quoted verbatim, with the check that enforces it (the "
        "engine event or deck check and the code it refuses with) and the test that proves it, or the reason it is "
        "the judge's call. Every sentence of the rulebook that states a limit (it holds one of the words "
        + ", ".join(f"“{k}”" for k in KEYWORDS)
        + "), and every numbered section or heading of it, has a row, or the heading is listed below as stating no "
        "rule: `tests/rules/test_rule_coverage.py` checks it, and that each code and test exists.",
        "",
        f"**{enforced} enforced, {judged} the judge's call.**",
        "",
        "| section | rule (quoted) | enforced by (code) | proved by / the judge's call |",
        "|---|---|---|---|",
    ]
    for row in coverage.rows:
        if row.enforced:
            by = "<br>".join(f"{c.entry}: `{c.code}`" if c.code else f"{c.entry} (followed)" for c in row.checks)
            proof = "<br>".join(f"`{c.test}`" for c in row.checks)
        else:
            by = "—"
            proof = f"the judge's call: {_cell(row.judge)}"
        lines.append(f"| {_cell(row.section)} | “{_cell(row.quote)}” | {by} | {proof} |")
    if coverage.not_rules:
        lines += ["", "Headings that state no rule:", ""]
        lines += [f"- {_cell(h)}: {_cell(why)}" for h, why in coverage.not_rules.items()]
    return "\n".join(lines) + "\n"


def doc_name(coverage: Coverage) -> str:
    return f"{coverage.slug}-coverage.md"
