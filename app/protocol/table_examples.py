"""The prose and the examples of the tables' part of docs/PROTOCOL.md (composed in
:mod:`app.protocol.tables`, rendered by :mod:`app.protocol.page`).

Each example is checked against its schema when the page is rendered.
"""

from __future__ import annotations

from typing import Any

TABLE = "3f9a1c2b7d4e"
HAND = "8c1d5e0f2a3b4c6d7e8f9a0b1c2d3e4f"
ALICE = {"public_id": "5b1f0c9e8d7a4b3c2d1e0f9a8b7c6d5e", "name": "alice", "bot": None}
BOB = {"public_id": "0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d", "name": "bob", "bot": None}
BOT = {"public_id": f"bot-{TABLE}-1", "name": "Ada (bot)", "bot": "tight"}

INTRO = """
# The holdem-server Socket.IO protocol

> Generated from `app/realtime/schemas.py` by `holdem protocol --write`; a test fails when
> this page is stale. Do not edit it by hand.

Everything a client needs to play: connecting, the request/ack contract, rooms, sequence
numbers and resuming, the flow of a hand, every event with its fields and an example.
Accounts (sign-up, login, credits) are REST: see `/docs` on a running server.

## Connecting

The server speaks Socket.IO 5 (python-socketio; `socket.io-client` 4.x works) on the same
host and port as the REST API, default path `/socket.io/`, default namespace `/`.
Authenticate with the `access_token` returned by `POST /auth/login`:

```js
import { io } from "socket.io-client";
const socket = io("http://127.0.0.1:8000", { auth: { token }, transports: ["websocket"] });
const ack = await socket.emitWithAck("lobby:list", {});
```

A browser logged in through the REST API may rely on the `holdem_session` cookie instead.
A bad, expired or revoked token, or a banned account, is refused: the client gets
`connect_error` with a human `message` and `data = {"code", "message"}` (codes
`not_authenticated`, `account_banned`). Connecting without a token gives an anonymous
connection that may list tables and tournaments and watch a table (`table:join`, with the
invite code for a private one; it sees what any spectator sees). Connections are bounded
too, refused the same
way with the bound as `data.limit`: per account (`table_limit`, counted over every server
process), and per client address (`connection_limit`: 100 in all, 20 of them anonymous,
by default, counted in each process).

One user connected from two tabs (or devices) is one player: both receive that player's
private messages and either may act for them.

A client that plays at one table should name it in the connection's query:
`io(url, { query: { table: tableId }, ... })`. Behind a proxy that routes by table (the one
the project ships does), every player of a table then reaches the same server process,
which soon runs the table itself (once one of its players sits or waits there), so their
requests are not relayed to another process. Name it once, as `table=<id>` with the id as
it is: a query naming a table twice, in another case (`TABLE`), percent-encoded or with
characters no table id has is refused (`connect_error` with `invalid_query`), since a
proxy could read it as another table. Any connection may still send requests about any
table.

## Requests and acks

Every client→server event takes one JSON object and must be sent with an acknowledgement
callback (`socket.emitWithAck(event, payload)` in JavaScript, `sio.call(event, payload)` in
python-socketio). The ack is `{"ok": true, ...}` with the fields listed for the event, or
`{"ok": false, "error": {"code", "message", ...details}}`. A refused request changed
nothing. Payloads are validated strictly: a missing or unknown field, a wrong type or a value
out of range is refused with `invalid_payload` and `error.problems`, a list of
`{"location", "message"}`. An unknown event name, or a name Socket.IO reserves (`connect`,
`disconnect`, ...), is refused the same way.

Requests are rate-limited per connection and per client address (by default 60 per 10 s
and 600 per 10 s): over the limit the ack is `rate_limited` with `retry_after`, in seconds.
A client must read what the server sends: a connection with more than a bounded amount of
unread messages waiting (1 MiB by default) is disconnected.

## Rooms

- `lobby`: joined by `lobby:list`; receives `lobby:table` and `lobby:table-removed`.
- `table:<id>`: joined by `table:join` (and `table:sit`, `table:quick-seat`); receives the
  table's `table:event`, `table:turn` and `table:snapshot` messages.
- `user:<id>`: every connection of a logged-in user is in its own private room; receives
  the private form of messages (your hole cards, your legal actions) and `user:notice`.

## Sequence numbers, snapshots and resuming

Every `table:event` and `table:turn` carries `table_id` and `seq`: per table, each message
gets the next number, and a client receives them in `seq` order. A `table:snapshot` is
the whole table as you may see it, current as of its `seq`: apply only messages with a
larger `seq` after it. A `seq` names one message for good, whichever server process runs
the table: after a restart, a deploy or a move to another process the numbering goes on
after the last `seq` any client was sent.

A message with a private part is sent under one `seq` in two forms: the full form to its
owner (your `hole_cards_dealt` with your cards, your `table:turn` with `legal_actions`),
the masked form to everyone else (`cards: null`, `legal_actions: null`). Nobody is ever
sent the deck, the burned cards, or another player's hole cards unless they are shown at
the showdown.

After a reconnect, send `table:join` with `since_seq` set to the last `seq` you processed.
When the server still has every message since then (the last 128 per table), it sends
exactly those, in your form, and the ack's `replayed` is their number; otherwise it sends
a fresh `table:snapshot` and `replayed` is `null`. Seats are kept while you are away, and
your clock keeps running.

## Playing a hand

1. Find a table (`lobby:list`) or open one (`table:create`), or let `table:quick-seat`
   choose. `table:join` to watch, `table:sit` with a seat number (0 to seats - 1) and a
   buy-in: the credits move from your balance to the table.
2. A hand starts a few seconds after two players are ready: `hand_started`, antes and
   blinds, then `hole_cards_dealt` for every seat (yours with cards).
3. Each decision is announced by `table:turn`: `hand_id`, `seat`, `deadline` (Unix time in
   seconds). The player to act also gets `legal_actions`: `fold`, `check`, `call` with
   `amount` (chips to add), `bet`/`raise` with `min`/`max` (street totals), `all_in` with
   `amount` (the street total after pushing); at the showdown a beaten hand may `show` or
   `muck`.
4. Act with `table:action`: the turn's `hand_id`, `type`, and for `bet` and `raise` the
   `amount` as the street total ("raise to"). Out-of-turn, stale (another hand), illegal
   and repeated actions are refused with a code and change nothing.
5. `pot_awarded` and `hand_ended` (final stacks) close the hand; the next one follows.

**Games.** A table deals one `game`, set by `table:create` and shown in every listing,
snapshot (`config.game`, `hand.game`) and `hand_started`: `nlhe` No-Limit Hold'em (the
default), `flhe` Fixed-Limit Hold'em, `plhe` Pot-Limit Hold'em, `plo` Pot-Limit Omaha and
`plo5` 5-Card Pot-Limit Omaha. Omaha deals four or five cards to each seat
(`hole_cards_dealt`, yours only), and a hand is exactly two of them with three of the
board. Clients need no rules of their own: `legal_actions` already holds each game's sizes.
In a pot-limit game a `bet`/`raise`'s `max` is the pot after the call, and `all_in` is
offered only when the stack is within it. In a fixed-limit game a `bet`/`raise` has
`min` equal to `max` (the big blind before the turn, two after; a bet and three raises a
street, no cap heads-up) and there is no `all_in` unless the stack is short of the size.
Fixed-limit tables take no straddle, and 5-Card Omaha seats at most eight.

Seats are numbered clockwise. The button moves one playing seat each hand; someone who sits
down or comes back from sitting out waits for the big blind (`waiting_for_big_blind`), so
nobody ever owes missed blinds.

**The clock.** Each decision has the table's `action_seconds` (20 s by default). When it
runs out, the player's time bank starts: a new `table:turn` with `time_bank: true` and a
later `deadline`; what the player uses of it is gone. Every `table:turn` carries `bank`,
the seconds in the seat's bank. The bank refills as the table's `config.time_bank` says:
each seat starts with `seconds` and gains `add_seconds` at the start of every
`every_hands`-th hand it is dealt into, up to `max_seconds` (by default 30 s, plus 5 s
every 10 hands, up to 60 s; `table:create` sets them per table). When the bank runs out
too, the server checks if it can, else folds (mucks at the showdown). Two time-outs in a
row sit the player out; a player sitting out for longer than the limit (10 minutes by
default) is cashed out and stood up. Players who left or sat out during a hand have their
turns checked or folded at once.

A player who disconnects on their turn (`player_connection` with `connected: false`) gets
a short grace to come back (10 s by default, never more than their clock had left): a new
`table:turn` with `grace: true` and that `deadline`. A disconnected player's time bank is
never spent (a bank running when they left stops, and what is left is kept): when the
grace ends the turn times out. Back in time, they get a `table:turn` with `grace: false`
and the same deadline, and their bank as usual after it. A turn that starts while the
player is disconnected has the grace as its clock.

**Pre-actions.** While others act, a player in the hand may choose what to do when their
turn comes with `table:preact`: `check_fold` (check, or fold to a bet), `check` (only with
nothing to call; a bet cancels it), `call` with the `amount` to call (any change of the
bet to call cancels it), `call_any` (call any bet, raises included; check when nothing is
to call) or `fold_any` (fold to any bet, check otherwise, for the rest of the hand).
Every pre-action but `fold_any` lasts for the street it was chosen on. A player holds at
most one; choosing another replaces it, `intent: null` clears it. When the turn comes the
server takes it at once, as if the player had sent that `table:action` (the `table:turn`
is still sent, followed by the action). A pre-action is private: only its owner is told,
by `table:preaction` on every device (`chosen`, `cleared`, `applied`, or `cancelled` when
it no longer fits the hand) and in their snapshot (`you.preaction`); after
`table:join` with `since_seq`, a `table:preaction` follows the replayed messages when one
is held. Nobody else receives anything when one is chosen, changed or cleared.

## Restarts

A table's state is stored after every change. A server process that is stopped for a
deploy (`SIGTERM`) first sends `server:restarting` to every connection it holds, deals no
new hand and keeps every connection open while the hands in play are finished (at most
`DRAIN_SECONDS`, 30 by default); then it closes them. When a server starts (or another
process takes a table over) it restores every open table: seated players keep their seats
and stacks, and **a hand in play goes on where it was stored**, whether it was interrupted
by a stop, a crash or a move: the player to act gets a fresh clock. Only a hand that cannot
go on is void: every chip bet in it goes back to whoever bet it (`hand_voided`), and play
resumes with a new hand. Players who were leaving between hands are cashed out then.
Messages sent before a restart cannot be replayed: reconnecting clients get a snapshot
(with the hand and the turn). A closed table pays everyone out; no credits stay behind.

## Bots

A table created with `bots: true` seats bots in up to `bot_count` empty seats (styles
`tight`, `loose`, `aggressive`; `player.bot` names the style). Bots decide from their own
view of the hand and from what anyone watching the table could count about each player
(how often they play, raise, move all-in, bet, fold to a bet, and the hands they showed),
act after a short delay, and give their seat to a person who sits
in it: at once between hands, else when the hand ends (the ack says `pending: true`).
Hands are dealt only when at least one person is in them; a person who sits where only
bots play is dealt in at once rather than waiting for the big blind. Bots play with the
credits of the server's house account, which only an admin funds: a bot buys in from it
like a person from their balance, and no bot sits when the house cannot cover its buy-in.
What one player may win from the bots in a day is capped: once their net winnings from
them since 00:00 UTC reach the cap, tables with bots refuse them a seat
(`house_cap_reached`, with `cap`, `won` and `resets_at`) until the next day, and at a
table where they sit the bots stand up after the hand and stay away while they stay (a
`user:notice` `house_cap_reached` says so). Their chips are never touched.
A table where no person sits, waits or has claimed a seat closes after a while.

## Limits and outages

A player may have a few tables open, sit at a bounded number of tables and hold a bounded
number of connections at once (`table_limit`, with the `limit`), on all server processes
together. A table you opened counts
until it closes: `lobby:mine` lists your tables, and `table:close` closes one you opened
while no person sits there (a table nobody uses also closes by itself after a while).
While the server cannot reach its database, requests are refused with
`service_unavailable` (and `retry_after` seconds), nothing changes, and the clocks stop;
when it answers again the table resumes by itself, and the player to act is sent a fresh
`table:turn`. A change that moves credits can be stored as the connection drops, its
refusal notwithstanding (a `table:sit` refused so may have seated you): the table then
goes on from what the database holds, and every session watching it gets a fresh
`table:snapshot`.

## Credits

`table:sit` and `table:top-up` move credits from your balance to the table in one database
transaction; leaving (or being stood up) moves your stack back. Your balance and its history
are at `GET /users/me` and `GET /users/me/ledger`; finished hands at `GET /hands?mine=true`,
`GET /hands/{id}`, `GET /hands/{id}.phh` (PHH, other players' unshown cards hidden), for
trackers `GET /hands/{id}.txt` (PokerStars text), `GET /hands/{id}.ohh` (Open Hand History)
and `GET /hands/export?since=&until=` (a date range, see `docs/HAND_HISTORIES.md`), and your
results at `GET /users/me/stats`. Your player stats (VPIP, PFR, 3-bet, c-bet, aggression,
showdowns) are at `GET /stats/me`, your results hand by hand at `GET /stats/me/results`,
your stats about the players at a table (the HUD) at `GET /stats/players?ids=...`, and your
private notes about players at `GET /notes` and `GET|PUT|DELETE /notes/{public_id}`.
"""

SUMMARY: dict[str, Any] = {
    "table_id": TABLE, "name": "Friday night", "small_blind": 5, "big_blind": 10, "ante": 0,
    "min_buy_in": 200, "max_buy_in": 1000, "seats": 6, "seated": 3, "bots": 1, "waiting": 0,
    "average_pot": 85, "hands_per_hour": 52, "private": False, "game": "nlhe", "rake": 0,
}
CONFIG: dict[str, Any] = {
    "name": "Friday night", "seats": 6, "small_blind": 5, "big_blind": 10, "ante": 0,
    "min_buy_in": 200, "max_buy_in": 1000, "action_seconds": 20.0, "private": False,
    "bots": True, "bot_count": 1, "straddle": 0, "bomb_pot_every": 0, "bomb_pot_ante": 0,
    "run_it_twice": True, "host": {"public_id": "5d1c0e9b2a4f4b7c9e3d8a6f1b2c3d4e",
                                   "name": "Ann", "bot": None},
    "game": "nlhe", "rake": None,
    "time_bank": {"seconds": 30.0, "add_seconds": 5.0, "every_hands": 10, "max_seconds": 60.0},
}
COMMITMENT = "11512302ec5131efcf34283d8dc36fb01c78327d37932f318561b8652299e063"
NEXT_COMMITMENT = "0e1d2c3b4a5f6e7d8c9b0a1f2e3d4c5b6a7f8e9d0c1b2a3f4e5d6c7b8a9f0e1d"
SERVER_SEED = "9d2f41c07be35a86e1f04c2d7b9a8e63f5c1d0b24a7e9f38c6d5b1a0e2f4c7d9"
LEGAL = [{"action": "fold"}, {"action": "call", "amount": 5},
         {"action": "raise", "min": 20, "max": 1000}, {"action": "all_in", "amount": 1000}]

REQUEST_EXAMPLES: dict[str, dict[str, Any]] = {
    "lobby:list": {"page": 1, "per_page": 50},
    "lobby:mine": {},
    "table:close": {"table_id": TABLE},
    "table:create": {"name": "Friday night", "seats": 6, "small_blind": 5, "big_blind": 10,
                     "min_buy_in": 200, "max_buy_in": 1000, "action_seconds": 20,
                     "private": False, "bots": True, "bot_count": 1, "run_it_twice": True,
                     "game": "nlhe", "time_bank_seconds": 30, "time_bank_add_seconds": 5,
                     "time_bank_every_hands": 10, "time_bank_max_seconds": 60},
    "table:quick-seat": {"small_blind": 5, "big_blind": 10, "buy_in": 500},
    "table:join": {"table_id": TABLE, "since_seq": 41},
    "table:unwatch": {"table_id": TABLE},
    "table:sit": {"table_id": TABLE, "seat": 2, "buy_in": 1000},
    "table:leave": {"table_id": TABLE},
    "table:sit-out": {"table_id": TABLE},
    "table:sit-in": {"table_id": TABLE},
    "table:top-up": {"table_id": TABLE, "amount": 300},
    "table:preferences": {"table_id": TABLE, "auto_top_up": True},
    "table:wait": {"table_id": TABLE},
    "table:unwait": {"table_id": TABLE},
    "table:chat": {"table_id": TABLE, "text": "good luck all"},
    "table:report": {"table_id": TABLE, "public_id": "3f2c9a1e8b7d4c6f0a5e2d1b9c8f7a6e",
                     "reason": "insults in chat after every hand"},
    "table:seed": {"table_id": TABLE, "seed": "k3J9x-Qp2_Lw7Rz0"},
    "table:action": {"table_id": TABLE, "hand_id": HAND, "type": "raise", "amount": 30},
    "table:run-it-twice": {"table_id": TABLE, "hand_id": HAND, "agree": True},
    "table:preact": {"table_id": TABLE, "hand_id": HAND, "intent": "call", "amount": 20},
    "table:host": {"table_id": TABLE, "reason": "the blinds go up at ten",
                   "control": {"action": "stakes", "small_blind": 10, "big_blind": 20,
                               "ante": 0}},
}

ACKS: dict[str, dict[str, Any]] = {
    "lobby:list": {"ok": True, "tables": [SUMMARY], "count": 1, "page": 1, "per_page": 50},
    "lobby:mine": {"ok": True, "tables": [
        {**SUMMARY, "opened": True, "seat": 2, "closable": False, "tournament": None},
        {**SUMMARY, "table_id": "7a0e4c1d9b2f", "name": "Late game", "seated": 1,
         "opened": True, "seat": None, "closable": True, "tournament": None}]},
    "table:close": {"ok": True, "table_id": TABLE, "paid_out": 0},
    "table:create": {"ok": True, "table": {**SUMMARY, "seated": 1}, "invite_code": None},
    "table:quick-seat": {"ok": True, "table_id": TABLE, "seat": 3, "buy_in": 500,
                         "balance": 9500, "pending": False},
    "table:join": {"ok": True, "table_id": TABLE, "seq": 44, "replayed": 3},
    "table:unwatch": {"ok": True, "table_id": TABLE},
    "table:sit": {"ok": True, "table_id": TABLE, "seat": 2, "buy_in": 1000, "balance": 9000,
                  "pending": False},
    "table:leave": {"ok": True, "table_id": TABLE, "cashed_out": None, "at_hand_end": True},
    "table:sit-out": {"ok": True, "table_id": TABLE, "status": "sitting_out"},
    "table:sit-in": {"ok": True, "table_id": TABLE, "status": "waiting_for_big_blind"},
    "table:top-up": {"ok": True, "table_id": TABLE, "stack": 1000, "balance": 8700},
    "table:preferences": {"ok": True, "table_id": TABLE, "auto_muck": True,
                          "auto_top_up": True, "sit_out_next_big_blind": False},
    "table:wait": {"ok": True, "table_id": TABLE, "position": 2},
    "table:unwait": {"ok": True, "table_id": TABLE},
    "table:chat": {"ok": True, "table_id": TABLE, "seq": 57},
    "table:report": {"ok": True, "table_id": TABLE, "report_id": 12},
    "table:seed": {"ok": True, "table_id": TABLE, "seat": 2,
                   "next_commitment": NEXT_COMMITMENT},
    "table:action": {"ok": False, "error": {
        "code": "bet_too_small", "message": "expected at least 40, got 30", "min": 40}},
    "table:run-it-twice": {"ok": True, "table_id": TABLE, "hand_id": HAND, "seq": 63},
    "table:preact": {"ok": True, "table_id": TABLE, "hand_id": HAND,
                     "preaction": {"intent": "call", "amount": 20}},
    "table:host": {"ok": True, "table_id": TABLE, "action": "stakes", "seq": 64},
}

ACK_FIELDS: dict[str, str] = {
    "lobby:list": "`tables`, one page of `TableSummary` (see `lobby:table`), fullest first; "
                  "`count`, the number of open tables; `page` and `per_page` as used. Ask "
                  "for the next page while `page * per_page < count`.",
    "lobby:mine": "`tables`, your tables as `MyTable` (see Objects), by name: those you "
                  "opened and those you sit at, on every server process. Ask again after "
                  "opening, closing, sitting or leaving; `lobby:table` and "
                  "`lobby:table-removed` keep their lines current meanwhile.",
    "table:create": "`table` (a `TableSummary`) and `invite_code` (private tables; share it "
                    "with your guests).",
    "table:close": "`table_id` and `paid_out`, the credits returned to people (0: nobody "
                   "sat there). Refused with `not_your_table` or `table_in_use`.",
    "table:quick-seat": "as `table:sit`; you also watch the table from now on. A table "
                        "opened for a quick seat is public and nobody's own: it never "
                        "counts among your open tables, and when you cannot sit (too few "
                        "credits for the buy-in, ...) it is closed again.",
    "table:join": "`table_id`; `seq`, the table's current sequence number; `replayed`, the "
                  "number of missed messages re-sent, or `null` when a `table:snapshot` "
                  "was sent instead. The snapshot or the replayed messages arrive before "
                  "the ack.",
    "table:unwatch": "`table_id`.",
    "table:sit": "`seat`, `buy_in`, your `balance` after the buy-in, and `pending`: true when "
                 "you took a bot's seat during a hand (you sit down when it ends).",
    "table:leave": "`cashed_out`, the credits returned now, or `null` with `at_hand_end: "
                   "true` when you are in a hand (a `user:notice` `cashed_out` follows).",
    "table:sit-out": "your `status`.",
    "table:sit-in": "your `status`.",
    "table:top-up": "your new `stack` and `balance`.",
    "table:preferences": "every preference of your seat, as it now stands.",
    "table:wait": "your `position` on the waiting list (1 is next).",
    "table:unwait": "`table_id`.",
    "table:chat": "the `seq` of your chat line's `table:event`.",
    "table:report": "`report_id`, the stored report. Refused with `not_at_table`, "
                    "`cannot_report_self` or `rate_limited`.",
    "table:seed": "your `seat` and `next_commitment`, the commitment of the next hand's "
                  "server seed. A seed you send after seeing that commitment protects you "
                  "from a server that would pick its seed to suit yours.",
    "table:action": "`hand_id` and the table's `seq` after your action; refused actions "
                    "carry details such as `min`, `max`, `to_call` or `actor`. Example of a "
                    "refusal:",
    "table:run-it-twice": "`hand_id` and the table's `seq` after your answer; refused "
                          "(`wrong_phase`, `not_asked`) when nobody is asking you.",
    "table:preact": "`hand_id` and `preaction`, the one you hold now (`{intent, amount}`, "
                    "or null once cleared); a `table:preaction` notice tells your other "
                    "devices. Refused with `preaction_stale` (and `to_call`, the bet to "
                    "call now) for a `check` facing a bet or a `call` of another amount, "
                    "`preaction_not_now` on your turn (act instead) or once you folded or "
                    "are all-in, `stale_action` for another hand.",
    "table:host": "the `action` applied and the `seq` of its `host_control` event; "
                  "`not_host` unless you host the table (or are an admin). The controls "
                  "(`control.action`): `pause` and `resume` (a pause asked during a hand "
                  "takes effect when it ends: no new hand is dealt), `approval` with "
                  "`required` (a private table only: every `table:sit` of another player "
                  "becomes a request, acked with `requested: true` and announced as "
                  "`seat_requested`), `approve` and `refuse` with the asker's `player` "
                  "public id (approved: they buy in and sit as with `table:sit`; refused: "
                  "a `user:notice` `seat_refused` tells them), `remove` with a `seat` (the "
                  "player stands up and is cashed out, at the end of the hand they are "
                  "in), `away` with a `seat` and `seconds` (the player sits out and keeps "
                  "the seat that long, then stands up unless back), `stakes` with "
                  "`small_blind`, `big_blind` and `ante` (from the next hand), `clock` "
                  "with `action_seconds` (from the next decision), and `hand_over` with "
                  "the `player` public id of someone seated here, who hosts from then on.",
}

TURN: dict[str, Any] = {
    "table_id": TABLE, "seq": 48, "hand_id": HAND, "seat": 2, "deadline": 1795323582.46,
    "time_bank": False, "bank": 30.0, "grace": False, "legal_actions": LEGAL, "to_call": 5,
}

SERVER_EXAMPLES: dict[str, dict[str, Any]] = {
    "table:snapshot": {
        "table_id": TABLE, "seq": 48, "config": CONFIG,
        "seats": [
            {"seat": 0, "player": BOT, "stack": 1000, "status": "playing",
             "connected": True, "leaving": False},
            {"seat": 2, "player": ALICE, "stack": 1000, "status": "playing",
             "connected": True, "leaving": False},
        ],
        "button": 0, "hand_id": HAND,
        "hand": {
            "viewer": 2, "phase": "preflop", "game": "nlhe", "button": 0, "small_blind_seat": 0,
            "big_blind_seat": 2, "stakes": {"small_blind": 5, "big_blind": 10, "ante": 0,
                                            "big_blind_ante": False},
            "board": [], "boards": [[]], "run_it_twice": [], "pots": [], "pot_total": 15,
            "level": 10, "min_raise": 10,
            "actor": 0,
            "seats": [
                {"seat": 2, "stack": 990, "bet": 10, "status": "active",
                 "cards": ["As", "Kd"], "shown": False, "last_action": None},
                {"seat": 0, "stack": 995, "bet": 5, "status": "active", "cards": None,
                 "shown": False, "last_action": None},
            ],
            "legal_actions": None,
        },
        "turn": {**TURN, "seat": 0, "legal_actions": None, "to_call": None},
        "chat": [{"player": ALICE, "text": "good luck all", "at": 1795323561.2}],
        "waiting": 0,
        "you": {"seat": 2, "time_bank": 30.0, "preaction": {"intent": "check_fold",
                                                             "amount": None},
                "bought_in": 1000,
                "preferences": {"auto_muck": True, "auto_top_up": False,
                                "sit_out_next_big_blind": False},
                "claimed_seat": None, "waiting_position": None},
        "fairness": {"commitment": COMMITMENT, "next_commitment": NEXT_COMMITMENT},
    },
    "table:event": {"table_id": TABLE, "seq": 47, "hand_id": HAND,
                    "event": {"type": "player_acted", "seat": 0, "action": "call",
                              "amount": 5, "total": 10, "all_in": False}},
    "table:turn": TURN,
    "table:preaction": {"table_id": TABLE, "hand_id": HAND, "seat": 2, "preaction": None,
                        "reason": "cancelled", "applied": None},
    "table:batch": {"table_id": TABLE, "messages": [
        {"event": "table:event",
         "data": {"table_id": TABLE, "seq": 47, "hand_id": HAND,
                  "event": {"type": "player_acted", "seat": 0, "action": "call",
                            "amount": 5, "total": 10, "all_in": False}}},
        {"event": "table:turn", "data": {**TURN, "seq": 48}},
    ]},
    "lobby:table": SUMMARY,
    "lobby:table-removed": {"table_id": TABLE},
    "user:notice": {"kind": "seat_offer", "table_id": TABLE, "seat": 4,
                    "expires_at": 1795323612.0, "min_buy_in": 200, "max_buy_in": 1000},
    "server:restarting": {"seconds": 30},
    "announcement": {"id": "5f0c2a9e1b7d4c3a", "level": "warning",
                     "text": "The server restarts at 03:00 UTC for about a minute.",
                     "at": 1795323612.0},
}

TABLE_EVENT_TYPES: dict[str, str] = {
    "hand_started": "A hand begins: its number, the button and blinds, the seats dealt in "
                    "with their stacks, `bomb_pot` (the ante everyone paid in a bomb pot, "
                    "which has no blinds and no betting before the flop; 0 otherwise), and "
                    "`run_it_twice` (whether the table offers running it twice), `game` "
                    "(the game it is dealt in, as the table's), `stakes` (the blinds, ante and "
                    "straddle this hand is dealt at: a tournament's level's, else the "
                    "table's), and "
                    "`commitment`, the SHA-256 of the secret server "
                    "seed its deck was shuffled with (docs/FAIRNESS.md). `hand_id` is on "
                    "the message.",
    "ante_posted": "A seat posted an ante (`dead` for a big-blind ante).",
    "blind_posted": "A seat posted the small or big blind (all-in for less when short) or, "
                    "at a table with straddles, the straddle (`blind: \"straddle\"`).",
    "hole_cards_dealt": "Two cards were dealt to a seat: `cards` is set only in the copy "
                        "sent to that seat's player, `null` for everyone else.",
    "player_acted": "A betting action: `amount` went in now, `total` is the seat's bet on "
                    "this street.",
    "board_dealt": "The flop, turn or river; `run` is 0, or 1 for the second board of a hand "
                   "run twice (dealt after the first board's river, from the same deck).",
    "run_it_twice_offered": "The betting ended before the river with every hand left face "
                            "up: `seats` are asked whether to run the rest of the board twice "
                            "(answer with `table:run-it-twice` before `deadline`, Unix "
                            "seconds). Only when all agree is the board run twice; each pot "
                            "is then split in half (an odd chip to the first board), each "
                            "half settled on its own board. Bots, absent players and "
                            "time-outs decline.",
    "run_it_twice_chosen": "A seat answered: `agree` true, or false (the board is then run "
                           "once, at once).",
    "uncalled_bet_returned": "The part of a bet nobody called went back.",
    "hand_shown": "A seat's cards were turned up at the showdown.",
    "hand_mucked": "A seat gave up its hand at the showdown without showing.",
    "all_in_equity": "Every hand left is face up before the river (an all-in): each seat's "
                     "exact chance to win alone (`win`), to tie (`tie`) and its share of the "
                     "pot (`equity`, ties split) with `board` dealt, counting every card not "
                     "face up as unknown. Sent once the hands are turned up, then after the "
                     "flop and the turn; in a hand run twice also for the streets of the "
                     "second board (`run` 1).",
    "pot_awarded": "Pot `pot` (0 is the main pot) went to `seats` in `amounts`; in a hand "
                   "run twice each pot is awarded twice, `amount` being the half settled on "
                   "board `run` (0 or 1). `rake` is what the house took from the pot before "
                   "it was awarded (at a table with a rake; on board 0's award only).",
    "hand_ended": "The hand is over: final stacks of the seats dealt in and the `rake` the "
                  "house took from the pots (0 without one); `fairness` reveals "
                  "the server seed and the client seeds the deck was shuffled with (check "
                  "them: docs/FAIRNESS.md) to the players dealt in only (everyone else, "
                  "spectators included, gets `null`: the seed would give them every hole "
                  "card), and `next_commitment` commits to the next hand's server seed.",
    "hand_voided": "The hand was cancelled (a restart, the table closing): everyone has the "
                   "stack they started it with.",
    "player_sat": "Someone sat down (a person or a bot).",
    "player_left": "Someone stood up.",
    "player_leaving": "A player asked to leave during a hand: their turns are checked or "
                      "folded and they stand up when it ends.",
    "player_sat_out": "A player sat out (asked to, or after two time-outs).",
    "player_sat_in": "A player is back; dealt in from their next big blind.",
    "player_timed_out": "A player's clock ran out; the server acted for them.",
    "player_connection": "A seated player's last connection closed (the seat is kept).",
    "stack_changed": "A stack changed between hands (a top-up, a bot's rebuy).",
    "chat": "A chat line.",
    "chat_withheld": "In place of a chat line, to a player who ignores its speaker: the "
                     "same `seq`, with neither speaker nor text.",
    "waiting_list": "The waiting list's length changed.",
    "table_closed": "The table closed; everyone was cashed out.",
    "host_control": "The host applied a control (`table:host`): its `action`, the "
                    "`reason`, who applied it (`by`), when (`at`), the `hand_number` of "
                    "the last hand dealt, and the control's details.",
    "seat_requested": "At a table where the host approves seats: someone asks for a seat.",
    "seat_request_closed": "A seat request was refused (or approval was turned off).",
    "away_ended": "The time the host kept an away player's seat ran out: they stand up.",
}

EVENT_EXAMPLES: dict[str, dict[str, Any]] = {
    "hand_started": {"type": "hand_started", "number": 12, "button": 0,
                     "small_blind_seat": 2, "big_blind_seat": 4,
                     "seats": [{"seat": 2, "stack": 1000}, {"seat": 4, "stack": 640},
                               {"seat": 0, "stack": 1210}],
                     "commitment": COMMITMENT, "bomb_pot": 0, "run_it_twice": False,
                     "game": "nlhe",
                     "stakes": {"small_blind": 5, "big_blind": 10, "ante": 0,
                                "big_blind_ante": False, "straddle": 0}},
    "ante_posted": {"type": "ante_posted", "seat": 2, "amount": 1, "all_in": False,
                    "dead": False},
    "blind_posted": {"type": "blind_posted", "seat": 2, "blind": "small", "amount": 5,
                     "all_in": False},
    "hole_cards_dealt": {"type": "hole_cards_dealt", "seat": 4, "cards": None},
    "player_acted": {"type": "player_acted", "seat": 0, "action": "raise", "amount": 30,
                     "total": 30, "all_in": False},
    "board_dealt": {"type": "board_dealt", "street": "flop", "cards": ["2c", "7d", "Th"],
                    "run": 0},
    "run_it_twice_offered": {"type": "run_it_twice_offered", "seats": [2, 0],
                             "deadline": 1795323590.0},
    "run_it_twice_chosen": {"type": "run_it_twice_chosen", "seat": 2, "agree": True},
    "uncalled_bet_returned": {"type": "uncalled_bet_returned", "seat": 0, "amount": 20},
    "hand_shown": {"type": "hand_shown", "seat": 4, "cards": ["Ks", "Kh"]},
    "hand_mucked": {"type": "hand_mucked", "seat": 2},
    "all_in_equity": {"type": "all_in_equity", "street": "flop", "run": 0,
                      "board": ["7d", "9h", "3s"],
                      "seats": [{"seat": 2, "win": 0.9162, "tie": 0.0, "equity": 0.9162},
                                {"seat": 0, "win": 0.0838, "tie": 0.0, "equity": 0.0838}]},
    "pot_awarded": {"type": "pot_awarded", "pot": 0, "amount": 120, "seats": [4],
                    "amounts": [120], "hand": None, "run": 0, "rake": 0},
    "hand_ended": {"type": "hand_ended", "seats": [2, 4, 0], "stacks": [970, 700, 1180],
                   "rake": 0,
                   "fairness": {"scheme": "holdem-fair-v1", "commitment": COMMITMENT,
                                "server_seed": SERVER_SEED,
                                "client_seeds": [{"seat": 2, "seed": "k3J9x-Qp2_Lw7Rz0"}]},
                   "next_commitment": NEXT_COMMITMENT},
    "hand_voided": {"type": "hand_voided", "reason": "the server restarted"},
    "player_sat": {"type": "player_sat", "seat": 2, "player": ALICE, "stack": 1000,
                   "status": "waiting_for_big_blind"},
    "player_left": {"type": "player_left", "seat": 4, "player": BOB, "stack": 700},
    "player_leaving": {"type": "player_leaving", "seat": 4},
    "player_sat_out": {"type": "player_sat_out", "seat": 4},
    "player_sat_in": {"type": "player_sat_in", "seat": 4},
    "player_timed_out": {"type": "player_timed_out", "seat": 4},
    "player_connection": {"type": "player_connection", "seat": 4, "connected": False},
    "stack_changed": {"type": "stack_changed", "seat": 2, "stack": 1000, "added": 300},
    "chat": {"type": "chat", "player": ALICE, "text": "nice hand", "at": 1795323601.5},
    "chat_withheld": {"type": "chat_withheld"},
    "waiting_list": {"type": "waiting_list", "count": 2},
    "table_closed": {"type": "table_closed", "reason": "closed by an admin"},
    "host_control": {"type": "host_control", "action": "stakes",
                     "reason": "the blinds go up at ten", "by": ALICE, "at": 1795323601.5,
                     "hand_number": 41,
                     "stakes": {"small_blind": 10, "big_blind": 20, "ante": 0}},
    "seat_requested": {"type": "seat_requested", "player": BOB, "seat": 3, "buy_in": 500,
                       "at": 1795323601.5},
    "seat_request_closed": {"type": "seat_request_closed", "player": BOB},
    "away_ended": {"type": "away_ended", "seat": 4},
}

HAND_VIEW = """
### The `hand` object

`table:snapshot.hand` is the hand in play as you may see it (`null` between hands):

| field | meaning |
|---|---|
| `viewer` | your seat number, or `null` for a spectator |
| `phase` | `preflop`, `flop`, `turn`, `river`, `run_it_twice`, `showdown` or `complete` |
| `button`, `small_blind_seat`, `big_blind_seat` | seat numbers |
| `stakes` | `small_blind`, `big_blind`, `ante`, `big_blind_ante`, `straddle` (0: none) |
| `board` | the community cards so far, e.g. `["2c", "7d", "Th"]` |
| `boards` | `[board]`, or both boards of a hand run twice (each with the shared cards) |
| `run_it_twice` | seats still to answer the run-it-twice question (else `[]`) |
| `run_it_twice_deadline` | while the question is asked: when it times out |
| `pots` | pots formed by earlier streets: `amount` and eligible `seats` |
| `pot_total` | every chip put in this hand, bets on this street included |
| `level` | the bet to match on this street; `min_raise`: the last full raise |
| `actor` | the seat to act, or `null` |
| `seats` | the seats dealt in, from the left of the button (below) |
| `legal_actions`, `to_call` | only when you are the actor |

Each of `seats`: `seat`, `stack` (chips behind), `bet` (on this street), `status`
(`active`, `all_in`, `folded`, `mucked`), `cards` (yours, or cards shown at the showdown;
otherwise `null`), `shown`, `last_action` (the seat's last action of this street,
`{"action": "raise", "total": 60}` with its street bet after it, or `null`: clients show it
at the seat until the street ends, as `player_acted` events update it); once the hand is
complete also `won` and `net`.

Cards are two characters: rank `23456789TJQKA` and suit `cdhs` (`"Td"` is the ten of
diamonds).
"""
