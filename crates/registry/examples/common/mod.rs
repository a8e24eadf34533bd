//! What the registry's examples that measure a game's doctrine share (`agreement`,
//! `calibration`): their command lines, and running a measurement on every scenario of a game
//! with a doctrine, one JSON line each.

use ai::Doctrine;
use engine::{DataSet, Startable};

/// A command line of `--name value` flags and `--help`, read front to back; a mistake prints
/// what is wrong and the help, and exits with status 2.
pub struct Args {
    help: &'static str,
    args: std::iter::Skip<std::env::Args>,
}

impl Args {
    /// The program's arguments, with `help` to print.
    pub fn new(help: &'static str) -> Self {
        Args {
            help,
            args: std::env::args().skip(1),
        }
    }

    /// The next flag, or `None` at the end; `-h` or `--help` prints the help and exits.
    pub fn flag(&mut self) -> Option<String> {
        let flag = self.args.next()?;
        if flag == "-h" || flag == "--help" {
            println!("{}", self.help);
            std::process::exit(0)
        }
        Some(flag)
    }

    /// The value after flag `name`.
    pub fn value(&mut self, name: &str) -> String {
        match self.args.next() {
            Some(v) => v,
            None => self.fail(&format!("{name} needs a value")),
        }
    }

    /// The number after flag `name`, at least `least`.
    pub fn number(&mut self, name: &str, least: u64) -> u64 {
        let text = self.value(name);
        match text.parse() {
            Ok(n) if n >= least => n,
            _ => self.fail(&format!(
                "{name} needs a number of at least {least}, not `{text}`"
            )),
        }
    }

    /// Says `message` and the help, and exits with status 2.
    pub fn fail(&self, message: &str) -> ! {
        eprintln!("{message}\n{}", self.help);
        std::process::exit(2)
    }
}

/// A measurement of one scenario of any game with a doctrine, as a JSON value.
pub trait Measure {
    /// Measures `scenario` (a full id, `crusades-ii/hab`) of game `G` (id `game`), whose
    /// doctrine is `D`.
    fn measure<G: Startable, D: Doctrine<G>>(
        &self,
        game: &str,
        scenario: &str,
        data: &DataSet,
    ) -> Result<serde_json::Value, String>;
}

/// The games with a doctrine, which [`each_scenario`] measures when no scenario is named (the
/// toy test game, registered when a build enables the `toy` feature, has none).
const GAMES_WITH_DOCTRINE: [&str; 3] = ["crusades-ii", "the-crusades", "acre"];

/// Runs `measure` on each of `scenarios` (every scenario of a game with a doctrine when empty)
/// and prints one JSON line each; a scenario named that it cannot measure (unknown, or of a
/// game without a doctrine) is named on stderr, and the run then ends with status 2.
pub fn each_scenario(scenarios: Vec<String>, measure: &impl Measure) {
    let data = registry::all_data(None).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let scenarios = if scenarios.is_empty() {
        registry::scenarios(&data)
            .unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(2)
            })
            .into_iter()
            .map(|s| s.id)
            .filter(|id| GAMES_WITH_DOCTRINE.contains(&id.split('/').next().unwrap_or("")))
            .collect()
    } else {
        scenarios
    };
    let mut failed = false;
    for scenario in scenarios {
        let game = scenario.split('/').next().unwrap_or("");
        let result = match game {
            "crusades-ii" => {
                measure.measure::<crusades_ii::State, crusades_ii::Doctrine>(game, &scenario, &data)
            }
            "the-crusades" => measure
                .measure::<the_crusades::State, the_crusades::Doctrine>(game, &scenario, &data),
            "acre" => measure.measure::<acre::State, acre::Doctrine>(game, &scenario, &data),
            _ => Err(format!("no doctrine for `{scenario}`")),
        };
        match result {
            Ok(v) => println!("{v}"),
            Err(e) => {
                eprintln!("{scenario}: {e}");
                failed = true;
            }
        }
    }
    if failed {
        std::process::exit(2);
    }
}

/// The id of `scenario` within `game` (`hab` of `crusades-ii/hab`).
pub fn scenario_id<'a>(game: &str, scenario: &'a str) -> Result<&'a str, String> {
    scenario
        .strip_prefix(game)
        .and_then(|s| s.strip_prefix('/'))
        .ok_or_else(|| format!("`{scenario}` is not a scenario of {game}"))
}
