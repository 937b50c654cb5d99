"""Chat safety: the word filter applied to every table chat line."""
