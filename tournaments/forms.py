"""Dashboard forms: input shapes only; the rules are checked by the services."""

from __future__ import annotations

from django import forms
from django.utils import timezone

from games.formats import choices as format_choices
from tournaments.models import Event


class EventForm(forms.Form):
    name = forms.CharField(max_length=200)
    format = forms.ChoiceField(choices=format_choices)
    planned_rounds = forms.IntegerField(min_value=1, max_value=30, initial=4)
    date = forms.DateField(initial=timezone.localdate, widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(max_length=200, required=False)
    tiebreakers = forms.ChoiceField(
        choices=Event.Tiebreakers.choices, initial=Event.Tiebreakers.CLASSIC, required=False,
        help_text="1v1 formats; multiplayer pods always rank by points, opponents' points, OMW%, OOMW%.",
    )  # fmt: skip

    players_per_table = forms.TypedChoiceField(
        choices=[("", "The format's tables"), ("2", "1v1 Swiss (2-player games)")], coerce=int, empty_value=None,
        required=False, label="Tables",
        help_text="1v1 is possible for formats that allow 2-player games (Master Trainer).",
    )  # fmt: skip
    pod_leftovers = forms.ChoiceField(
        choices=Event.Leftovers.choices, initial=Event.Leftovers.TABLES, required=False, label="Leftover players",
        help_text="Pod formats: smaller pods at the bottom, or byes, when numbers don't divide.",
    )  # fmt: skip

    def clean_tiebreakers(self) -> str:
        return self.cleaned_data["tiebreakers"] or Event.Tiebreakers.CLASSIC

    def clean_pod_leftovers(self) -> str:
        return self.cleaned_data["pod_leftovers"] or Event.Leftovers.TABLES


class EventSettingsForm(EventForm):
    """The settings of an existing event (its format is fixed)."""

    def __init__(self, data=None, *, event: Event, **kwargs):
        self.event = event
        initial = {name: getattr(event, name) for name in self.base_fields if name != "format"}
        initial["players_per_table"] = "" if event.players_per_table is None else str(event.players_per_table)
        super().__init__(data, initial=initial, **kwargs)
        del self.fields["format"]
        if event.rounds.exists():
            for name in ("players_per_table", "pod_leftovers"):
                self.fields[name].disabled = True
                self.fields[name].help_text = "Fixed once round 1 is paired."

    def changes(self) -> dict:
        return {
            name: value
            for name, value in self.cleaned_data.items()
            if not self.fields[name].disabled and value != getattr(self.event, name)
        }


class SwapForm(forms.Form):
    player_a = forms.IntegerField()
    player_b = forms.IntegerField()


class RegistrationForm(forms.Form):
    display_name = forms.CharField(
        max_length=100, label="Player name", widget=forms.TextInput(attrs={"placeholder": "Player name"})
    )
    external_id = forms.CharField(
        max_length=64,
        required=False,
        label="Player ID",
        widget=forms.TextInput(attrs={"placeholder": "Player ID (optional)"}),
    )
    checked_in = forms.BooleanField(required=False, initial=True, label="Checked in")


class ResultForm(forms.Form):
    """One placement field per seated player, built from the table's seats."""

    #: One-click outcomes for a 1v1 table: placements of (seat 1, seat 2).
    OUTCOMES = {"first": (1, 2), "second": (2, 1), "draw": (1, 1)}

    def __init__(self, data=None, *, seats, **kwargs):
        self.seats = list(seats)
        outcome = data.get("outcome") if data is not None else None
        if outcome in self.OUTCOMES and len(self.seats) == 2:
            data = data.copy()
            for seat, placement in zip(self.seats, self.OUTCOMES[outcome], strict=True):
                data[f"placement_{seat.player_id}"] = str(placement)
        super().__init__(data, **kwargs)
        choices = [(str(i), str(i)) for i in range(1, len(self.seats) + 1)]
        for seat in self.seats:
            self.fields[f"placement_{seat.player_id}"] = forms.TypedChoiceField(
                label=seat.player.display_name,
                choices=choices,
                coerce=int,
                initial=seat.placement or None,
            )

    def placements(self) -> dict[int, int]:
        return {seat.player_id: self.cleaned_data[f"placement_{seat.player_id}"] for seat in self.seats}
