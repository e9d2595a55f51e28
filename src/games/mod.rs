//! One module per game family.

pub mod alquerque;
