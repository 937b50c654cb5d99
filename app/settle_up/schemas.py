"""Bodies of the settle-up API."""

from __future__ import annotations

from pydantic import BaseModel, Field


class LedgerLinePublic(BaseModel):
    """What one player (or the house, for the bots) brought to the table and took away."""

    name: str = Field(description="The player's display name, or the house's")
    public_id: str | None = Field(description="The player's public id (none for the house)")
    house: bool = Field(description="The bots' bankroll, not a person")
    buy_ins: int = Field(description="How many times they bought in or topped up")
    bought_in: int = Field(description="Credits brought to the table, top-ups included")
    cashed_out: int = Field(description="Credits taken back from the table")
    at_table: int = Field(description="Chips still in front of them (an open table)")
    net: int = Field(description="cashed_out + at_table - bought_in")


class TransferPublic(BaseModel):
    """One payment that settles the night: ``payer`` pays ``payee`` ``amount``."""

    payer: str
    payer_public_id: str | None
    payee: str
    payee_public_id: str | None
    amount: int


class SettleUpPublic(BaseModel):
    """A table's ledger, one line a player, and the fewest payments that settle it."""

    table_id: str
    name: str
    open: bool = Field(description="Still open: chips at the table count as they stand")
    lines: list[LedgerLinePublic]
    transfers: list[TransferPublic]


class TournamentLinePublic(BaseModel):
    """What one player (or the house, for the bots) paid into a tournament and won."""

    name: str = Field(description="The player's display name, or the house's")
    public_id: str | None = Field(description="The player's public id (none for the house)")
    house: bool = Field(description="The bots' bankroll, not a person")
    entries: int = Field(description="How many buy-ins they paid (re-entries included)")
    bought_in: int = Field(description="Credits paid into the prize pool")
    fees: int = Field(description="Entry fees paid (less any refunded)")
    prizes: int = Field(description="Prizes won")
    refunded: int = Field(description="Buy-ins given back (a withdrawal, a cancellation)")
    net: int = Field(description="prizes + refunded - bought_in - fees")


class TournamentLedgerPublic(BaseModel):
    """A tournament's ledger, one line a player, and the fewest payments that settle it
    (the players pay the entry fees to the organizer's line)."""

    tournament_id: str
    name: str
    over: bool = Field(description="Finished or cancelled: the payments settle it (none "
                                   "are worked out while the prize pool is still held)")
    fees: int = Field(description="Entry fees paid in all: the organizer's")
    lines: list[TournamentLinePublic]
    transfers: list[TransferPublic]
