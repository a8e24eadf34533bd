//! What a client needs to offer an action without knowing the game: the counters it is
//! about, where it goes or aims, and the odds and modifiers to show before it is committed
//! (DESIGN.md, "The game abstraction"; the web client's "select a unit and see where it can
//! go").

use hexgrid::{HexId, Vertex};
use serde::{Deserialize, Serialize};

/// One legal action, described for a player choosing it.
///
/// Built only from what the deciding seat may see: a description never names another seat's
/// secrets (the shared determinize check compares descriptions across re-sampled states).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionInfo {
    /// The action's notation, exactly as it is sent back to take it.
    pub notation: String,
    /// Its verb (`move`, `fire`, `melee`, `end-movement`): the first word of the notation, or
    /// the second where the notation starts with the counter (The Crusades' orders).
    pub kind: String,
    /// A sentence for a button or a confirmation ("Move Ray a to 1012 facing NNE").
    pub label: String,
    /// Ids of the board counters ([`crate::board::BoardCounter::id`]) that act.
    #[serde(default)]
    pub counters: Vec<String>,
    /// The hex it moves to, places in or aims at.
    #[serde(default)]
    pub hex: Option<HexId>,
    /// The facing at the end, where it has one.
    #[serde(default)]
    pub facing: Option<Vertex>,
    /// The hexes entered, in order, ending with [`ActionInfo::hex`] (empty when it moves
    /// nothing or the path is not known in advance).
    #[serde(default)]
    pub path: Vec<HexId>,
    /// Ids of the board counters aimed at (fire and melee targets).
    #[serde(default)]
    pub targets: Vec<String>,
    /// What to show before committing: odds, columns, every modifier, costs.
    #[serde(default)]
    pub details: Vec<String>,
}

impl ActionInfo {
    /// A description knowing only the notation: the kind is its first word and the label
    /// the notation itself. Games refine it ([`crate::Game::describe_action`]).
    pub fn from_notation(notation: impl Into<String>) -> Self {
        let notation = notation.into();
        ActionInfo {
            kind: notation
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .to_string(),
            label: notation.clone(),
            notation,
            ..ActionInfo::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_is_the_first_word_of_the_notation() {
        let info = ActionInfo::from_notation("move Ray-a 1012 NNE");
        assert_eq!(info.kind, "move");
        assert_eq!(info.label, "move Ray-a 1012 NNE");
        assert_eq!(info.notation, "move Ray-a 1012 NNE");
        assert!(info.counters.is_empty() && info.hex.is_none());
        assert_eq!(ActionInfo::from_notation("").kind, "");
    }
}
