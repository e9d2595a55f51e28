//! One module per game family.
