"""The tournaments' part of docs/PROTOCOL.md: their events, errors and examples.

Composed with the tables' part in :mod:`app.protocol`; each example is checked
against its schema when the page is rendered.
"""

from __future__ import annotations

from typing import Any

from app.protocol.page import ProtocolPart, Request
from app.tournaments import errors
from app.tournaments import schemas as ts

TOURNAMENT = "a1b2c3d4e5f60718"
TOURNAMENT_SUMMARY: dict[str, Any] = {
    "id": TOURNAMENT, "name": "Sit & go 6", "kind": "sit_and_go", "status": "registering",
    "buy_in": 100, "fee": 10, "entrants": 4, "players_left": 4, "capacity": 6,
    "prize_pool": 400, "starts_at": None, "late_registration": False,
}

ERROR_CLASSES = (
    errors.TournamentNotFound, errors.RegistrationClosed, errors.TournamentFull,
    errors.AlreadyRegistered, errors.ReentryNotAllowed, errors.NotRegistered,
    errors.WrongTournamentState, errors.DealNotNow, errors.DealUnavailable,
)

TOURNAMENTS = ProtocolPart(
    requests=(
        Request("tournament:list", ts.TournamentListRequest, login=False),
        Request("tournament:register", ts.TournamentRef),
        Request("tournament:unregister", ts.TournamentRef),
        Request("tournament:deal", ts.TournamentRef),
    ),
    server_events=(
        ("lobby:tournament", ts.TournamentSummary),
        ("lobby:tournament-removed", ts.TournamentRemoved),
    ),
    errors=ERROR_CLASSES,
    request_docs={
        "tournament:register": "Enter a tournament (or late-register, or re-enter after "
                               "busting where allowed). A sit & go starts when full; a "
                               "multi-table tournament at its start time. The tournament "
                               "seats you: a `user:notice` `tournament_seat` names your table "
                               "(join it with `table:join`); you move tables the same way.",
        "tournament:unregister": "Withdraw before the start; the buy-in and fee are refunded.",
        "tournament:deal": "Agree to split the prizes left by ICM (2 to 10 players left, by "
                           "their chips). Only between hands (`deal_not_now` while a hand is "
                           "in play at any of the tournament's tables), once late "
                           "registration has closed, and never while a bot is still in: bots "
                           "never agree (`deal_unavailable`). The first agreement puts the "
                           "offer to the others (`user:notice` `tournament_deal`) and holds "
                           "every table's next hand until `expires_at` (the level clock runs "
                           "on). When every player still in agrees, the tournament ends and "
                           "each is paid their share (`user:notice` `tournament_finished`); "
                           "no hand is voided. When the time is up, play resumes and the offer "
                           "lapses: agreeing is refused (`deal_not_now`) until a hand has "
                           "been played, and the next offer needs everyone again.",
    },
    request_examples={
        "tournament:list": {},
        "tournament:register": {"tournament_id": TOURNAMENT},
        "tournament:unregister": {"tournament_id": TOURNAMENT},
        "tournament:deal": {"tournament_id": TOURNAMENT},
    },
    acks={
        "tournament:list": {"ok": True, "tournaments": [TOURNAMENT_SUMMARY]},
        "tournament:register": {"ok": True, "tournament_id": TOURNAMENT,
                                "entry": "user:12#1", "entrants": 5},
        "tournament:unregister": {"ok": True, "tournament_id": TOURNAMENT,
                                  "refunded": "user:12#1"},
        "tournament:deal": {"ok": True, "tournament_id": TOURNAMENT,
                            "offer": {"alice": 263, "bob": 137}, "agreed": 1, "needed": 2,
                            "expires_at": 1767225620.0, "done": False},
    },
    ack_fields={
        "tournament:list": "`tournaments`, a list of `TournamentSummary` (see "
                           "`lobby:tournament`).",
        "tournament:register": "`entry`, your entry's id, and `entrants`, the entries so "
                               "far. The buy-in and fee are taken from your balance (ledger "
                               "`tournament_buy_in` and `tournament_fee`).",
        "tournament:unregister": "`refunded`, the entry withdrawn; its buy-in and fee are "
                                 "back on your balance.",
        "tournament:deal": "`offer`, each player's share by name; `agreed` of `needed` "
                           "players agree; `expires_at`, the Unix time until which play "
                           "waits for them; `done` when the deal ended the tournament.",
    },
    server_examples={
        "lobby:tournament": TOURNAMENT_SUMMARY,
        "lobby:tournament-removed": {"tournament_id": TOURNAMENT},
    },
)
