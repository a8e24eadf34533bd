//! TEMPORARY (not committed): fingerprints of random games and doctrine scores.
use ai::Policy;
use crusades_ii::doctrine::Tactics;
use engine::{fnv, DiceMode, Game, Log, Pending, Setup, Startable, FNV_START};

const ADV: &[&str] = &["advanced-sequence","turn-ends-chit","split-commands","berserk","optional-victory","off-map-leader-boxes","melee-odds","unit-type-modifiers"];

fn xs(x: &mut u64) -> u64 { *x ^= *x << 13; *x ^= *x >> 7; *x ^= *x << 17; *x }

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(3);
    let doctrine_every: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(0);
    let data = crusades_ii::builtin_data();
    for sc in ["hattin", "hab", "nicopolis", "tannenburg"] {
        for (oi, opts) in [&[][..], ADV, &["historical-commands"][..]].iter().enumerate() {
            let mut hash = FNV_START;
            let mut plies = 0u64;
            for seed in 1..=games {
                let setup = Setup { scenario: sc.into(), options: opts.iter().map(|s| s.to_string()).collect(), seed: seed * 7 + oi as u64, dice: DiceMode::Seeded, position: None };
                let mut s = match crusades_ii::State::start(&setup, &data) { Ok(s) => s, Err(e) => { println!("{sc} {oi}: {e}"); break; } };
                let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                let mut log = Log::discarding();
                while let Pending::Seats(seats) = s.pending() {
                    if plies > 0 && plies % 200_000 == 0 { break; }
                    let seat = seats[(xs(&mut rng) % seats.len() as u64) as usize];
                    let legal = s.legal_actions(seat);
                    fnv(&mut hash, format!("{legal:?}").as_bytes());
                    let mut pick = (xs(&mut rng) % legal.len() as u64) as usize;
                    if doctrine_every > 0 && plies % doctrine_every == 0 {
                        let scores = Tactics.scores(&s, seat, &legal);
                        for v in &scores { fnv(&mut hash, &v.to_bits().to_le_bytes()); }
                        if xs(&mut rng) % 2 == 0 {
                            pick = (0..scores.len()).fold(0, |b, i| if scores[i] > scores[b] { i } else { b });
                        }
                    }
                    // Also check a few illegal-ish actions are judged the same.
                    s.apply(seat, &legal[pick], &mut log).expect("legal");
                    plies += 1;
                }
                fnv(&mut hash, format!("{:?}", s.outcome).as_bytes());
            }
            println!("{sc} opts{oi}: {plies} plies {hash:016x}");
        }
    }
}
