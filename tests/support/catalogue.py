"""The real card catalogue, imported once per test session (per pytest-xdist process) into the test database.

Card data is never committed: it is read from ``../shared/data`` (or ``PODIUM_CARD_DATA_DIR``) through
:func:`tests.support.data.data_dir`, which skips without it and fails on CI.  The import runs through the same
services as ``manage.py import_cards``.

A transactional test empties every table when it ends, the catalogue's too.  On PostgreSQL the imported catalogue
is kept aside in a schema of the test database that the emptying does not see (it empties the tables of the search
path), and the next test that asks for it gets it back by a copy inside the database, a second rather than the
import's parsing of the source files again.  On SQLite it is imported again.

The fixtures are imported by ``tests/conftest.py``: the deck tests use them, and the demo's tests start from them
(:func:`catalogue_as_the_demo_finds_it`).
"""

from __future__ import annotations

import pytest

from tests.support.data import data_dir

#: Where the imported catalogue is kept aside (not on the search path, so a flush leaves it alone).
KEPT = "podium_test_catalogue"
FAMILIES = {"pokemon", "yugioh", "mintayn"}


def _card_models() -> list:
    """The catalogue's tables, each after the tables it refers to."""
    from decks.models import CardSet, CatalogueVersion, MintaynCard, PokemonCard, StoredBanlist, YugiohCard

    return [CatalogueVersion, CardSet, PokemonCard, YugiohCard, StoredBanlist, MintaynCard]


@pytest.fixture(scope="session")
def _imported_catalogue(django_db_setup, django_db_blocker, tmp_path_factory):
    from tests.support.decks import SAMPLE_CSV

    pokemon, ygo = data_dir("pokemon-tcg-data"), data_dir("ygo")
    csv = tmp_path_factory.mktemp("mintayn") / "cards.csv"
    csv.write_text(SAMPLE_CSV, encoding="utf-8")
    # Session fixtures are set up before a test's transaction begins, so this import is committed
    # once and every test of the session sees it.
    with django_db_blocker.unblock():
        _ensure(pokemon, ygo, csv, restore=False)
        _keep()
    return pokemon, ygo, csv


def _present() -> set[str]:
    from decks.models import CatalogueVersion

    return set(CatalogueVersion.objects.filter(card_count__gt=0).values_list("family", flat=True))


def _ensure(pokemon, ygo, csv, *, restore: bool = True) -> None:
    from decks import catalogue, services

    if _present() == FAMILIES:
        return
    if not (restore and _restore()):
        services.cards_import_pokemon(root=pokemon)
        services.cards_import_yugioh(path=ygo)
        services.cards_import_mintayn(path=csv)
    catalogue.clear()


def _keep() -> None:
    """Copy the imported catalogue's tables aside (PostgreSQL)."""
    from django.db import connection, transaction

    if connection.vendor != "postgresql":
        return
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"DROP SCHEMA IF EXISTS {KEPT} CASCADE")
        cursor.execute(f"CREATE SCHEMA {KEPT}")
        for model in _card_models():
            table = connection.ops.quote_name(model._meta.db_table)
            cursor.execute(f"CREATE TABLE {KEPT}.{table} AS TABLE {table}")


def _restore() -> bool:
    """Put the catalogue kept aside back, as it was imported (same rows, same ids, same versions); False when
    nothing was kept.

    On a connection of its own, committed: a test asks for the catalogue inside its transaction, which is rolled
    back when it ends, and the catalogue put back must stay for the tests after it.
    """
    from django.core.management.color import no_style
    from django.db import DEFAULT_DB_ALIAS, connections

    if connections[DEFAULT_DB_ALIAS].vendor != "postgresql":
        return False
    models = _card_models()
    own = connections.create_connection(DEFAULT_DB_ALIAS)
    try:
        with own.cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", [KEPT])
            if cursor.fetchone() is None:
                return False
        own.set_autocommit(False)
        with own.cursor() as cursor:
            tables = [own.ops.quote_name(model._meta.db_table) for model in models]
            for table in reversed(tables):  # what a test left of it, if it emptied only part
                cursor.execute(f"DELETE FROM {table}")
            for table in tables:
                cursor.execute(f"INSERT INTO {table} SELECT * FROM {KEPT}.{table}")
            # The ids go on from the highest restored, whatever a test did to the sequences.
            for sql in own.ops.sequence_reset_sql(no_style(), models):
                cursor.execute(sql)
        own.commit()
    finally:
        own.close()
    return True


@pytest.fixture
def card_catalogue(_imported_catalogue, django_db_blocker):
    """The catalogue; put back if a transactional test emptied the database since the session began."""
    with django_db_blocker.unblock():
        _ensure(*_imported_catalogue)
    return _imported_catalogue


@pytest.fixture
def catalogue_as_the_demo_finds_it(request, db):
    """What ``manage.py demo`` finds on a site whose Pokémon and Yu-Gi-Oh! cards were imported: the session's real
    catalogue (so a demo test does not import the 20,202 Pokémon cards again), but no Mintayn pool, which has no
    public card data, so the demo imports its sample pool as on a new site.  The Mintayn pool is taken away inside
    the test's transaction only.  Without card data, no catalogue at all, as on such a machine."""
    from decks import catalogue
    from decks.models import CatalogueVersion, MintaynCard
    from tests.support.data import data_root

    if (data_root() / "pokemon-tcg-data").exists():
        request.getfixturevalue("card_catalogue")
    MintaynCard.objects.all().delete()
    CatalogueVersion.objects.filter(family="mintayn").delete()
    catalogue.clear()
    yield
    catalogue.clear()
