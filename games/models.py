"""Game records and their event logs (issue: games). No models yet."""
