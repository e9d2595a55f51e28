//! GNU Backgammon's Position ID and Match ID (spec: position string).
//!
//! Position ID: an 80-bit key, Base64 without padding (14 characters). For
//! the player **not** on turn, then the player on turn, each from its own ace
//! point to its 24-point and then its bar: as many 1 bits as checkers, then
//! a 0. Bits fill each byte from its least significant bit.
//!
//! Match ID: 66 bits (9 bytes with 6 padding bits, 12 characters), least
//! significant bit first:
//!
//! ```text
//!  bits  0-3  log2 cube value          bits 15-17  die 1 (larger)
//!  bits  4-5  cube owner (3: centred)  bits 18-20  die 2
//!  bit   6    player on roll           bits 21-35  match length (0: money)
//!  bit   7    Crawford game            bits 36-50  score of player 0
//!  bits  8-10 game state               bits 51-65  score of player 1
//!  bit  11    player to decide         bits 66-71  padding: written 0, ignored
//!  bit  12    double offered
//!  bits 13-14 resignation (0)
//! ```
//!
//! Without option `cube` the cube fields must read cube 1 centred, no double.

use super::board::{OpenPoint, Side, BAR, CHECKERS, OFF, START};
use super::movegen::mask_is_empty;
use super::rules::{Backgammon, Reward, MAX_CUBE_LOG2};
use super::state::{Phase, State};
use crate::core::Player;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Base64 without `=` padding.
pub fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        let chars = chunk.len() + 1;
        for k in 0..chars {
            out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
        }
    }
    out
}

/// Decodes `len` bytes from unpadded Base64 text; `what` names the field in errors.
pub fn base64_decode(text: &str, len: usize, what: &str) -> Result<Vec<u8>, String> {
    let want = (len * 8).div_ceil(6);
    let text = text.trim_end_matches('=');
    if text.len() != want {
        return Err(format!("{what} must be {want} Base64 characters, got {} ({text:?})", text.len()));
    }
    let mut bits: u64 = 0;
    let mut nbits = 0;
    let mut out = Vec::with_capacity(len);
    for (i, c) in text.bytes().enumerate() {
        let v = ALPHABET.iter().position(|&a| a == c).ok_or_else(|| {
            format!("{what} has a character {:?} at {i} that is not Base64 (A-Z a-z 0-9 + /)", c as char)
        })?;
        bits = bits << 6 | v as u64;
        nbits += 6;
        if nbits >= 8 {
            nbits -= 8;
            if out.len() < len {
                out.push((bits >> nbits) as u8);
            }
            bits &= (1 << nbits) - 1;
        }
    }
    Ok(out)
}

/// Position ID of `first` (not on turn) and `second` (on turn).
pub fn position_id(first: &Side, second: &Side) -> String {
    let mut key = [0u8; 10];
    let mut bit = 0usize;
    for side in [first, second] {
        for &n in &side[1..=BAR] {
            for _ in 0..n {
                key[bit / 8] |= 1 << (bit % 8);
                bit += 1;
            }
            bit += 1;
        }
    }
    base64_encode(&key)
}

/// The two sides of a Position ID: (not on turn, on turn), off counts filled in.
pub fn parse_position_id(text: &str) -> Result<[Side; 2], String> {
    let key = base64_decode(text, 10, "the Position ID")?;
    let mut sides = [[0u8; 26]; 2];
    let mut bit = 0usize;
    let get = |b: usize| key[b / 8] >> (b % 8) & 1 == 1;
    for (k, side) in sides.iter_mut().enumerate() {
        let mut total = 0u32;
        for count in side[1..=BAR].iter_mut() {
            loop {
                if bit >= 80 {
                    return Err("the Position ID key runs out of bits (more than 80 bits of data)".into());
                }
                let one = get(bit);
                bit += 1;
                if !one {
                    break;
                }
                *count += 1;
                total += 1;
                if total > CHECKERS as u32 {
                    let who = if k == 0 { "the player not on turn" } else { "the player on turn" };
                    return Err(format!("{who} has more than 15 checkers"));
                }
            }
        }
        side[OFF] = CHECKERS - total as u8;
    }
    if (bit..80).any(get) {
        return Err("the Position ID has 1 bits after the last of its 50 separators".into());
    }
    Ok(sides)
}

/// Game state field of the Match ID.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameState {
    NoGame = 0,
    Playing = 1,
    Over = 2,
    /// Game over by a dropped double (option `cube`).
    Dropped = 4,
}

/// The fields of a Match ID this project uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MatchId {
    /// log2 of the cube value.
    pub cube: u8,
    /// 0, 1, or 3 (centred).
    pub owner: u8,
    /// Player on roll.
    pub turn: u8,
    pub crawford: bool,
    /// Player to decide (the taker while a double is offered).
    pub decide: u8,
    pub doubled: bool,
    pub state: GameState,
    /// Dice as written (0 0: to roll).
    pub dice: [u8; 2],
    pub match_length: u16,
    pub score: [u16; 2],
}

fn put(bits: &mut [u8; 9], at: usize, width: usize, value: u32) {
    for k in 0..width {
        if value >> k & 1 == 1 {
            bits[(at + k) / 8] |= 1 << ((at + k) % 8);
        }
    }
}

fn get(bits: &[u8], at: usize, width: usize) -> u32 {
    (0..width).map(|k| ((bits[(at + k) / 8] >> ((at + k) % 8) & 1) as u32) << k).sum()
}

pub fn match_id(m: &MatchId) -> String {
    let mut bits = [0u8; 9];
    put(&mut bits, 0, 4, m.cube as u32);
    put(&mut bits, 4, 2, m.owner as u32);
    put(&mut bits, 6, 1, m.turn as u32);
    put(&mut bits, 7, 1, m.crawford as u32);
    put(&mut bits, 8, 3, m.state as u32);
    put(&mut bits, 11, 1, m.decide as u32);
    put(&mut bits, 12, 1, m.doubled as u32);
    put(&mut bits, 15, 3, m.dice[0] as u32);
    put(&mut bits, 18, 3, m.dice[1] as u32);
    put(&mut bits, 21, 15, m.match_length as u32);
    put(&mut bits, 36, 15, m.score[0] as u32);
    put(&mut bits, 51, 15, m.score[1] as u32);
    base64_encode(&bits)
}

/// Reads a Match ID; `cube`: the doubling cube is in play (else only cube 1
/// centred, no double offered, no money play are accepted).
pub fn parse_match_id(text: &str, cube_on: bool) -> Result<MatchId, String> {
    let bits = base64_decode(text, 9, "the Match ID")?;
    let cube = get(&bits, 0, 4) as u8;
    let owner = get(&bits, 4, 2) as u8;
    let doubled = get(&bits, 12, 1) == 1;
    let crawford = get(&bits, 7, 1) == 1;
    if !cube_on {
        if cube != 0 {
            return Err(format!(
                "cube value {} in the Match ID: the doubling cube is off (option cube=True)",
                1u64 << cube
            ));
        }
        if owner != 3 {
            return Err("the cube is owned in the Match ID: the doubling cube is off (option cube=True)".into());
        }
        if doubled {
            return Err("a double is offered in the Match ID: the doubling cube is off (option cube=True)".into());
        }
    } else {
        if cube > MAX_CUBE_LOG2 {
            return Err(format!(
                "cube value {} in the Match ID: the largest cube is {}",
                1u64 << cube,
                1u32 << MAX_CUBE_LOG2
            ));
        }
        if owner == 2 {
            return Err("cube owner 2 in the Match ID: expected 0, 1 or 3 (centred)".into());
        }
    }
    if get(&bits, 13, 2) != 0 {
        return Err("a resignation is pending in the Match ID: resignations are not supported".into());
    }
    let on_roll = get(&bits, 6, 1) as u8;
    let decide = get(&bits, 11, 1) as u8;
    if doubled && on_roll == decide {
        return Err(
            "a double is offered but the player to decide is the player on roll: the opponent decides on a double"
                .into(),
        );
    }
    if !doubled && on_roll != decide {
        return Err(format!(
            "player on roll ({on_roll}) and player to decide ({decide}) differ in the Match ID without a double offered: a resignation decision is not supported"
        ));
    }
    let turn = on_roll;
    let state = match get(&bits, 8, 3) {
        0 => GameState::NoGame,
        1 => GameState::Playing,
        2 => GameState::Over,
        3 => return Err("game state 'resigned' (011) is not supported".into()),
        4 if cube_on => GameState::Dropped,
        4 => {
            return Err(
                "game state 'ended by a dropped double' (100): the doubling cube is off (option cube=True)".into()
            )
        }
        g => return Err(format!("game state {g:03b} in the Match ID is undefined (expected 000, 001 or 010)")),
    };
    let dice = [get(&bits, 15, 3) as u8, get(&bits, 18, 3) as u8];
    for d in dice {
        if d > 6 {
            return Err(format!("a die of {d} in the Match ID: dice are 1..6, or 0 0 when not rolled"));
        }
    }
    if (dice[0] == 0) != (dice[1] == 0) {
        return Err(format!(
            "dice {} {} in the Match ID: both dice are 1..6, or both 0 (not rolled)",
            dice[0], dice[1]
        ));
    }
    let match_length = get(&bits, 21, 15) as u16;
    if match_length == 0 && !cube_on {
        return Err(
            "match length 0 (money play) in the Match ID: money play needs the doubling cube (option cube=True)".into(),
        );
    }
    let score = [get(&bits, 36, 15) as u16, get(&bits, 51, 15) as u16];
    Ok(MatchId { cube, owner, turn, crawford, decide, doubled, state, dice, match_length, score })
}

/// The position string `<position id>:<match id>[:<dice played>]` (docs: position string).
pub fn write(s: &State, rules: &Backgammon) -> String {
    let first = &s.board[s.turn.other().index()];
    let second = &s.board[s.turn.index()];
    let state = match s.phase {
        Phase::Opening => GameState::NoGame,
        Phase::ToRoll | Phase::Move | Phase::Cube | Phase::Doubled => GameState::Playing,
        // A game that ended without the winner bearing off all was dropped.
        Phase::Over if s.board[s.turn.other().index()][OFF] != CHECKERS => GameState::Dropped,
        Phase::Over => GameState::Over,
    };
    let m = MatchId {
        cube: s.cube,
        owner: if s.owner < 0 { 3 } else { s.owner as u8 },
        turn: s.turn as u8,
        crawford: s.crawford,
        decide: s.decider() as u8,
        doubled: s.phase == Phase::Doubled,
        state,
        dice: s.roll,
        match_length: s.match_length,
        score: s.score,
    };
    let mut text = format!("{}:{}", position_id(first, second), match_id(&m));
    if s.phase == Phase::ToRoll && rules.may_double(s) {
        // Docs, "Decision (cube and explicit chance)": the player chose to roll
        // without doubling; gnubg has no such state (its roll is immediate).
        text.push_str(":roll");
    }
    if s.phase == Phase::Move {
        let full = if s.roll[0] == s.roll[1] { 4 } else { 2 };
        if (s.nleft as usize) < full {
            // Mid-turn: the dice already played this turn.
            text.push(':');
            if s.roll[0] == s.roll[1] {
                for _ in s.nleft..4 {
                    text.push((b'0' + s.roll[0]) as char);
                }
            } else {
                let used = if s.left[0] == s.roll[0] { s.roll[1] } else { s.roll[0] };
                text.push((b'0' + used) as char);
            }
            if s.obliged {
                // Docs, "Decision (obliged to open a point)": the turn began
                // with the opponent shut out, which the position may no longer show.
                text.push_str(OBLIGED);
            }
        }
    }
    text
}

/// Parses `<position id>:<match id>[:<dice played>]` (docs: position string).
pub fn parse(text: &str, rules: &Backgammon) -> std::result::Result<State, String> {
    let fields: Vec<&str> = text.split(':').collect();
    if !(2..=3).contains(&fields.len()) {
        return Err(format!(
            "expected '<position id>:<match id>' (14 and 12 Base64 characters), optionally ':<dice already played>', got {} field(s)",
            fields.len()
        ));
    }
    let [not_on_turn, on_turn] = parse_position_id(fields[0])?;
    let m = parse_match_id(fields[1], rules.cube)?;
    let turn = Player::from_index(m.turn as usize);
    let mut board = [[0u8; 26]; 2];
    board[turn.index()] = on_turn;
    board[turn.other().index()] = not_on_turn;
    for q in 1..=24 {
        if board[0][q] > 0 && board[1][25 - q] > 0 {
            return Err(format!(
                "both players have checkers on one point (player 0's point {q}, player 1's point {})",
                25 - q
            ));
        }
    }
    if rules.reward != Reward::Points && m.match_length == 0 {
        return Err(
            "match length 0 (money play) in the Match ID: the reward option ('match' or 'equity') needs a match".into(),
        );
    }
    if rules.reward == Reward::Equity && m.match_length > super::met::kazaross_xg2().length {
        let met_length = super::met::kazaross_xg2().length;
        return Err(format!(
            "match length {} in the Match ID: reward 'equity' uses the Kazaross-XG2 table, which covers matches up to {met_length} points",
            m.match_length
        ));
    }
    // Reward "equity": every game ends the episode, so a finished game below the match length is a state.
    let game_over_below = rules.reward == Reward::Equity;
    let mut s = rules.opening_state(m.score, m.match_length);
    s.board = board;
    s.turn = turn;
    s.cube = m.cube;
    s.owner = if m.owner == 3 { -1 } else { m.owner as i8 };
    // Without the cube the flag is read and ignored (docs).
    s.crawford = m.crawford && rules.cube;
    let n = m.match_length;
    if m.crawford && rules.cube {
        // A finished match keeps the flag of its last game.
        let over = matches!(m.state, GameState::Over | GameState::Dropped);
        if n < 2 || !over && !m.score.iter().any(|&x| x + 1 == n) {
            return Err("Crawford flag set but no player is one point from the end of the match".into());
        }
        if m.cube != 0 || m.owner != 3 {
            return Err("the Crawford game is played without doubling: the cube must be 1 and centred".into());
        }
    }
    if m.doubled && !(m.state == GameState::Playing && m.dice == [0, 0]) {
        return Err("a double is offered only before the roll of a game in play: game state 001 with dice 0 0".into());
    }
    let roll_chosen = fields.len() == 3 && fields[2] == "roll";
    if roll_chosen && !(m.state == GameState::Playing && m.dice == [0, 0] && !m.doubled) {
        return Err(
            "the third field 'roll' (rolling without doubling) needs a game in play, no dice and no double offered"
                .into(),
        );
    }
    if fields.len() == 3 && !roll_chosen && !(m.state == GameState::Playing && m.dice[0] != 0) {
        return Err("the third field (dice already played) needs a game in play with dice rolled".into());
    }
    match m.state {
        GameState::NoGame => {
            if m.dice != [0, 0] {
                return Err(
                    "'no game started' (000) with dice: the opening roll is not made yet, dice must be 0 0".into()
                );
            }
            if board != [START; 2] {
                return Err(
                    "'no game started' (000) needs the starting position (2 on 24, 5 on 13, 3 on 8, 5 on 6)".into()
                );
            }
            s.turn = Player::P0;
            check_scores_below(&m.score, n)?;
        }
        GameState::Playing => {
            check_scores_below(&m.score, n)?;
            for p in Player::BOTH {
                if board[p.index()][OFF] == CHECKERS {
                    return Err(format!(
                        "player {} has borne off all 15 checkers but the game is in play (expected game state 010)",
                        p.index()
                    ));
                }
            }
            // Reglamento: a checker enters only on a point without opposing
            // checkers (and, with `enter_own_point=False`, without its own).
            let closed = |p: Player| {
                let mover = super::board::Pos { me: board[p.other().index()], opp: board[p.index()] };
                super::movegen::shuts_out(rules.variant, &mover)
            };
            if closed(Player::P0) && closed(Player::P1) {
                return Err(
                    "both players have checkers on the bar against a closed board: no roll could ever move".into()
                );
            }
            if m.doubled {
                if !rules.may_double(&s) {
                    return Err(format!(
                        "a double is offered by player {} who may not double (cube owned by the opponent, the Crawford game, a 1-point match or the largest cube)",
                        turn.index()
                    ));
                }
                s.phase = Phase::Doubled;
            } else if m.dice == [0, 0] {
                let may = rules.may_double(&s);
                if roll_chosen && !may {
                    return Err("the third field 'roll' is written only when the player could have doubled".into());
                }
                s.phase = if may && !roll_chosen { Phase::Cube } else { Phase::ToRoll };
            } else {
                let (a, b) = (m.dice[0], m.dice[1]);
                let playable = rules.set_roll(&mut s, a, b);
                if fields.len() == 3 {
                    apply_played(&mut s, fields[2], rules)?;
                } else if !playable {
                    // Docs, "Decision (rolled without a move)": the pass is automatic.
                    rules.pass_turn(&mut s);
                }
            }
        }
        GameState::Dropped => {
            if m.dice != [0, 0] {
                return Err("'game over by a dropped double' (100) with dice: dice must be 0 0".into());
            }
            let winner = turn.other();
            if board[winner.index()][OFF] == CHECKERS || board[turn.index()][OFF] == CHECKERS {
                return Err("'game over by a dropped double' (100) with a player who has borne off all 15 checkers (expected 010)".into());
            }
            if n > 0 && m.score[winner.index()] < n && !game_over_below {
                return Err(format!(
                    "'game over by a dropped double' (100) with the winner's score {} below the match length {n}: between games of a match the position is 'no game started' (000)",
                    m.score[winner.index()]
                ));
            }
            s.phase = Phase::Over;
            s.last_points = s.cube_value() as u16;
            if game_over_below {
                check_points_won(&s, winner)?;
            }
            s.last_winner = winner as i8;
        }
        GameState::Over => {
            if m.dice != [0, 0] {
                return Err("'game over' (010) with dice: dice must be 0 0".into());
            }
            let winner = turn.other();
            if board[winner.index()][OFF] != CHECKERS {
                return Err(format!(
                    "'game over' (010): the winner (player {}, not on turn) must have borne off all 15 checkers",
                    winner.index()
                ));
            }
            if board[turn.index()][OFF] == CHECKERS {
                return Err("'game over' (010): both players have borne off all 15 checkers".into());
            }
            if m.score[winner.index()] < n && !game_over_below {
                return Err(format!(
                    "'game over' (010) with the winner's score {} below the match length {n}: between games of a match the position is 'no game started' (000)",
                    m.score[winner.index()]
                ));
            }
            s.phase = Phase::Over;
            s.last_points = rules.points(&s, winner);
            s.last_winner = winner as i8;
            if game_over_below {
                check_points_won(&s, winner)?;
            }
        }
    }
    Ok(s)
}

/// A finished game's score includes the points just won (reward "equity"
/// reads the score before the game from it).
fn check_points_won(s: &State, winner: Player) -> std::result::Result<(), String> {
    let (score, points) = (s.score[winner.index()], s.last_points);
    if score < points {
        return Err(format!(
            "the winner's score {score} is below the {points} point(s) of the game just won: the score includes the game's points"
        ));
    }
    let loser = s.score[winner.other().index()];
    if loser >= s.match_length {
        return Err(format!("the loser's score {loser} reaches the match length {}", s.match_length));
    }
    if score.saturating_sub(points) >= s.match_length {
        return Err(format!(
            "the winner's score before this game ({}) already reached the match length {}",
            score - points,
            s.match_length
        ));
    }
    Ok(())
}

fn check_scores_below(score: &[u16; 2], n: u16) -> std::result::Result<(), String> {
    if n == 0 {
        return Ok(()); // money play: the scores are a session's running total
    }
    for (p, &sc) in score.iter().enumerate() {
        if sc >= n {
            return Err(format!(
                "player {p}'s score {sc} already reaches the match length {n} but the match is not over"
            ));
        }
    }
    Ok(())
}

/// The end of a mid-turn third field whose turn began with the opponent
/// shut out (reglamento, `open_point="next_turn"`): `…:3+open`.
const OBLIGED: &str = "+open";

/// Applies the third field: the dice already played this turn.
fn apply_played(s: &mut State, field: &str, rules: &Backgammon) -> std::result::Result<(), String> {
    let roll = s.roll;
    let (field, obliged) = match field.strip_suffix(OBLIGED) {
        Some(dice) => (dice, true),
        None => (field, false),
    };
    if obliged && rules.variant.open_point != OpenPoint::NextTurn {
        return Err(format!(
            "the mark {OBLIGED:?} (the turn began with the opponent shut out) belongs to rules='reglamento' with open_point='next_turn' only"
        ));
    }
    if obliged && s.pos().opp[BAR] == 0 {
        return Err(format!(
            "the mark {OBLIGED:?} says the turn began with the opponent shut out on the bar, but the opponent has no checker on the bar"
        ));
    }
    s.obliged = obliged;
    let used: Vec<u8> = field
        .bytes()
        .map(|c| {
            if (b'1'..=b'6').contains(&c) {
                Ok(c - b'0')
            } else {
                Err(format!("dice already played {field:?}: expected digits 1..6"))
            }
        })
        .collect::<std::result::Result<_, _>>()?;
    let full = if roll[0] == roll[1] { 4 } else { 2 };
    if used.is_empty() || used.len() >= full {
        return Err(format!(
            "dice already played {field:?}: expected 1 to {} dice of the roll {}-{}",
            full - 1,
            roll[0],
            roll[1]
        ));
    }
    if roll[0] == roll[1] {
        if used.iter().any(|&d| d != roll[0]) {
            return Err(format!(
                "dice already played {field:?} are not all {} (roll {}-{})",
                roll[0], roll[0], roll[1]
            ));
        }
        s.nleft = (4 - used.len()) as u8;
        s.left = [roll[0]; 4];
        for k in s.nleft as usize..4 {
            s.left[k] = 0;
        }
    } else {
        let d = used[0];
        let other = if d == roll[0] {
            roll[1]
        } else if d == roll[1] {
            roll[0]
        } else {
            return Err(format!("die {d} already played is not one of the roll {}-{}", roll[0], roll[1]));
        };
        s.left = [other, 0, 0, 0];
        s.nleft = 1;
    }
    s.mask = rules.mask_of(s);
    if mask_is_empty(&s.mask) {
        // As a roll without a move: the turn is over and passes.
        rules.pass_turn(s);
    }
    Ok(())
}
