//! A cart's BulletML patterns, numbered: running scripts name their pattern by its number
//! (so the bullet unit holds no cart data and its state can be saved), and carts by its name.

use std::collections::BTreeMap;

use super::pattern::Pattern;

/// Patterns by number, with their names.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct PatternLibrary {
    patterns: Vec<Pattern>,
    names: BTreeMap<String, usize>,
}

impl PatternLibrary {
    /// Adds `pattern` under `name`; `false` (and nothing added) if the name is taken.
    pub fn insert(&mut self, name: String, pattern: Pattern) -> bool {
        if self.names.contains_key(&name) {
            return false;
        }
        self.names.insert(name, self.patterns.len());
        self.patterns.push(pattern);
        true
    }

    /// The number of pattern `name`.
    pub fn id(&self, name: &str) -> Option<usize> {
        self.names.get(name).copied()
    }

    /// Every pattern, by number.
    pub fn patterns(&self) -> &[Pattern] {
        &self.patterns
    }
}
