//! Constructor options: declared per game in the registry, checked once when a
//! game is built, then read with typed getters.

use crate::error::{GameError, Result};
use std::collections::BTreeMap;
use std::fmt;

/// A value given for an option.
#[derive(Clone, Debug, PartialEq)]
pub enum OptValue {
    Bool(bool),
    Int(i64),
    Str(String),
}

impl fmt::Display for OptValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptValue::Bool(b) => write!(f, "{}", if *b { "True" } else { "False" }),
            OptValue::Int(i) => write!(f, "{i}"),
            OptValue::Str(s) => write!(f, "'{s}'"),
        }
    }
}

/// What an option accepts, with its default.
#[derive(Clone, Copy, Debug)]
pub enum OptKind {
    Bool(bool),
    /// An integer in `[min, max]`.
    Int {
        default: i64,
        min: i64,
        max: i64,
    },
    /// One of the listed words; the first is the default.
    Choice(&'static [&'static str]),
}

/// One declared option of a game.
#[derive(Clone, Copy, Debug)]
pub struct OptSpec {
    pub name: &'static str,
    pub kind: OptKind,
    pub doc: &'static str,
}

impl OptSpec {
    pub fn default_value(&self) -> OptValue {
        match self.kind {
            OptKind::Bool(b) => OptValue::Bool(b),
            OptKind::Int { default, .. } => OptValue::Int(default),
            OptKind::Choice(words) => OptValue::Str(words[0].to_string()),
        }
    }

    fn check(&self, game: &str, v: &OptValue) -> Result<OptValue> {
        let bad =
            |message: String| GameError::BadOption { game: game.to_string(), name: self.name.to_string(), message };
        match (self.kind, v) {
            (OptKind::Bool(_), OptValue::Bool(_)) => Ok(v.clone()),
            (OptKind::Int { min, max, .. }, OptValue::Int(i)) => {
                if *i < min || *i > max {
                    Err(bad(format!("expected an integer in [{min}, {max}], got {i}")))
                } else {
                    Ok(v.clone())
                }
            }
            (OptKind::Choice(words), OptValue::Str(s)) => {
                if words.contains(&s.as_str()) {
                    Ok(v.clone())
                } else {
                    Err(bad(format!("expected one of {}, got {s:?}", quoted(words))))
                }
            }
            (kind, v) => Err(bad(format!("expected {}, got {v}", kind.describe()))),
        }
    }
}

impl OptKind {
    fn describe(&self) -> String {
        match self {
            OptKind::Bool(_) => "a bool".into(),
            OptKind::Int { min, max, .. } => format!("an integer in [{min}, {max}]"),
            OptKind::Choice(words) => format!("one of {}", quoted(words)),
        }
    }
}

fn quoted(words: &[&str]) -> String {
    words.iter().map(|w| format!("{w:?}")).collect::<Vec<_>>().join(", ")
}

/// The complete, checked options of one game: every declared option has a value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    values: BTreeMap<String, OptValue>,
}

impl Options {
    /// Checks `given` against `specs` and fills in the defaults.
    pub fn resolve(game: &str, specs: &[OptSpec], given: &[(String, OptValue)]) -> Result<Options> {
        let mut values = BTreeMap::new();
        for spec in specs {
            values.insert(spec.name.to_string(), spec.default_value());
        }
        for (name, v) in given {
            let spec = specs.iter().find(|s| s.name == name).ok_or_else(|| GameError::UnknownOption {
                game: game.to_string(),
                name: name.clone(),
                known: specs.iter().map(|s| s.name).collect::<Vec<_>>().join(", "),
            })?;
            values.insert(name.clone(), spec.check(game, v)?);
        }
        Ok(Options { values })
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &OptValue)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v))
    }

    pub fn get(&self, name: &str) -> Option<&OptValue> {
        self.values.get(name)
    }

    /// A declared bool option. Panics only on a programming error (undeclared name).
    pub fn bool(&self, name: &str) -> bool {
        match self.values.get(name) {
            Some(OptValue::Bool(b)) => *b,
            other => panic!("option {name} is not a declared bool: {other:?}"),
        }
    }

    pub fn int(&self, name: &str) -> i64 {
        match self.values.get(name) {
            Some(OptValue::Int(i)) => *i,
            other => panic!("option {name} is not a declared int: {other:?}"),
        }
    }

    pub fn str(&self, name: &str) -> &str {
        match self.values.get(name) {
            Some(OptValue::Str(s)) => s,
            other => panic!("option {name} is not a declared choice: {other:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[OptSpec] = &[
        OptSpec { name: "flag", kind: OptKind::Bool(false), doc: "" },
        OptSpec { name: "n", kind: OptKind::Int { default: 5, min: 1, max: 9 }, doc: "" },
        OptSpec { name: "mode", kind: OptKind::Choice(&["a", "b"]), doc: "" },
    ];

    #[test]
    fn defaults_fill_in_and_values_are_checked() {
        let o = Options::resolve("g", SPECS, &[("n".into(), OptValue::Int(7))]).unwrap();
        assert!(!o.bool("flag"));
        assert_eq!(o.int("n"), 7);
        assert_eq!(o.str("mode"), "a");
        let e = Options::resolve("g", SPECS, &[("n".into(), OptValue::Int(10))]).unwrap_err();
        assert!(e.to_string().contains("[1, 9]"), "{e}");
        let e = Options::resolve("g", SPECS, &[("mode".into(), OptValue::Str("c".into()))]).unwrap_err();
        assert!(e.to_string().contains("\"a\", \"b\""), "{e}");
        let e = Options::resolve("g", SPECS, &[("nope".into(), OptValue::Bool(true))]).unwrap_err();
        assert!(e.to_string().contains("known: flag, n, mode"), "{e}");
        let e = Options::resolve("g", SPECS, &[("flag".into(), OptValue::Int(1))]).unwrap_err();
        assert!(e.to_string().contains("expected a bool"), "{e}");
    }
}
