//! The Art of Siege: Acre (SPI): the Crusader siege of Acre in June and July 1191, with
//! Saladin's relieving army outside, every rule enforced.
//!
//! Files follow the rulebook's chapters: the data and the rules of each chapter, a set of
//! functions over a [`Position`] and the loaded [`Rules`] data, tested against the
//! rulebook's worked examples. The game itself, an [`engine::Game`] whose actions drive
//! every step of the Sequence of Play, is [`State`] ([`state`], [`action`], [`play`],
//! [`moves`], [`view`], [`describe`], [`game`]); what it does not play yet is listed in
//! `docs/acre/status.md`.
//!
//! | rulebook | file |
//! |---|---|
//! | the game: state, actions and notation, the steps played, views | [`state`], [`action`], [`play`], [`moves`], [`view`], [`describe`], [`game`] |
//! | data: map, counters, tables, scenario | [`data`] (files), [`map`], [`rules`] (typed, checked) |
//! | where everything stands | [`position`] |
//! | 4.0 Sequence of Play: the steps, impulses, the early end | [`sequence`] |
//! | 4.0 1.A Allocation Segment: the secret plans, what each side sees, the phases | [`planning`] |
//! | 5.0 Movement, 5.5 Stacking (with 14.12, 15.11, 15.14) | [`movement`] |
//! | 6.0 Zones of Control | [`zoc`] |
//! | 7.0 Intervention | [`intervention`] |
//! | 8.0 Bombardment, Counter-Bombardment, Repair; 12.0 engines damaged and returned | [`bombardment`] |
//! | 9.0 Fire Combat | [`fire`]; 9.24-9.3 retreats in [`retreat`] |
//! | 10.0 Melee Combat (odds, morale, ladder rolls, advance after combat, overruns) | [`melee`] |
//! | 11.0 Regrouping (isolation, pairs) | [`regroup`] |
//! | 13.0 Engineering | [`engineering`] |
//! | 14.0 Leaders | [`leaders`] |
//! | 15.0 Cavalry and the Naphtha Grenadiers, 10.2 retreat before combat | [`cavalry`] |
//! | 17.0 Initial Set-Up, the historical quick start | [`setup`] |
//! | 18.0 Victory | [`victory`] |
//! | the `heuristic` AI player's doctrine | [`doctrine`] |
//!
//! Rule choices where the text is ambiguous are in `docs/acre/rules-notes.md`.

pub mod action;
pub mod bombardment;
pub mod cavalry;
pub mod data;
pub mod describe;
pub mod doctrine;
pub mod engineering;
pub mod fire;
pub mod game;
pub mod intervention;
pub mod leaders;
pub mod map;
pub mod melee;
pub mod movement;
pub mod moves;
pub mod planning;
pub mod play;
pub mod position;
pub mod regroup;
pub mod retreat;
pub mod rules;
pub mod sequence;
pub mod setup;
pub mod state;
pub mod victory;
pub mod view;
pub mod zoc;

pub use action::Action;
pub use doctrine::Doctrine;
pub use game::audit;
pub use position::Position;
pub use rules::Rules;
pub use state::State;

use include_dir::{include_dir, Dir};

/// The built-in data files of Acre (`data/acre/`).
static DATA: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../../data/acre");

/// The built-in data set, paths relative to the data root (`acre/tables.toml`).
pub fn builtin_data() -> engine::DataSet {
    let files: Vec<(String, &'static str)> = DATA
        .files()
        .filter_map(|f| {
            f.contents_utf8()
                .map(|t| (format!("acre/{}", f.path().display()), t))
        })
        .collect();
    engine::DataSet::from_files(files.iter().map(|(p, t)| (p.as_str(), *t)))
}

/// What the chapters' unit tests share: the built-in rules on an empty position.
#[cfg(test)]
mod test_support {
    use crate::position::{Location, Position};
    use crate::rules::Rules;

    /// The built-in rules and an empty position.
    pub fn setup() -> (Rules, Position) {
        let r = Rules::load(&crate::builtin_data()).unwrap();
        let p = Position::empty(&r);
        (r, p)
    }

    /// Puts `unit` on the map at `hex`; returns its index.
    pub fn put(r: &Rules, p: &mut Position, unit: &str, hex: &str) -> usize {
        let u = r.unit(unit).unwrap();
        p.units[u].at = Location::Map(r.map.hex(hex).unwrap());
        u
    }
}
