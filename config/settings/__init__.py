"""Settings: ``base`` reads everything from the environment; ``test`` adds test-only defaults."""
