"""The rules' phrases said by a stub catalogue in a test: ``with speaking(FRENCH): ...``.

``words`` maps a template (a msgid) to its translation; a template it lacks stays English, and a sentence that
counts looks up the form its number picks.  ``language``: only while Django speaks that language (a request's), as a
real catalogue would.  The translation functions in use before (Django's, once the app started) come back after,
so the tests that follow in the same process still speak through the real catalogues."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from rules import speech


@contextmanager
def speaking(words: Mapping[str, str], *, language: str | None = None) -> Iterator[None]:
    def gettext(message: str) -> str:
        if language is not None:
            from django.utils import translation

            if translation.get_language() != language:
                return message
        return words.get(message, message)

    before = speech._gettext, speech._ngettext
    speech.speak_with(gettext=gettext, ngettext=lambda one, many, n: gettext(one if n == 1 else many))
    try:
        yield
    finally:
        speech.speak_with(gettext=before[0], ngettext=before[1])
