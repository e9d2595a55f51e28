//! The preset table (spec draughts.md "Presets"): every variant is a row.

/// Where a king lands after jumping a piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Landing {
    /// On the square right behind the captured piece.
    RightBehind,
    /// On any empty square behind it (up to the next piece or the edge).
    Any,
}

/// Which captures a player may choose among.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Any (complete) capture.
    Any,
    /// A king must capture if any king can (damas, damas_10x10: part of a
    /// *correct* capture).
    KingPriority,
    /// A sequence that takes the most pieces (international, brazilian).
    Majority,
}

/// What a man does when a capture passes over its far row.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MidPromotion {
    /// It stays a man and may continue; it promotes only if it ends there.
    PassThrough,
    /// It promotes at once and continues capturing as a king (russian).
    PromoteAndContinue,
    /// The move ends there and it promotes (checkers).
    EndsMove,
}

/// What a huff is (soplo presets).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Huff {
    /// No soplo: capturing is compulsory.
    None,
    /// The huff is the whole turn (tablero rule 13).
    WholeTurn,
    /// Huff, then a normal move in the same turn (damas, damas_10x10).
    ThenMove,
}

/// The preset's end-of-game rules beyond "no pieces or no action loses".
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Draws {
    None,
    /// Both sides only kings, same number: draw (rule 17).
    Tablero,
    /// Blocked both, one against one, 2 kings v 1 king in 5, anti-shuffle.
    Damas,
    /// Kings only: 10 turns.
    Damas10,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum First {
    Random,
    P0,
    P1,
}

/// One row of the preset table.
#[derive(Copy, Clone, Debug)]
pub struct Preset {
    pub id: &'static str,
    pub size: u8,
    /// Men per side at the start.
    pub men: u8,
    /// Colour letter of player 0 (`B` or `W`); player 1 has the other.
    pub colour0: char,
    pub first: First,
    pub men_back: bool,
    pub flying: bool,
    pub landing: Landing,
    pub choice: Choice,
    pub mid_promotion: MidPromotion,
    pub huff: Huff,
    pub force: bool,
    pub draws: Draws,
    pub max_turns: u32,
}

impl Preset {
    pub fn soplo(&self) -> bool {
        self.huff != Huff::None
    }

    /// Colour letter of player `p`.
    pub fn colour(&self, p: usize) -> char {
        match (p, self.colour0) {
            (0, c) => c,
            (_, 'B') => 'W',
            _ => 'B',
        }
    }

    /// Turns after which the counter draw rule draws (0: none).
    pub fn k_limit(&self) -> u8 {
        match self.draws {
            Draws::Damas => 5,
            Draws::Damas10 => 10,
            _ => 0,
        }
    }
}

const SOPLO_BASE: Preset = Preset {
    id: "",
    size: 8,
    men: 12,
    colour0: 'B',
    first: First::P0,
    men_back: false,
    flying: true,
    landing: Landing::Any,
    choice: Choice::Any,
    // Men capture forwards only: from the far row they cannot continue.
    mid_promotion: MidPromotion::PassThrough,
    huff: Huff::ThenMove,
    force: true,
    draws: Draws::None,
    max_turns: 300,
};

const INTERNATIONAL_BASE: Preset = Preset {
    id: "",
    size: 10,
    men: 20,
    colour0: 'W',
    first: First::P0,
    men_back: true,
    flying: true,
    landing: Landing::Any,
    choice: Choice::Majority,
    mid_promotion: MidPromotion::PassThrough,
    huff: Huff::None,
    force: false,
    draws: Draws::None,
    max_turns: 400,
};

pub const TABLERO: Preset = Preset {
    id: "tablero",
    first: First::Random,
    landing: Landing::RightBehind,
    huff: Huff::WholeTurn,
    force: false,
    draws: Draws::Tablero,
    ..SOPLO_BASE
};
pub const DAMAS: Preset = Preset { id: "damas", choice: Choice::KingPriority, draws: Draws::Damas, ..SOPLO_BASE };
pub const DAMAS_10X10: Preset = Preset {
    id: "damas_10x10",
    size: 10,
    men: 15,
    choice: Choice::KingPriority,
    draws: Draws::Damas10,
    max_turns: 400,
    ..SOPLO_BASE
};
pub const INTERNATIONAL: Preset = Preset { id: "international", ..INTERNATIONAL_BASE };
pub const BRAZILIAN: Preset = Preset { id: "brazilian", size: 8, men: 12, max_turns: 300, ..INTERNATIONAL_BASE };
pub const RUSSIAN: Preset = Preset {
    id: "russian",
    size: 8,
    men: 12,
    choice: Choice::Any,
    mid_promotion: MidPromotion::PromoteAndContinue,
    max_turns: 300,
    ..INTERNATIONAL_BASE
};
pub const CHECKERS: Preset = Preset {
    id: "checkers",
    size: 8,
    men: 12,
    first: First::P1,
    men_back: false,
    flying: false,
    landing: Landing::RightBehind,
    choice: Choice::Any,
    mid_promotion: MidPromotion::EndsMove,
    max_turns: 300,
    ..INTERNATIONAL_BASE
};

pub const PRESETS: [&Preset; 7] = [&TABLERO, &DAMAS, &DAMAS_10X10, &INTERNATIONAL, &BRAZILIAN, &RUSSIAN, &CHECKERS];
