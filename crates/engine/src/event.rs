//! Events: what happened, the rule case it came from, the dice with their modifiers and the
//! table cell they hit, and who may see it.

use serde::{Deserialize, Serialize};

use crate::game::{Viewer, Visibility};

/// One die-roll modifier with its reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    /// Why it applies ("Stand command", "leader Saladin").
    pub reason: String,
    /// The amount added to the roll.
    pub value: i32,
}

/// A roll as the rules used it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollRecord {
    /// What the roll was for ("morale of Ray a").
    pub purpose: String,
    /// The faces read.
    pub dice: Vec<u8>,
    /// The modifiers applied.
    pub modifiers: Vec<Modifier>,
    /// The modified total.
    pub total: i32,
    /// The table and cell consulted, if any ("Melee Table, 16-20, row 7").
    pub cell: Option<String>,
    /// The result read.
    pub result: String,
}

/// Something that happened in a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// The rule case that governs it (`Crusades II 9.32`).
    pub case: String,
    /// What happened, in the game's words.
    pub text: String,
    /// Rolls made, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<RollRecord>,
    /// Who may see it.
    pub visibility: Visibility,
}

impl Event {
    /// A public event.
    pub fn public(case: impl Into<String>, text: impl Into<String>) -> Self {
        Event {
            case: case.into(),
            text: text.into(),
            rolls: Vec::new(),
            visibility: Visibility::All,
        }
    }

    /// An event only `seats` may see.
    pub fn private(
        case: impl Into<String>,
        text: impl Into<String>,
        seats: Vec<crate::game::Seat>,
    ) -> Self {
        Event {
            case: case.into(),
            text: text.into(),
            rolls: Vec::new(),
            visibility: Visibility::Seats(seats),
        }
    }

    /// The same event with a roll attached.
    pub fn with_roll(mut self, roll: RollRecord) -> Self {
        self.rolls.push(roll);
        self
    }
}

/// Where rules write their events. Search and simulation use a log that keeps nothing, so
/// events are built lazily.
#[derive(Clone, Debug, Default)]
pub struct Log {
    keep: bool,
    events: Vec<Event>,
}

impl Log {
    /// A log that keeps every event.
    pub fn recording() -> Self {
        Log {
            keep: true,
            events: Vec::new(),
        }
    }

    /// A log that keeps nothing (for search and bulk simulation).
    pub fn discarding() -> Self {
        Log {
            keep: false,
            events: Vec::new(),
        }
    }

    /// Whether events are kept; rules may skip preparing text when not.
    pub fn is_recording(&self) -> bool {
        self.keep
    }

    /// Records the event `make` builds, if this log keeps events.
    pub fn push_with(&mut self, make: impl FnOnce() -> Event) {
        if self.keep {
            self.events.push(make());
        }
    }

    /// The events kept so far.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Takes the events kept so far.
    pub fn take(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }
}

/// The events of `events` that `viewer` may see. The one place where the log is filtered.
pub fn visible_events<'a>(
    events: impl IntoIterator<Item = &'a Event>,
    viewer: Viewer,
) -> Vec<&'a Event> {
    events
        .into_iter()
        .filter(|e| viewer.sees(&e.visibility))
        .collect()
}
