"""A naive, independent reference for the three soplo (huffing) draughts presets:
`tablero` (seed 000, Nicaragua), `damas` (seed 003, Argentina) and `damas_10x10`
(seed 004, second half), written from the seed texts as the project's spec
(../shared/spec/draughts.md, docs/games/draughts.md) interprets them.

Test support only. Written for clarity, not speed: dictionaries for boards,
plain recursion for capture sequences, a fresh copy of everything per move. It
never calls ludoteca: it has its own parser and writer of position strings
(turn-boundary strings only: side, piece lists and the fields `h=`, `f=`,
`a=`, `k=`, `m=1`), its own move generator and its own end-of-game rules, so
that the comparison in test_huff_draughts_reference.py is between two
implementations that share only the string format.

Like ludoteca's perft, `perft` counts the leaves of the tree of complete turns
whose children are the *distinct* successor positions (distinct strings,
fields included) and where a terminal position is one leaf at any depth.

A complete turn, per preset (spec "Soplo"):
  * tablero: a plain move, a capture (any prefix of a capture sequence: the
    player may stop early), or - when the opponent offended - a huff alone;
  * damas, damas_10x10: a move or capture; or a huff followed by a move or
    capture (the huff alone when nothing can follow it or the game ends by
    it); or a force (`f`), after which the offender must make a correct
    capture (`m=1`).

Agreement with ludoteca (run offline, `python naive_huff_draughts.py GAME 6`,
on the shared 2-core machine while other sessions ran): from the start
positions the reference reproduces the tables tests/data/perft/{tablero,damas,
damas_10x10}.txt at every depth 1-6: tablero 7, 49, 379, 2949, 25587, 220554
(depth 6 in 8 s); damas 7, 49, 379, 3560, 41937, 500957 (38 s); damas_10x10 9,
81, 810, 8100, 89994, 1012553 (45 s). An offline sweep of 1,500 positions per
preset from random ludoteca games of up to 300 plies (`python
test_huff_draughts_reference.py 1500 300 5`), comparing successor strings at
each position and each child, found no disagreement.

What the two implementations share, so what this cannot catch: the spec's
reading of the seeds (for example that tablero rule 12, "si el jugador no come
todas las fichas posibles", means stopping a sequence the piece could still
extend, not choosing a shorter sequence than the longest) and the string format.
"""

PRESETS = {
    # size, men per side, flying king lands only right behind the piece?, king priority?, huff-then-move?
    "tablero": dict(size=8, men=12, land_right_behind=True, king_priority=False, huff_then_move=False),
    "damas": dict(size=8, men=12, land_right_behind=False, king_priority=True, huff_then_move=True),
    "damas_10x10": dict(size=10, men=15, land_right_behind=False, king_priority=True, huff_then_move=True),
}

# Black (player 0) sits at the bottom and moves up (towards row 0, lower numbers).
FORWARD = {"B": -1, "W": +1}
OTHER = {"B": "W", "W": "B"}
DIAGONALS = [(-1, -1), (-1, +1), (+1, -1), (+1, +1)]


class Geometry:
    """Square numbers <-> (row, column) for the dark squares: square 1 is on the
    top row, second column (b8 / b10), numbered left to right, row by row."""

    def __init__(self, size):
        self.size = size
        self.half = size // 2
        self.count = size * self.half
        self.rc = {}
        self.sq = {}
        for s in range(1, self.count + 1):
            row, idx = divmod(s - 1, self.half)
            col = 2 * idx + (1 if row % 2 == 0 else 0)
            self.rc[s] = (row, col)
            self.sq[(row, col)] = s

    def ray(self, s, d):
        """The squares from s (excluded) along diagonal d to the edge."""
        row, col = self.rc[s]
        out = []
        while True:
            row, col = row + d[0], col + d[1]
            if (row, col) not in self.sq:
                return out
            out.append(self.sq[(row, col)])

    def far_row(self, colour, s):
        row = self.rc[s][0]
        return row == 0 if colour == "B" else row == self.size - 1


class State:
    """A turn-boundary position: side to move, board {square: (colour, king)},
    huff set h (squares of the side not to move), force placement f (a board or
    None), anti-shuffle lists a = {"B": [...], "W": [...]} of "x-y" moves,
    counter k (int or None) and the must-capture flag m."""

    def __init__(self, game, side, board, h=(), f=None, a=None, k=None, m=False):
        self.game = game
        self.side = side
        self.board = dict(board)
        self.h = frozenset(h)
        self.f = f
        self.a = a if a is not None else {"B": [], "W": []}
        self.k = k
        self.m = m

    def to_string(self):
        text = self.side + ":" + placement_string(self.board)
        if self.h:
            text += ";h=" + ",".join(str(s) for s in sorted(self.h))
        if self.f is not None:
            text += ";f=" + placement_string(self.f)
        if self.a["B"] or self.a["W"]:
            text += ";a=" + ",".join(self.a["B"]) + "/" + ",".join(self.a["W"])
        if self.k is not None:
            text += ";k=%d" % self.k
        if self.m:
            text += ";m=1"
        return text


def placement_string(board):
    parts = []
    for colour in "BW":
        squares = sorted(s for s, (c, _) in board.items() if c == colour)
        parts.append(colour + ",".join(("K%d" if board[s][1] else "%d") % s for s in squares))
    return ":".join(parts)


def parse_placement(text):
    board = {}
    for part in text.split(":"):
        colour, items = part[0], part[1:]
        for item in filter(None, items.split(",")):
            king = item.startswith("K")
            board[int(item.lstrip("K"))] = (colour, king)
    return board


def parse(game, text):
    """A turn-boundary position string (as ludoteca writes it) as a State."""
    head, *fields = text.split(";")
    side, rest = head.split(":", 1)
    st = State(game, side, parse_placement(rest))
    for field in fields:
        key, value = field.split("=", 1)
        if key == "h":
            st.h = frozenset(int(s) for s in value.split(","))
        elif key == "f":
            st.f = parse_placement(value)
        elif key == "a":
            b, w = value.split("/")
            st.a = {"B": [x for x in b.split(",") if x], "W": [x for x in w.split(",") if x]}
        elif key == "k":
            st.k = int(value)
        elif key == "m":
            st.m = value == "1"
        else:
            raise ValueError("the reference reads turn-boundary strings only, not %r" % field)
    return st


def start(game):
    rules = PRESETS[game]
    geo = Geometry(rules["size"])
    board = {s: ("W", False) for s in range(1, rules["men"] + 1)}
    board.update({s: ("B", False) for s in range(geo.count - rules["men"] + 1, geo.count + 1)})
    # tablero: rule 3 draws the first player; ludoteca's seed-0 start has White first.
    return State(game, "W" if game == "tablero" else "B", board)


class Rules:
    def __init__(self, game):
        self.game = game
        self.p = PRESETS[game]
        self.geo = Geometry(self.p["size"])

    # ---- pieces and moves -------------------------------------------------

    def plain_moves(self, board, s):
        """Destinations of a plain (non-capturing) move of the piece on s."""
        colour, king = board[s]
        out = []
        for d in DIAGONALS:
            if not king and d[0] != FORWARD[colour]:
                continue
            for t in self.geo.ray(s, d):
                if t in board:
                    break
                out.append(t)
                if not king:
                    break
        return out

    def hops(self, board, s, colour, king, jumped):
        """(landing, captured) for one capture hop of a piece of `colour` on s.
        `board` does not hold the capturing piece itself (its start square is
        empty during its own sequence); jumped pieces stay on the board: they
        block and cannot be jumped again. Men capture forwards only."""
        out = []
        for d in DIAGONALS:
            if not king and d[0] != FORWARD[colour]:
                continue
            ray = self.geo.ray(s, d)
            i = 0
            if king:
                while i < len(ray) and ray[i] not in board:
                    i += 1
            elif not ray:
                continue
            if i >= len(ray):
                continue
            victim = ray[i]
            if victim not in board or board[victim][0] == colour or victim in jumped:
                continue
            for t in ray[i + 1:]:
                if t in board:
                    break
                out.append((t, victim))
                if not king or self.p["land_right_behind"]:
                    break
        return out

    def can_capture(self, board, s):
        colour, king = board[s]
        rest = {x: v for x, v in board.items() if x != s}
        return bool(self.hops(rest, s, colour, king, ()))

    def capture_turns(self, board, s):
        """Every capture turn of the piece on s: each non-empty hop sequence
        (the player may stop whenever), as (landings, jumped, complete)."""
        colour, king = board[s]
        rest = {x: v for x, v in board.items() if x != s}
        out = []

        def walk(at, landings, jumped):
            for t, victim in self.hops(rest, at, colour, king, jumped):
                path, taken = landings + [t], jumped + [victim]
                complete = not self.hops(rest, t, colour, king, taken)
                out.append((path, taken, complete))
                if not complete:
                    walk(t, path, taken)

        walk(s, [], [])
        return out

    def correct_capturers(self, board, colour):
        """C: the pieces of `colour` that could make a correct capture (any
        capture extends to a complete one; damas: kings first)."""
        able = {s for s, (c, _) in board.items() if c == colour and self.can_capture(board, s)}
        if self.p["king_priority"] and any(board[s][1] for s in able):
            able = {s for s in able if board[s][1]}
        return able

    def move_parts(self, board, colour, banned):
        """The move part of a turn: list of (new board, record) where record is
        dict(kind="plain"|"capture", origin, dest, king (before promotion),
        complete, notation)."""
        out = []
        for s in sorted(x for x, (c, _) in board.items() if c == colour):
            king = board[s][1]
            for t in self.plain_moves(board, s):
                name = "%d-%d" % (s, t)
                if name == banned:
                    continue
                nb = dict(board)
                del nb[s]
                nb[t] = (colour, king or self.geo.far_row(colour, t))
                out.append((nb, dict(kind="plain", origin=s, dest=t, king=king, complete=True, notation=name)))
            for path, taken, complete in self.capture_turns(board, s):
                nb = dict(board)
                del nb[s]
                for v in taken:
                    del nb[v]
                t = path[-1]
                nb[t] = (colour, king or self.geo.far_row(colour, t))
                out.append((nb, dict(kind="capture", origin=s, dest=t, king=king, complete=complete,
                                     notation="x".join(str(x) for x in [s] + path))))
        return out

    # ---- end of game and counters -----------------------------------------

    def counter_condition(self, board):
        men = [v for v in board.values() if not v[1]]
        if self.game == "damas":
            kings = sorted(sum(1 for c, k in board.values() if c == col and k) for col in "BW")
            return not men and kings == [1, 2]
        if self.game == "damas_10x10":
            return not men and bool(board)
        return False

    def counter_after(self, start_board, mover, k0, end_board):
        if self.game == "tablero":
            return None
        running = self.counter_condition(start_board)
        if not self.counter_condition(end_board):
            return None
        if not running:
            return 0
        k0 = k0 or 0
        if self.game == "damas":
            mine = sum(1 for c, k in start_board.values() if c == mover)
            return k0 + 1 if mine == 2 else k0
        return k0 + 1

    def material_draw(self, board):
        """The draws that hold "as soon as" the material is on the board."""
        if self.game == "tablero":
            if any(not k for _, k in board.values()):
                return False
            return sum(1 for c, _ in board.values() if c == "B") == sum(1 for c, _ in board.values() if c == "W")
        if self.game == "damas":
            if len(board) == 2 and {c for c, _ in board.values()} == {"B", "W"}:
                return len({k for _, k in board.values()}) == 1
        return False

    def ended_by_material(self, board):
        colours = {c for c, _ in board.values()}
        return len(colours) < 2 or self.material_draw(board)

    def terminal_without_moves(self, st):
        if self.ended_by_material(st.board):
            return True
        limit = {"damas": 5, "damas_10x10": 10}.get(self.game)
        return False if limit is None else (st.k is not None and st.k >= limit)

    # ---- complete turns ---------------------------------------------------

    def banned(self, st):
        """damas anti-shuffle: after A-B then B-A, A-B is not allowed."""
        if self.game != "damas":
            return None
        moves = st.a[st.side]
        if len(moves) == 2:
            a, b = moves[0].split("-")
            if moves[1] == "%s-%s" % (b, a):
                return moves[0]
        return None

    def finish(self, st, turn_start, before_move, new_board, record, capturers, huff_note):
        """The position after the mover's turn whose move part went from
        `before_move` to `new_board`; offence and huff set per spec "Soplo"."""
        mover, opp = st.side, OTHER[st.side]
        h = frozenset()
        if capturers:
            correct = record["kind"] == "capture" and record["complete"] and (
                not self.p["king_priority"] or record["king"] or not any(before_move[s][1] for s in capturers))
            if not correct:
                if record["kind"] == "capture" and not record["complete"]:
                    h = frozenset([record["dest"]])
                else:
                    h = frozenset(record["dest"] if s == record["origin"] else s for s in capturers)
        a = {c: list(v) for c, v in st.a.items()}
        if self.game == "damas":
            a[mover] = (a[mover] + [record["notation"]])[-2:] if record["kind"] == "plain" else []
        f = dict(before_move) if (h and self.p["huff_then_move"]) else None
        k = self.counter_after(turn_start, mover, st.k, new_board)
        nxt = State(self.game, opp, new_board, h, f, a, k)
        return (huff_note + record["notation"]), nxt

    def turns(self, st):
        """All complete turns from st as (notation, successor State); empty when
        the game is over."""
        if self.terminal_without_moves(st):
            return []
        mover, opp = st.side, OTHER[st.side]
        out = []
        banned = self.banned(st)
        if st.m:
            # After a force: only correct captures, and they cannot offend.
            capturers = self.correct_capturers(st.board, mover)
            for nb, rec in self.move_parts(st.board, mover, None):
                if rec["kind"] == "capture" and rec["complete"] and rec["origin"] in capturers:
                    out.append(self.finish(State(self.game, mover, st.board, a=st.a, k=st.k), st.board,
                                           st.board, nb, rec, set(), ""))
            return out
        capturers = self.correct_capturers(st.board, mover)
        for nb, rec in self.move_parts(st.board, mover, banned):
            out.append(self.finish(st, st.board, st.board, nb, rec, capturers, ""))
        for s in sorted(st.h):
            after = dict(st.board)
            del after[s]
            if not self.p["huff_then_move"]:
                # tablero rule 13: the huff is the whole turn; it offends if the
                # huffer could have made a correct capture instead (checked at
                # the start of the turn, no piece moved).
                nxt = State(self.game, opp, after, capturers, None, None, self.counter_after(st.board, mover, st.k, after))
                out.append(("s%d" % s, nxt))
                continue
            parts = [] if self.ended_by_material(after) else self.move_parts(after, mover, banned)
            if not parts:
                a = {c: list(v) for c, v in st.a.items()}
                a[mover] = []
                out.append(("s%d" % s, State(self.game, opp, after, (), None, a,
                                             self.counter_after(st.board, mover, st.k, after))))
                continue
            caps_after = self.correct_capturers(after, mover)
            for nb, rec in parts:
                out.append(self.finish(st, st.board, after, nb, rec, caps_after, "s%d " % s))
        if st.h and self.p["huff_then_move"]:
            # Force: the offender's move part is taken back; it must now make a
            # correct capture. The offender's a= loses the move taken back.
            a = {c: list(v) for c, v in st.a.items()}
            a[mover] = []
            if a[opp]:
                a[opp] = a[opp][:-1]
            back = dict(st.f)
            out.append(("f", State(self.game, opp, back, (), None, a,
                                   self.counter_after(st.board, mover, st.k, back), m=True)))
        return out

    def children(self, st):
        """Distinct successor positions: {string: (State, [notations])}."""
        kids = {}
        for name, nxt in self.turns(st):
            text = nxt.to_string()
            if text in kids:
                kids[text][1].append(name)
            else:
                kids[text] = (nxt, [name])
        return kids

    def perft(self, st, depth):
        if depth == 0:
            return 1
        kids = self.children(st)
        if not kids:
            return 1
        if depth == 1:
            return len(kids)
        return sum(self.perft(nxt, depth - 1) for nxt, _ in kids.values())


def perft(game, text, depth):
    rules = Rules(game)
    return rules.perft(parse(game, text), depth)


if __name__ == "__main__":
    import sys
    import time

    game = sys.argv[1]
    depth = int(sys.argv[2])
    rules = Rules(game)
    st = start(game)
    for d in range(1, depth + 1):
        t = time.time()
        print(game, d, rules.perft(st, d), "%.1fs" % (time.time() - t), flush=True)
