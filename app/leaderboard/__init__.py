"""The leaderboard: players ranked by net winnings over a day, a week or all time (REST)."""
