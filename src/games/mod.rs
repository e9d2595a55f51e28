//! One module per game family.
pub mod backgammon;
pub mod draughts;
pub mod tablut;

pub mod alquerque;
