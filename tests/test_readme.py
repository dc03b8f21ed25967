"""The README says what the code does: its roles table is the policy's own."""

from __future__ import annotations

from pathlib import Path

from tournaments.policy import roles_table

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_shows_the_roles_table_the_policy_decides_with():
    assert roles_table() in (ROOT / "README.md").read_text(), (
        "README.md's roles table differs from tournaments.policy: paste policy.roles_table() into it"
    )
