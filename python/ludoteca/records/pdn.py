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

Reading is linear in the size of the text, and a game's memory is bounded:
a file larger than any real record (see the ``MAX_*`` limits) or malformed
beyond leniency raises :class:`~ludoteca.errors.RecordError` naming the
game and the limit, quoting at most a short excerpt of the input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional

from ..errors import RecordError

__all__ = [
    "Turn",
    "Record",
    "parse",
    "format_record",
    "excerpt",
    "RESULTS",
    "MAX_TAG_VALUE",
    "MAX_TAGS",
    "MAX_TOKEN",
    "MAX_MOVETEXT",
    "MAX_MOVES",
]

#: Every game terminator the reader knows: both PDN conventions, the
#: double forfeit and "unknown".
RESULTS = ("1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*")

# Limits per game, each far above any real record (the collections in
# ../shared/records peak at a tag value of 82 characters, a word of 71, a
# comment or variation of 1,260, 8,168 characters of movetext and 3,442
# moves). They bound the memory one game can take, whatever the file holds.
#: Longest tag value (characters).
MAX_TAG_VALUE = 10_000
#: Most tag pairs in one game.
MAX_TAGS = 1_000
#: Longest token of movetext: a move, a NAG, a move number (characters).
MAX_TOKEN = 1_000
#: Longest movetext of one game, comments and variations included (characters).
MAX_MOVETEXT = 4_000_000
#: Most moves written in the main line of one game (a backgammon turn's
#: roll and each of its checker moves count apart).
MAX_MOVES = 100_000
# A move number longer than this is no move number (and ``int`` of a
# 5,000-digit string raises a bare ValueError).
_MAX_NUMBER_DIGITS = 9


def excerpt(text: str, limit: int = 60, quote: bool = True) -> str:
    """``text`` for a message (quoted with ``repr`` unless ``quote=False``): whole
    when short, else its first ``limit`` characters and its length."""
    if len(text) <= limit:
        return repr(text) if quote else text
    return f"{text[:limit]!r}... ({len(text):,} characters)" if quote else f"{text[:limit]}... ({len(text):,} characters)"


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
        # Each value cut short: a message names the game, it does not copy the file.
        keys = [_cut(self.tags.get(k, "").strip()) for k in ("White", "Black", "Event", "Round", "Date")]
        players = " - ".join(k for k in keys[:2] if k)
        rest = ", ".join(k for k in keys[2:] if k)
        label = ", ".join(x for x in (players, rest) if x)
        return f"{self.source} game #{self.index + 1}" + (f" [{label}]" if label else "")


def _cut(value: str, limit: int = 40) -> str:
    return value if len(value) <= limit else value[:limit] + "..."


# A turn grouper decides how many written tokens make one turn (game knowledge).
Grouper = Callable[[list[str]], list[str]]

_MOVENUM = re.compile(r"^(\d+)\.(\.\.)?(.*)$")
# Every pattern below is matched at a position (`pattern.match(s, i)`): matching
# a slice `s[i:]` copies the rest of the text at each `$`, `(` or `/`, which made
# reading quadratic (330,000 NAGs took 5 s).
_NAG = re.compile(r"\$\d*")
_MARK = re.compile(r"\([!?]+\)")
# A word runs to a space, `{`, `$` or a `(` that opens a variation (a `(` that
# starts a strength mark `(!)` belongs to the word). Unrolled, so that the
# engine repeats a group once per `(`, not once per character.
_WORD = re.compile(r"[^\s{$(]*(?:\((?=[!?]+\))[^\s{$(]*)*")
_VARIATION_SIGN = re.compile(r"[(){]")
# Spaces inside a move (`1- 7`, `35x 4`): glued back when a square follows.
_INNER_SPACE = re.compile(r"(?<=[0-9a-h][-x]) +(?=[0-9a-h]?\d{1,2}(?![\d.:/]))")


_TAG_HEAD = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"')
_TAG_TAIL = re.compile(r'\s*\]')
# A result glued to the next game's first tag: `0-1[Event "..."]`.
_GLUED = re.compile(r'(?:^|(?<=\s))(?:1-0|0-1|1/2-1/2|2-0|0-2|1-1|0-0|\*)\s*(?=\[)')


def _tag_at(line: str, i: int) -> Optional[tuple[str, str, int]]:
    r"""The tag pair starting at ``line[i]`` as (name, raw value, end), or ``None``.

    Scanned by hand rather than by one regex: the value with its escapes
    (``\"``, ``\\``) is a repeated group in a regex, and the engine keeps
    memory per repetition (a 10 MB tag value took 1.7 GB; 6 MB of ``\x``
    still took 480 MB with the group unrolled)."""
    head = _TAG_HEAD.match(line, i)
    if head is None:
        return None
    j = head.end()
    while True:
        q = line.find('"', j)
        if q < 0:
            return None
        k = q - 1
        while line[k] == "\\":
            k -= 1
        if (q - 1 - k) % 2 == 0:
            break
        j = q + 1
    tail = _TAG_TAIL.match(line, q + 1)
    if tail is None:
        return None
    return head.group(1), line[head.end() : q], tail.end()


def _tags_of_line(line: str) -> list[tuple[str, str]]:
    """Every tag pair of a tag line (one or several; text between them is ignored)."""
    out = []
    i = line.find("[")
    while i >= 0:
        tag = _tag_at(line, i)
        if tag is None:
            i = line.find("[", i + 1)
            continue
        name, raw, end = tag
        out.append((name, raw))
        i = line.find("[", end)
    return out


def _too_long(source: str, index: int, what: str, size: int, limit: int, sample: str) -> RecordError:
    return RecordError(
        f"{source} game #{index + 1}: {what} of {size:,} characters (the limit is {limit:,}): {excerpt(sample)}",
        kind="syntax", source=source,
    )


def _lines_to_games(text: str, source: str = "<string>") -> Iterator[tuple[list[tuple[str, str]], str]]:
    """Splits a file into (tag pairs, movetext) per game; refuses games over the ``MAX_*`` limits."""
    tags: list[tuple[str, str]] = []
    body: list[str] = []
    size = 0  # characters of movetext so far
    index = 0
    in_body = False
    in_comment = False
    for raw in text.splitlines():
        line = raw.strip()
        if not in_comment and line.startswith("%"):
            continue
        if not in_comment and not line.startswith("[") and in_body and "[" in line:
            m = _GLUED.search(line)
            if m and _tag_at(line, m.end()) is not None:
                body.append(line[: m.end()])
                line = raw = line[m.end() :]
        if not in_comment and line.startswith("[") and _tag_at(line, 0) is not None:
            if in_body:
                yield tags, "\n".join(body)
                tags, body, size, in_body = [], [], 0, False
                index += 1
            for name, value in _tags_of_line(line):
                for what, part in (("a tag name", name), ("a tag value", value)):
                    if len(part) > MAX_TAG_VALUE:
                        raise _too_long(source, index, what, len(part), MAX_TAG_VALUE, part)
                tags.append((name, value.replace('\\"', '"').replace("\\\\", "\\")))
                if len(tags) > MAX_TAGS:
                    raise RecordError(f"{source} game #{index + 1}: more than {MAX_TAGS:,} tag pairs", kind="syntax", source=source)
            continue
        if line:
            in_body = True
        body.append(raw)
        size += len(raw) + 1
        if size > MAX_MOVETEXT:
            raise _too_long(source, index, "movetext", size, MAX_MOVETEXT, "\n".join(body)[:100])
        # A tag-looking line inside a multi-line comment is comment text.
        in_comment = (in_comment + line.count("{") - line.count("}")) > 0
    if tags or any(b.strip() for b in body):
        yield tags, "\n".join(body)


def _tokens(movetext: str) -> Iterator[tuple[str, str]]:
    """Lexes movetext into (kind, text): comment, variation, nag, setup, word."""
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
        elif c == "(" and not _MARK.match(s, i):
            # To the matching `)` (or the end), skipping braces' comments.
            depth, j = 0, i
            while True:
                m = _VARIATION_SIGN.search(s, j)
                if m is None:
                    j = n
                    break
                k = m.start()
                if s[k] == "{":
                    close = s.find("}", k + 1)
                    if close < 0:
                        j = n
                        break
                    j = close + 1
                    continue
                depth += 1 if s[k] == "(" else -1
                if depth == 0:
                    j = k
                    break
                j = k + 1
            yield "variation", s[i + 1 : j].strip()
            i = j + 1
        elif c == "$":
            j = _NAG.match(s, i).end()  # type: ignore[union-attr]
            yield "nag", s[i:j]
            i = j
        elif c == "/" and s.startswith("/FEN", i):
            j = s.find("/", i + 1)
            j = n if j < 0 else j
            yield "setup", s[i + 1 : j]
            i = j + 1
        else:
            j = max(_WORD.match(s, i).end(), i + 1)  # type: ignore[union-attr]
            yield "word", s[i:j]
            i = j


def _split_strength(tok: str) -> tuple[str, str]:
    """(move, strength mark) of a word: ``22-18!?`` -> (``22-18``, ``!?``), ``22-18(!)`` -> (``22-18``, ``(!)``)."""
    if tok.endswith(")"):
        k = tok.rfind("(")
        if k > 0 and k < len(tok) - 2 and not tok[k + 1 : -1].strip("!?"):
            return tok[:k], tok[k:]
        return tok, ""
    move = tok.rstrip("!?")
    return (move, tok[len(move) :]) if move else (tok, "")


def parse(text: str, grouper: Optional[Callable[[dict[str, str]], Grouper]] = None, source: str = "<string>") -> list[Record]:
    """Every game of a PDN-style text, syntax only.

    ``grouper(tags)`` returns the function that groups the written tokens of
    the main line into turns for that game (default: one token per turn).
    Raises :class:`~ludoteca.errors.RecordError` for text that is not a
    record at all (a ``/FEN/`` setup inside movetext, which PDN 3.0 allows
    but no collection uses, is refused with that reason) and for a game over
    one of the ``MAX_*`` limits (a tag value, a token, the movetext, the
    moves of the main line) or with a move number of more than 9 digits.
    """
    records = []
    for index, (tag_list, movetext) in enumerate(_lines_to_games(text, source)):
        rec = Record(tags=dict(tag_list), source=source, index=index)
        group = grouper(rec.tags) if grouper else None
        # Words, with what follows each one, before grouping into turns.
        words: list[str] = []
        attached: list[Turn] = []  # one per word: number, nags, comments, variations
        pending = Turn("")
        done = False
        nags: dict[str, str] = {}  # one string per distinct NAG: 330,000 `$1` share one
        for kind, tok in _tokens(movetext):
            if done:
                continue
            if kind in ("word", "nag") and len(tok) > MAX_TOKEN:
                raise RecordError(
                    f"{rec.describe()}: a token of {len(tok):,} characters (the limit is {MAX_TOKEN:,}): {excerpt(tok)}",
                    kind="syntax", source=source, tags=rec.tags,
                )
            if kind == "comment":
                (attached[-1].comments if attached else rec.pre_comments).append(tok)
            elif kind == "variation":
                if attached:
                    attached[-1].variations.append(tok)
                else:
                    rec.pre_comments.append(f"({tok})")
            elif kind == "nag":
                if attached:
                    attached[-1].nags.append(nags.setdefault(tok, tok))
            elif kind == "setup":
                raise RecordError(
                    f"{rec.describe()}: a setup /{_cut(tok)}/ inside the movetext is not supported; put the position in a FEN tag",
                    kind="syntax", source=source, tags=rec.tags,
                )
            else:
                if tok in RESULTS:
                    rec.terminator = tok
                    done = True
                    continue
                m = _MOVENUM.match(tok)
                if m:
                    if len(m.group(1)) > _MAX_NUMBER_DIGITS:
                        raise RecordError(
                            f"{rec.describe()}: move number {excerpt(m.group(1))} has more than {_MAX_NUMBER_DIGITS} digits",
                            kind="syntax", source=source, tags=rec.tags,
                        )
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
                tok, mark = _split_strength(tok)
                if mark:
                    pending.nags.append(mark)
                if len(words) == MAX_MOVES:
                    raise RecordError(
                        f"{rec.describe()}: more than {MAX_MOVES:,} moves in the main line", kind="syntax", source=source, tags=rec.tags
                    )
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
