"""Every rule accounted for: each rulebook's coverage rows (``rules/<format>/coverage.py``) quote the rulebook,
name checks and tests that exist, leave no sentence stating a limit without a row, and match the generated docs.

Pure: no database.
"""

from __future__ import annotations

import re

import pytest

from rules import get_format
from rules.coverage import (
    Coverage,
    Row,
    checkable_units,
    coverages,
    doc_name,
    document,
    headings,
    judge,
    names_heading,
    normalise,
    unaccounted,
    unnamed_headings,
)
from tests.support.data import REPO_ROOT, rulebook

COVERAGES = {c.slug: c for c in coverages()}
SLUGS = list(COVERAGES)


def test_every_format_with_a_rulebook_has_its_coverage():
    assert SLUGS == ["format3-trinity", "mintayn-master", "mt-silver", "deck-masters", "master-trainer"]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_quote_is_the_rulebooks_own_words(slug):
    coverage = COVERAGES[slug]
    text = rulebook(coverage.rulebook)
    missing = [row.quote for row in coverage.rows if normalise(row.quote) not in text]
    assert not missing, f"not verbatim in {coverage.rulebook}: {missing}"


@pytest.mark.parametrize("slug", SLUGS)
def test_every_row_has_a_section_and_quotes_at_least_four_words(slug):
    for row in COVERAGES[slug].rows:
        assert row.section.strip(), row.quote
        assert len(row.quote.split()) >= 4, row.quote


def _test_source(source: str, name: str) -> str | None:
    """The source of test function ``name`` with its decorators, up to the next top-level statement."""
    lines = source.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(f"def {name}(")), None)
    if start is None:
        return None
    first = start
    while first > 0 and (lines[first - 1].startswith(("@", " ", ")")) and lines[first - 1].strip()):
        first -= 1
    end = next((i for i in range(start + 1, len(lines)) if lines[i] and not lines[i][0].isspace()), len(lines))
    return "\n".join(lines[first:end])


@pytest.mark.parametrize("slug", SLUGS)
def test_every_row_is_enforced_by_a_code_and_a_test_that_exist_or_is_the_judges_call_with_a_reason(slug):
    coverage = COVERAGES[slug]
    sources = "\n".join((REPO_ROOT / m).read_text(encoding="utf-8") for m in coverage.modules)
    problems = []
    for row in coverage.rows:
        assert row.enforced != bool(row.judge.strip()), row.quote
        for c in row.checks:
            if c.code and f'"{c.code}"' not in sources:
                problems.append(f"{c.code}: raised in none of {coverage.modules}")
            path, _, name = c.test.partition("::")
            test_file = REPO_ROOT / path
            if not name or not test_file.is_file():
                problems.append(f"{c.test}: no such test file")
            elif (body := _test_source(test_file.read_text(encoding="utf-8"), name)) is None:
                problems.append(f"{c.test}: no such test")
            elif c.code and f'"{c.code}"' not in body:
                problems.append(f"{c.test}: does not name {c.code}")
    assert not problems, problems


@pytest.mark.parametrize("slug", SLUGS)
def test_every_engine_entry_is_an_event_of_the_formats_vocabulary(slug):
    vocabulary = set(get_format(slug).engine.VOCABULARY) | {"new_game"}
    entries = {c.entry for row in COVERAGES[slug].rows for c in row.checks}
    events = {m.group(1) for e in entries if (m := re.match(r"`(\w+)`", e))}
    assert events <= vocabulary
    assert all(e.startswith("`") or e == "deck check" for e in entries), entries


@pytest.mark.parametrize("slug", SLUGS)
def test_every_rulebook_sentence_stating_a_limit_has_a_row(slug):
    coverage = COVERAGES[slug]
    missing = unaccounted(rulebook(coverage.rulebook, raw=True), coverage.rows)
    assert not missing, f"{coverage.rulebook}: sentences with no row: {missing}"


@pytest.mark.parametrize("slug", SLUGS)
def test_every_numbered_section_or_heading_has_a_row_or_is_excluded_with_a_reason(slug):
    coverage = COVERAGES[slug]
    text = rulebook(coverage.rulebook, raw=True)
    found = headings(text, coverage.heading)
    assert coverage.heading and found, "the format names its heading pattern"
    missing = unnamed_headings(text, coverage)
    assert not missing, f"{coverage.rulebook}: headings with no row and no NOT_RULES reason: {missing}"
    stale = [h for h in coverage.not_rules if h.casefold() not in {f.casefold() for f in found}]
    assert not stale, f"NOT_RULES names no heading of {coverage.rulebook}: {stale}"
    assert all(why.strip() for why in coverage.not_rules.values())


@pytest.mark.parametrize("slug", SLUGS)
def test_the_coverage_docs_are_generated_from_the_rows(slug):
    coverage = COVERAGES[slug]
    path = REPO_ROOT / "docs" / "games" / doc_name(coverage)
    assert path.read_text(encoding="utf-8") == document(coverage), "run python manage.py rule_coverage"


# --- the mechanism ----------------------------------------------------------------------------------------------


BOOK = """# Rules
- Each deck must have exactly 40 cards. Have fun!
> Players cannot attack on the first turn (e.g. Player 1 cannot). Trades are welcome.
You may play up to 3 copies of a card.
"""


def test_a_checkable_unit_is_a_sentence_of_a_line_holding_a_limit_word():
    assert checkable_units(BOOK) == [
        "Each deck must have exactly 40 cards.",
        "Players cannot attack on the first turn (e.g. Player 1 cannot).",
        "You may play up to 3 copies of a card.",
    ]


def test_a_sentence_stating_a_limit_without_a_row_is_unaccounted_for():
    rows = [
        judge("Rules", "Each deck must have exactly 40 cards.", "a reason"),
        judge("Rules", "cannot attack on the first turn", "a reason"),
    ]
    assert unaccounted(BOOK, rows) == ["You may play up to 3 copies of a card."]


def test_counts_split_the_rows_into_enforced_and_the_judges_call():
    coverage = Coverage("x", "X", "x.txt", (), (Row("s", "a b c d", judge="why"),))
    assert coverage.counts() == (0, 1)
    assert "**0 enforced, 1 the judge's call.**" in document(coverage)


HEADED = """TABLE OF CONTENTS
1. Setup
9. ENERGY
9.2 Energy Generation
At the start of your turn gain 1 Energy.
1. Draw 7 cards.
- Draw 1 card
"""
HEADING = (
    r"^(?:(?P<number>\d+(?:\.\d+)?)\.?[ \t]+(?P<title>[A-Z][A-Za-z ]*[A-Za-z])|(?P<caps>[A-Z][A-Z ]*[A-Z]))[ \t]*$"
)


def test_a_heading_is_a_line_of_the_formats_pattern_named_by_its_number_once():
    assert headings(HEADED, HEADING) == ["TABLE OF CONTENTS", "§1 Setup", "§9 ENERGY", "§9.2 Energy Generation"]
    assert headings("# Play\n>## 4.1.0\n## Region Deck\n", r"^#+[ \t]+(?P<title>.+?)[ \t]*$") == ["Play", "Region Deck"]


def test_a_section_names_a_heading_case_blind_or_with_more_words_but_not_another_number():
    assert names_heading("§9 Energy", "§9 ENERGY")
    assert names_heading("THE ABILITY (Continuous)", "THE ABILITY")
    assert names_heading("Master Format — Timing Sequence", "Master Format — Timing Sequence (Summary)")
    assert not names_heading("§1 Setup", "§10 Turn Structure")
    assert not names_heading("§9.2 Energy Generation", "§9 ENERGY")


def test_a_heading_without_a_row_is_unnamed_unless_excluded_with_its_reason():
    rows = (judge("§9.2 Energy Generation", "At the start of your turn", "a reason"),)
    coverage = Coverage("x", "X", "x.txt", (), rows, heading=HEADING)
    assert unnamed_headings(HEADED, coverage) == ["TABLE OF CONTENTS", "§1 Setup", "§9 ENERGY"]
    excluded = Coverage(
        "x", "X", "x.txt", (), rows, HEADING, {"TABLE OF CONTENTS": "contents", "§1 Setup": "a", "§9 ENERGY": "b"}
    )
    assert unnamed_headings(HEADED, excluded) == []
    assert "- TABLE OF CONTENTS: contents" in document(excluded)
