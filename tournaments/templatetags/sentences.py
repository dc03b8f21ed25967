"""``{{ label|in_sentence }}``: a label inside a sentence of the reader's language (:func:`core.language.in_sentence`:
lower case in English, Spanish, Portuguese and French, its capital kept in German)."""

from __future__ import annotations

from typing import Any

from django import template

from core.language import in_sentence as _in_sentence

register = template.Library()


@register.filter
def in_sentence(label: Any) -> str:
    return _in_sentence(label)
