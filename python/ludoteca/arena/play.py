"""One game between two agents, openings, and the text record of a game."""

from __future__ import annotations

import os
import random
import time
from typing import Any, Mapping, Optional, Sequence, Union

from .._core import Game, State
from .._chance import sample_chance
from ..agents import Agent, Choice, make_agent
from ..errors import (
    EngineCrashError,
    EngineError,
    EngineRulesError,
    EngineStartError,
    EngineTimeoutError,
    IllegalActionError,
    LudotecaError,
    LudotecaValueError,
    MoveError,
    OptionError,
)

__all__ = ["arena_game", "make_openings", "read_openings", "play_game", "unplayed_game", "format_record", "AgentSpec", "NOT_STARTED"]

AgentSpec = Union[str, Agent, Any]
GameLike = Union[str, Game]

#: The ``reason`` of a game voided because an agent's engine could not start.
NOT_STARTED = "engine did not start"


def arena_game(game: GameLike, options: Optional[Mapping[str, Any]] = None) -> Game:
    """The ``Game`` the arena plays: the given options, and chance resolved by the arena.

    Games with a ``chance`` option (backgammon) are played with ``chance="explicit"``
    so that the arena rolls the dice from its own seeded generator: the two games
    of one opening (colours swapped) then get the same dice, which removes much
    of the luck from a pairing's score (as duplicate backgammon does).
    """
    if isinstance(game, Game):
        opts = dict(game.options)
        opts.update(options or {})
        game_id = game.id
    else:
        game_id, opts = game, dict(options or {})
    probe = Game(game_id)
    if "chance" in probe.options:
        opts.setdefault("chance", "explicit")
    return Game(game_id, **opts)


def make_openings(game: Game, count: int, plies: int, seed: int = 0) -> list[str]:
    """``count`` opening positions: the initial position of seed ``seed + i`` after ``plies``
    uniformly random complete turns (chance sampled). Openings that end the game are drawn again."""
    if count < 0 or plies < 0:
        raise OptionError(f"openings: expected count >= 0 and plies >= 0, got {count} and {plies}")
    out: list[str] = []
    attempt = 0
    while len(out) < count:
        rng = random.Random(f"opening:{seed}:{len(out)}:{attempt}")
        state = game.new_state(seed=(seed * 1_000_003 + len(out) * 7919 + attempt) % 2**63)
        turns = 0
        while turns < plies and not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            state.play(rng.choice(state.legal_moves()))
            turns += 1
        if state.is_terminal():
            attempt += 1
            if attempt > 1000:
                raise OptionError(f"openings: every {plies}-turn random opening of {game.id} ends the game")
            continue
        out.append(state.to_string())
        attempt = 0
    return out


def read_openings(game: Game, path: Union[str, os.PathLike[str]]) -> list[str]:
    """Position strings from a file, one per line (blank lines and ``#`` comments skipped),
    each checked by ``game.state_from_string``."""
    out = []
    try:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, start=1):
                text = line.strip()
                if not text or text.startswith("#"):
                    continue
                try:
                    game.state_from_string(text)
                except LudotecaValueError as e:
                    raise OptionError(f"{path}:{number}: not a {game.id} position: {e}") from None
                out.append(text)
    except (OSError, UnicodeDecodeError) as e:
        raise OptionError(f"openings: cannot read the file {os.fspath(path)!r} ({getattr(e, 'strerror', None) or e})") from None
    if not out:
        raise OptionError(f"{path}: no positions (expected one {game.id} position string per line)")
    return out


def _turn_move(turn_start: State, state: State, decisions: Sequence[str]) -> str:
    """The complete move that took ``turn_start`` to ``state`` (decisions joined if none matches)."""
    target = state.to_string()
    for move in turn_start.legal_moves():
        child = turn_start.clone()
        child.play(move)
        if child.to_string() == target:
            return move
    return " ".join(decisions)


def _agent_name(agent: Any, fallback: str) -> str:
    if isinstance(agent, str):
        return agent
    return str(getattr(agent, "name", None) or getattr(agent, "__name__", None) or fallback)


def _checks(agent: Any) -> dict[str, int]:
    checks = getattr(agent, "checks", None)
    return dict(checks) if isinstance(checks, Mapping) else {}


def play_game(
    game: GameLike,
    players: Sequence[AgentSpec],
    start: Optional[str] = None,
    seed: int = 0,
    names: Optional[Sequence[str]] = None,
    time_limit: Optional[float] = None,
    options: Optional[Mapping[str, Any]] = None,
) -> dict[str, Any]:
    """Plays one game, ``players[0]`` as player 0; returns its record as plain data.

    ``players``: agents, spec strings or callables. ``start``: a position string
    (default: the initial position of ``seed``). Chance events are drawn from a
    generator seeded by ``seed``. ``time_limit``: seconds per move; an agent
    that takes longer forfeits (engines also enforce their own limit and are
    killed when they exceed it).

    The game stops early when an agent forfeits (an illegal move, time, an
    engine crash or timeout: the offender loses one point) or is void
    (``termination == "void"``: no result, ``error`` says what happened, with
    the position and ludoteca's legal moves): when an engine disagrees with
    ludoteca's rules (``reason`` ``"rules disagreement"``), or when an agent's
    engine could not start before its first move of the game
    (``EngineStartError``, ``reason`` :data:`NOT_STARTED`: a missing package is
    no result of play). An engine that fails to restart after it has moved in
    the game forfeits (``"engine crash"``).

    Record keys: ``game``, ``options``, ``players``, ``start``, ``moves`` (one
    entry per turn or chance event, in the game's notation), ``returns``,
    ``result`` (``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, ``"*"`` when void),
    ``termination`` (``"rules"``, ``"max_turns"``, ``"forfeit"``, ``"void"``),
    ``reason``, ``error``, ``turns``, ``final``, ``seconds`` (thinking time per
    player), ``decisions`` and ``checks`` (engine moves checked per player).
    """
    g = arena_game(game, options)
    if len(players) != 2:
        raise OptionError(f"play_game needs two players, got {len(players)}")
    agents = [make_agent(p, game_id=g.id, seed=seed + i) for i, p in enumerate(players)]
    player_names = list(names) if names else [_agent_name(p, f"player{i}") for i, p in enumerate(players)]
    state = g.state_from_string(start) if start is not None else g.new_state(seed=seed)
    rng = random.Random(f"chance:{seed}")
    record: dict[str, Any] = {
        "game": g.id,
        "options": dict(g.options),
        "players": player_names,
        "start": state.to_string(),
        "moves": [],
        "returns": [0.0, 0.0],
        "result": "*",
        "termination": "rules",
        "reason": None,
        "error": None,
        "turns": 0,
        "final": "",
        "seconds": [0.0, 0.0],
        "decisions": [0, 0],
        "checks": [{}, {}],
    }
    checks_before = [_checks(a) for a in agents]
    moves: list[str] = record["moves"]
    forfeiter: Optional[int] = None
    turn_start: Optional[State] = None
    decisions: list[str] = []
    while not state.is_terminal():
        if state.is_chance_node():
            a = sample_chance(state, rng)
            moves.append(state.action_to_string(a))
            state.apply_action(a)
            continue
        if g.max_turns > 0 and state.turns_played >= g.max_turns:
            record["termination"] = "max_turns"
            break
        mover = state.current_player
        agent = agents[mover]
        before = state.to_string()
        t0 = time.perf_counter()
        try:
            choice: Choice = agent.act(state.clone())
        except EngineRulesError as e:
            record.update(termination="void", reason="rules disagreement", error=_error(e, mover, before, state))
            break
        except EngineStartError as e:
            if record["decisions"][mover] == 0:
                record.update(termination="void", reason=NOT_STARTED, error=_error(e, mover, before, state))
            else:
                forfeiter = mover
                record.update(reason="engine crash", error=_error(e, mover, before, state))
            break
        except EngineError as e:  # crash, timeout or other failure of the engine: a forfeit
            forfeiter = mover
            kind = "engine timeout" if isinstance(e, EngineTimeoutError) else "engine crash" if isinstance(e, EngineCrashError) else "engine error"
            record.update(reason=kind, error=_error(e, mover, before, state))
            break
        finally:
            record["seconds"][mover] += time.perf_counter() - t0
        record["decisions"][mover] += 1
        if time_limit is not None and time.perf_counter() - t0 > time_limit:
            forfeiter = mover
            record.update(reason="time", error={"player": mover, "position": before, "message": f"took more than {time_limit} s"})
            break
        if turn_start is None:
            turn_start = state.clone()
            decisions = []
        try:
            if isinstance(choice, str):
                state.play(choice)
                decisions.append(choice)
            else:
                decisions.append(state.action_to_string(int(choice)))
                state.apply_action(int(choice))
        except (MoveError, IllegalActionError) as e:
            forfeiter = mover
            record.update(reason="illegal move", error=_error(e, mover, before, state, move=str(choice)))
            break
        if state.current_player != mover:
            if isinstance(choice, str) and len(decisions) == 1:
                moves.append(choice)
            else:
                moves.append(_turn_move(turn_start, state, decisions))
            turn_start = None
    if forfeiter is not None:
        record["termination"] = "forfeit"
        ret = [1.0, 1.0]
        ret[forfeiter] = -1.0
        record["returns"] = ret
    elif record["termination"] == "rules":
        record["returns"] = [float(x) for x in state.returns()]
    r0, r1 = record["returns"]
    if record["termination"] != "void":
        record["result"] = "1-0" if r0 > r1 else "0-1" if r1 > r0 else "1/2-1/2"
    record["turns"] = state.turns_played
    record["final"] = state.to_string()
    for i, agent_ in enumerate(agents):
        after = _checks(agent_)
        record["checks"][i] = {k: after[k] - checks_before[i].get(k, 0) for k in after}
        # Agents built here from spec strings end here too (engine processes included).
        close = getattr(agent_, "close", None)
        if isinstance(players[i], str) and callable(close):
            close()
    return record


def unplayed_game(
    game: GameLike,
    names: Sequence[str],
    start: str,
    player: int,
    error: Mapping[str, Any],
    options: Optional[Mapping[str, Any]] = None,
) -> dict[str, Any]:
    """The void record of a game not played because ``names[player]``'s engine could not
    start in an earlier game (``error`` is that game's ``error``); same keys as ``play_game``'s."""
    g = arena_game(game, options)
    return {
        "game": g.id,
        "options": dict(g.options),
        "players": list(names),
        "start": start,
        "moves": [],
        "returns": [0.0, 0.0],
        "result": "*",
        "termination": "void",
        "reason": NOT_STARTED,
        "error": {**{k: v for k, v in error.items() if k not in ("legal", "move")}, "player": player, "position": start},
        "turns": 0,
        "final": start,
        "seconds": [0.0, 0.0],
        "decisions": [0, 0],
        "checks": [{}, {}],
    }


def _error(e: Exception, player: int, position: str, state: State, move: Optional[str] = None) -> dict[str, Any]:
    out: dict[str, Any] = {"player": player, "type": type(e).__name__, "message": str(e), "position": position}
    if isinstance(e, EngineRulesError):
        out.update(move=e.move, legal=e.legal, engine=e.engine)
    else:
        if move is not None:
            out["move"] = move
        try:
            out["legal"] = state.legal_moves()
        except LudotecaValueError:
            pass
    return out


def format_record(record: Mapping[str, Any]) -> str:
    """A game record as text: the one place the arena's game file format is decided.

    A game that ended by the rules is written as ``ludoteca.records`` writes
    every game (PDN for the draughts family, the same tag-pair form for the
    others; ``records.replay`` reads it back), with the players and the
    arena's termination as tags. A game stopped early (a forfeit, a rules
    disagreement, truncation) keeps the arena's plain form: PDN-style tags,
    the position string, then one move or chance event per line and the
    reason, since it has no result the rules decided.
    """
    if record["termination"] == "rules" and not record.get("error"):
        try:
            return _records_text(record)
        except LudotecaError:
            pass  # a record the records writer cannot take: the plain form below
    tags = [
        ("Game", record["game"]),
        ("Player0", record["players"][0]),
        ("Player1", record["players"][1]),
        ("Result", record["result"]),
        ("Returns", " ".join(f"{x:g}" for x in record["returns"])),
        ("Termination", record["termination"] + (f" ({record['reason']})" if record.get("reason") else "")),
        ("FEN", record["start"]),
    ]
    if record.get("round") is not None:
        tags.insert(1, ("Round", str(record["round"])))
    lines = [f'[{k} "{v}"]' for k, v in tags]
    lines.append("")
    lines.extend(record["moves"])
    if record.get("error"):
        lines.append(f"; {record['error'].get('message', '')}")
    lines.append(record["result"])
    return "\n".join(lines) + "\n"


def _records_text(record: Mapping[str, Any]) -> str:
    """``record`` through ``ludoteca.records.write_game`` (chance events back to actions)."""
    from ..records import format_record as records_format
    from ..records import write_game

    start = Game(record["game"], **record.get("options", {})).state_from_string(record["start"])
    state = start.clone()
    moves: list[Union[str, int]] = []
    for move in record["moves"]:
        if state.is_chance_node():
            a = int(state.string_to_action(move))
            state.apply_action(a)
            moves.append(a)
        else:
            state.play(move)
            moves.append(move)
    tags = {"Event": "ludoteca arena", "Player0": str(record["players"][0]), "Player1": str(record["players"][1])}
    if record.get("round") is not None:
        tags["Round"] = str(record["round"])
    return records_format(write_game(None, start, moves, tags))
