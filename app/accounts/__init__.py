"""Accounts over REST: sign-up, login, tokens, profile, avatar, e-mails, daily credits."""
