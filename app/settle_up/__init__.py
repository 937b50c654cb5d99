"""A table's money at the end of the night: who brought and took how much, and the
fewest payments that settle it."""
