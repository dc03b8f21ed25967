"""The vocabulary docs (``docs/games/*.md``) are written from the engines: pure, no database."""

from __future__ import annotations

from pathlib import Path

from games.vocabulary import documents, format_section, rewrite
from rules.deck_masters import engine as deck_masters


def test_the_vocabulary_docs_are_generated_from_the_engines():
    """``python manage.py vocabulary_docs`` rewrites these sections; a vocabulary change without it fails here."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "games"
    for path, sections in documents(docs).items():
        text = path.read_text(encoding="utf-8")
        for section in sections:
            assert rewrite(text, section) == text, path.name


def test_a_format_doc_lists_each_field_with_its_kind_and_the_one_tap_entries():
    section = format_section(deck_masters.ENGINE.VOCABULARY, deck_masters.QUICK_ENTRIES)
    assert "| `lp_change` | `changes` | player_amounts |" in section
    assert "| `phase` | `phase` | choice | `draw`, `standby`, `main1`, `battle`, `main2`, `end` |" in section
    assert '| −1000 LP | `lp_change` `{"changes": {"<the player>": -1000}}` | while a turn is under way |' in section
    assert "`concede`" not in section  # the common judge actions are in the README
    assert rewrite("# Title\n", section) == "# Title\n\n" + section + "\n"
