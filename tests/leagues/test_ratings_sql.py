"""The SQL the ratings service writes out for speed names tables and columns of the tournaments and leagues apps
that neither the import contracts nor mypy see: every name in it must be a table or a column of a model as it is
now, so renaming a field (or its column) breaks these tests rather than the ratings on the next result."""

from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.core.exceptions import FieldDoesNotExist

from leagues.models import EventRatingState, PlayerRating, RatingChange
from leagues.services import ratings
from tournaments.models import Event

COLUMNS = {m._meta.db_table: {f.column for f in m._meta.concrete_fields} for m in apps.get_models()}

NAME = r'"?(\w+)"?'
ALIAS = re.compile(rf"\b(?:FROM|JOIN)\s+{NAME}\s+([a-z_]+)\b")
ALIAS_COLUMN = re.compile(rf"\b([a-z_]+)\.{NAME}")
INSERT = re.compile(rf"INSERT INTO\s+{NAME}\s*\(([^)]*)\)")
CONFLICT = re.compile(r"ON CONFLICT\s*\(([^)]*)\)(?:\s*DO UPDATE SET\s*(.*?)(?:\)\s*$|\)\s*,|$))?", re.S)


def _names(listed: str) -> list[str]:
    return [name.strip().strip('"') for name in listed.split(",") if name.strip()]


def unknown_names(sql: str) -> list[str]:
    """The tables and columns ``sql`` names that no model has (``alias.column``, ``table(column)``)."""
    unknown = []
    aliases = {}
    for table, alias in ALIAS.findall(sql):
        if table not in COLUMNS:
            unknown.append(table)
        aliases[alias] = table
    for alias, column in ALIAS_COLUMN.findall(sql):
        if column not in COLUMNS.get(aliases.get(alias, ""), ()):
            unknown.append(f"{alias}.{column}")
    for statement in sql.split("INSERT INTO")[1:]:
        insert = INSERT.search("INSERT INTO" + statement)
        assert insert is not None, statement
        table, listed = insert.groups()
        named = _names(listed)
        conflict = CONFLICT.search(statement)
        if conflict is not None:
            named += _names(conflict.group(1))
            named += [assignment.split("=")[0].strip().strip('"') for assignment in (conflict.group(2) or "").split(",")
                      if "=" in assignment]  # fmt: skip
        unknown += [f"{table}({column})" for column in named if column not in COLUMNS.get(table, ())]
    return unknown


def _statements() -> dict[str, str]:
    values = "(%s, %s)"
    return {
        "what moved": ratings._dirty_events_sql(),
        "the new tables": ratings._new_seats_sql(3),
        "a recompute's tables": ratings._format_seats_sql(False),
        "a recompute's tables from a date on": ratings._format_seats_sql(True),
        "the players of a recompute, locked": ratings._lock_players_sql(),
        "the tables of a recompute, locked": ratings._lock_pods_sql(),
        "the store, with states": ratings._write_at_once_sql(changes=values, states=values, ratings=values),
        "the store, without": ratings._write_at_once_sql(changes=values, states=None, ratings=values),
    }


@pytest.mark.parametrize("statement", list(_statements()))
def test_every_table_and_column_the_ratings_sql_names_is_a_models(statement):
    sql = _statements()[statement]
    assert ALIAS.search(sql) or INSERT.search(sql)  # the check reads this SQL
    assert unknown_names(sql) == []


def test_the_columns_the_ratings_service_copies_and_upserts_are_its_models_fields():
    for model, columns in (
        (RatingChange, ratings._CHANGE_COLUMNS),
        (EventRatingState, ratings._STATE_COLUMNS),
        (PlayerRating, ratings._RATING_COLUMNS),
    ):
        assert all(model._meta.get_field(name).column in COLUMNS[model._meta.db_table] for name in columns)


@pytest.mark.parametrize(
    "sql",
    [
        'SELECT e."results_rev" FROM "tournaments_event" e',
        "SELECT e.results_version FROM tournaments_events e",
        'INSERT INTO "leagues_playerrating" ("format", "player") VALUES (%s, %s)',
        'INSERT INTO "leagues_playerrating" ("mu") VALUES (%s) ON CONFLICT ("format", "player_id") DO UPDATE SET '
        '"rank" = EXCLUDED."rank"',
    ],
)
def test_the_check_finds_a_name_no_model_has(sql):
    assert unknown_names(sql)


def test_a_column_renamed_in_the_models_is_renamed_in_the_sql(monkeypatch):
    monkeypatch.setattr(Event._meta.get_field("results_version"), "column", "results_rev")
    sql = ratings._dirty_events_sql()
    assert 'e."results_rev"' in sql and "results_version" not in sql


def test_a_field_gone_from_the_models_fails_the_sql_as_it_is_built(monkeypatch):
    def gone(name):
        raise FieldDoesNotExist(name)

    monkeypatch.setattr(RatingChange._meta, "get_field", gone)
    with pytest.raises(FieldDoesNotExist):
        ratings._new_seats_sql(1)
