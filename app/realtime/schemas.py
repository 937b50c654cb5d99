"""Pydantic models of every Socket.IO payload: client→server requests and their acks,
and server→client events. docs/PROTOCOL.md is generated from these models
(``holdem protocol``), so a field documented here is documented for clients.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.poker.bots import BotStyle
from app.poker.events import ActionKind
from app.poker.state import Game
from app.table.acks import PreActionName
from app.table.acks import PreActionPublic as PreActionPublic
from app.table.events import PlayerPublic as PlayerPublic
from app.table.events import TableEventRecord
from app.text import bounded

TableId = Annotated[str, Field(min_length=1, max_length=32, description="The table's id")]
Seconds = Annotated[float, Field(ge=0, le=600)]
Chips = Annotated[int, Field(gt=0, le=10**12)]
# The timing profiles a table can be opened with (app.table.time_bank.TIMING_PROFILES).
TimingName = Literal["fast", "normal", "slow"]
# The games a table deals (app.poker.state.Game's values).
GameName = Literal["nlhe", "flhe", "plhe", "plo", "plo5"]
GAME_DESCRIPTION = ("The game: `nlhe` No-Limit Hold'em, `flhe` Fixed-Limit Hold'em (bets of "
                    "one big blind before the turn and two after, four bets a street), `plhe` "
                    "Pot-Limit Hold'em, `plo` Pot-Limit Omaha (four hole cards, a hand is "
                    "exactly two of them and three of the board) or `plo5` (five hole cards)")


class Request(BaseModel):
    """A client→server payload: unknown fields are rejected and nothing is coerced
    (``"40"`` is not a number, ``true`` is not 1); enum fields take their string values."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Message(BaseModel):
    """A server→client payload."""


# --- client → server -------------------------------------------------------------


LOBBY_PAGE_SIZE = 50
LOBBY_MAX_PAGE_SIZE = 100


class LobbyListRequest(Request):
    """``lobby:list``: one page of the open tables (fullest first); also subscribes to
    ``lobby:table`` updates."""

    page: Annotated[int, Field(ge=1, le=100_000, description="Page number, from 1")] = 1
    per_page: Annotated[int, Field(
        ge=1, le=LOBBY_MAX_PAGE_SIZE, description=f"Tables per page, at most {LOBBY_MAX_PAGE_SIZE}"
    )] = LOBBY_PAGE_SIZE


class LobbyMine(Request):
    """``lobby:mine``: your tables, on every server process: those you opened (while
    they are open) and those you have a seat at or have claimed one at."""


class RakeCap(Request):
    """The most a pot pays the house when at least ``players`` are dealt in (until an entry
    for more players applies)."""

    players: Annotated[int, Field(ge=2, le=10, description="From this many players dealt in")]
    cap: Annotated[int, Field(ge=0, le=10**12, description="The cap, in chips")]


class RakeSettings(Request):
    """A table's rake: a percentage of every pot (rounded down to whole chips), capped by
    the number of players dealt in, taken before the pots are awarded and paid to the
    house. Only an admin may set it, and only at a public table."""

    percent: Annotated[float, Field(ge=0, le=10, description="0 to 10, in hundredths at "
                                                             "most (2.5, 4.75); 0: no rake")]
    caps: Annotated[list[RakeCap], Field(max_length=9)] = Field(
        default_factory=list, description="Caps by players dealt in, e.g. 2 players: 5, 3 "
                                          "or more: 10, 5 or more: 15 (none: uncapped)")
    no_flop_no_drop: bool = Field(default=True, description="No rake from a hand that ends "
                                                            "before the flop")

    @model_validator(mode="after")
    def _consistent(self) -> RakeSettings:
        hundredths = self.percent * 100
        if abs(hundredths - round(hundredths)) > 1e-6:
            raise ValueError("percent has at most two decimals")
        players = [c.players for c in self.caps]
        if len(set(players)) != len(players):
            raise ValueError("each rake cap names a different number of players")
        return self


class TableCreate(Request):
    """``table:create``: open a table (its creator is not seated automatically)."""

    name: Annotated[str, Field(min_length=1, max_length=40), bounded(40)]
    seats: Annotated[int, Field(ge=2, le=10)] = 6
    small_blind: Chips
    big_blind: Chips
    ante: Annotated[int, Field(ge=0, le=10**12)] = 0
    min_buy_in: Chips | None = Field(default=None, description="Default: 20 big blinds")
    max_buy_in: Chips | None = Field(default=None, description="Default: 100 big blinds")
    action_seconds: float | None = Field(
        default=None, gt=0, le=300, description="Time to act per decision; default: the server's"
    )
    private: bool = Field(
        default=False, description="Private tables need the invite code to watch or sit"
    )
    straddle: bool = Field(
        default=False, description="The seat after the big blind straddles every hand (a "
                                   "third blind of twice the big blind; it acts last before "
                                   "the flop) when three or more are dealt in"
    )
    bomb_pot_every: Annotated[int, Field(ge=0, le=100)] = Field(
        default=0, description="Every this many hands is a bomb pot: everyone antes "
                               "`bomb_pot_ante`, no blinds, the flop comes at once (0: never)"
    )
    bomb_pot_ante: Chips | None = Field(default=None, description="Default: 2 big blinds")
    run_it_twice: bool = Field(
        default=False, description="When the betting ends before the river with everyone "
                                   "(or all but one) all-in, the players still in are asked "
                                   "whether to run the rest of the board twice"
    )
    game: GameName = Field(default="nlhe", description=GAME_DESCRIPTION)
    bots: bool = Field(default=False, description="Fill empty seats with bots")
    bot_count: Annotated[int, Field(ge=0, le=9)] = Field(
        default=1, description="How many seats bots may take (at most seats - 1)"
    )
    bot_style: Annotated[BotStyle | None, Field(strict=False)] = Field(
        default=None, description="One style for all bots; default: mixed"
    )
    time_bank_seconds: Seconds | None = Field(
        default=None, description="The time bank a seat starts with: extra seconds once "
                                  "its clock runs out; default: the server's")
    time_bank_add_seconds: Seconds | None = Field(
        default=None, description="Seconds the bank gains every `time_bank_every_hands` "
                                  "hands a seat is dealt into; default: the server's")
    time_bank_every_hands: Annotated[int, Field(ge=0, le=1000)] | None = Field(
        default=None, description="How often the bank refills, in hands dealt in (0: "
                                  "never); default: the server's")
    time_bank_max_seconds: Seconds | None = Field(
        default=None, description="The most a bank holds (at least `time_bank_seconds`); "
                                  "default: the server's")
    rake: RakeSettings | None = Field(
        default=None, description="The house's rake (admins, public tables only); default: "
                                  "none")
    timing: TimingName | None = Field(
        default=None, description="A timing profile: `fast`, `normal` or `slow` sets the "
                                  "seconds to act, the time bank, its refill and cap and the "
                                  "disconnect grace (each field given here still wins); "
                                  "default: the server's settings")
    disconnect_grace_seconds: Seconds | None = Field(
        default=None, description="How long a player disconnected on their turn has to come "
                                  "back; default: the profile's, else the server's")

    @model_validator(mode="after")
    def _consistent(self) -> TableCreate:
        if self.small_blind > self.big_blind:
            raise ValueError("small_blind must not exceed big_blind")
        low = self.min_buy_in or 20 * self.big_blind
        high = self.max_buy_in or 100 * self.big_blind
        if low > high:
            raise ValueError("min_buy_in must not exceed max_buy_in")
        if high < self.big_blind:
            raise ValueError("max_buy_in must be at least one big blind")
        if self.bots and self.bot_count >= self.seats:
            raise ValueError("bot_count must leave at least one seat for a person")
        if self.game == "flhe" and self.straddle:
            raise ValueError("a fixed-limit game has no straddle")
        game = Game(self.game)
        if self.seats > game.max_seats:
            raise ValueError(f"{game.label} deals at most {game.max_seats} players")
        if (self.time_bank_seconds is not None and self.time_bank_max_seconds is not None
                and self.time_bank_seconds > self.time_bank_max_seconds):
            raise ValueError("time_bank_seconds must not exceed time_bank_max_seconds")
        return self


class QuickSeat(Request):
    """``table:quick-seat``: sit at any public table with these blinds (one is opened if none)."""

    small_blind: Chips
    big_blind: Chips
    buy_in: Chips | None = Field(default=None, description="Default: the table's maximum buy-in")
    bots: bool = Field(default=True, description="Whether a table opened for you gets bots")
    game: GameName = Field(default="nlhe", description=GAME_DESCRIPTION)


class TableRef(Request):
    """A request about one table."""

    table_id: TableId


class TableJoin(TableRef):
    """``table:join``: watch a table. A ``table:snapshot`` follows, then every event.

    With ``since_seq`` (the last ``seq`` the client saw) the server replays the
    events missed since then when it still has them, else sends a snapshot.
    """

    invite_code: Annotated[str, Field(max_length=64)] | None = None
    since_seq: Annotated[int, Field(ge=0)] | None = None


class TableSit(TableRef):
    """``table:sit``: take ``seat`` with ``buy_in`` credits from your balance."""

    seat: Annotated[int, Field(ge=0, le=9)]
    buy_in: Chips
    invite_code: Annotated[str, Field(max_length=64)] | None = None


class TableTopUp(TableRef):
    """``table:top-up``: add credits to your stack (between hands, up to the max buy-in)."""

    amount: Chips


class TablePreferences(TableRef):
    """``table:preferences``: your seat's preferences; only those given change."""

    auto_muck: bool = Field(
        default=False, description="At the showdown, muck a hand that has lost at once "
        "instead of being asked to show or muck")
    auto_top_up: bool = Field(
        default=False, description="Before each hand, top your stack up to the max buy-in "
        "from your credits (turned off, with an `auto_top_up_stopped` notice, when they "
        "cannot pay)")
    sit_out_next_big_blind: bool = Field(
        default=False, description="Sit out when the big blind reaches you instead of "
        "posting it (cleared once done)")

    def changes(self) -> dict[str, bool]:
        """The preferences given."""
        return {f: getattr(self, f) for f in self.model_fields_set if f != "table_id"}


class TableChat(TableRef):
    """``table:chat``: say something to everyone at the table."""

    text: Annotated[str, Field(min_length=1, max_length=200), bounded(200)]


class TableReport(TableRef):
    """``table:report``: report a player at this table to the admins; the table's last
    chat lines and its hand are attached."""

    public_id: Annotated[str, Field(pattern=r"^[0-9a-f]{32}$")]
    reason: Annotated[str, Field(min_length=1, max_length=500), bounded(500)]


class TableAction(TableRef):
    """``table:action``: act in the hand. ``amount`` is the street total for bet and raise."""

    hand_id: Annotated[str, Field(min_length=1, max_length=32)]
    type: Annotated[ActionKind, Field(strict=False)]
    amount: Annotated[int, Field(ge=0, le=10**12)] | None = None


class TablePreact(TableRef):
    """``table:preact``: what to do when your turn comes in this hand, chosen while others
    act (``intent`` null clears it). ``call`` takes ``amount``, the bet to call it is bound
    to (a change of that bet cancels it). You hold at most one; only you hear of it."""

    hand_id: Annotated[str, Field(min_length=1, max_length=32)]
    intent: PreActionName | None = Field(description=(
        "`check_fold`: check, or fold to a bet; `check`: check (cancelled by a bet); "
        "`call`: call `amount` (cancelled when the bet to call changes); `call_any`: call "
        "any bet, check when none; `fold_any`: fold to any bet, check otherwise, for the "
        "rest of the hand. All but `fold_any` last for the street they were chosen on"))
    amount: Annotated[int, Field(ge=0, le=10**12)] | None = Field(
        default=None, description="With `call` only: the bet to call, as you see it")

    @model_validator(mode="after")
    def _amount_with_call(self) -> TablePreact:
        if (self.intent == "call") != (self.amount is not None):
            raise ValueError("amount goes with a call, and only with a call")
        return self


class TableRunItTwice(TableRef):
    """``table:run-it-twice``: your answer to the run-it-twice question (the
    ``run_it_twice_offered`` event names the seats asked and the deadline). The board is run
    twice only when everyone asked agrees; a "no" (or a time-out) runs it once at once."""

    hand_id: Annotated[str, Field(min_length=1, max_length=32)]
    agree: bool


class TableSeed(TableRef):
    """``table:seed``: your client seed, mixed into the shuffle of every hand dealt to
    your seat from now on (docs/FAIRNESS.md). Send a fresh one after each hand."""

    seed: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$",
                               description="1 to 64 characters from A-Z a-z 0-9 _ -")]


Reason = Annotated[str, Field(min_length=1, max_length=200), bounded(200)]
PublicId = Annotated[str, Field(min_length=1, max_length=64, description="A player's public id")]


class HostPause(Request):
    """Deal no new hand until resumed; a hand in play is played to its end."""

    action: Literal["pause"]


class HostResume(Request):
    """Deal again after a pause."""

    action: Literal["resume"]


class HostApproval(Request):
    """At a private table: make every ``table:sit`` of others a request to the host
    (``required: false`` stops it and refuses the requests waiting)."""

    action: Literal["approval"]
    required: bool


class HostApprove(Request):
    """Seat the person who asked (they buy in as with ``table:sit``)."""

    action: Literal["approve"]
    player: PublicId


class HostRefuse(Request):
    """Turn a seat request down; the person gets a ``seat_refused`` notice."""

    action: Literal["refuse"]
    player: PublicId


class HostRemove(Request):
    """Stand the player in ``seat`` up (at the end of the hand they are in) and cash
    them out."""

    action: Literal["remove"]
    seat: Annotated[int, Field(ge=0, le=9)]


class HostAway(Request):
    """Sit the player in ``seat`` out and keep the seat for ``seconds``, then stand them
    up unless they sat in again."""

    action: Literal["away"]
    seat: Annotated[int, Field(ge=0, le=9)]
    seconds: float = Field(gt=0, le=4 * 3600)


class HostStakes(Request):
    """New blinds and ante from the next hand."""

    action: Literal["stakes"]
    small_blind: Chips
    big_blind: Chips
    ante: Annotated[int, Field(ge=0, le=10**12)] = 0


class HostClock(Request):
    """A new time to act per decision, from the next decision."""

    action: Literal["clock"]
    action_seconds: float = Field(gt=0, le=300)


class HostHandOver(Request):
    """Make the person seated at the table with this public id its host."""

    action: Literal["hand_over"]
    player: PublicId


HostControl = Annotated[
    HostPause | HostResume | HostApproval | HostApprove | HostRefuse | HostRemove | HostAway
    | HostStakes | HostClock | HostHandOver,
    Field(discriminator="action"),
]


class TableHost(TableRef):
    """``table:host``: one of the host's controls, with the reason everyone is shown. Only
    the table's host (or an admin) may use it; each applied control is a ``host_control``
    table event and a line of the table's host log."""

    control: HostControl
    reason: Reason


# --- acks ----------------------------------------------------------------------


class ErrorBody(Message):
    """What went wrong: a stable ``code``, a human ``message`` and code-specific details."""

    model_config = ConfigDict(extra="allow")

    code: str
    message: str


class Ack(Message):
    """The ack of an accepted request, with request-specific fields."""

    model_config = ConfigDict(extra="allow")

    ok: Literal[True] = True


# --- server → client --------------------------------------------------------------


class SeatPublic(Message):
    """A taken seat between hands: who sits there, their chips and standing."""

    seat: int
    player: PlayerPublic
    stack: int
    status: str = Field(description="playing, sitting_out or waiting_for_big_blind")
    connected: bool
    leaving: bool = False


class TableSummary(Message):
    """A table as the lobby lists it."""

    table_id: str
    name: str
    small_blind: int
    big_blind: int
    ante: int
    min_buy_in: int
    max_buy_in: int
    seats: int
    seated: int
    bots: int
    waiting: int
    average_pot: int = Field(description="Average pot of the hands of the last hour")
    hands_per_hour: int
    private: bool
    game: GameName = Field("nlhe", description=GAME_DESCRIPTION)
    rake: float = Field(0, description="The rake's percentage of each pot (0: no rake)")


class MyTable(TableSummary):
    """One of your tables (``lobby:mine``): its lobby line, and what it is to you."""

    opened: bool = Field(description="You opened it")
    seat: int | None = Field(description="Your seat (or the bot's seat you claimed), or null")
    closable: bool = Field(description="You may close it now with `table:close`: you opened "
                                       "it and no person sits or has claimed a seat there")
    tournament: str | None = Field(description="The tournament the table belongs to, or null")


class TimeBankPublic(Message):
    """A table's time banks: each seat starts with ``seconds``, used once its clock runs
    out (what is used is gone), and gains ``add_seconds`` at the start of every
    ``every_hands``-th hand it is dealt into (0: never), up to ``max_seconds``."""

    seconds: float
    add_seconds: float
    every_hands: int
    max_seconds: float


class RakeCapPublic(Message):
    """The most a pot pays the house from ``players`` dealt in."""

    players: int
    cap: int


class RakePublic(Message):
    """A table's rake: ``percent`` of each pot, capped by players dealt in."""

    percent: float
    caps: list[RakeCapPublic]
    no_flop_no_drop: bool


class TableConfigPublic(Message):
    """A table's settings."""

    name: str
    seats: int
    small_blind: int
    big_blind: int
    ante: int
    min_buy_in: int
    max_buy_in: int
    action_seconds: float
    private: bool
    bots: bool
    bot_count: int
    tournament: str | None = Field(None, description="The tournament this table belongs to "
                                   "(its seats hold tournament chips), or null")
    straddle: int = Field(description="The straddle (twice the big blind), 0 for none")
    bomb_pot_every: int = Field(description="Every this many hands is a bomb pot (0: never)")
    bomb_pot_ante: int = Field(description="What everyone antes in a bomb pot")
    run_it_twice: bool = Field(False, description="Players all-in before the river are "
                               "asked whether to run the board twice")
    host: PlayerPublic | None = Field(None, description="The player who opened the table "
                                      "(null: a table of the lobby, a quick seat or a "
                                      "tournament)")
    game: GameName = Field("nlhe", description=GAME_DESCRIPTION)
    time_bank: TimeBankPublic | None = Field(None, description="How the time banks start "
                                             "and refill")
    rake: RakePublic | None = Field(None, description="The house's rake, or null for none")
    disconnect_grace_seconds: float | None = Field(
        None, description="How long a player disconnected on their turn has to come back "
                          "(null: the server's)")


class ChatLine(Message):
    """One chat message."""

    player: PlayerPublic
    text: str
    at: float = Field(description="Unix time in seconds")


class TurnInfo(Message):
    """``table:turn``: whose turn it is, until when, and (for them only) what they may do."""

    table_id: str
    seq: int
    hand_id: str
    seat: int
    deadline: float = Field(description="Unix time in seconds when the seat times out")
    time_bank: bool = Field(default=False, description="The seat is now using its time bank "
                                                      "(`deadline` is the bank's end)")
    bank: float | None = Field(default=None, description="Seconds in the seat's time bank "
                                                         "as the turn is announced")
    grace: bool = Field(default=False, description="The player is disconnected: `deadline` "
                        "ends a short grace to come back; their time bank is kept")
    legal_actions: list[dict[str, Any]] | None = Field(
        None, description="Only to the player to act: {action, amount?, min?, max?}"
    )
    to_call: int | None = None


class PreActionNotice(Message):
    """``table:preaction``: your pre-action now (to you alone, on every device)."""

    table_id: str
    hand_id: str
    seat: int
    preaction: PreActionPublic | None = Field(description="The one you hold now, or null")
    reason: Literal["chosen", "cleared", "applied", "cancelled"] = Field(
        description="`chosen` (by you), `cleared` (by you), `applied` (your turn came and "
                    "it was taken: see `applied`), `cancelled` (it no longer fits the hand: "
                    "the bet to call changed, a new street, you folded or are all-in)")
    applied: PreActionPublic | None = Field(None, description="The pre-action taken, "
                                                              "with `applied`")


HandEventType = Literal[
    "ante_posted", "blind_posted", "hole_cards_dealt", "player_acted", "board_dealt",
    "run_it_twice_offered", "run_it_twice_chosen", "uncalled_bet_returned", "hand_shown",
    "hand_mucked", "all_in_equity", "pot_awarded", "hand_ended",
]


class HandEvent(Message):
    """An event of the hand in play, as the engine records it (``app/poker/events.py``,
    ``app/poker/allin.py``) and as the viewer may see it (``app/poker/view.py``)."""

    model_config = ConfigDict(extra="allow")

    type: HandEventType


# A table's own events are the records of app.table.events; the hand's come from the engine.
TableEventBody = Annotated[TableEventRecord | HandEvent, Field(discriminator="type")]


class TableEvent(Message):
    """``table:event``: one thing that happened, in ``seq`` order.

    ``event.type`` is a hand event (``hand_started``, ``blind_posted``,
    ``ante_posted``, ``hole_cards_dealt`` — ``cards`` is null unless they are
    yours —, ``player_acted``, ``board_dealt``, ``run_it_twice_offered``,
    ``run_it_twice_chosen``, ``uncalled_bet_returned``, ``hand_shown``, ``hand_mucked``,
    ``all_in_equity``, ``pot_awarded``, ``hand_ended``,
    ``hand_voided``) or a table event (``player_sat``, ``player_left``,
    ``player_leaving``, ``player_sat_out``, ``player_sat_in``, ``player_timed_out``,
    ``player_connection``, ``stack_changed``, ``chat`` (``chat_withheld`` in its place,
    with no speaker and no text, for a player who ignores the speaker), ``waiting_list``,
    ``table_closed``, and the host's ``host_control``, ``seat_requested``,
    ``seat_request_closed``, ``away_ended``).
    """

    table_id: str
    seq: int
    hand_id: str | None = None
    event: TableEventBody = Field(description="What happened, by `type`: see the "
                                              "`table:event` types below")


class BatchedMessage(Message):
    """One message of a ``table:batch``: its event name and its payload."""

    event: str = Field(description="table:event, table:turn or table:snapshot")
    data: dict[str, Any]


class TableBatch(Message):
    """``table:batch``: several messages of one table sent together, in order.

    Handle each as if it had arrived alone as ``event`` with ``data``: what the
    server sends a session at one moment travels as one packet.
    """

    table_id: str
    messages: list[BatchedMessage]
class FairnessPublic(Message):
    """The table's commitments (docs/FAIRNESS.md): never a server seed before its hand ends."""

    commitment: str | None = Field(
        description="SHA-256 of the server seed of the hand in play (null between hands)"
    )
    next_commitment: str = Field(description="SHA-256 of the server seed of the next hand")


class Snapshot(Message):
    """``table:snapshot``: everything the viewer may see now, as of ``seq``."""

    table_id: str
    seq: int
    config: TableConfigPublic
    seats: list[SeatPublic]
    button: int | None
    hand_id: str | None
    hand: dict[str, Any] | None = Field(
        description="The hand as this viewer may see it (app.poker.view), or null"
    )
    turn: TurnInfo | None
    chat: list[ChatLine]
    waiting: int
    you: dict[str, Any] | None = Field(
        description="Your `seat`, `time_bank` (seconds in your bank), `preaction` (the "
                    "pre-action you hold, as in `table:preaction`, or null), "
                    "`claimed_seat` and `waiting_position`, when you have any, and "
        "`bought_in`: the chips you bought in since you sat down (the buy-in and every "
        "top-up), so your stack less it is what this sitting has won or lost, and your "
        "seat's `preferences` (as `table:preferences` sets them)"
    )
    fairness: FairnessPublic
    hosting: dict[str, Any] | None = Field(
        None, description="What the host has set: `paused`, `approval` (seats wait for the "
        "host), `requests` (seat requests waiting: {player, seat, buy_in, at}), `away` "
        "({seat, until}: seats kept for away players until a Unix time) and `log` (the last "
        "50 host controls, as in `host_control` events)")


class Notice(Message):
    """``user:notice``: something only you are told (a seat offer, a cash-out)."""

    kind: str = Field(
        description="seat_offer (with seat, expires_at, min_buy_in, max_buy_in), "
                    "seat_offer_expired, cashed_out (with amount), auto_top_up_stopped "
                    "(with table_id and amount: your credits could not pay the top-up, "
                    "and auto top-up is now off at that table), session_ended (your "
                    "sessions were revoked: logout, password change or reset, account "
                    "deletion, ban; the server disconnects right after), "
                    "house_cap_reached (with cap, won and resets_at: you have won the "
                    "house's daily cap from its bots, so they left this table and no table "
                    "with bots seats you until resets_at, 00:00 UTC), "
                    "tournament_seat (with tournament_id and seat: your table now), "
                    "tournament_busted (with tournament_id and place, told only once it "
                    "can no longer change: null while late registration is open or a "
                    "hand-for-hand round is still being played; tournament_finished then "
                    "tells it), tournament_deal (with tournament_id, offer, agreed, needed "
                    "and expires_at: an ICM deal is put to you, agree with "
                    "tournament:deal), tournament_finished (with tournament_id, place and "
                    "prize), seat_refused (with reason: the host of a private table "
                    "turned your seat request down)"
    )
    table_id: str | None = Field(description="The table concerned (null for session_ended)")
    model_config = ConfigDict(extra="allow")


class ServerRestarting(Message):
    """``server:restarting``: the server process you are connected to is stopping (a
    deploy). It deals no new hand; the hands in play are finished, then it closes your
    connection: reconnect (to it once restarted, or to another process) and resume with
    ``table:join {since_seq}``. Sent to every connection of that process."""

    seconds: int = Field(ge=0, description="At most this many seconds before the "
                                           "connection closes (sooner once every hand "
                                           "in play has ended)")


AnnouncementLevel = Literal["info", "warning"]
ANNOUNCEMENT_LENGTH = 300


class Announcement(Message):
    """``announcement``: a message from the admins to every connected player (a planned
    restart, a tournament about to start). Sent to every connection of every server
    process; clients show it as a banner until it is dismissed."""

    id: str = Field(description="Unique per announcement (a client shows each once)")
    text: str = Field(max_length=ANNOUNCEMENT_LENGTH)
    level: AnnouncementLevel = Field(description="`info`, or `warning` for what needs "
                                                 "attention (a restart)")
    at: float = Field(description="Unix time it was sent")


class LobbyRemoved(Message):
    """``lobby:table-removed``: a table closed."""

    table_id: str
