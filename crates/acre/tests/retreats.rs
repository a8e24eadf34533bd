//! The 9.31 examples of simultaneous retreats, as tests, and the 9.25 retreat off the walls.

use acre::position::Location;
use acre::retreat::{apply_step, start, step_options, Outcome, Step};
use acre::{Position, Rules};

fn setup() -> (Rules, Position) {
    let r = Rules::load(&acre::builtin_data()).unwrap();
    let p = Position::empty(&r);
    (r, p)
}

fn put(r: &Rules, p: &mut Position, unit: &str, hex: &str) -> usize {
    let u = r.unit(unit).unwrap_or_else(|| panic!("unit {unit}"));
    p.units[u].at = Location::Map(r.map.hex(hex).unwrap());
    u
}

#[test]
fn example_9_31_a_both_forced_into_the_same_hex_are_eliminated() {
    // The Faylag 1 bowmen at 0419 and the Breton crossbow at 0421 retreat each other. Every
    // hex around each is controlled by the enemy except 0420, which both would have to enter.
    let (r, mut p) = setup();
    let bowmen = put(&r, &mut p, "Taqi Bowmen 1", "0419");
    let crossbow = put(&r, &mut p, "Breton Crossbow 1", "0421");
    put(&r, &mut p, "English Men-at-Arms 1", "0219");
    put(&r, &mut p, "English Men-at-Arms 2", "0518");
    put(&r, &mut p, "Taqi Spearmen 1", "0221");
    put(&r, &mut p, "Taqi Spearmen 2", "0521");
    let mut all = vec![
        start(&r, &p, bowmen).unwrap(),
        start(&r, &p, crossbow).unwrap(),
    ];
    // Without the other, either could go to 0420 (and only there)...
    let shared = r.map.hex("0420").unwrap();
    for (alone, other) in [(0, crossbow), (1, bowmen)] {
        let mut q = p.clone();
        q.units[other].at = Location::OffMap;
        let one = [all[alone]];
        assert_eq!(step_options(&r, &q, &one), vec![vec![Step::To(shared)]]);
    }
    // ...together neither may (9.32), and both are eliminated.
    let options = step_options(&r, &p, &all);
    assert!(options.iter().all(Vec::is_empty));
    let out = apply_step(&r, &mut p, &mut all, &[None, None]).unwrap();
    assert_eq!(
        out,
        vec![
            (bowmen, Outcome::Eliminated),
            (crossbow, Outcome::Eliminated)
        ]
    );
    assert_eq!(p.units[bowmen].at, Location::Regrouping);
    assert_eq!(p.units[crossbow].at, Location::Regrouping);
}

#[test]
fn example_9_31_b_retreating_units_control_only_the_hex_they_leave() {
    // The bowmen at 0419 and the Guienne crossbow at 0420, adjacent, retreat each other. The
    // bowmen may go to 0519 and the crossbow to 0319, though each is next to the other's hex:
    // a retreating unit controls only the hex it is leaving.
    let (r, mut p) = setup();
    let bowmen = put(&r, &mut p, "Taqi Bowmen 1", "0419");
    let crossbow = put(&r, &mut p, "Guienne Crossbow 1", "0420");
    put(&r, &mut p, "English Men-at-Arms 1", "0219");
    put(&r, &mut p, "English Men-at-Arms 2", "0418");
    put(&r, &mut p, "Taqi Spearmen 1", "0221");
    put(&r, &mut p, "Taqi Spearmen 2", "0520");
    let to = |h: &str| Step::To(r.map.hex(h).unwrap());
    let mut all = vec![
        start(&r, &p, bowmen).unwrap(),
        start(&r, &p, crossbow).unwrap(),
    ];
    assert_eq!(
        step_options(&r, &p, &all),
        vec![vec![to("0519")], vec![to("0319")]]
    );
    // Were the crossbow not retreating, its zone of control would shut 0519.
    assert_eq!(step_options(&r, &p, &all[..1]), vec![vec![]]);
    let out = apply_step(&r, &mut p, &mut all, &[Some(to("0519")), Some(to("0319"))]).unwrap();
    assert!(out.iter().all(|(_, o)| *o == Outcome::Retreating));
    // Each next hex must take it a hex further from where it stood (9.24).
    let next = step_options(&r, &p, &all);
    for (ret, opts) in all.iter().zip(&next) {
        for s in opts {
            let Step::To(h) = s else { continue };
            assert_eq!(h.distance(ret.origin), 2);
        }
    }
    // A choice outside the options is refused and changes nothing.
    let before = p.clone();
    assert!(apply_step(&r, &mut p, &mut all.clone(), &[Some(to("0419")), None]).is_err());
    assert_eq!(p, before);
}

#[test]
fn a_retreat_runs_its_full_length_and_ends_disrupted() {
    let (r, mut p) = setup();
    let u = put(&r, &mut p, "Taqi Spearmen 1", "0520");
    let mut all = vec![start(&r, &p, u).unwrap()];
    assert_eq!(all[0].hexes, 5 + 3);
    let mut steps = 0;
    while !all.is_empty() {
        let opts = step_options(&r, &p, &all);
        let choice = opts[0].iter().find(|s| matches!(s, Step::To(_))).copied();
        let out = apply_step(&r, &mut p, &mut all, &[choice]).unwrap();
        steps += 1;
        if out[0].1 == Outcome::Finished {
            break;
        }
    }
    assert_eq!(steps, 8);
    assert!(p.units[u].disrupted, "Addenda to 9.24");
    assert_eq!(p.hex_of(u).unwrap().distance(r.map.hex("0520").unwrap()), 8);
}

#[test]
fn garrison_units_retreat_two_hexes_off_the_wall_into_acre() {
    let (r, mut p) = setup();
    let u = put(&r, &mut p, "Mashtub Spearmen 1", "1811");
    let all = vec![start(&r, &p, u).unwrap()];
    assert_eq!(all[0].hexes, 2);
    let opts = step_options(&r, &p, &all);
    assert!(!opts[0].is_empty());
    for s in &opts[0] {
        let Step::To(h) = s else {
            panic!("garrison units never leave the map")
        };
        assert_eq!(r.map.class(*h), acre::map::Class::Street);
    }
}
