"""The player's notification choices as a form: a box per kind and channel."""

from __future__ import annotations

from typing import Any

from django import forms

from notifications.kinds import Channel, Kind
from notifications.selectors import Choice


def field_name(kind: str, channel: str) -> str:
    return f"{kind}__{channel}"


class PreferencesForm(forms.Form):
    def __init__(self, *args: Any, choices: list[Choice], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for choice in choices:
            for channel in Channel:
                self.fields[field_name(choice.kind, channel)] = forms.BooleanField(
                    required=False, initial=getattr(choice, channel.value),
                    label=f"{choice.label}: {channel.label}",
                )  # fmt: skip
        self.rows = [
            {"label": choice.label, "kind": choice.kind,
             "fields": [(channel.label, self[field_name(choice.kind, channel)]) for channel in Channel]}
            for choice in choices
        ]  # fmt: skip

    def chosen(self) -> dict[str, dict[str, bool]]:
        return {
            kind: {channel: bool(self.cleaned_data.get(field_name(kind, channel))) for channel in Channel.values}
            for kind in Kind.values
        }
