//! The combat rules as the game plays them through its actions: the advance after combat
//! (10.7, with the knights' compulsory advance of 10.74), the cavalry charge (15.2), the
//! naphtha grenades (15.3), leaders climbing the ladders (10.32), siege towers moving in the
//! Assault Phase (12.11), Saladin's Guard coming back (9.26) and the road rates lost after a
//! retreat (9.24). Each test sets a position, plays to the rule with entered dice and checks
//! its effect.

use engine::{Dice, DiceMode, Game, Log, Pending, Seat, Setup, Startable};

use acre::position::{Location, Position};
use acre::sequence::{Segment, Step};
use acre::setup::Piece;
use acre::Action;

const CRUSADER: Seat = Seat(0);
const MOSLEM: Seat = Seat(1);

/// A game in its Assault Phase (Game-Turn 1) with an empty map, at `segment` of Impulse
/// `impulse`, the dice to be entered by the test.
fn assault(segment: Segment, impulse: u8, intervention: &str) -> acre::State {
    let setup = Setup {
        scenario: "siege".into(),
        options: Vec::new(),
        seed: 5,
        dice: DiceMode::Seeded,
        position: None,
    };
    let mut g = acre::State::start(&setup, &acre::builtin_data()).unwrap();
    act(&mut g, CRUSADER, "deploy-historical");
    act(&mut g, MOSLEM, "deploy-historical");
    act(&mut g, CRUSADER, "plan assault");
    act(
        &mut g,
        MOSLEM,
        &format!("plan repair 3 discover 3 {intervention}"),
    );
    g.pos = Position::empty(&g.rules);
    g.turn.step = Step::Impulse { impulse, segment };
    g.work = Default::default();
    g.dice = Dice::new(0, DiceMode::Manual);
    g
}

fn act(g: &mut acre::State, seat: Seat, text: &str) {
    act_rolling(g, seat, text, &[]);
}

/// Applies `text` with the dice `rolls` entered for it (all of them must be read).
fn act_rolling(g: &mut acre::State, seat: Seat, text: &str, rolls: &[u8]) {
    let a = g
        .parse_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    g.dice.begin_action(rolls).unwrap();
    g.apply(seat, &a, &mut Log::discarding())
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    g.dice
        .end_action()
        .unwrap_or_else(|e| panic!("{text}: dice {e:?}"));
}

/// Applies an action with the dice `rolls` entered for it.
fn play(g: &mut acre::State, seat: Seat, a: Action, rolls: &[u8]) {
    g.dice.begin_action(rolls).unwrap();
    g.apply(seat, &a, &mut Log::discarding())
        .unwrap_or_else(|e| panic!("{a:?}: {e}"));
    g.dice.end_action().unwrap();
}

fn unit(g: &acre::State, name: &str) -> usize {
    g.rules.unit(name).unwrap()
}

fn put(g: &mut acre::State, name: &str, hex: &str) -> usize {
    let u = unit(g, name);
    g.pos.units[u].at = Location::Map(g.rules.map.hex(hex).unwrap());
    u
}

/// Plays the Moslem's retreat steps, each to the first hex offered, until he has no retreat
/// to make.
fn retreat_all(g: &mut acre::State) {
    retreat_all_of(g, MOSLEM);
}

/// Plays `seat`'s retreat steps, each to the first hex offered, until it has none to make.
fn retreat_all_of(g: &mut acre::State, seat: Seat) {
    for _ in 0..100 {
        if g.pending() != Pending::Seats(vec![seat]) {
            return;
        }
        let legal = g.legal_actions(seat);
        let Some(a) = legal
            .iter()
            .find(|a| matches!(a, Action::Retreat(..)))
            .cloned()
        else {
            return;
        };
        g.dice.begin_action(&[]).unwrap();
        g.apply(seat, &a, &mut Log::discarding()).unwrap();
    }
}

/// The advances offered to a piece.
fn advances_of(g: &acre::State, seat: Seat, piece: Piece) -> Vec<hexgrid::Hex> {
    g.legal_actions(seat)
        .into_iter()
        .filter_map(|a| match a {
            Action::Advance(p, h) if p == piece => Some(h),
            _ => None,
        })
        .collect()
}

#[test]
fn knights_advance_as_far_as_they_can_after_a_retreat() {
    let mut g = assault(Segment::CrusaderMelee, 1, "army-of-egypt");
    let k1 = put(&mut g, "English Knight Cavalry 1", "0520");
    let k2 = put(&mut g, "English Knight Cavalry 2", "0421");
    let t = put(&mut g, "Taqi Spearmen 1", "0420");
    act(&mut g, CRUSADER, "attack 0420");
    play(&mut g, CRUSADER, Action::Join(k1), &[]);
    play(&mut g, CRUSADER, Action::Join(k2), &[]);
    // 12 against 6, 2-1: a 5 is R (10.8).
    act_rolling(&mut g, CRUSADER, "resolve", &[5]);
    assert_eq!(g.work.advance.as_ref().unwrap().defender, t);
    retreat_all(&mut g);
    let origin = g.rules.map.hex("0420").unwrap();
    let a = g.work.advance.clone().expect("10.72: an advance is owed");
    assert_eq!(
        a.path[0], origin,
        "the Path of Retreat starts at the vacated hex"
    );
    assert_eq!(
        a.path.len(),
        9,
        "the vacated hex and the 5 + 3 hexes of the retreat"
    );
    assert_eq!(g.pos.hex_of(t), Some(a.path[8]));
    assert_eq!(g.pending(), Pending::Seats(vec![CRUSADER]));
    // 10.74: a knight may not hold back: only the farthest hex it can reach (its seven
    // Movement Points) is offered, and the advance may not end before the knights go.
    assert!(!g.legal_actions(CRUSADER).contains(&Action::End));
    assert_eq!(advances_of(&g, CRUSADER, Piece::Unit(k1)), vec![a.path[6]]);
    play(
        &mut g,
        CRUSADER,
        Action::Advance(Piece::Unit(k1), a.path[6]),
        &[],
    );
    // The second knight goes as far as it can, short of the hex the first has taken.
    assert_eq!(advances_of(&g, CRUSADER, Piece::Unit(k2)), vec![a.path[5]]);
    play(
        &mut g,
        CRUSADER,
        Action::Advance(Piece::Unit(k2), a.path[5]),
        &[],
    );
    assert!(g.legal_actions(CRUSADER).contains(&Action::End));
    act(&mut g, CRUSADER, "end");
    assert_eq!(g.pos.hex_of(k1), Some(a.path[6]));
    assert_eq!(g.pos.hex_of(k2), Some(a.path[5]));
    assert!(g.work.advance.is_none());
    assert!(!g.pos.units[k1].disrupted, "no charge, no disruption");
}

#[test]
fn after_an_elimination_one_unit_and_its_leader_take_the_hex() {
    let mut g = assault(Segment::CrusaderMelee, 1, "army-of-egypt");
    let m1 = put(&mut g, "English Men-at-Arms 1", "0520");
    let m2 = put(&mut g, "English Men-at-Arms 2", "0421");
    let m3 = put(&mut g, "English Men-at-Arms 3", "0419");
    let t = put(&mut g, "Taqi Spearmen 1", "0420");
    let richard = g.rules.leader("Richard").unwrap();
    g.pos.leaders[richard].at = g.pos.units[m1].at;
    act(&mut g, CRUSADER, "attack 0420");
    for u in [m1, m2, m3] {
        play(&mut g, CRUSADER, Action::Join(u), &[]);
    }
    // 24 (Richard's bonus added to one) against 6: 4-1 or better, a 6 eliminates (10.8).
    act_rolling(&mut g, CRUSADER, "resolve", &[6]);
    assert_eq!(g.pos.units[t].at, Location::Regrouping);
    let vacated = g.rules.map.hex("0420").unwrap();
    let a = g.work.advance.clone().expect("10.71: an advance is owed");
    assert!(a.eliminated);
    assert_eq!(a.path, vec![vacated]);
    // No knights: the Crusader may decline at once.
    let legal = g.legal_actions(CRUSADER);
    assert!(legal.contains(&Action::End));
    for u in [m1, m2, m3] {
        assert!(legal.contains(&Action::Advance(Piece::Unit(u), vacated)));
    }
    assert!(legal.contains(&Action::Advance(Piece::Leader(richard), vacated)));
    play(
        &mut g,
        CRUSADER,
        Action::Advance(Piece::Unit(m2), vacated),
        &[],
    );
    // 10.71: one unit only; Richard, stacked with an attacker, may still follow.
    let legal = g.legal_actions(CRUSADER);
    assert!(!legal
        .iter()
        .any(|a| matches!(a, Action::Advance(Piece::Unit(_), _))));
    assert!(legal.contains(&Action::Advance(Piece::Leader(richard), vacated)));
    act(&mut g, CRUSADER, "advance richard 0420");
    // Nothing else may advance: the advance is made without waiting for `end`.
    assert!(g.work.advance.is_none());
    assert_eq!(g.pos.hex_of(m2), Some(vacated));
    assert_eq!(g.pos.leaders[richard].at, Location::Map(vacated));
    // The melee segment goes on.
    assert_eq!(g.pending(), Pending::Seats(vec![CRUSADER]));
    assert!(g.legal_actions(CRUSADER).contains(&Action::End));
}

#[test]
fn a_charge_doubles_the_knights_is_not_fired_on_and_disrupts_them() {
    let mut g = assault(Segment::CrusaderMovement, 1, "army-of-egypt");
    let k = put(&mut g, "English Knight Cavalry 1", "0520");
    let t = put(&mut g, "Taqi Spearmen 1", "0515");
    let bow = put(&mut g, "Taqi Bowmen 1", "0513");
    let target = g.rules.map.hex("0515").unwrap();
    let end = g.rules.map.hex("0516").unwrap();
    play(&mut g, CRUSADER, Action::Select(Piece::Unit(k)), &[]);
    let legal = g.legal_actions(CRUSADER);
    // 15.22: moving there is not charging; the charge is announced as its own action.
    assert!(legal.contains(&Action::Move(end)));
    assert!(legal.contains(&Action::Charge(end, target)));
    act(&mut g, CRUSADER, "charge 0516 0515");
    assert_eq!(g.pos.hex_of(k), Some(end));
    assert_eq!(g.charging, vec![(k, t)], "the charge is at the unit");
    act(&mut g, CRUSADER, "end");
    act(&mut g, MOSLEM, "end");
    // 15.23: the Taqi bowmen may fire, but not at the charging knights.
    let fire = g.legal_actions(MOSLEM);
    assert!(
        !fire
            .iter()
            .any(|a| matches!(a, Action::Fire(_, h) if *h == end)),
        "a charging unit is not the object of fire"
    );
    assert!(
        acre::fire::check_fire(&g.rules, &g.pos, acre::fire::Firer::Unit(bow), end, &[]).is_ok(),
        "the bowmen could fire there but for the charge"
    );
    act(&mut g, MOSLEM, "end");
    act(&mut g, CRUSADER, "end");
    act(&mut g, CRUSADER, "end"); // D. foss filling
    act(&mut g, MOSLEM, "end"); // E. garrison melee
    assert!(
        g.step_name().contains("F. Crusader Melee"),
        "{}",
        g.step_name()
    );
    // 15.21: the charge is made: the segment may not end before it.
    let legal = g.legal_actions(CRUSADER);
    assert!(!legal.contains(&Action::End));
    assert!(legal.contains(&Action::Attack(target)));
    act(&mut g, CRUSADER, "attack 0515");
    play(&mut g, CRUSADER, Action::Join(k), &[]);
    // 6 doubled to 12 against 6 is 2-1, where a 3 disrupts (1-1 would be no effect).
    act_rolling(&mut g, CRUSADER, "resolve", &[3]);
    assert!(g.pos.units[t].disrupted, "the 2-1 column was read");
    assert!(
        g.pos.units[k].disrupted,
        "15.21: disrupted after the charge"
    );
    assert!(g.legal_actions(CRUSADER).contains(&Action::End));
}

#[test]
fn naphtha_grenades_make_the_defender_retreat_four_times_a_game() {
    let mut g = assault(Segment::ArmyMelee, 1, "saladin-attacks");
    let gren = put(&mut g, "Naphtha Grenadiers", "0420");
    let e = put(&mut g, "English Men-at-Arms 1", "0520");
    let target = g.rules.map.hex("0520").unwrap();
    assert!(g.legal_actions(MOSLEM).contains(&Action::Grenade(target)));
    act(&mut g, MOSLEM, "grenade 0520");
    assert_eq!(g.grenades, 1);
    // 15.3: no die; the men-at-arms retreat their 4 + 3 hexes.
    assert_eq!(g.pending(), Pending::Seats(vec![CRUSADER]));
    retreat_all_of(&mut g, CRUSADER);
    assert_eq!(
        g.pos.hex_of(e).map(|h| h.distance(target)),
        Some(7),
        "9.24: Movement Allowance plus three"
    );
    assert!(g.pos.units[e].disrupted, "Addenda 9.24");
    // 10.72: the grenadiers may advance along the Path of Retreat.
    let a = g.work.advance.clone().expect("an advance is owed");
    assert_eq!(a.attackers, vec![gren]);
    assert!(g
        .legal_actions(MOSLEM)
        .contains(&Action::Advance(Piece::Unit(gren), target)));
    act(&mut g, MOSLEM, "end");
    assert_eq!(g.pos.hex_of(gren), g.rules.map.hex("0420"));
    // Four a game.
    g.work = Default::default();
    let e2 = put(&mut g, "English Men-at-Arms 2", "0520");
    assert!(g.legal_actions(MOSLEM).contains(&Action::Grenade(target)));
    g.grenades = 4;
    assert!(!g.legal_actions(MOSLEM).contains(&Action::Grenade(target)));
    assert!(g.pos.hex_of(e2).is_some());
}

/// Resolves the melee announced with the dice entered, returning the events.
fn resolve_logged(g: &mut acre::State, rolls: &[u8]) -> Vec<engine::Event> {
    let mut log = Log::recording();
    g.dice.begin_action(rolls).unwrap();
    g.apply(CRUSADER, &Action::Resolve, &mut log).unwrap();
    g.dice
        .end_action()
        .expect("exactly the dice entered were rolled");
    log.take()
}

/// The modifiers of the melee roll among `events`.
fn melee_modifiers(events: &[engine::Event]) -> Vec<String> {
    events
        .iter()
        .filter(|e| e.case == "Acre 10.0")
        .flat_map(|e| e.rolls.iter())
        .flat_map(|r| r.modifiers.iter().map(|m| m.reason.clone()))
        .collect()
}

#[test]
fn a_leader_lends_his_ratings_on_the_wall_only_if_he_climbs() {
    let mut g = assault(Segment::CrusaderMelee, 1, "army-of-egypt");
    let foss = g.rules.map.hex("1712").unwrap();
    let wall = g.rules.map.hex("1813").unwrap();
    assert!(foss.is_adjacent(wall));
    g.pos.filled.insert(foss);
    let m = put(&mut g, "English Men-at-Arms 1", "1712");
    put(&mut g, "Mashtub Spearmen 1", "1813");
    let richard = g.rules.leader("Richard").unwrap();
    g.pos.leaders[richard].at = Location::Map(foss);
    act(&mut g, CRUSADER, "attack 1813");
    play(&mut g, CRUSADER, Action::Join(m), &[]);
    // 10.31, 10.32: the men-at-arms climb (6), then Richard: a 1 fails, a 6 succeeds.
    let mut failed = g.clone();
    let events = resolve_logged(&mut failed, &[6, 1, 6]);
    assert!(events
        .iter()
        .any(|e| e.case == "Acre 10.32" && e.text.contains("fails")));
    assert!(
        !melee_modifiers(&events)
            .iter()
            .any(|m| m.contains("Richard")),
        "no Morale Rating from a leader left below the wall"
    );
    let mut climbed = g.clone();
    let events = resolve_logged(&mut climbed, &[6, 6, 6]);
    assert!(melee_modifiers(&events)
        .iter()
        .any(|m| m.contains("Richard")));
    // A leader out of reach of the wall rolls nothing and lends nothing.
    let mut behind = g.clone();
    behind.pos.leaders[richard].at = Location::Map(g.rules.map.hex("1613").unwrap());
    assert!(acre::leaders::in_command(
        &behind.rules,
        &behind.pos,
        m,
        false
    ));
    let events = resolve_logged(&mut behind, &[6, 6]);
    assert!(events
        .iter()
        .any(|e| e.case == "Acre 10.32" && e.text.contains("cannot reach")));
    assert!(!melee_modifiers(&events)
        .iter()
        .any(|m| m.contains("Richard")));
}

#[test]
fn no_road_rates_the_game_turn_after_a_retreat_result() {
    let mut g = assault(Segment::CrusaderMovement, 1, "army-of-egypt");
    g.turn.turn = 2;
    let m = put(&mut g, "English Men-at-Arms 1", "0912");
    let richard = g.rules.leader("Richard").unwrap();
    g.pos.leaders[richard].at = Location::Map(g.rules.map.hex("1212").unwrap());
    let far = g.rules.map.hex("1612").unwrap();
    let mut barred = g.clone();
    play(&mut g, CRUSADER, Action::Select(Piece::Unit(m)), &[]);
    assert!(
        g.legal_actions(CRUSADER).contains(&Action::Move(far)),
        "seven road hexes at half a Movement Point each"
    );
    // 9.24: a Retreat result on Game-Turn 1 costs the road rates on Game-Turn 2.
    barred.retreated_on.insert(m, 1);
    play(&mut barred, CRUSADER, Action::Select(Piece::Unit(m)), &[]);
    assert!(!barred.legal_actions(CRUSADER).contains(&Action::Move(far)));
    // Not on Game-Turn 3.
    let mut later = barred.clone();
    later.turn.turn = 3;
    assert!(later.legal_actions(CRUSADER).contains(&Action::Move(far)));
}

#[test]
fn saladins_guard_comes_back_after_retreating_off_the_map_and_no_one_else() {
    let mut g = assault(Segment::CrusaderMelee, 2, "saladin-attacks");
    let guard = put(&mut g, "Guard Elite Spearmen", "0701");
    let edge = g.rules.map.hex("0701").unwrap();
    let attackers: Vec<usize> = ["English Men-at-Arms 1", "English Men-at-Arms 2"]
        .iter()
        .zip(g.rules.map.neighbours(edge).collect::<Vec<_>>())
        .map(|(n, h)| {
            let u = g.rules.unit(n).unwrap();
            g.pos.units[u].at = Location::Map(h);
            u
        })
        .collect();
    act(&mut g, CRUSADER, "attack 0701");
    for &u in &attackers {
        play(&mut g, CRUSADER, Action::Join(u), &[]);
    }
    let mut rolled = false;
    for roll in 1..=6 {
        let mut trial = g.clone();
        act_rolling(&mut trial, CRUSADER, "resolve", &[roll]);
        if trial
            .legal_actions(MOSLEM)
            .contains(&Action::Retreat(guard, acre::retreat::Step::OffMap))
        {
            g = trial;
            rolled = true;
            break;
        }
    }
    assert!(rolled, "a roll that retreats the Guard");
    // 9.26: off the map, not eliminated.
    act(&mut g, MOSLEM, "retreat guard-elite-spearmen off-map");
    assert_eq!(g.pos.units[guard].at, Location::OffMap);
    assert_eq!(g.retreated_off.units.get(&guard), Some(&2));
    // Not in this Impulse's Moslem Movement Segment ...
    let mut same = g.clone();
    same.work = Default::default();
    same.turn.step = Step::Impulse {
        impulse: 2,
        segment: Segment::MoslemMovement,
    };
    assert!(!same
        .legal_actions(MOSLEM)
        .contains(&Action::Select(Piece::Unit(guard))));
    // ... but from the next one on, where an army unit of another faylag retreated off
    // the map may not come back.
    let taqi = g.rules.unit("Taqi Spearmen 1").unwrap();
    let mut next = same.clone();
    next.retreated_off.record(taqi, 2);
    next.turn.step = Step::Impulse {
        impulse: 3,
        segment: Segment::MoslemMovement,
    };
    let legal = next.legal_actions(MOSLEM);
    assert!(legal.contains(&Action::Select(Piece::Unit(guard))));
    assert!(!legal.contains(&Action::Select(Piece::Unit(taqi))));
    let other = g.rules.unit("Taqi Spearmen 2").unwrap();
    assert!(legal.contains(&Action::Select(Piece::Unit(other))));
}

#[test]
fn a_siege_tower_moves_by_itself_but_never_into_an_unfilled_foss() {
    let mut g = assault(Segment::CrusaderMovement, 1, "army-of-egypt");
    let tower = (0..g.rules.siege.len())
        .find(|&e| g.rules.siege[e].name == "Siege Tower 1")
        .unwrap();
    let start = g.rules.map.hex("1613").unwrap();
    let filled = g.rules.map.hex("1712").unwrap();
    let unfilled = g.rules.map.hex("1711").unwrap();
    let wall = g.rules.map.hex("1813").unwrap();
    g.pos.siege[tower].at = Location::Map(start);
    g.pos.filled.insert(filled);
    let m = put(&mut g, "English Men-at-Arms 1", "1712");
    put(&mut g, "Mashtub Spearmen 1", "1813");
    // 12.11: the tower is among the pieces the Crusader may move.
    assert!(g
        .legal_actions(CRUSADER)
        .contains(&Action::Select(Piece::Siege(tower))));
    play(&mut g, CRUSADER, Action::Select(Piece::Siege(tower)), &[]);
    let legal = g.legal_actions(CRUSADER);
    assert!(
        legal.contains(&Action::Move(filled)),
        "a filled foss costs 2"
    );
    assert!(!legal.contains(&Action::Move(unfilled)), "12.12");
    assert!(
        !legal
            .iter()
            .any(|a| matches!(a, Action::Move(h) if g.rules.map.is_wall_or_tower(*h))),
        "towers stay outside the walls"
    );
    assert_eq!(
        acre::melee::ladder_needed(&g.rules, &g.pos, m, wall),
        Ok(true),
        "ladders without the tower"
    );
    play(&mut g, CRUSADER, Action::Move(filled), &[]);
    assert_eq!(g.pos.siege[tower].at, Location::Map(filled));
    // 12.15: the men-at-arms stacked with it attack the wall without ladders.
    assert_eq!(
        acre::melee::ladder_needed(&g.rules, &g.pos, m, wall),
        Ok(false)
    );
    assert!(!g
        .legal_actions(CRUSADER)
        .contains(&Action::Select(Piece::Siege(tower))));
}
