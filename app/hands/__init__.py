"""Hand histories and player statistics over REST."""
