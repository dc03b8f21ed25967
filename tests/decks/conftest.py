"""The real card catalogue, imported once per test session into the test database.

Card data is never committed: it is read from ``../shared/data`` (or
``PODIUM_CARD_DATA_DIR``) through :func:`tests.support.data.data_dir`, which skips
without it and fails on CI.  The import runs through the same services as
``manage.py import_cards``.
"""

from __future__ import annotations

import pytest

from tests.support.data import data_dir


@pytest.fixture(scope="session")
def _imported_catalogue(django_db_setup, django_db_blocker, tmp_path_factory):
    from tests.support.decks import SAMPLE_CSV

    pokemon, ygo = data_dir("pokemon-tcg-data"), data_dir("ygo")
    csv = tmp_path_factory.mktemp("mintayn") / "cards.csv"
    csv.write_text(SAMPLE_CSV, encoding="utf-8")
    # Session fixtures are set up before a test's transaction begins, so this import is committed
    # once and every test of the session sees it.
    with django_db_blocker.unblock():
        _ensure(pokemon, ygo, csv)
    return pokemon, ygo, csv


def _ensure(pokemon, ygo, csv) -> None:
    from decks import catalogue, services
    from decks.models import CatalogueVersion

    present = set(CatalogueVersion.objects.filter(card_count__gt=0).values_list("family", flat=True))
    if present != {"pokemon", "yugioh", "mintayn"}:
        services.cards_import_pokemon(root=pokemon)
        services.cards_import_yugioh(path=ygo)
        services.cards_import_mintayn(path=csv)
        catalogue.clear()


@pytest.fixture
def card_catalogue(_imported_catalogue, django_db_blocker):
    """The catalogue; re-imported if a transactional test flushed the database since the session began."""
    with django_db_blocker.unblock():
        _ensure(*_imported_catalogue)
    return _imported_catalogue
