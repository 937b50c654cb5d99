"""A table's state as plain data: its settings, who sits where, the waiting list, chat.

Everything here serialises to JSON and back (``to_dict`` / ``from_dict``):
the whole :class:`TableState` is what the store writes after every change.
Stacks in :class:`Player` are the chips a player had when the current hand
started (or now, between hands); the hand in play keeps its own stacks. So a
hand interrupted by a crash is voided simply by dropping it: every seat gets
back what it had at the start of the hand.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from app.db.models import Role
from app.poker.blinds import Occupant, PlayerStatus
from app.poker.bots import BotStyle
from app.poker.engine import Hand
from app.poker.fairness import FairnessProof, commitment, new_server_seed
from app.poker.preactions import PreAction
from app.poker.rake import RakeRule
from app.poker.state import Game, Stakes
from app.poker.tendencies import Tendencies, observe
from app.table.errors import StaleAction
from app.table.events import PlayerPublic
from app.table.host_desk import HostDesk

# Offered to the code above a table.
from app.table.time_bank import TIMING_PROFILES as TIMING_PROFILES
from app.table.time_bank import TimeBank as TimeBank

CHAT_KEPT = 50
# The bank of a table stored before tables had time bank settings (the server's default).
STORED_TIME_BANK_SECONDS = 30.0
STORED_TIME_BANK = TimeBank(STORED_TIME_BANK_SECONDS, max_seconds=STORED_TIME_BANK_SECONDS)
RECENT_HANDS_SECONDS = 3_600.0


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table's settings, fixed when it is created."""

    name: str
    seats: int
    stakes: Stakes
    min_buy_in: int
    max_buy_in: int
    action_seconds: float
    private: bool = False
    invite_code: str | None = None
    bots: bool = False
    bot_count: int = 0
    bot_style: BotStyle | None = None
    tournament: str | None = None
    bomb_pot_every: int = 0
    bomb_pot_ante: int = 0
    run_it_twice: bool = False
    game: Game = Game.NLHE
    # The person who opened the table, shown to everyone who comes (none: a table of the
    # lobby's, a quick seat's or a tournament's).
    host: Person | None = None
    time_bank: TimeBank = STORED_TIME_BANK
    # The house's rake (None: no rake; never at a tournament's table).
    rake: RakeRule | None = None
    # How long a player disconnected on their turn has to come back (None: the server's).
    disconnect_grace_seconds: float | None = None

    def hosted_by(self, user_id: int) -> bool:
        """Whether the account ``user_id`` hosts this table."""
        return self.host is not None and self.host.user_id == user_id

    def grace(self, server: float) -> float:
        """The disconnect grace at this table: its own, else the server's ``server``."""
        return server if self.disconnect_grace_seconds is None else self.disconnect_grace_seconds

    def bomb_pot(self, hand_number: int) -> int:
        """The ante of hand ``hand_number`` (counted from 1) if it is a bomb pot, else 0."""
        every = self.bomb_pot_every
        return self.bomb_pot_ante if every and hand_number % every == 0 else 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data (the invite code included: this is server-side)."""
        out = asdict(self)
        out["stakes"] = self.stakes.to_dict()
        out["bot_style"] = self.bot_style.value if self.bot_style else None
        out["game"] = self.game.value
        out["rake"] = self.rake.to_dict() if self.rake is not None else None
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableConfig:
        """Inverse of :meth:`to_dict`."""
        values = dict(data)
        values["stakes"] = Stakes.from_dict(data["stakes"])
        values["bot_style"] = BotStyle(data["bot_style"]) if data.get("bot_style") else None
        values["host"] = Person(**data["host"]) if data.get("host") else None
        values["game"] = Game(data.get("game", Game.NLHE))
        values["time_bank"] = TimeBank.from_dict(data.get("time_bank"),
                                                 seconds=STORED_TIME_BANK_SECONDS)
        values["rake"] = RakeRule.from_dict(data["rake"]) if data.get("rake") else None
        return cls(**values)

    def public(self) -> dict[str, Any]:
        """The settings every viewer may see (no invite code)."""
        return {
            "name": self.name, "seats": self.seats, "small_blind": self.stakes.small_blind,
            "big_blind": self.stakes.big_blind, "ante": self.stakes.ante,
            "min_buy_in": self.min_buy_in, "max_buy_in": self.max_buy_in,
            "action_seconds": self.action_seconds, "private": self.private,
            "bots": self.bots, "bot_count": self.bot_count, "tournament": self.tournament,
            "straddle": self.stakes.straddle, "bomb_pot_every": self.bomb_pot_every,
            "bomb_pot_ante": self.bomb_pot_ante, "run_it_twice": self.run_it_twice,
            "host": self.host.public() if self.host else None, "game": self.game.value,
            "time_bank": self.time_bank.to_dict(),
            "rake": self.rake.to_dict() if self.rake is not None else None,
            "disconnect_grace_seconds": self.disconnect_grace_seconds,
        }


@dataclass(frozen=True, slots=True)
class Viewer:
    """The user behind a request or a connection (``None`` stands for an anonymous one)."""

    user_id: int
    public_id: str
    name: str
    role: Role

    @property
    def is_admin(self) -> bool:
        """Whether this user is an admin."""
        return self.role is Role.ADMIN


@dataclass(frozen=True, slots=True)
class Person:
    """A person (or a bot, with ``user_id`` None) as other viewers know them."""

    user_id: int | None
    public_id: str
    name: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data (server side: with the user id)."""
        return {"user_id": self.user_id, "public_id": self.public_id, "name": self.name}

    def public(self, bot: BotStyle | None = None) -> dict[str, Any]:
        """``PlayerPublic``: never the internal user id."""
        return {"public_id": self.public_id, "name": self.name,
                "bot": bot.value if bot else None}

    def record(self, bot: BotStyle | None = None) -> PlayerPublic:
        """:meth:`public` as the record a table event holds."""
        return PlayerPublic(public_id=self.public_id, name=self.name, bot=bot)


@dataclass(frozen=True, slots=True)
class Successor:
    """A person who bought in for a bot's seat while the bot was in a hand."""

    person: Person
    buy_in: int


@dataclass(slots=True)
class Player:
    """Whoever sits in one seat, and their standing between hands."""

    seat: int
    person: Person
    stack: int
    status: PlayerStatus = PlayerStatus.WAITING
    bot: BotStyle | None = None
    time_bank: float = 0.0
    # Hands dealt in since the time bank last refilled (see app.table.time_bank).
    bank_hands: int = 0
    timeouts: int = 0
    sat_out_at: float | None = None
    leaving: bool = False
    paid_out: int = 0
    successor: Successor | None = None
    client_seed: str | None = None
    # Chips bought in since sitting down (the buy-in and every top-up): the stack less
    # this is what the sitting has won or lost.
    bought_in: int = 0
    # The seat's preferences (app.table.topup): muck a lost hand at the showdown at once,
    # top up to the max buy-in before each hand, sit out instead of posting the next
    # big blind.
    auto_muck: bool = False
    auto_top_up: bool = False
    sit_out_next_big_blind: bool = False

    @property
    def user_id(self) -> int | None:
        """The account behind this seat (None for a bot)."""
        return self.person.user_id

    @property
    def is_bot(self) -> bool:
        """Whether a bot sits here."""
        return self.bot is not None

    @property
    def escrowed(self) -> int:
        """Credits held at the table for this seat: the stack not yet paid out (a bot's is
        the house's), plus the buy-in of a person who claimed a bot's seat."""
        return self.stack - self.paid_out + (self.successor.buy_in if self.successor else 0)

    def preferences(self) -> dict[str, bool]:
        """The seat's preferences, as its player sees them."""
        return {"auto_muck": self.auto_muck, "auto_top_up": self.auto_top_up,
                "sit_out_next_big_blind": self.sit_out_next_big_blind}

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data."""
        return {
            "seat": self.seat, "person": self.person.to_dict(), "stack": self.stack,
            "status": self.status.value, "bot": self.bot.value if self.bot else None,
            "time_bank": self.time_bank, "bank_hands": self.bank_hands,
            "timeouts": self.timeouts,
            "sat_out_at": self.sat_out_at, "leaving": self.leaving, "paid_out": self.paid_out,
            "successor": (
                {"person": self.successor.person.to_dict(), "buy_in": self.successor.buy_in}
                if self.successor else None
            ),
            "client_seed": self.client_seed, "bought_in": self.bought_in,
            "auto_muck": self.auto_muck, "auto_top_up": self.auto_top_up,
            "sit_out_next_big_blind": self.sit_out_next_big_blind,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Player:
        """Inverse of :meth:`to_dict`."""
        successor = data.get("successor")
        return cls(
            seat=data["seat"], person=Person(**data["person"]), stack=data["stack"],
            status=PlayerStatus(data["status"]),
            bot=BotStyle(data["bot"]) if data.get("bot") else None,
            time_bank=data["time_bank"], bank_hands=data.get("bank_hands", 0),
            timeouts=data["timeouts"],
            sat_out_at=data["sat_out_at"], leaving=data["leaving"], paid_out=data["paid_out"],
            successor=(
                Successor(Person(**successor["person"]), successor["buy_in"])
                if successor else None
            ),
            client_seed=data.get("client_seed"),
            # A state stored before sittings were counted starts counting from its stack.
            bought_in=data.get("bought_in", data["stack"]),
            auto_muck=data.get("auto_muck", False), auto_top_up=data.get("auto_top_up", False),
            sit_out_next_big_blind=data.get("sit_out_next_big_blind", False),
        )


@dataclass(frozen=True, slots=True)
class SeatOffer:
    """A free seat held for the first person on the waiting list until ``expires_at``."""

    person: Person
    seat: int
    expires_at: float


@dataclass(slots=True)
class HandInPlay:
    """The hand being played, with its id, when it started and what proves its deck
    (``proof`` is None for a deck stacked by a test), and the pre-actions its players
    chose, by seat (see :mod:`app.poker.preactions`)."""

    id: str
    number: int
    hand: Hand
    started_at: float
    proof: FairnessProof | None = None
    preactions: dict[int, PreAction] = field(default_factory=dict)
    # How long each person took over each decision they sent, in seconds: (seat, seconds),
    # in order; kept in the hand's summary for the bot-like play signal (app.integrity).
    decisions: list[tuple[int, float]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data (deck and server seed included: this is server-side state)."""
        return {"id": self.id, "number": self.number, "hand": self.hand.to_dict(),
                "started_at": self.started_at,
                "proof": self.proof.to_dict() if self.proof else None,
                "preactions": [{"seat": seat, **chosen.to_dict()}
                               for seat, chosen in sorted(self.preactions.items())],
                "decisions": [[seat, seconds] for seat, seconds in self.decisions]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandInPlay:
        """Inverse of :meth:`to_dict`."""
        proof = data.get("proof")
        chosen = {int(p["seat"]): PreAction.from_dict(p) for p in data.get("preactions") or []}
        timed = [(int(seat), float(seconds)) for seat, seconds in data.get("decisions") or []]
        return cls(data["id"], data["number"], Hand.from_dict(data["hand"]), data["started_at"],
                   FairnessProof.from_dict(proof) if proof else None, chosen, timed)


@dataclass(slots=True)
class TableState:
    """Everything about one table that outlives a process."""

    config: TableConfig
    players: dict[int, Player] = field(default_factory=dict)
    button: int | None = None
    seq: int = 0
    hand_number: int = 0
    current: HandInPlay | None = None
    chat: list[dict[str, Any]] = field(default_factory=list)
    waiting: list[Person] = field(default_factory=list)
    offer: SeatOffer | None = None
    recent: list[tuple[float, int]] = field(default_factory=list)
    bots_seated: int = 0
    # Public counts about each player seated here, by public id, for the bots to read.
    reads: dict[str, Tendencies] = field(default_factory=dict)
    desk: HostDesk = field(default_factory=HostDesk)
    _config_dict: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    @property
    def config_dict(self) -> dict[str, Any]:
        """``config.to_dict()``, computed once (until the host changes a setting:
        :meth:`reconfigure`)."""
        if self._config_dict is None:
            self._config_dict = self.config.to_dict()
        return self._config_dict

    def reconfigure(self, config: TableConfig) -> None:
        """Change the table's settings (the hand in play keeps the stakes it started with)."""
        self.config = config
        self._config_dict = None
    next_server_seed: str = field(default_factory=new_server_seed)

    # ---- who sits where ----------------------------------------------------

    def player_of(self, user_id: int) -> Player | None:
        """The seat a person sits in, if any."""
        return next((p for p in self.players.values() if p.user_id == user_id), None)

    def hand_in_play(self, hand_id: str) -> HandInPlay:
        """The hand in play, if it is ``hand_id``; else :class:`StaleAction`."""
        current = self.current
        if current is None or current.id != hand_id:
            raise StaleAction("that hand is over", hand_id=current.id if current else None)
        return current

    def claim_of(self, user_id: int) -> Player | None:
        """The bot seat a person bought in for and takes over after this hand, if any."""
        return next((p for p in self.players.values()
                     if p.successor and p.successor.person.user_id == user_id), None)

    def has_seat(self, user_id: int) -> bool:
        """Whether a person sits here or has claimed a bot's seat."""
        return self.player_of(user_id) is not None or self.claim_of(user_id) is not None

    def free_seats(self) -> list[int]:
        """Empty seats not held for a waiting player."""
        held = self.offer.seat if self.offer else None
        return [n for n in range(self.config.seats) if n not in self.players and n != held]

    def bot_seats(self) -> list[int]:
        """Seats a bot holds that no person has claimed yet."""
        return [n for n, p in sorted(self.players.items()) if p.is_bot and p.successor is None]

    def humans(self) -> list[Player]:
        """Seats held by people."""
        return [p for p in self.players.values() if not p.is_bot]

    def in_hand(self, seat: int) -> bool:
        """Whether ``seat`` was dealt into the hand being played."""
        if self.current is None or self.current.hand.is_complete:
            return False
        return any(s.number == seat for s in self.current.hand.seats)

    def occupants(self) -> dict[int, Occupant]:
        """The seats as :func:`app.poker.blinds.plan_next_hand` wants them."""
        return {n: Occupant(p.stack, p.status) for n, p in self.players.items()}

    def escrowed(self) -> int:
        """Credits that must be held at the table for its seats right now (none at a
        tournament table: its stacks are tournament chips, its credits are in the pool)."""
        if self.config.tournament is not None:
            return 0
        return sum(p.escrowed for p in self.players.values())

    # ---- the fair shuffle ----------------------------------------------------------

    @property
    def next_commitment(self) -> str:
        """The published commitment to the server seed of the next hand."""
        return commitment(self.next_server_seed)

    def draw_proof(self, dealt_in: list[int]) -> FairnessProof:
        """Use the committed server seed and the client seeds of the seats dealt in for
        the hand about to start, and commit to a fresh seed for the hand after it."""
        seeds = {seat: seed for seat in dealt_in
                 if (seed := self.players[seat].client_seed) is not None}
        proof = FairnessProof(self.next_server_seed, seeds)
        self.next_server_seed = new_server_seed()
        return proof

    # ---- what the bots may know -----------------------------------------------------

    def reads_by_seat(self) -> dict[int, Tendencies]:
        """The public counts about the players seated now, by seat."""
        return {seat: self.reads[p.person.public_id] for seat, p in self.players.items()
                if p.person.public_id in self.reads}

    def count_hand(self, hand: Hand) -> None:
        """Add a finished hand to the counts; only players still seated are kept."""
        seated = {seat: p.person.public_id for seat, p in self.players.items()}
        counted = observe(self.reads, hand, seated)
        self.reads = {key: counted[key] for key in seated.values() if key in counted}

    # ---- lobby figures ---------------------------------------------------------

    def note_hand(self, now: float, pot: int) -> None:
        """Remember a finished hand's pot for the lobby's averages."""
        self.recent = [(t, p) for t, p in self.recent if t > now - RECENT_HANDS_SECONDS]
        self.recent.append((now, pot))

    def average_pot(self, now: float) -> int:
        """The average pot of the last hour's hands."""
        pots = [p for t, p in self.recent if t > now - RECENT_HANDS_SECONDS]
        return sum(pots) // len(pots) if pots else 0

    def hands_per_hour(self, now: float) -> int:
        """Hands finished in the last hour."""
        return sum(1 for t, _ in self.recent if t > now - RECENT_HANDS_SECONDS)

    def add_chat(self, line: dict[str, Any]) -> None:
        """Keep a chat line (only the last 50 are kept)."""
        self.chat.append(line)
        del self.chat[:-CHAT_KEPT]

    # ---- JSON ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data, the form the store writes."""
        return {
            "config": self.config_dict,
            "players": [p.to_dict() for p in self.players.values()],
            "button": self.button, "seq": self.seq, "hand_number": self.hand_number,
            "current": self.current.to_dict() if self.current else None,
            "chat": list(self.chat), "waiting": [p.to_dict() for p in self.waiting],
            "offer": (
                {"person": self.offer.person.to_dict(), "seat": self.offer.seat,
                 "expires_at": self.offer.expires_at} if self.offer else None
            ),
            "recent": [list(r) for r in self.recent], "bots_seated": self.bots_seated,
            "reads": {key: counts.to_dict() for key, counts in self.reads.items()},
            "next_server_seed": self.next_server_seed, "desk": self.desk.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableState:
        """Inverse of :meth:`to_dict`."""
        offer = data.get("offer")
        players = (Player.from_dict(p) for p in data["players"])
        return cls(
            config=TableConfig.from_dict(data["config"]),
            players={p.seat: p for p in players},
            button=data["button"], seq=data["seq"], hand_number=data["hand_number"],
            current=HandInPlay.from_dict(data["current"]) if data.get("current") else None,
            chat=list(data["chat"]), waiting=[Person(**p) for p in data["waiting"]],
            offer=(
                SeatOffer(Person(**offer["person"]), offer["seat"], offer["expires_at"])
                if offer else None
            ),
            recent=[(float(t), int(p)) for t, p in data["recent"]],
            bots_seated=data.get("bots_seated", 0),
            reads={key: Tendencies.from_dict(counts)
                   for key, counts in (data.get("reads") or {}).items()},
            next_server_seed=data.get("next_server_seed") or new_server_seed(),
            desk=HostDesk.from_dict(data.get("desk")),
        )
