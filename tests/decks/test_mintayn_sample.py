"""Podium's sample Mintayn pool (``docs/samples/``): 52 cards invented for the demo, in the importer's format.

Mintayn prints no stats, so there is no public card data; the sample lets the demo's Mintayn Master event check
decks.  It loads without a problem, each sample deck built from it is legal, and there is room for other decks.  That
the demo imports it and registers a legal deck for every player of its Mintayn event is ``tests/test_demo.py``'s.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from decks import catalogue
from decks import services as deck_services
from decks.checking import deck_check
from decks.importers.mintayn import CLASSES, STAGES, load_mintayn_csv
from decks.models import CatalogueVersion, MintaynCard
from rules.mintayn_master.deck import COPY_LIMIT, PRIME_STAGES

SAMPLES = Path(__file__).resolve().parents[2] / "docs" / "samples"
POOL = SAMPLES / "mintayn-master-sample-cards.csv"
DECKS = {name: SAMPLES / f"mintayn-master-sample-deck-{name}.txt" for name in ("forge", "tide")}


@pytest.fixture
def no_mintayn_pool(db):
    """A site without a Mintayn pool (the suite's own test pool may be imported already); the cached pools are
    forgotten before and after, since the rolled-back imports move the catalogue's version back."""
    MintaynCard.objects.all().delete()
    CatalogueVersion.objects.filter(family="mintayn").delete()
    catalogue.clear()
    yield
    catalogue.clear()


def test_the_sample_pool_says_it_is_invented_and_loads_every_card():
    text = POOL.read_text(encoding="utf-8")
    assert text.startswith("# SAMPLE CARD POOL, INVENTED FOR THE PODIUM DEMO: not real Mintayn card data.")
    cards, problems = load_mintayn_csv(text)
    assert problems == [] and len(cards) == 52
    monsters = [c for c in cards if c.card_type.value == "monster"]
    assert {c.card_class for c in monsters} == set(CLASSES) and {c.stage for c in monsters} == set(STAGES)
    # Room to vary: the copy limits allow more than two decks of 60 with no card in common.
    assert sum(1 if c.stage in PRIME_STAGES else COPY_LIMIT for c in cards) > 2 * 60


@pytest.mark.parametrize("deck", DECKS)
def test_each_sample_deck_passes_the_deck_check_on_the_imported_sample_pool(no_mintayn_pool, deck):
    report = deck_services.cards_import_mintayn(path=POOL)
    assert (report.cards, report.problems) == (52, ())
    decklist = DECKS[deck].read_text(encoding="utf-8")
    assert "SAMPLE" in decklist.splitlines()[0]
    result = deck_check(format="mintayn-master", decklist=decklist)
    assert (result.legal, result.card_count, result.violations) == (True, 60, [])
    shorter = deck_check(format="mintayn-master", decklist=decklist, options={"deck_size": 50})
    assert [v.code for v in shorter.violations] == ["deck_size"]
