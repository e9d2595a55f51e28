"""Worst CPU time of one alquerque rules call in immediate removal (the
default) on random capture mazes (issue #37): black pawns and mulás among
white pieces, both boards. Per maze: ``legal_moves()`` and
``legal_action_mask()``, then three random walks through the capture
sequence timing the mask and ``apply_action`` of every decision.

``python benches/immediate_captures.py [MAZES_PER_CONFIG]`` (default 100).
Times are CPU time (``time.process_time``), so other load on the machine
changes them little. Prints per configuration (board, black pieces, share of
mulás, share of white-filled points) the worst time of each call and the
maze it came from.
"""
import random
import sys
import time

import numpy as np
from ludoteca import Game

def maze(board, rng, movers, kings, density):
    # board: 'zamma' (9 per rank) or 'kharbaga' (5/4 alternating)
    while True:
        ranks = []
        for r in range(9, 0, -1):
            n = 9 if board == 'zamma' else (5 if r % 2 == 1 else 4)
            ranks.append([None] * n)
        pts = [(i, j) for i in range(9) for j in range(len(ranks[i]))]
        free = [p for p in pts if p[0] != 0]  # black pawns not on rank 9
        for (i, j) in rng.sample(free, movers):
            ranks[i][j] = 'B' if rng.random() < kings else 'b'
        for (i, j) in pts:
            if ranks[i][j] is None and i != 8 and rng.random() < density:
                ranks[i][j] = 'W' if rng.random() < kings else 'w'
        out = []
        for row in ranks:
            s, run = '', 0
            for c in row:
                if c is None:
                    run += 1
                else:
                    if run: s += str(run); run = 0
                    s += c
            if run: s += str(run)
            out.append(s)
        yield '/'.join(out) + ' b'

def cpu(f):
    t = time.process_time(); r = f(); return r, time.process_time() - t

def measure(game, text, rng, walks=3):
    st = game.state_from_string(text)
    worst = {}
    def note(k, dt):
        worst[k] = max(worst.get(k, 0), dt)
    moves, dt = cpu(st.legal_moves); note('legal_moves', dt)
    _, dt = cpu(st.legal_action_mask); note('mask', dt)
    for _ in range(walks):
        s = st.clone() if hasattr(st, 'clone') else game.state_from_string(text)
        for _ in range(60):
            if s.is_terminal() if hasattr(s, 'is_terminal') else False: break
            m, dt = cpu(s.legal_action_mask); note('mask', dt)
            acts = np.flatnonzero(m)
            if len(acts) == 0: break
            a = int(rng.choice(list(acts)))
            side = s.current_player
            _, dt = cpu(lambda: s.apply_action(a)); note('apply', dt)
            if s.current_player != side: break
    return worst, len(moves)

rng = random.Random(37)
configs = [('kharbaga', 1, 1.0, 0.45), ('kharbaga', 3, 0.5, 0.45), ('kharbaga', 4, 0.0, 0.5),
           ('zamma', 1, 1.0, 0.3), ('zamma', 2, 1.0, 0.4), ('zamma', 3, 0.5, 0.35), ('zamma', 5, 0.0, 0.45)]
n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
for board, movers, kings, density in configs:
    g = Game(board)
    gen = maze(board, rng, movers, kings, density)
    tot = {}; worstpos = {}
    count = 0
    while count < n:
        text = next(gen)
        try:
            g.state_from_string(text)
        except Exception:
            continue
        count += 1
        w, nm = measure(g, text, rng)
        for k, v in w.items():
            if v > tot.get(k, 0):
                tot[k] = v; worstpos[k] = text
    print(board, movers, kings, density, {k: f"{v*1e3:.1f} ms" for k, v in tot.items()}, flush=True)
    for k in tot:
        print('   worst', k, worstpos[k], flush=True)
