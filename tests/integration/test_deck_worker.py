"""Deck validation by a real Celery worker over Redis, from PostgreSQL."""

from __future__ import annotations

import time

import pytest

from decks import services
from decks.models import DeckVersion
from tests.factories import EventFactory, RegistrationFactory

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

CSV = """name,card_type,class,level,def,stage,mana_cost
Ember Whelp,monster,Coreon,2,800,basic,1
Pyre Sovereign,monster,Coreon,8,2800,prime evolution,6
"""


def test_the_worker_validates_a_submitted_deck(worker, organiser, tmp_path):
    csv = tmp_path / "cards.csv"
    csv.write_text(CSV, encoding="utf-8")
    services.cards_import_mintayn(path=csv)
    event = EventFactory(organiser=organiser, format="mintayn-master")
    registration = RegistrationFactory(event=event)
    version = services.deck_submit(
        registration=registration, decklist="3 Ember Whelp\n2 Pyre Sovereign\n1 Nobody", roles={}, by=organiser
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        version.refresh_from_db()
        if version.status != DeckVersion.Status.PENDING:
            break
        time.sleep(0.2)
    assert version.status == "illegal"
    codes = {v["code"] for v in version.violations}
    assert {"deck_size", "prime_singleton", "unknown_card"} <= codes
    assert "decks.tasks.validate_deck_version" in worker.log.read_text()
