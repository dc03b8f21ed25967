"""``{{ violation|said }}``: a sentence of the rules in the reader's language (:mod:`rules.speech`).

A stored violation or problem (a dict holding ``message`` and, since phrases, ``template`` and ``params``) is said
again in the language of the request; a phrase is translated; any other text is shown as it is."""

from __future__ import annotations

from typing import Any

from django import template

from rules.speech import say_any

register = template.Library()


@register.filter
def said(value: Any) -> str:
    return say_any(value)
