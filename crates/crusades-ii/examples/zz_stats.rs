//! TEMPORARY (not committed).
use engine::{Game, Log, Pending, Setup, Startable};
use std::collections::BTreeMap;
fn xs(x: &mut u64) -> u64 { *x ^= *x << 13; *x ^= *x >> 7; *x ^= *x << 17; *x }
fn main() {
    let data = crusades_ii::builtin_data();
    for sc in ["hattin", "hab", "nicopolis", "tannenburg"] {
        let mut by: BTreeMap<String, (u64, u64)> = BTreeMap::new();
        let mut plies = 0;
        for seed in 1..=4u64 {
            let mut s = crusades_ii::State::start(&Setup::seeded(sc, seed), &data).unwrap();
            let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let mut log = Log::discarding();
            while let Pending::Seats(seats) = s.pending() {
                let seat = seats[(xs(&mut rng) % seats.len() as u64) as usize];
                let legal = s.legal_actions(seat);
                let a = &legal[(xs(&mut rng) % legal.len() as u64) as usize];
                let key = format!("{:?}/{}", s.phase, format!("{a:?}").split([' ', '{', '(']).next().unwrap());
                let key = key.replace("Seat(0)", "S").replace("Seat(1)", "S");
                let e = by.entry(key).or_default();
                e.0 += 1; e.1 += legal.len() as u64;
                s.apply(seat, a, &mut log).unwrap();
                plies += 1;
            }
        }
        println!("== {sc}: {plies} plies");
        for (k, (n, l)) in by { println!("{k:40} {n:7} {:5.1}% avg legal {:.1}", 100.0 * n as f64 / plies as f64, l as f64 / n as f64); }
    }
}
