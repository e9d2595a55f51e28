#!/usr/bin/env python3
"""A tiny Hub-protocol draughts engine for the tests: it plays ludoteca's first legal move.

The Hub protocol (Scan's) over stdin/stdout: ``hub`` -> ``id``/``wait``;
``init`` -> ``ready``; ``pos pos=<W|B + 50 squares>``; ``level ...``;
``go think`` -> ``done move=32-28`` (captures as ``from x to``); ``ping`` ->
``pong``; ``quit``. ``TINY_HUB_MODE`` makes it misbehave on ``go``:
``crash`` (exits), ``hang`` (never answers), ``illegal`` (answers 1-2).
"""
import os
import sys
import time

import ludoteca

MODE = os.environ.get("TINY_HUB_MODE", "first")


def to_ludoteca(pos: str) -> str:
    pieces = {"W": [], "B": []}
    for sq, c in enumerate(pos[1:], start=1):
        if c in "wW":
            pieces["W"].append(("K%d" if c == "W" else "%d") % sq)
        elif c in "bB":
            pieces["B"].append(("K%d" if c == "B" else "%d") % sq)
    return "%s:B%s:W%s" % (pos[0], ",".join(pieces["B"]), ",".join(pieces["W"]))


def hub_move(move: str) -> str:
    if "x" in move:
        squares = move.split("x")
        return "%sx%s" % (squares[0], squares[-1])
    return move


def main() -> None:
    game = ludoteca.Game("international")
    position = None
    for line in sys.stdin:
        if not line.split():
            continue
        cmd, *args = line.split()
        if cmd == "hub":
            print('id name=tiny version=1 author="ludoteca tests"')
            print("wait")
        elif cmd == "init":
            print("ready")
        elif cmd == "ping":
            print("pong")
        elif cmd == "pos":
            position = dict(a.split("=", 1) for a in args)["pos"]
        elif cmd == "go":
            if MODE == "crash":
                sys.exit(3)
            if MODE == "hang":
                time.sleep(3600)
            if MODE == "illegal":
                print("done move=1-2")
            else:
                state = game.state_from_string(to_ludoteca(position))
                print("done move=%s" % hub_move(state.legal_moves()[0]))
        elif cmd == "quit":
            break
        sys.stdout.flush()


if __name__ == "__main__":
    main()
