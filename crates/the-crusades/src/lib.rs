//! The Crusades (SPI): the Third Crusade (1191-1192) on the strategic map of the Levant,
//! with secret written orders, every rule enforced.
//!
//! Files follow the rulebook's chapters:
//!
//! | rulebook | file |
//! |---|---|
//! | 3.1 The Map | [`map`], data in `data/the-crusades/map.toml` |
//! | 3.3 Charts and Tables | [`tables`], data in `data/the-crusades/tables.toml` |
//! | 4.0 Sequence of Play | [`sequence`] |
//! | 5.0 Orders | [`orders`], [`action`]; described for players in [`describe`] |
//! | 6.0 Land Movement | [`movement`] |
//! | 6.4 Movement Attrition, 13.2 winter attrition | [`attrition`] |
//! | 7.0 Zones of Influence | [`zoi`] |
//! | 8.0 Leaders (commanders) | [`combat::commander`] |
//! | 9.0 Combat (9.8.3 moving on after an overrun: [`combat::move_on`]) | [`combat`] |
//! | 9.7.5-9.7.6 captured leaders, ransom and exchange | [`captives`] |
//! | 3.6 B, 6.4.5, 9.5 D loss distribution and the loss order | [`attrition::spread_loss`] |
//! | 10.0 Sieges, 10.4.2 surrender | [`siege`] |
//! | 11.0 Lines of Communication | [`supply`] |
//! | 12.0 Naval Rules | [`naval`] |
//! | 13.0 Weather | [`movement::allowance`], [`attrition`], [`naval`], [`scenario`] (calendar) |
//! | 14.0 Random Events | [`events`] |
//! | 15.0 Neutrals | [`neutrals`] |
//! | 16.0 The Third Crusade: set-up, reinforcements | [`scenario`], [`sequence`] |
//! | 16.5 Victory | [`victory`] |
//! | the `heuristic` AI player's doctrine | [`doctrine`] |
//!
//! Rule choices where the text is ambiguous are in `docs/the-crusades/rules-notes.md`.

pub mod action;
pub mod attrition;
pub mod captives;
pub mod combat;
pub mod data;
pub mod describe;
pub mod doctrine;
pub mod events;
pub mod game;
pub mod map;
pub mod movement;
pub mod naval;
pub mod neutrals;
pub mod orders;
pub mod scenario;
pub mod sequence;
pub mod siege;
pub mod state;
pub mod supply;
pub mod tables;
pub mod victory;
pub mod view;
pub mod zoi;

pub use action::Action;
pub use doctrine::Doctrine;
pub use game::audit;
pub use state::State;

use include_dir::{include_dir, Dir};

/// The built-in data files of The Crusades (`data/the-crusades/`).
static DATA: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../../data/the-crusades");

/// The built-in data set, paths relative to the data root (`the-crusades/map.toml`).
pub fn builtin_data() -> engine::DataSet {
    let mut files = Vec::new();
    collect(&DATA, &mut files);
    engine::DataSet::from_files(files.iter().map(|(p, t)| (p.as_str(), *t)))
}

/// The Third Crusade as a fresh seeded game starts it, for the modules' unit tests.
#[cfg(test)]
pub(crate) fn third_crusade(seed: u64) -> State {
    engine::Session::<State>::new(
        engine::Setup::seeded("third-crusade", seed),
        &builtin_data(),
        "the-crusades",
    )
    .expect("the Third Crusade starts")
    .state()
    .clone()
}

fn collect(dir: &'static Dir<'static>, out: &mut Vec<(String, &'static str)>) {
    for f in dir.files() {
        if let Some(text) = f.contents_utf8() {
            out.push((format!("the-crusades/{}", f.path().display()), text));
        }
    }
    for d in dir.dirs() {
        collect(d, out);
    }
}
