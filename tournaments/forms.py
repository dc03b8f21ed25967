"""Dashboard forms: input shapes only; the rules are checked by the services."""

from __future__ import annotations

import functools
import zoneinfo
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from django import forms
from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core import option_names
from core.api import MAX_ID, MAX_SMALLINT
from rules import choices as format_choices
from rules.options import Option, same
from rules.speech import say
from tournaments import lottery, selectors, words
from tournaments.models import Event, EventStaff, Penalty, Player, Registration, Seat, default_paper, default_time_zone


def option_field(option: Option, *, names: Iterable[str] = (), disabled: bool = False) -> forms.Field:
    """A form field for one of a format's options: its values by name, the default marked, the rulebook's words
    as help.  ``names``: a named option's choices (the imported banlists).  The option's words are said in the
    reader's language (:mod:`rules.speech`); the rulebook's quote stays as written."""
    help_text = f"{say(option.help)} {option.rule}: \u201c{option.quote}\u201d".strip()
    if option.named:
        choices = [("", _("The newest imported list")), *((n, n) for n in names)]
        return forms.TypedChoiceField(
            choices=choices, coerce=str, empty_value=None, required=False, label=say(option.label),
            help_text=help_text, disabled=disabled,
        )  # fmt: skip
    if option.choices:
        values = list(option.choices)
    else:
        assert option.minimum is not None and option.maximum is not None  # neither named nor choices: a range
        values = list(range(option.minimum, option.maximum + 1))
    by_key = {str(v).lower() if isinstance(v, bool) else str(v): v for v in values}

    def label(value: Any) -> str:
        text = option.describe(value)  # English: whether its name already says "default"
        shown = say(text)
        if option.is_default(value):
            return shown if "default" in text else str(_("%(value)s (rulebook default)") % {"value": shown})
        return str(_("%(value)s (house rule)") % {"value": shown}) if option.house_rule else shown

    return forms.TypedChoiceField(
        choices=[(key, label(v)) for key, v in by_key.items()], coerce=by_key.__getitem__, required=False,
        empty_value=None, label=say(option.label), help_text=help_text, disabled=disabled,
    )  # fmt: skip


def option_initial(option: Option, stored: Mapping[str, Any]) -> str:
    value = stored.get(option.name, option.default)
    if value is None:
        return ""
    return str(value).lower() if isinstance(value, bool) else str(value)


class FormatOptionsForm(forms.Form):
    """The options of an event's format (or those its deck rules read): one field each, prefixed ``option-``."""

    prefix = "option"

    def __init__(
        self,
        data: Any = None,
        *,
        options: Iterable[Option],
        stored: Mapping[str, Any],
        names: Mapping[str, Iterable[str]] | None = None,
        **kwargs: Any,
    ):
        super().__init__(data, **kwargs)
        self.options = list(options)
        for option in self.options:
            self.fields[option.name] = option_field(option, names=(names or {}).get(option.name, ()))
            self.initial[option.name] = option_initial(option, stored)

    def values(self) -> dict[str, Any]:
        """The chosen values (``None``: the default), for the services."""
        return dict(self.cleaned_data)


@functools.cache
def _time_zones() -> tuple[str, ...]:
    return tuple(sorted(zoneinfo.available_timezones()))  # the tz database's files: read once a process


def time_zone_choices() -> list[tuple[str, str]]:
    """The tz database's zones by name (Europe/Paris ...)."""
    return [(name, name.replace("_", " ")) for name in _time_zones()]


class EventForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    format = forms.ChoiceField(label=_("Format"), choices=format_choices)
    planned_rounds = forms.IntegerField(label=_("Planned rounds"), min_value=1, max_value=30, initial=4)
    date = forms.DateField(label=_("Date"), initial=timezone.localdate, widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    tiebreakers = forms.ChoiceField(label=_("Tiebreakers"),
        choices=Event.Tiebreakers.choices, initial=Event.Tiebreakers.CLASSIC, required=False,
        help_text=_("1v1 formats; multiplayer pods always rank by points, opponents' points, OMW%, OOMW%."),
    )  # fmt: skip

    players_per_table = forms.TypedChoiceField(
        choices=[("", _("The format's tables")), ("2", _("1v1 Swiss (2-player games)"))], coerce=int, empty_value=None,
        required=False, label=_("Tables"),
        help_text=_("1v1 is possible for formats that allow 2-player games (Master Trainer)."),
    )  # fmt: skip
    pod_leftovers = forms.ChoiceField(
        choices=Event.Leftovers.choices, initial=Event.Leftovers.TABLES, required=False, label=_("Leftover players"),
        help_text=_("Pod formats: smaller pods at the bottom, or byes, when numbers don't divide."),
    )  # fmt: skip
    time_zone = forms.ChoiceField(
        choices=time_zone_choices, initial=default_time_zone, required=False, label=_("Time zone"),
        help_text=_("Where the event is held: its pages show times in this zone, and deadlines are read in it."),
    )  # fmt: skip
    paper = forms.ChoiceField(
        choices=Event.Paper.choices, initial=default_paper, required=False, label=_("Paper"),
        help_text=_("What the printouts (pairings, slips, standings, bracket) are laid out for."),
    )  # fmt: skip
    language = forms.ChoiceField(
        choices=[("", _("The visitor's browser's"))] + list(settings.LANGUAGES), required=False, label=_("Language"),
        help_text=_("The language of the event's public pages and venue display for visitors who have not chosen one."),
    )  # fmt: skip

    def clean_tiebreakers(self) -> str:
        return self.cleaned_data["tiebreakers"] or Event.Tiebreakers.CLASSIC

    def clean_pod_leftovers(self) -> str:
        return self.cleaned_data["pod_leftovers"] or Event.Leftovers.TABLES

    def clean_time_zone(self) -> str:
        return self.cleaned_data["time_zone"] or self._unchanged("time_zone", default_time_zone)

    def clean_paper(self) -> str:
        return self.cleaned_data["paper"] or self._unchanged("paper", default_paper)

    def _unchanged(self, name: str, default) -> str:
        """A choice left empty: the site's default for a new event (an existing event keeps its own)."""
        event = getattr(self, "event", None)
        return getattr(event, name) if event is not None else default()


#: A time entered on the settings page (read in the event's time zone).
_TIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class EventSettingsForm(EventForm):
    """The settings of an existing event (its format is fixed), with the windows players act in."""

    registration_open = forms.BooleanField(
        required=False, label=_("Registration open"),
        help_text=_("Players register themselves from the event's page (until the deadline)."),
    )  # fmt: skip
    registration_deadline = forms.DateTimeField(
        required=False, label=_("Registration deadline"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Self-registration closes at this time (in the event's time zone). Empty: no deadline."),
    )  # fmt: skip
    capacity = forms.IntegerField(
        required=False, min_value=1, label=_("Capacity"),
        help_text=_("Players beyond it join a waiting list, promoted in order. Empty: no limit."),
    )  # fmt: skip
    check_in_open = forms.BooleanField(
        required=False, label=_("Check-in open"),
        help_text=_("Players check themselves in; the dashboard shows a QR code to the check-in page."),
    )  # fmt: skip
    player_reports = forms.BooleanField(
        required=False, label=_("Players report results"),
        help_text=_("A player reports the table's result and the others confirm it; staff settle disputes."),
    )  # fmt: skip
    casters_see_decklists = forms.BooleanField(
        required=False, label=_("Casters may see decklists before they are published")
    )
    stage_pairings = forms.BooleanField(
        required=False, label=_("Review each round's pairings before players see them"),
        help_text=_("A new round stays on the dashboard until you publish it; pages, streams and overlays show the "
        "round before it meanwhile."),
    )  # fmt: skip
    planned_cut_size = forms.IntegerField(
        required=False, min_value=0, max_value=MAX_SMALLINT, label=_("Planned top cut"),
        help_text=_("Players in the top cut (0: none; 1v1 2, 4, 8, 16 or 32; pods one pod or a pod of pods). "
        "Empty: the recommendation for the players entered. The cut line follows it."),
    )  # fmt: skip
    magic_floor = forms.ChoiceField(
        # xgettext:no-python-format
        choices=Event.Floor.choices, label=_("33% floor (Magic tiebreakers)"), required=False,
        help_text=_("0.33, or exactly 1/3 to match the standings Melee and MTGO publish."),
    )  # fmt: skip
    lottery = forms.BooleanField(
        required=False, label=_("Places by lottery"),
        help_text=_("Needs a capacity. Until the draw, players apply; the draw fills the places and puts the others "
        "on the waiting list in drawn order."),
    )  # fmt: skip
    lottery_draw_at = forms.DateTimeField(
        required=False, label=_("Draw the lottery at"), widget=_TIME,
        help_text=_("In the event's time zone. Empty: you draw it from the dashboard."),
    )  # fmt: skip
    registration_opens_at = forms.DateTimeField(
        required=False, label=_("Registration opens to everyone at"), widget=_TIME,
        help_text=_("In the event's time zone. Empty: as soon as registration is open."),
    )  # fmt: skip
    priority_opens_at = forms.DateTimeField(
        required=False, label=_("Priority players may register from"), widget=_TIME,
        help_text=_("Earlier than the opening for everyone. Priority: the league points below, or an earned invite."),
    )  # fmt: skip
    priority_season_id = forms.IntegerField(
        required=False, min_value=1, max_value=MAX_ID, label=_("League season (its id)"),
        help_text=_("Priority by league points: the season's id (in its page's address)."),
    )  # fmt: skip
    priority_min_points = forms.IntegerField(
        required=False, min_value=0, max_value=MAX_ID, label=_("League points it takes"),
        help_text=_("At least this many points in that season."),
    )  # fmt: skip
    priority_players = forms.CharField(
        required=False, label=_("Earned invites (player numbers)"), max_length=20000,
        help_text=_("The players' numbers (#12 on the lists), separated by commas or spaces."),
    )  # fmt: skip
    entry_fee = forms.DecimalField(
        required=False, min_value=0, max_digits=8, decimal_places=2, label=_("Entry fee"),
        help_text=_("Empty: free. Players pay at your checkout page: Podium takes no payment."),
    )  # fmt: skip
    fee_currency = forms.CharField(
        required=False, max_length=3, label=_("Currency"), help_text=_("Its three-letter code: EUR, USD, GBP.")
    )
    checkout_url = forms.URLField(
        required=False, max_length=500, label=_("Checkout link"), assume_scheme="https",
        help_text=_("Your own checkout page, where players pay."),
    )  # fmt: skip
    unpaid_check_in = forms.BooleanField(
        required=False, label=_("Unpaid players may check in"),
        help_text=_("Off: players check in once staff have marked their fee paid."),
    )  # fmt: skip

    #: The settings page's groups: (legend, field names).
    FIELDSETS = (
        (_("Event"), ("name", "planned_rounds", "planned_cut_size", "date", "venue", "time_zone", "paper", "language", "tiebreakers", "magic_floor",
                   "players_per_table", "pod_leftovers")),
        (_("Registration and check-in"), ("registration_open", "registration_deadline", "capacity", "check_in_open")),
        (_("Scarce places: lottery and priority"), ("lottery", "lottery_draw_at", "registration_opens_at",
                                                 "priority_opens_at", "priority_season_id", "priority_min_points",
                                                 "priority_players")),
        (_("Entry fee"), ("entry_fee", "fee_currency", "checkout_url", "unpaid_check_in")),
        (_("Rounds, results and decks"), ("stage_pairings", "player_reports", "casters_see_decklists")),
    )  # fmt: skip

    def __init__(self, data=None, *, event: Event, **kwargs):
        self.event = event
        self.named_players = selectors.event_priority_players(event=event)
        initial = {
            name: getattr(event, name) for name in self.base_fields if name not in ("format", "priority_players")
        }
        initial["players_per_table"] = "" if event.players_per_table is None else str(event.players_per_table)
        initial["priority_players"] = ", ".join(map(str, self.named_players))
        super().__init__(data, initial=initial, **kwargs)
        del self.fields["format"]
        if event.top_cut_size:
            self.fields["planned_cut_size"].disabled = True
            self.fields["planned_cut_size"].help_text = _("Fixed: the top cut has started.")
        if event.rounds.exists():
            for name in ("players_per_table", "pod_leftovers"):
                self.fields[name].disabled = True
                self.fields[name].help_text = _("Fixed once round 1 is paired.")
        # The format's options: the rulebook's variants and Podium's house rules, fixed once the event starts.
        started = event.status != Event.Status.REGISTRATION
        self.option_names = {}
        for option in event.format_spec.options:
            name = f"option_{option.name}"
            self.option_names[name] = option
            names = option_names.names(option.name) if option.named else ()
            self.fields[name] = option_field(option, names=names, disabled=started)
            self.initial[name] = option_initial(option, event.options)
            if started:
                self.fields[name].help_text = _("Fixed once the event has started. %(help)s") % {
                    "help": self.fields[name].help_text
                }

    def clean_magic_floor(self) -> str:
        return self.cleaned_data["magic_floor"] or self.event.magic_floor

    def clean_priority_players(self) -> list[int]:
        """Player numbers, as the lists show them (``#12``), separated by commas or spaces."""
        words_given = self.cleaned_data["priority_players"].replace(",", " ").split()
        numbers = [w.removeprefix("#") for w in words_given]
        wrong = [w for w, n in zip(words_given, numbers, strict=True) if not n.isdigit() or not 0 < int(n) <= MAX_ID]
        if wrong:
            raise forms.ValidationError(_("Not a player number: %(numbers)s.") % {"numbers": ", ".join(wrong)})
        return sorted({int(n) for n in numbers})

    def full_clean(self) -> None:
        """A time entered (the registration deadline) is read in the event's time zone: the one chosen on this
        form when it names a zone, else the event's."""
        chosen = self.data.get(self.add_prefix("time_zone")) if self.is_bound else None
        zone = chosen if chosen in _time_zones() else self.event.time_zone
        with timezone.override(zone):
            super().full_clean()

    def fieldsets(self) -> list[tuple[str, list[forms.BoundField]]]:
        sets = [
            (str(legend), [self[name] for name in names if name in self.fields]) for legend, names in self.FIELDSETS
        ]
        if self.option_names:
            sets.insert(
                1, (str(_("Format rules: variants and house rules")), [self[name] for name in self.option_names])
            )
        return sets

    def changes(self) -> dict:
        changes = {
            name: value
            for name, value in self.cleaned_data.items()
            if name not in self.option_names
            and name != "priority_players"
            and not self.fields[name].disabled
            and value != getattr(self.event, name)
        }
        if "priority_players" in self.cleaned_data and self.cleaned_data["priority_players"] != self.named_players:
            changes["priority_players"] = self.cleaned_data["priority_players"]
        options = {
            option.name: self.cleaned_data[name]
            for name, option in self.option_names.items()
            if not self.fields[name].disabled
        }
        stored = self.event.format_spec.effective_options(self.event.options)
        if any(not same(value, stored[key]) for key, value in options.items()):
            changes["options"] = options
        return changes


class SwapForm(forms.Form):
    player_a = forms.IntegerField(label=_("Player a"), min_value=1, max_value=MAX_ID)
    player_b = forms.IntegerField(label=_("Player b"), min_value=1, max_value=MAX_ID)


class RegistrationForm(forms.Form):
    display_name = forms.CharField(
        max_length=100, label=_("Player name"), widget=forms.TextInput(attrs={"placeholder": "Player name"})
    )
    external_id = forms.CharField(
        max_length=64,
        required=False,
        label=_("Player ID"),
        widget=forms.TextInput(attrs={"placeholder": _("Player ID (optional)")}),
    )
    checked_in = forms.BooleanField(required=False, initial=True, label=_("Checked in"))

    def __init__(self, *args, focus: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if focus:  # right after a registration, typing goes on with the next name
            self.fields["display_name"].widget.attrs["autofocus"] = True


class RosterImportForm(forms.Form):
    """A roster file for the players page's "Import players": CSV with a header row, or a TOM ``.tdf``."""

    file = forms.FileField(
        label=_("Roster file"),
        help_text=_(
            "CSV (UTF-8, a header row: name, and optionally player_id, checked_in, fixed_table) or a TOM "
            ".tdf file. Up to 2 MB and 500 players."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.tdf,.xml,.txt,text/csv"}),
    )
    checked_in = forms.BooleanField(
        required=False, label=_("Check in the players whose row does not say (every player of a .tdf)")
    )


def shown_name(player: Player, namesakes: Collection[int] = ()) -> str:
    """A player's name as the dashboard shows it: with the player ID when someone else at the event shares the name."""
    return f"{player.display_name} (#{player.pk})" if player.pk in namesakes else player.display_name


class ResultForm(forms.Form):
    """A table's result, built from its seats.

    Every table has a placement field per seated player.  A 1v1 table also
    takes an ``outcome`` (``first``, ``second``, ``draw`` or
    ``intentional_draw``: the one-click buttons of the dashboard, or the
    choices of the correction page) that fills the placements, and an
    optional game score: games won by each player and drawn games.  A
    top-cut table (``cut=True``) needs one winner: neither a draw nor a
    shared first place is accepted.  A top-cut 1v1 match also takes a
    ``winner`` (a seated player's id: the one-click buttons), its opponent
    placing 2nd.  A top-cut pod takes every player's place, picked per seat
    (:meth:`place_picks`), since its other places count (the final pod's 2nd,
    3rd and 4th, league placings); players level share a place (1st, 2nd,
    2nd, 4th).  A ``winner`` there only fills the winner's place: the others
    are still asked for.
    """

    #: One-click outcomes for a 1v1 table: placements of (seat 1, seat 2).
    OUTCOMES = {"first": (1, 2), "second": (2, 1), "draw": (1, 1), "intentional_draw": (1, 1)}

    def __init__(
        self,
        data=None,
        *,
        seats: Iterable[Seat],
        cut: bool = False,
        namesakes: Collection[int] = (),
        intentional_draw: bool = False,
        **kwargs,
    ):
        self.seats = list(seats)
        self.cut = cut
        self.one_vs_one = len(self.seats) == 2
        self.names = {s.player_id: shown_name(s.player, namesakes) for s in self.seats}
        if data is not None:
            data = self._expand_shortcuts(data)
        super().__init__(data, **kwargs)
        places = range(1, len(self.seats) + 1)
        #: A top-cut pod: a row of places to pick per seat (one tap each), rather than a select per seat.
        self.picks_places = cut and not self.one_vs_one
        if self.picks_places:
            choices = [(str(i), words.ordinal(i)) for i in places]
        else:
            choices = [("", "place…")] + [(str(i), f"#{i}") for i in places]
        for seat in self.seats:
            self.fields[f"placement_{seat.player_id}"] = forms.TypedChoiceField(
                label=self.names[seat.player_id],
                choices=choices,
                coerce=int,
                empty_value=None,
                initial=seat.placement or None,
                required=not self.one_vs_one,  # a 1v1 result is one outcome: clean() asks for it
                widget=forms.RadioSelect if self.picks_places else forms.Select,
            )
        if self.one_vs_one:
            self.fields["outcome"] = forms.ChoiceField(
                label=_("Result"),
                choices=[(value, value) for value in self.OUTCOMES],
                required=False,
                initial=self._recorded_outcome(intentional_draw),
            )
            for seat in self.seats:
                self.fields[f"games_{seat.player_id}"] = forms.IntegerField(
                    label=_("Games won by %(player)s") % {"player": self.names[seat.player_id]},
                    min_value=0,
                    max_value=9,
                    required=False,
                    initial=seat.games_won,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                )
            self.fields["games_drawn"] = forms.IntegerField(
                label=_("Drawn games"),
                min_value=0,
                max_value=9,
                required=False,
                initial=self.seats[0].games_drawn,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )

    def _recorded_outcome(self, intentional_draw: bool) -> str | None:
        a, b = (s.placement for s in self.seats)
        if a is None or b is None:
            return None
        if intentional_draw:
            return "intentional_draw"
        return "first" if a < b else "second" if a > b else "draw"

    def _expand_shortcuts(self, data):
        """Turn a one-click outcome or a top-cut winner into the placement fields."""
        outcome, winner = data.get("outcome"), data.get("winner", "")
        placements: dict[int, int] | None = None
        if self.cut and winner.isdigit() and int(winner) in {s.player_id for s in self.seats}:
            if self.one_vs_one:
                placements = {s.player_id: 1 if s.player_id == int(winner) else 2 for s in self.seats}
            elif not data.get(f"placement_{winner}"):
                # A pod's other places count: the winner alone is not a result, the rest is asked for.
                placements = {int(winner): 1}
        elif outcome in self.OUTCOMES and self.one_vs_one:  # a draw at a cut table is refused by clean()
            placements = dict(zip((s.player_id for s in self.seats), self.OUTCOMES[outcome], strict=True))
        if placements is None:
            return data
        data = data.copy()
        for player_id, placement in placements.items():
            data[f"placement_{player_id}"] = str(placement)
        return data

    def placement_fields(self) -> list[forms.BoundField]:
        """A placement select per seat, in seat order (what the player chose stays chosen after an error)."""
        return [self[f"placement_{seat.player_id}"] for seat in self.seats]

    def place_picks(self) -> list[tuple[int, forms.BoundField]]:
        """A top-cut pod's places to pick: (seat number, the seat's radio buttons 1st, 2nd, ...) in seat order."""
        return [(seat.seat_order, self[f"placement_{seat.player_id}"]) for seat in self.seats]

    def games_fields(self) -> list[forms.BoundField]:
        """The game score inputs of a 1v1 table: games won by each player (seat order), then drawn games."""
        if not self.one_vs_one:
            return []
        return [self[f"games_{seat.player_id}"] for seat in self.seats] + [self["games_drawn"]]

    def games_errors(self) -> list[str]:
        return [str(error) for field in self.games_fields() for error in field.errors]  # ErrorList yields messages

    def winner_choices(self) -> list[tuple[int, str]]:
        """The one-click buttons of a top-cut table: (player id, name) per seat."""
        return [(s.player_id, self.names[s.player_id]) for s in self.seats]

    def outcome_buttons(self) -> list[tuple[str, str]]:
        """The one-click buttons of a Swiss 1v1 table: the first player wins, a draw, the second player wins."""
        a, b = (self.names[s.player_id] for s in self.seats)
        return [
            ("first", _("%(player)s wins") % {"player": a}),
            ("draw", str(_("Draw"))),
            ("second", _("%(player)s wins") % {"player": b}),
        ]

    def outcome_choices(self) -> list[tuple[str, str]]:
        """A 1v1 table's outcomes in words (no draw at a top-cut table)."""
        a, b = (self.names[s.player_id] for s in self.seats)
        choices = [("first", _("%(player)s won") % {"player": a}), ("second", _("%(player)s won") % {"player": b})]
        if not self.cut:
            choices += [("draw", str(_("Draw"))), ("intentional_draw", str(_("Intentional draw (not played out)")))]
        return choices

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if self.one_vs_one and any(cleaned.get(f"placement_{s.player_id}") is None for s in self.seats):
            if "outcome" not in self.errors:
                self.add_error("outcome", _("Choose the winner.") if self.cut else _("Choose who won, or a draw."))
            return cleaned
        if self.cut and not self.errors:
            winners = sum(1 for seat in self.seats if cleaned.get(f"placement_{seat.player_id}") == 1)
            if winners != 1:
                raise forms.ValidationError(
                    _("A top-cut table needs one winner: a draw or a shared first place can't advance.")
                )
        return cleaned

    def placements(self) -> dict[int, int]:
        return {seat.player_id: self.cleaned_data[f"placement_{seat.player_id}"] for seat in self.seats}

    def games(self) -> dict[int, tuple[int, int, int]] | None:
        """The game score per player (won, lost, drawn), or ``None`` when none was given."""
        if not self.one_vs_one:
            return None
        a, b = (s.player_id for s in self.seats)
        won_a, won_b, drawn = (self.cleaned_data.get(name) for name in (f"games_{a}", f"games_{b}", "games_drawn"))
        if won_a is None and won_b is None and drawn is None:
            return None
        won_a, won_b, drawn = won_a or 0, won_b or 0, drawn or 0
        return {a: (won_a, won_b, drawn), b: (won_b, won_a, drawn)}

    def intentional_draw(self) -> bool:
        return self.one_vs_one and self.cleaned_data.get("outcome") == "intentional_draw"

    def error_text(self) -> str:
        """Everything wrong with the form in one line, for the table's alert."""
        parts = [str(error) for error in self.non_field_errors()]  # ErrorList yields its messages
        placements_missing = False
        for name, errors in self.errors.items():
            if name == NON_FIELD_ERRORS:
                continue
            if name.startswith("placement_"):
                placements_missing = True
            elif name == "outcome":
                parts.extend(map(str, errors))
            else:
                parts.append(f"{self.fields[name].label}: {' '.join(map(str, errors))}")
        if placements_missing:
            parts.insert(0, str(_("Choose a placement for every player.")))
        return " ".join(parts)


class CorrectionForm(ResultForm):
    """A recorded result corrected: the new outcome, and why (kept in the audit trail)."""

    def __init__(self, data=None, **kwargs):
        super().__init__(data, **kwargs)
        self.fields["reason"] = forms.CharField(
            label=_("Reason"),
            max_length=500,
            widget=forms.Textarea(attrs={"rows": 3}),
            help_text=_("Why the result changes: the audit trail keeps it with the old and the new result."),
            error_messages={"required": _("Say why the result is corrected.")},
        )


class LotteryDrawForm(forms.Form):
    """Drawing the lottery: a seed only to repeat a draw made elsewhere; left empty, a fresh one is recorded."""

    seed = forms.IntegerField(
        required=False, min_value=0, max_value=lottery.SEED_LIMIT - 1, label=_("Seed (optional)"),
        help_text=_("Leave it empty: Podium picks one and records it."),
    )  # fmt: skip


class ReasonForm(forms.Form):
    """Undoing a drop: the reason is kept in the audit trail."""

    reason = forms.CharField(
        label=_("Reason"), max_length=500, error_messages={"required": "Say why the drop is undone."}
    )


class StaffForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150, help_text=_("The account's username on Podium."))
    role = forms.ChoiceField(label=_("Role"), choices=EventStaff.Role.choices)


class PenaltyForm(forms.Form):
    """A penalty given on the dashboard: which player (of the event's registered players), what and why."""

    registration = forms.TypedChoiceField(
        label=_("Player"), coerce=int, empty_value=None, error_messages={"required": "Choose the player."}
    )
    penalty = forms.ChoiceField(label=_("Penalty"), choices=[("", "Choose a penalty"), *Penalty.Kind.choices])
    infraction = forms.CharField(
        label=_("Infraction"), max_length=200, help_text=_('What the player did: "Drawing extra cards", "Slow play".'),
        error_messages={"required": _("Say what the infraction was.")},
    )  # fmt: skip
    note = forms.CharField(
        label=_("Note"), max_length=2000, required=False, widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("For the staff: what happened, what was said. The player does not see it."),
    )  # fmt: skip
    round = forms.IntegerField(label=_("Round"), required=False, min_value=1, max_value=2**15 - 1)

    def __init__(
        self,
        data: Any = None,
        *,
        registrations: Iterable[Registration],
        namesakes: Collection[int] = (),
        current_round: int | None = None,
        **kwargs: Any,
    ):
        super().__init__(data, **kwargs)
        self.fields["penalty"].error_messages["required"] = _("Choose the penalty.")
        registration = self.fields["registration"]
        assert isinstance(registration, forms.TypedChoiceField)
        registration.choices = [("", _("Choose a player"))] + [
            (
                r.pk,
                _("%(player)s (dropped)") % {"player": shown_name(r.player, namesakes)}
                if r.dropped
                else shown_name(r.player, namesakes),
            )
            for r in registrations
        ]
        self.fields["round"].help_text = (
            _("Empty: the current round (%(round)s).") % {"round": current_round}
            if current_round
            else _("Empty: before round 1.")
        )


class RescindForm(forms.Form):
    """Rescinding a penalty: the reason is kept with it and in the audit trail."""

    reason = forms.CharField(
        label=_("Reason"), max_length=1000, error_messages={"required": "Say why the penalty is rescinded."}
    )


#: Phases the dashboard's form offers rows for (the API takes any number).
PHASE_ROWS = 4


class PhasesForm(forms.Form):
    """An event's plan of phases, one row per phase: a name, its rounds and who goes on from it.

    Rows left without a name and rounds are not phases.  The last phase has no rule (the cut or the end follows);
    :func:`tournaments.standings.phases.check_plan` says what else a plan needs.
    """

    RULES = [
        ("", _("Last phase (no rule)")),
        ("points", _("Match points or more")),
        ("top", _("Top N of the standings")),
    ]

    def __init__(self, *args: Any, initial_plan: Iterable[Any] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        plan = list(initial_plan)
        for i in range(1, PHASE_ROWS + 1):
            phase = plan[i - 1] if i <= len(plan) else None
            rule, value = "", None
            if phase is not None and phase.advance_points is not None:
                rule, value = "points", phase.advance_points
            elif phase is not None and phase.advance_top is not None:
                rule, value = "top", phase.advance_top
            self.fields[f"name_{i}"] = forms.CharField(
                label=_("Phase %(phase)s name") % {"phase": i},
                max_length=60,
                required=False,
                initial=phase.name if phase else "",
            )
            self.fields[f"rounds_{i}"] = forms.IntegerField(
                label=_("Phase %(phase)s rounds") % {"phase": i}, min_value=1, max_value=30, required=False,
                initial=phase.rounds if phase else None,
            )  # fmt: skip
            self.fields[f"rule_{i}"] = forms.ChoiceField(
                label=_("Phase %(phase)s: who goes on") % {"phase": i}, choices=self.RULES, required=False, initial=rule
            )
            self.fields[f"value_{i}"] = forms.IntegerField(
                label=_("Phase %(phase)s: points or players") % {"phase": i},
                min_value=0,
                max_value=100_000,
                required=False,
                initial=value,
            )
        for field in self.fields.values():  # a table of inputs: each says what it is
            field.widget.attrs["aria-label"] = field.label

    def rows(self) -> list[dict[str, forms.BoundField]]:
        return [
            {part: self[f"{part}_{i}"] for part in ("name", "rounds", "rule", "value")}
            for i in range(1, PHASE_ROWS + 1)
        ]

    def plan(self) -> list[Any]:
        from tournaments.standings.phases import PhasePlan

        plan = []
        for i in range(1, PHASE_ROWS + 1):
            name, rounds = self.cleaned_data.get(f"name_{i}") or "", self.cleaned_data.get(f"rounds_{i}")
            rule, value = self.cleaned_data.get(f"rule_{i}") or "", self.cleaned_data.get(f"value_{i}")
            if not name.strip() and rounds is None:
                continue
            if rounds is None:
                self.add_error(f"rounds_{i}", _("How many rounds does this phase have?"))
                continue
            if rule and value is None:
                self.add_error(f"value_{i}", _("Give the points, or how many players go on."))
                continue
            plan.append(
                PhasePlan(
                    name=name or _("Phase %(phase)s") % {"phase": i}, rounds=rounds, advance_points=value if rule == "points" else None,
                    advance_top=value if rule == "top" else None,
                )
            )  # fmt: skip
        return plan


class KeepApartForm(forms.Form):
    """Two registered players the pairing keeps apart, and why (for the staff)."""

    player_a = forms.ChoiceField(label=_("Keep"))
    player_b = forms.ChoiceField(label=_("apart from"))
    note = forms.CharField(label=_("Why (for the staff)"), max_length=200, required=False)

    def __init__(self, *args: Any, choices: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("player_a", "player_b"):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)
            field.choices = choices
