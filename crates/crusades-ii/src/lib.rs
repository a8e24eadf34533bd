//! Crusades II (3W): tactical battles of the Crusades — Hattin, Hab, Nicopolis and
//! Tannenburg — with command chits, facing, fire, melee and morale, every rule enforced.
//!
//! Files follow the rulebook's chapters:
//!
//! | rulebook | file |
//! |---|---|
//! | 3.0 Sequence of Play | [`sequence`] |
//! | 4.0 Leaders, 5.0 Command | [`command`] (casualties in [`morale`]) |
//! | 6.0 Facing and Zones of Control | [`zoc`] |
//! | 7.0 Stacking, 8.0 Movement | [`movement`] |
//! | 9.1-9.2 Fire Combat, Line of Sight | [`fire`] |
//! | 9.3-9.5 Melee, Advance and Retreat | [`melee`], retreats in [`morale`] |
//! | 10.0 Morale | [`morale`] |
//! | 11.0 Victory Conditions | [`victory`] |
//! | 12.0-15.0 The Scenarios | [`setup`], data in `data/crusades-ii/` |
//! | 16.0 Advanced Rules: names of the options | [`options`] |
//! | 16.1, 16.11, 16.13 Advanced Sequence of Play, Action Chits, Turn Ends; 16.3 Split Commands; 16.5 Optional Victory | [`advanced`] |
//! | 16.12 Off Map Leader Boxes | [`view`] |
//! | 16.2, 16.4, 16.41, 16.6 melee modifiers, berserk combats | [`melee`] |
//! | 16.41-16.43 berserk morale, exhaustion and its removal | [`morale`] (movement limits in [`movement`]) |
//!
//! The doctrine of play of the `heuristic` player and of guided searches, citing the cases it
//! relies on, is in [`doctrine`].
//!
//! Rule choices where the text is ambiguous are in `docs/crusades-ii/rules-notes.md`.

pub mod action;
pub mod advanced;
pub mod command;
pub mod data;
pub mod describe;
pub mod doctrine;
pub mod evaluation;
pub mod fire;
pub mod game;
pub mod melee;
pub mod morale;
pub mod movement;
pub mod options;
pub mod position;
pub mod scenario;
pub mod sequence;
pub mod setup;
pub mod state;
pub mod victory;
pub mod view;
pub mod zoc;

pub use action::Action;
pub use doctrine::Doctrine;
pub use game::audit;
pub use state::State;

use include_dir::{include_dir, Dir};

/// The built-in data files of Crusades II (`data/crusades-ii/`).
static DATA: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../../data/crusades-ii");

/// The built-in data set, paths relative to the data root (`crusades-ii/tables.toml`).
pub fn builtin_data() -> engine::DataSet {
    let mut files = Vec::new();
    collect(&DATA, &mut files);
    engine::DataSet::from_files(files.iter().map(|(p, t)| (p.as_str(), *t)))
}

fn collect(dir: &'static Dir<'static>, out: &mut Vec<(String, &'static str)>) {
    for f in dir.files() {
        if let Some(text) = f.contents_utf8() {
            out.push((format!("crusades-ii/{}", f.path().display()), text));
        }
    }
    for d in dir.dirs() {
        collect(d, out);
    }
}
