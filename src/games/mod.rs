//! One module per game family.
pub mod tablut;
pub mod backgammon;
pub mod draughts;

pub mod alquerque;
