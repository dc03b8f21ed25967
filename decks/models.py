"""Card catalogue, registered decks and their validation (issue: decks). No models yet."""
