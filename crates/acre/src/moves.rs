//! Where a selected counter may go (5.0, 5.16, 5.17, 7.21): the cheapest-path search of
//! combat units and leaders with the costs of [`crate::movement::entry_cost`] and the zones
//! of control of [`crate::zoc`], off-map army units entering from the map edges, and the
//! relocation of siege units in the Strategic Movement Segment. The path found is the one the
//! move takes, so that what it passes through is known (5.12, 12.23, 12.34).

use std::collections::BTreeMap;

use hexgrid::{search, Hex};

use crate::intervention::ENTRY_COST;
use crate::map::Class;
use crate::movement::{self, Mover};
use crate::position::Location;
use crate::rules::Side;
use crate::setup::Piece;
use crate::state::State;
use crate::zoc;

/// A node of the movement search: off the map (an army unit about to enter) or a hex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Node {
    Off,
    At(Hex),
}

/// Every hex the piece may end its move in, with the hexes entered on the way (the
/// destination last). `strategic` is the Strategic Movement Segment (5.16, 5.17).
pub fn destinations(s: &State, piece: Piece, strategic: bool) -> BTreeMap<Hex, Vec<Hex>> {
    let r = &s.rules;
    if let Piece::Siege(e) = piece {
        // 5.17, 12.23, 12.34: siege units are relocated, not moved.
        return s
            .rules
            .map
            .grid
            .hexes()
            .filter(|&h| Location::Map(h) != s.pos.siege[e].at)
            .filter(|&h| s.may_deploy_siege(e, h))
            .map(|h| (h, vec![h]))
            .collect();
    }
    let side = s.side_of_piece(piece);
    let enemy = side.enemy();
    let mut moved = s.pos.clone();
    let (start, mover, budget) = match piece {
        Piece::Unit(u) => {
            moved.units[u].at = Location::OffMap;
            let at = s.pos.units[u].at;
            let budget = if at == Location::OffMap {
                2 * u32::from(r.units[u].movement)
            } else {
                movement::allowance(r, &s.pos, u, strategic, s.conrad)
            };
            (at, Mover::unit(r, u), budget)
        }
        Piece::Leader(l) => {
            moved.leaders[l].at = Location::OffMap;
            let ma = 2 * u32::from(r.leaders[l].movement);
            let mover = Mover {
                side,
                combat: false,
                cavalry: false,
            };
            (
                s.pos.leaders[l].at,
                mover,
                if strategic { 2 * ma } else { ma },
            )
        }
        Piece::Siege(_) => unreachable!("handled above"),
    };
    let start = match start {
        Location::Map(h) => Node::At(h),
        Location::OffMap => Node::Off,
        _ => return BTreeMap::new(),
    };
    let starts_controlled = match start {
        Node::At(h) => zoc::controlled(r, &moved, h, enemy),
        Node::Off => false,
    };
    let reached = search(
        start,
        budget,
        |&n, out| match n {
            Node::Off => {
                for &h in &s.derived.entry {
                    if moved.side_at(r, h).is_none() && moved.effects(r, h).cost.is_some() {
                        out.push((Node::At(h), ENTRY_COST));
                    }
                }
            }
            Node::At(h) => {
                for next in r.map.neighbours(h) {
                    if Node::At(h) == start
                        && starts_controlled
                        && zoc::controlled(r, &moved, next, enemy)
                    {
                        continue;
                    }
                    if let Ok(c) = movement::entry_cost(r, &moved, mover, h, next) {
                        out.push((Node::At(next), c));
                    }
                }
            }
        },
        |&n| match n {
            Node::At(h) => !zoc::controlled(r, &moved, h, enemy),
            Node::Off => true,
        },
    );
    let mut out = BTreeMap::new();
    for (node, _) in reached.iter() {
        let Node::At(h) = node else { continue };
        if node == start || !may_end(s, &moved, piece, h, strategic) {
            continue;
        }
        let path: Vec<Hex> = reached
            .path_to(&node)
            .into_iter()
            .filter_map(|n| match n {
                Node::At(x) if Node::At(x) != start => Some(x),
                _ => None,
            })
            .collect();
        out.insert(h, path);
    }
    out
}

/// Whether the piece may end its move in `hex` (5.13, 5.5, 15.11, 15.14, 5.16).
fn may_end(s: &State, moved: &crate::Position, piece: Piece, hex: Hex, strategic: bool) -> bool {
    let r = &s.rules;
    let side = s.side_of_piece(piece);
    let ok = match piece {
        Piece::Unit(u) => movement::may_end_in(r, moved, u, hex),
        Piece::Leader(_) => moved.leader_at(hex).is_none(),
        Piece::Siege(_) => true,
    };
    if !ok {
        return false;
    }
    if !strategic {
        return true;
    }
    match side {
        // 5.16: between the outerworks and the foss, not within four hexes of the foss.
        Side::Crusader => s.derived.crusader_ground.contains(&hex),
        // 5.16, 4.0 1.B: on or within the walls; never into the foss.
        Side::Moslem => r.map.in_acre(hex) && r.map.class(hex) != Class::Foss,
    }
}
