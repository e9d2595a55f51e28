"""PDN 3.0 syntax: tag pairs and movetext, read leniently, written strictly.

This layer knows the *syntax* of a record file and nothing of the rules:
it turns text into :class:`Record` objects (tags, main-line turns with
their comments, NAGs and variations, the terminator) and back. Which game a
record belongs to and what its moves mean is decided in
:mod:`ludoteca.records.notation`; the only game knowledge here is how the
written tokens of one turn are grouped (a backgammon turn is a roll and
several checker moves, a damas turn may be a huff and a move).

Reading follows the PDN 3.0 *reading* grammar (pdn.fmjd.org, "PDN
Grammars") plus what real files contain: `%` line comments, move numbers
glued to moves (``1.33-28``), ``1...`` and ``1. ...``, leading zeros
(``06-11``), spaces inside a move (``1- 7``, ``35x 4``), move-strength
marks (``!``, ``?!``, ``(!)``), a final ``*`` or result after the last move.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional

from ..errors import RecordError

__all__ = ["Turn", "Record", "parse", "format_record", "RESULTS"]

#: Every game terminator the reader knows: both PDN conventions, the
#: double forfeit and "unknown".
RESULTS = ("1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*")


@dataclass
class Turn:
    """One turn of the main line as written.

    ``text`` is the move as written (a draughts move ``32-28``, a damas
    ``s12 22-18``, a backgammon ``52: 13/11 13/8``); ``number`` the move
    number written before it (``None`` if none); ``black`` whether that
    number was written with three dots. ``nags`` holds the NAGs and move
    strength marks after it (``$1``, ``!``), ``comments`` the comments after
    it, ``variations`` the variations after it, each kept as the raw text
    between its parentheses (they are not replayed).
    """

    text: str
    number: Optional[int] = None
    black: bool = False
    nags: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    variations: list[str] = field(default_factory=list)


@dataclass
class Record:
    """One game record: tag pairs, the turns of the main line, the terminator.

    ``tags`` keeps the order of the file; ``pre_comments`` are comments
    written before the first move; ``terminator`` is the result written at
    the end of the movetext (``"2-0"``, ``"*"``, or ``None`` when the
    movetext just stops). ``source`` and ``index`` say where it was read
    (file name and 0-based game index) for error messages.
    """

    tags: dict[str, str] = field(default_factory=dict)
    turns: list[Turn] = field(default_factory=list)
    terminator: Optional[str] = None
    pre_comments: list[str] = field(default_factory=list)
    source: str = field(default="<string>", compare=False)
    index: int = field(default=0, compare=False)

    @property
    def moves(self) -> list[str]:
        """The moves of the main line as written."""
        return [t.text for t in self.turns]

    @property
    def result(self) -> str:
        """The recorded result: the ``Result`` tag, else the terminator, else ``"*"``."""
        r = self.tags.get("Result", "").strip()
        if r:
            return r
        return self.terminator or "*"

    def describe(self) -> str:
        """``file #index [White - Black, Event, Round]`` for messages."""
        keys = [self.tags.get(k, "").strip() for k in ("White", "Black", "Event", "Round", "Date")]
        players = " - ".join(k for k in keys[:2] if k)
        rest = ", ".join(k for k in keys[2:] if k)
        label = ", ".join(x for x in (players, rest) if x)
        return f"{self.source} game #{self.index + 1}" + (f" [{label}]" if label else "")


# A turn grouper decides how many written tokens make one turn (game knowledge).
Grouper = Callable[[list[str]], list[str]]

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_MOVENUM = re.compile(r"^(\d+)\.(\.\.)?(.*)$")
_STRENGTH = re.compile(r"^(.*?)((?:[!?]+)|(?:\([!?]+\)))$")
# Spaces inside a move (`1- 7`, `35x 4`): glued back when a square follows.
_INNER_SPACE = re.compile(r"(?<=[0-9a-h][-x]) +(?=[0-9a-h]?\d{1,2}(?![\d.:/]))")


def _lines_to_games(text: str) -> Iterator[tuple[list[tuple[str, str]], str]]:
    """Splits a file into (tag pairs, movetext) per game."""
    tags: list[tuple[str, str]] = []
    body: list[str] = []
    in_body = False
    in_comment = False
    for raw in text.splitlines():
        line = raw.strip()
        if not in_comment and line.startswith("%"):
            continue
        if not in_comment and not line.startswith("[") and in_body:
            # A result glued to the next game's first tag: `0-1[Event "..."]`.
            m = _TAG.search(line)
            if m and line[: m.start()].split() and line[: m.start()].split()[-1] in RESULTS:
                body.append(line[: m.start()])
                line = raw = line[m.start() :]
        if not in_comment and line.startswith("[") and _TAG.match(line):
            if in_body:
                yield tags, "\n".join(body)
                tags, body, in_body = [], [], False
            for m in _TAG.finditer(line):
                tags.append((m.group(1), m.group(2).replace('\\"', '"').replace("\\\\", "\\")))
            continue
        if line:
            in_body = True
        body.append(raw)
        # A tag-looking line inside a multi-line comment is comment text.
        in_comment = (in_comment + line.count("{") - line.count("}")) > 0
    if tags or any(b.strip() for b in body):
        yield tags, "\n".join(body)


def _tokens(movetext: str) -> Iterator[tuple[str, str]]:
    """Lexes movetext into (kind, text): comment, variation, nag, word."""
    s = _INNER_SPACE.sub("", movetext)
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c.isspace():
            i += 1
        elif c == "{":
            j = s.find("}", i + 1)
            j = n if j < 0 else j
            yield "comment", s[i + 1 : j].strip()
            i = j + 1
        elif c == "(" and not re.match(r"\([!?]+\)", s[i:]):
            depth, j = 0, i
            while j < n:
                if s[j] == "{":
                    k = s.find("}", j + 1)
                    j = n - 1 if k < 0 else k
                elif s[j] == "(":
                    depth += 1
                elif s[j] == ")":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            yield "variation", s[i + 1 : j].strip()
            i = j + 1
        elif c == "$":
            m = re.match(r"\$\d+", s[i:])
            tok = m.group(0) if m else "$"
            yield "nag", tok
            i += len(tok)
        elif c == "/" and s[i:].startswith("/FEN"):
            j = s.find("/", i + 1)
            j = n if j < 0 else j
            yield "setup", s[i + 1 : j]
            i = j + 1
        else:
            j = i
            while j < n and not s[j].isspace() and s[j] not in "{$" and not (s[j] == "(" and j > i and not re.match(r"\([!?]+\)", s[j:])):
                j += 1
            yield "word", s[i:j]
            i = j


def parse(text: str, grouper: Optional[Callable[[dict[str, str]], Grouper]] = None, source: str = "<string>") -> list[Record]:
    """Every game of a PDN-style text, syntax only.

    ``grouper(tags)`` returns the function that groups the written tokens of
    the main line into turns for that game (default: one token per turn).
    Raises :class:`~ludoteca.errors.RecordError` for text that is not a
    record at all (a ``/FEN/`` setup inside movetext, which PDN 3.0 allows
    but no collection uses, is refused with that reason).
    """
    records = []
    for index, (tag_list, movetext) in enumerate(_lines_to_games(text)):
        rec = Record(tags=dict(tag_list), source=source, index=index)
        group = grouper(rec.tags) if grouper else None
        # Words, with what follows each one, before grouping into turns.
        words: list[str] = []
        attached: list[Turn] = []  # one per word: number, nags, comments, variations
        pending = Turn("")
        done = False
        for kind, tok in _tokens(movetext):
            if done:
                continue
            if kind == "comment":
                (attached[-1].comments if attached else rec.pre_comments).append(tok)
            elif kind == "variation":
                if attached:
                    attached[-1].variations.append(tok)
                else:
                    rec.pre_comments.append(f"({tok})")
            elif kind == "nag":
                if attached:
                    attached[-1].nags.append(tok)
            elif kind == "setup":
                raise RecordError(f"{rec.describe()}: a setup /{tok}/ inside the movetext is not supported; put the position in a FEN tag")
            else:
                if tok in RESULTS:
                    rec.terminator = tok
                    done = True
                    continue
                m = _MOVENUM.match(tok)
                if m:
                    pending.number = int(m.group(1))
                    pending.black = bool(m.group(2))
                    tok = m.group(3)
                    if not tok:
                        continue
                if tok in ("...", "..", "."):
                    pending.black = True
                    continue
                if tok in RESULTS:
                    rec.terminator = tok
                    done = True
                    continue
                sm = _STRENGTH.match(tok)
                if sm and sm.group(1):
                    tok = sm.group(1)
                    pending.nags.append(sm.group(2))
                words.append(tok)
                pending.text = tok
                attached.append(pending)
                pending = Turn("")
        result_tag = rec.tags.get("Result", "").strip()
        if rec.terminator is None and words and result_tag and words[-1] == result_tag:
            # A result in a format of its own (`1-9`, ResultFormat tags) ends the movetext too.
            rec.terminator = words.pop()
            attached.pop()
        rec.turns = _number(_group(words, attached, group))
        records.append(rec)
    return records


def _group(words: list[str], attached: list[Turn], group: Optional[Grouper]) -> list[Turn]:
    if group is None:
        return attached
    texts = group(words)
    turns: list[Turn] = []
    k = 0
    for text in texts:
        n = len(text.split())
        parts = attached[k : k + n]
        k += n
        first = parts[0]
        t = Turn(text, number=first.number, black=first.black)
        for p in parts:
            t.nags += p.nags
            t.comments += p.comments
            t.variations += p.variations
        turns.append(t)
    return turns


def _number(turns: list[Turn]) -> list[Turn]:
    """Fills in the move numbers a file leaves implicit (black's, mostly)."""
    number, black = 1, False
    for i, t in enumerate(turns):
        if t.number is None:
            if i == 0:
                t.number, t.black = 1, False
            else:
                t.number, t.black = (number + 1, False) if black else (number, True)
        number, black = t.number, t.black
    return turns


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def format_record(rec: Record, width: int = 79) -> str:
    """The record as PDN 3.0 text: tag pairs, a blank line, movetext, terminator.

    ``N.`` is written before every white (first column) turn and ``N...``
    before a black turn that opens the movetext or follows a comment or
    variation (numbers as in each :class:`Turn`).
    """
    out = [f'[{k} "{_quote(v)}"]' for k, v in rec.tags.items()]
    words: list[str] = [f"{{{c}}}" for c in rec.pre_comments]
    interrupted = True
    prev: Optional[Turn] = None
    for t in rec.turns:
        if not t.black:
            words.append(f"{t.number}.")
        elif interrupted or prev is None or prev.black or prev.number != t.number:
            words.append(f"{t.number}...")
        prev = t
        # Move strength marks stick to the move (PDN 3.0 restriction 2); NAGs stand apart.
        marks = "".join(n for n in t.nags if not n.startswith("$"))
        words.append(t.text + marks)
        words += [n for n in t.nags if n.startswith("$")]
        words += [f"{{{c}}}" for c in t.comments]
        words += [f"({v})" for v in t.variations]
        interrupted = bool(t.comments or t.variations)
    words.append(rec.terminator or rec.result)
    lines: list[str] = []
    cur = ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    lines.append(cur)
    return "\n".join(out) + ("\n\n" if out else "") + "\n".join(lines) + "\n"
