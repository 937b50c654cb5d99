"""What a player does about other players' chat: ignore them (REST); reports go through
the table (``table:report``) and land on /admin."""
