//! `crusades simulate`: many games between AI players, in parallel, summarised as text or
//! JSON (docs/json.md), with an optional plot (SVG or PNG); and the `SEAT=PLAYER` arguments that
//! `simulate` and `play` share.

use std::io::IsTerminal;
use std::path::PathBuf;

use ai::PlayerSpec;
use registry::{Batch, Proportion, Summary};

use crate::commands::{self, Context};
use crate::error::CliError;
use crate::{output, plot};

/// The arguments of `crusades simulate`.
pub struct SimulateArgs {
    /// The full scenario id.
    pub scenario: String,
    /// Games to play.
    pub games: u64,
    /// `SEAT=PLAYER` arguments.
    pub ai: Vec<String>,
    /// Options in use.
    pub options: Vec<String>,
    /// Threads (the machine's cores when not given).
    pub threads: Option<usize>,
    /// The batch's seed, if given.
    pub seed: Option<u64>,
    /// The cap on actions per game.
    pub max_actions: u64,
    /// Whether to print JSON.
    pub json: bool,
    /// Where to write the plot.
    pub plot: Option<PathBuf>,
}

/// Reads `SEAT=PLAYER` arguments (`crusader=mcts:2s`) into seat names and players.
pub fn seat_players(args: &[String]) -> Result<Vec<(String, PlayerSpec)>, CliError> {
    args.iter()
        .map(|a| {
            let (seat, spec) = a.split_once('=').ok_or_else(|| {
                CliError::bad(format!(
                    "--ai {a}: expected SEAT=PLAYER, as in --ai crusader=mcts:2s"
                ))
            })?;
            let spec: PlayerSpec = spec
                .parse()
                .map_err(|e| CliError::bad(format!("--ai {a}: {e}")))?;
            Ok((seat.trim().to_string(), spec))
        })
        .collect()
}

/// `crusades simulate`.
pub fn simulate(ctx: &Context, args: SimulateArgs) -> Result<(), CliError> {
    if args.games == 0 {
        return Err(CliError::bad("--games must be at least 1"));
    }
    if args.threads == Some(0) {
        return Err(CliError::bad("--threads must be at least 1"));
    }
    if args.max_actions == 0 {
        return Err(CliError::bad("--max-actions must be at least 1"));
    }
    let plot_format = args
        .plot
        .as_deref()
        .map(plot::Format::of)
        .transpose()
        .map_err(CliError::bad)?;
    let players = seat_players(&args.ai)?;
    let data = ctx.data()?;
    let seed = args.seed.unwrap_or_else(commands::fresh_seed);
    let threads = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(args.games);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} games, {eta} left",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar
    });
    let progress = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    let result = registry::simulate(
        &args.scenario,
        &args.options,
        &players,
        Batch {
            games: args.games,
            seed,
            threads,
            max_actions: args.max_actions,
        },
        &data,
        &progress,
    );
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let summary = result?;
    if let (Some(path), Some(format)) = (&args.plot, plot_format) {
        let picture = plot::picture(&summary, format).map_err(CliError::other)?;
        commands::write_atomic(path, &picture)?;
    }
    if args.json {
        let body = serde_json::to_value(&summary).expect("a summary serialises");
        output::print(body);
    } else {
        for line in text(&summary, threads) {
            say!("{line}");
        }
        if let Some(path) = &args.plot {
            say!("Wrote {}.", path.display());
        }
    }
    Ok(())
}

/// `43 (43.0%, 95% CI 33.7-52.8%)`.
fn share(p: &Proportion) -> String {
    format!(
        "{:>6} ({:.1}%, 95% CI {:.1}-{:.1}%)",
        p.count,
        100.0 * p.rate,
        100.0 * p.low,
        100.0 * p.high
    )
}

/// A number with at most two decimals, without trailing zeros.
fn number(x: f64) -> String {
    let t = format!("{x:.2}");
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The summary for humans.
fn text(s: &Summary, threads: usize) -> Vec<String> {
    let mut out = vec![format!(
        "{}{}: {} games (seed {}, {} thread{}){}",
        s.scenario,
        if s.options.is_empty() {
            String::new()
        } else {
            format!(" with {}", s.options.join(", "))
        },
        s.games,
        s.seed,
        threads,
        if threads == 1 { "" } else { "s" },
        if s.deterministic {
            ""
        } else {
            "; time-limited players: another run will differ"
        }
    )];
    out.push(format!(
        "Players: {}",
        s.seats
            .iter()
            .map(|x| format!("{} {}", x.seat, x.player))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let width = s
        .seats
        .iter()
        .map(|x| x.seat.len() + 5)
        .chain([5])
        .max()
        .unwrap_or(5);
    for x in &s.seats {
        out.push(format!(
            "  {:<width$} {}",
            format!("{} wins", x.seat),
            share(&x.wins)
        ));
    }
    out.push(format!("  {:<width$} {}", "draws", share(&s.draws)));
    if s.unfinished > 0 {
        out.push(format!(
            "  {} games were stopped unfinished at {} actions",
            s.unfinished, s.max_actions
        ));
    }
    if s.outcomes.iter().any(|o| o.level.is_some()) {
        out.push("Outcomes:".into());
        for o in &s.outcomes {
            let who = match (&o.winner, &o.level) {
                (Some(w), Some(l)) => format!("{w} ({l})"),
                (Some(w), None) => w.clone(),
                (None, _) => "draw".into(),
            };
            out.push(format!("  {who}: {}", o.games));
        }
    }
    out.push(format!(
        "Game length (actions): mean {}, median {}, min {}, max {}",
        number(s.length.mean),
        s.length.median,
        s.length.min,
        s.length.max
    ));
    if !s.stats.is_empty() {
        out.push("Stats (mean, min-max):".into());
        for x in &s.stats {
            let name = match &x.seat {
                Some(seat) => format!("{} {seat}", x.name),
                None => x.name.clone(),
            };
            out.push(format!(
                "  {name}: {} ({}-{})",
                number(x.mean),
                number(x.min),
                number(x.max)
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_players_read_seat_and_player() {
        let v = seat_players(&["east=mcts:20".into(), "West = random".into()]).unwrap();
        assert_eq!(v[0].0, "east");
        assert_eq!(v[0].1.to_string(), "mcts:20");
        assert_eq!(v[1], ("West".to_string(), PlayerSpec::Random));
        let e = seat_players(&["east".into()]).unwrap_err();
        assert!(e.message.contains("expected SEAT=PLAYER"), "{}", e.message);
        let e = seat_players(&["east=deep-blue".into()]).unwrap_err();
        assert!(e
            .message
            .starts_with("--ai east=deep-blue: `deep-blue` is not a player"));
        assert_eq!(e.code, crate::error::BAD_INPUT);
    }

    #[test]
    fn numbers_drop_trailing_zeros() {
        assert_eq!(number(41.0), "41");
        assert_eq!(number(41.5), "41.5");
        assert_eq!(number(2.0 / 3.0), "0.67");
    }
}
