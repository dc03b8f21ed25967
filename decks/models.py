"""The card catalogue: sets and cards of the three game families, and Yu-Gi-Oh! banlists.

Rows mirror the plain records of :mod:`rules.cards` one to one (``to_record()``
gives the record back), so the pure parsers and deck rules never see the ORM.
Card data is imported from files a user points at (``import_cards``) and never
committed.  ``CatalogueVersion`` counts imports per family so that the
in-memory indexes of :mod:`decks.catalogue` know when to rebuild.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules import cards as records
from rules.cards import Banlist


class CardSet(models.Model):
    """A Pokémon TCG expansion (pokemon-tcg-data's ``sets/en.json``)."""

    set_id = models.CharField(max_length=32, unique=True)  # "sv3"
    name = models.CharField(max_length=200)
    series = models.CharField(max_length=100, blank=True)
    code = models.CharField(max_length=16, blank=True, db_index=True)  # PTCGL/PTCGO code "OBF"
    release_date = models.DateField(null=True, blank=True)
    total = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["release_date", "set_id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.code or self.set_id})"


class PokemonCard(models.Model):
    key = models.CharField(max_length=40, unique=True)  # "sv3-125"
    name = models.CharField(max_length=200, db_index=True)
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="cards")
    set_code = models.CharField(max_length=16, blank=True)
    number = models.CharField(max_length=16)
    supertype = models.CharField(max_length=16, choices=[(s.value, s.value) for s in records.Supertype])
    subtypes = models.JSONField(default=list)
    stage = models.CharField(max_length=16, blank=True)
    trainer_kind = models.CharField(max_length=32, blank=True)
    energy_kind = models.CharField(max_length=16, blank=True)
    rule_box = models.CharField(max_length=16, blank=True)
    types = models.JSONField(default=list)
    evolves_from = models.CharField(max_length=200, blank=True)
    national_dex = models.JSONField(default=list)
    release_date = models.DateField(null=True, blank=True)
    series = models.CharField(max_length=100, blank=True)
    regulation_mark = models.CharField(max_length=4, blank=True)
    hp = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["card_set__release_date", "key"]
        indexes = [models.Index(fields=["set_code", "number"], name="pokemon_card_code_number")]

    def __str__(self) -> str:
        return f"{self.name} {self.set_code or self.card_set.set_id} {self.number}"

    FIELDS = (
        "key", "name", "set_code", "number", "supertype", "subtypes", "stage", "trainer_kind", "energy_kind",
        "rule_box", "types", "evolves_from", "national_dex", "release_date", "series", "regulation_mark", "hp",
    )  # fmt: skip

    def to_record(self, set_id: str) -> records.PokemonCard:
        return records.PokemonCard(
            key=self.key, name=self.name, set_id=set_id, set_code=self.set_code, number=self.number,
            supertype=records.Supertype(self.supertype), subtypes=tuple(self.subtypes), stage=self.stage,
            trainer_kind=self.trainer_kind, energy_kind=self.energy_kind, rule_box=self.rule_box,
            types=tuple(self.types), evolves_from=self.evolves_from, national_dex=tuple(self.national_dex),
            release_date=self.release_date.isoformat() if self.release_date else "", series=self.series,
            regulation_mark=self.regulation_mark, hp=self.hp,
        )  # fmt: skip


class YugiohCard(models.Model):
    passcode = models.BigIntegerField(unique=True)
    name = models.CharField(max_length=200, db_index=True)
    card_type = models.CharField(max_length=16, choices=[(t.value, t.value) for t in records.YugiohCardType])
    monster_kinds = models.JSONField(default=list)
    extra_deck = models.BooleanField(default=False)
    race = models.CharField(max_length=40, blank=True)
    level = models.PositiveSmallIntegerField(null=True, blank=True)
    alternate_passcodes = models.JSONField(default=list)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.passcode})"

    def to_record(self) -> records.YugiohCard:
        return records.YugiohCard(
            key=str(self.passcode), passcode=self.passcode, name=self.name,
            card_type=records.YugiohCardType(self.card_type), monster_kinds=tuple(self.monster_kinds),
            extra_deck=self.extra_deck, race=self.race, level=self.level,
            alternate_passcodes=tuple(self.alternate_passcodes),
        )  # fmt: skip


class StoredBanlist(models.Model):
    """An imported EDOPro ``.lflist.conf`` list, stored; :func:`to_record` gives the kernel's :class:`rules.cards.Banlist`."""

    name = models.CharField(max_length=100, unique=True)
    date = models.CharField(max_length=10, blank=True)  # "2025-04", from the list's name
    limits = models.JSONField(default=dict)
    whitelist = models.BooleanField(default=False)
    is_tcg = models.BooleanField(default=False)

    class Meta:
        ordering = ["-date", "name"]

    def __str__(self) -> str:
        return self.name

    def to_record(self) -> Banlist:
        return Banlist(
            name=self.name,
            date=self.date or None,
            limits={int(k): v for k, v in self.limits.items()},
            whitelist=self.whitelist,
        )


class MintaynCard(models.Model):
    name = models.CharField(max_length=200, unique=True)
    card_type = models.CharField(max_length=16, choices=[(t.value, t.value) for t in records.MintaynCardType])
    card_class = models.CharField(max_length=32, blank=True)
    level = models.PositiveSmallIntegerField(null=True, blank=True)
    defense = models.PositiveIntegerField(null=True, blank=True)
    stage = models.CharField(max_length=32, blank=True)
    mana_cost = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def to_record(self) -> records.MintaynCard:
        return records.MintaynCard(
            key=self.name, name=self.name, card_type=records.MintaynCardType(self.card_type),
            card_class=self.card_class, level=self.level, defense=self.defense, stage=self.stage,
            mana_cost=self.mana_cost,
        )  # fmt: skip


class CatalogueVersion(models.Model):
    """One row per game family, bumped by every import: in-memory indexes rebuild when it moves."""

    family = models.CharField(max_length=16, unique=True)
    version = models.PositiveIntegerField(default=0)
    card_count = models.PositiveIntegerField(default=0)
    source = models.CharField(max_length=300, blank=True)
    imported_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.family} v{self.version} ({self.card_count} cards)"


class DeckVersion(models.Model):
    """One pasted decklist of a registration.  Immutable: a new paste is a new version; history is kept.

    Only its verdict changes: ``status`` and what goes with it are the deck checker's (the worker's, re-checks
    included), and ``ruling`` a judge's (see :class:`DeckVerdictOverride`).  The status shown everywhere is
    :attr:`effective_status`: the ruling's when there is one, else the checker's.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        LEGAL = "legal", _("Legal")
        ILLEGAL = "illegal", _("Illegal")

    registration = models.ForeignKey("tournaments.Registration", on_delete=models.CASCADE, related_name="deck_versions")
    number = models.PositiveIntegerField()
    decklist = models.TextField()
    roles = models.JSONField(default=dict, blank=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    #: The checker's violations, at most ``decks.checking.STORED_VIOLATIONS`` of them (the first of every code,
    #: then the first ones): a list of thousands of unreadable lines keeps a small version.
    violations = models.JSONField(default=list, blank=True)
    #: Every violation the checker found, listed or not, and how many of each code.
    violation_count = models.PositiveIntegerField(default=0)
    violations_by_code = models.JSONField(default=dict, blank=True)
    card_count = models.PositiveIntegerField(null=True, blank=True)
    checked_at = models.DateTimeField(null=True, blank=True)
    #: The catalogue version the verdict was reached on; a newer import re-validates.
    catalogue_version = models.PositiveIntegerField(null=True, blank=True)
    #: The judge's ruling in force (the version's newest :class:`DeckVerdictOverride` unless that one cleared
    #: the ruling); null: the checker's verdict stands.  Only the ruling services set it; checks never touch it.
    ruling = models.ForeignKey(
        "DeckVerdictOverride", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["registration", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["registration", "number"], name="deck_version_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.registration} deck v{self.number}"

    @property
    def effective_status(self) -> str:
        """The status shown everywhere: the judge's ruling when there is one, else the checker's verdict.

        Reads ``ruling``: load lists with ``select_related("ruling")`` (or use :func:`effective_status`).
        """
        return self.ruling.status if self.ruling_id else self.status

    def get_effective_status_display(self) -> str:
        return self.Status(self.effective_status).label

    @property
    def unlisted_violations(self) -> list[tuple[str, int]]:
        """``(code, how many)`` of the violations found but not stored, by code (pages say "and N more")."""
        listed: dict[str, int] = {}
        for violation in self.violations:
            listed[violation["code"]] = listed.get(violation["code"], 0) + 1
        return [
            (code, n - listed.get(code, 0)) for code, n in self.violations_by_code.items() if n > listed.get(code, 0)
        ]

    @property
    def unlisted_count(self) -> int:
        return max(self.violation_count - len(self.violations), 0)


def effective_status(path: str = "") -> Coalesce:
    """:attr:`DeckVersion.effective_status` as a query expression; ``path`` leads to the version
    (``"deck_versions__"``), e.g. ``versions.values_list("pk", effective_status())``."""
    return Coalesce(models.F(f"{path}ruling__status"), models.F(f"{path}status"))


class DeckVerdictOverride(models.Model):
    """A judge's ruling on a deck version, or the clearing of one: one row per ruling, never edited.

    A ruling sets the deck's status (legal or illegal) over the checker's verdict, which stays as it is;
    a row without a status clears the ruling, so the checker's verdict stands again.  Both carry the
    reason.  The newest row of a version is the one in force, and :attr:`DeckVersion.ruling` points at it
    (null after a clear).  A ruling is about one version: a new paste starts from the checker's verdict.
    """

    class Status(models.TextChoices):
        LEGAL = "legal", _("Legal")
        ILLEGAL = "illegal", _("Illegal")

    version = models.ForeignKey(DeckVersion, on_delete=models.CASCADE, related_name="rulings")
    #: ``legal`` or ``illegal``; empty: this row clears the ruling.
    status = models.CharField(max_length=10, choices=Status.choices, blank=True)
    reason = models.TextField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["version", "-at", "-id"]

    def __str__(self) -> str:
        return f"{self.version}: {self.status or 'ruling cleared'}"

    @property
    def cleared(self) -> bool:
        return not self.status


class DeckRecheck(models.Model):
    """A "re-check all decks" run of an event: the progress bar reads it."""

    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="deck_rechecks")
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at"]

    def __str__(self) -> str:
        return f"re-check of {self.event}: {self.done}/{self.total}"
