//! Plays seeded games of a Crusades II scenario in which the doctrine scores every legal
//! action at every decision and its best is played, and prints one JSON line: games,
//! decisions, doctrine calls and actions scored. A fixed amount of the doctrine's work, for
//! instruction counts of its scoring alone:
//!
//! `valgrind --tool=callgrind --toggle-collect='*Tactics*scores*' \
//!   target/release/examples/crusades_ii_doctrine hab 2 400`
//!
//! Arguments: scenario (hab), games (1), decisions per game at most (400).

use ai::Policy;
use crusades_ii::doctrine::Tactics;
use engine::{Game, Log, Pending, Setup, Startable};

fn main() {
    let mut args = std::env::args().skip(1);
    let scenario = args.next().unwrap_or_else(|| "hab".into());
    let games: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
    let plies: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(400);
    let data = crusades_ii::builtin_data();
    let (mut decisions, mut scored) = (0u64, 0u64);
    for seed in 1..=games {
        let mut s = match crusades_ii::State::start(&Setup::seeded(&scenario, seed), &data) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        };
        let mut log = Log::discarding();
        let mut n = 0;
        while let Pending::Seats(seats) = s.pending() {
            if n == plies {
                break;
            }
            let seat = seats[0];
            let legal = s.legal_actions(seat);
            let scores = Tactics.scores(&s, seat, &legal);
            // The best, the first of equals.
            let pick = (0..scores.len()).fold(0, |b, i| if scores[i] > scores[b] { i } else { b });
            if let Err(e) = s.apply(seat, &legal[pick], &mut log) {
                eprintln!("seed {seed}: legal action refused: {e}");
                std::process::exit(1);
            }
            n += 1;
            scored += legal.len() as u64;
        }
        decisions += n;
    }
    println!(
        "{{\"scenario\":\"{scenario}\",\"games\":{games},\"decisions\":{decisions},\"calls\":{decisions},\"scored\":{scored}}}"
    );
}
