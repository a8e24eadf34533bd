//! Initial Set-Up (17.0): who sets up, where, the stacking and command-radius checks, the
//! harbour tower's exemption, and the historical quick start.

use acre::map::Class;
use acre::position::Location;
use acre::rules::{Side, SiegeKind};
use acre::setup::{
    check_complete, check_place, crusader_ground, historical, moslem_ground, pieces, place, Piece,
};
use acre::{Position, Rules};

fn rules() -> Rules {
    Rules::load(&acre::builtin_data()).unwrap()
}

#[test]
fn the_pieces_of_17_0() {
    let r = rules();
    let moslem = pieces(&r, Side::Moslem, false);
    let units = moslem
        .iter()
        .filter(|p| matches!(p, Piece::Unit(_)))
        .count();
    let leaders: Vec<&str> = moslem
        .iter()
        .filter(|p| matches!(p, Piece::Leader(_)))
        .map(|p| p.name(&r))
        .collect();
    let siege = moslem
        .iter()
        .filter(|p| matches!(p, Piece::Siege(_)))
        .count();
    assert_eq!((units, siege), (14, 2));
    assert_eq!(leaders, ["Mashtub", "Qaraqush"]);
    let crusader = pieces(&r, Side::Crusader, false);
    let names: Vec<&str> = crusader.iter().map(|p| p.name(&r)).collect();
    assert!(names.contains(&"Richard") && names.contains(&"Conrad"));
    // 16.0: Jacques only with the option; Guy only without it ("Guy is removed from the game").
    assert!(!names.contains(&"Jacques") && names.contains(&"Guy"));
    let with_conrad: Vec<&str> = pieces(&r, Side::Crusader, true)
        .iter()
        .map(|p| p.name(&r))
        .collect();
    assert!(with_conrad.contains(&"Jacques") && with_conrad.contains(&"Conrad"));
    assert!(!with_conrad.contains(&"Guy"));
    let crusader_units = (0..r.units.len())
        .filter(|&u| r.side_of(u) == Side::Crusader)
        .count();
    assert_eq!(
        crusader
            .iter()
            .filter(|p| matches!(p, Piece::Unit(_)))
            .count(),
        crusader_units
    );
    assert_eq!(
        crusader
            .iter()
            .filter(|p| matches!(p, Piece::Siege(_)))
            .count(),
        12
    );
}

#[test]
fn the_grounds_of_17_0() {
    let r = rules();
    let ground = crusader_ground(&r);
    assert!(!ground.is_empty());
    for &h in &ground {
        let d = r.map.distance_to(h, &[Class::Foss]).unwrap();
        assert!(d > 4, "{} is {d} from the foss", r.map.id(h));
    }
    let city = moslem_ground(&r);
    assert!(city.contains(&r.map.hex("2104").unwrap()), "Addenda: 2104");
    assert!(city.iter().all(|&h| r.map.in_acre(h)));
    assert!(ground.is_disjoint(&city));
}

#[test]
fn placements_are_checked() {
    let r = rules();
    let mut p = Position::empty(&r);
    let knight = Piece::Unit(r.unit("English Knight Cavalry 1").unwrap());
    let foss = r.map.hexes_of(&[Class::Foss])[0];
    let near = r
        .map
        .neighbours(foss)
        .find(|&h| r.map.class(h) == Class::Clear)
        .unwrap();
    let err = check_place(&r, &p, knight, near).unwrap_err();
    assert!(
        err.contains("17.0") && err.contains(&r.map.id(near)),
        "{err}"
    );
    let spear = Piece::Unit(r.unit("Mashtub Spearmen 1").unwrap());
    let camp = *crusader_ground(&r).iter().next().unwrap();
    let err = check_place(&r, &p, spear, camp).unwrap_err();
    assert!(err.contains("walls"), "{err}");
    // 5.51: one combat unit a hex.
    place(&r, &mut p, knight, camp).unwrap();
    let other = Piece::Unit(r.unit("English Knight Cavalry 2").unwrap());
    let err = place(&r, &mut p, other, camp).unwrap_err();
    assert!(err.contains("5.5"), "{err}");
    // 12.23: no giant catapult on the outerworks.
    let catapult = (0..r.siege.len())
        .find(|&s| r.siege[s].kind == SiegeKind::GiantCatapult)
        .unwrap();
    if let Some(ow) = crusader_ground(&r)
        .into_iter()
        .find(|&h| r.map.class(h) == Class::Outerworks)
    {
        let err = check_place(&r, &p, Piece::Siege(catapult), ow).unwrap_err();
        assert!(err.contains("12.23"), "{err}");
    }
}

#[test]
fn the_historical_quick_start_is_legal_with_and_without_the_option() {
    let r = rules();
    for conrad in [false, true] {
        let p = historical(&r, conrad).unwrap();
        for side in [Side::Crusader, Side::Moslem] {
            check_complete(&r, &p, side, conrad).unwrap();
        }
        // The armies wait off the map (7.0).
        let off = (0..r.units.len())
            .filter(|&u| p.units[u].at == Location::OffMap)
            .count();
        let army = (0..r.units.len())
            .filter(|&u| {
                r.side_of(u) == Side::Moslem
                    && r.contingent_of(u).army != Some(acre::rules::Army::Garrison)
            })
            .count();
        assert_eq!(off, army);
        // Each Crusader contingent stands near its own nation's camp.
        let richard = r.leader("Richard").unwrap();
        let at = p.leaders[richard].at.hex().unwrap();
        let nearest_camp = r
            .map
            .camps()
            .min_by_key(|(h, _)| (h.distance(at), *h))
            .unwrap();
        assert_eq!(nearest_camp.1, acre::map::Nationality::English);
        // The siege engines stand as near the foss as set-up allows.
        let closest = crusader_ground(&r)
            .into_iter()
            .filter_map(|h| r.map.distance_to(h, &[Class::Foss]))
            .min()
            .unwrap();
        for s in 0..r.siege.len() {
            if r.siege[s].side == Side::Crusader {
                let h = p.siege[s].at.hex().unwrap();
                assert_eq!(r.map.distance_to(h, &[Class::Foss]), Some(closest));
            }
        }
        // The garrison's two small catapults stand on the walls.
        for s in 0..r.siege.len() {
            if r.siege[s].side == Side::Moslem {
                assert!(r.map.is_wall_or_tower(p.siege[s].at.hex().unwrap()));
            }
        }
    }
}

#[test]
fn incomplete_or_scattered_set_ups_are_refused() {
    let r = rules();
    let mut p = historical(&r, false).unwrap();
    let mashtub = r.leader("Mashtub").unwrap();
    let spear = r.unit("Mashtub Spearmen 1").unwrap();
    let at = p.units[spear].at.hex().unwrap();
    let radius = 2 * u32::from(r.leaders[mashtub].radius);
    let far = moslem_ground(&r)
        .into_iter()
        .filter(|&h| h.distance(at) > radius && p.leader_at(h).is_none())
        .find(|&h| r.map.class(h) == Class::Street)
        .unwrap();
    p.leaders[mashtub].at = Location::Map(far);
    let err = check_complete(&r, &p, Side::Moslem, false).unwrap_err();
    assert!(err.contains("Command Radius"), "{err}");

    // 17.0 Addenda: a unit in the harbour tower (2104) needs no leader; the same unit far
    // from its leader anywhere else is refused.
    assert_eq!(pieces(&r, Side::Moslem, false)[0], Piece::Unit(spear));
    let tower = r.map.hex("2104").unwrap();
    let qaraqush = r.leader("Qaraqush").unwrap();
    let away: Vec<_> = r
        .map
        .hexes_of(&[Class::Street])
        .into_iter()
        .filter(|s| s.distance(tower) > radius)
        .collect();
    let mut h = Position::empty(&r);
    h.leaders[mashtub].at = Location::Map(away[0]);
    h.leaders[qaraqush].at = Location::Map(away[1]);
    h.units[spear].at = Location::Map(tower);
    let err = check_complete(&r, &h, Side::Moslem, false).unwrap_err();
    assert!(
        err.contains("not set up") && !err.contains("Spearmen 1 "),
        "{err}"
    );
    let street = away
        .iter()
        .copied()
        .find(|s| s.distance(away[0]) > radius && *s != away[1])
        .unwrap();
    h.units[spear].at = Location::Map(street);
    let err = check_complete(&r, &h, Side::Moslem, false).unwrap_err();
    assert!(
        err.contains("Mashtub Spearmen 1") && err.contains("Command Radius"),
        "{err}"
    );

    let mut e = historical(&r, false).unwrap();
    e.units[spear].at = Location::OffMap;
    let err = check_complete(&r, &e, Side::Moslem, false).unwrap_err();
    assert!(err.contains("not set up"), "{err}");
}
