"""The codes of the games' vocabulary are said as words in the reader's language (games.codes): every entry type,
field and choice of every format has its words, and the console's label follows the language."""

from __future__ import annotations

from django.utils import translation

from games.codes import WORDS
from games.display import label
from rules import FORMATS
from rules.engine import COMMON_VOCABULARY


def _codes() -> set[str]:
    codes: set[str] = set()
    for fmt in FORMATS.values():
        for type_, spec in {**fmt.engine.VOCABULARY, **COMMON_VOCABULARY}.items():
            codes.add(type_)
            for name, field in spec.fields.items():
                codes.add(name)
                codes.update(str(choice) for choice in field.choices or ())
                if isinstance(field.default, str):
                    codes.add(field.default)
    return codes


def test_every_code_of_every_formats_vocabulary_has_its_words():
    missing = sorted(_codes() - set(WORDS))
    assert not missing, f"codes to add to games/codes.py WORDS: {missing}"


def test_a_code_is_said_in_the_readers_language_and_an_unknown_one_keeps_its_letters():
    assert label("start_turn") == "start turn" and label("main1") == "Main Phase 1"
    with translation.override("de"):
        assert label("start_turn") != "start turn"
    assert label("no_such_code") == "no such code"
