//! Where a selected counter may go (5.0, 5.16, 5.17, 7.21, 12.11): the cheapest-path search
//! of combat units, leaders and siege towers with the costs of [`crate::movement::entry_cost`] and the zones
//! of control of [`crate::zoc`], off-map army units entering from the map edges, and the
//! relocation of siege units in the Strategic Movement Segment. The path found is the one the
//! move takes, so that what it passes through is known (5.12, 12.23, 12.34).

use std::collections::BTreeMap;

use hexgrid::{search, Hex};

use crate::intervention::ENTRY_COST;
use crate::map::Class;
use crate::movement::{self, Mover};
use crate::position::{Board, Location, Pieces};
use crate::retreat;
use crate::rules::{Side, SiegeKind};
use crate::setup::Piece;
use crate::state::State;
use crate::zoc;

/// A node of the movement search: off the map (an army unit about to enter) or a hex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Node {
    Off,
    At(Hex),
}

/// A movement search made: what moved, from where, with what allowance, and every node it
/// reached with its cheapest cost.
struct Searched {
    /// The position without the moving piece.
    moved: crate::Position,
    start: Node,
    mover: Mover,
    budget: u32,
    reached: hexgrid::Reached<Node>,
}

/// The movement search of a combat unit or leader (not a siege unit).
fn search_moves(s: &State, piece: Piece, strategic: bool) -> Option<Searched> {
    let r = &s.rules;
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
                movement::allowance(r, &Board::new(r, &s.pos), u, strategic, s.conrad)
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
        Piece::Siege(e) => {
            // 12.11: a siege tower moves by itself in the Assault Phase.
            if strategic || r.siege[e].kind != SiegeKind::SiegeTower {
                return None;
            }
            moved.siege[e].at = Location::OffMap;
            let mover = Mover {
                side,
                combat: false,
                cavalry: false,
            };
            (s.pos.siege[e].at, mover, 2 * u32::from(r.siege[e].movement))
        }
    };
    let tower = matches!(piece, Piece::Siege(_));
    let start = match start {
        Location::Map(h) => Node::At(h),
        Location::OffMap => Node::Off,
        _ => return None,
    };
    let board = Board::new(r, &moved);
    let starts_controlled = match start {
        Node::At(h) => zoc::controlled(r, &board, h, enemy),
        Node::Off => false,
    };
    // 9.24: no road rates the Game-Turn after a Retreat result.
    let no_road = match piece {
        Piece::Unit(u) => {
            !retreat::may_use_road_rates(s.retreated_on.get(&u).copied(), s.turn.turn)
        }
        _ => false,
    };
    let reached = search(
        start,
        budget,
        |&n, out| match n {
            Node::Off => {
                for &h in &s.derived.entry {
                    if board.side_at(r, h).is_none() && moved.effects(r, h).cost.is_some() {
                        out.push((Node::At(h), ENTRY_COST));
                    }
                }
            }
            Node::At(h) => {
                for next in r.map.neighbours(h) {
                    if Node::At(h) == start
                        && starts_controlled
                        && zoc::controlled(r, &board, next, enemy)
                    {
                        continue;
                    }
                    // 12.11, 12.12: a tower keeps to the ground between the outerworks and
                    // the foss, never into an unfilled foss hex.
                    if tower && (!s.derived.between.contains(&next) || moved.unfilled_foss(r, next))
                    {
                        continue;
                    }
                    if let Ok(c) = movement::entry(r, &board, mover, h, next) {
                        let c = if no_road {
                            movement::without_road_rates(r, next, c)
                        } else {
                            c
                        };
                        out.push((Node::At(next), c));
                    }
                }
            }
        },
        |&n| match n {
            Node::At(h) => !zoc::controlled(r, &board, h, enemy),
            Node::Off => true,
        },
    );
    drop(board);
    Some(Searched {
        moved,
        start,
        mover,
        budget,
        reached,
    })
}

impl Searched {
    /// The hexes entered on the cheapest way to `node`, in order, the start left out.
    fn path(&self, node: Node) -> Vec<Hex> {
        self.reached
            .path_to(&node)
            .into_iter()
            .filter_map(|n| match n {
                Node::At(x) if Node::At(x) != self.start => Some(x),
                _ => None,
            })
            .collect()
    }
}

/// Acre 5.17, 12.23, 12.34: where a siege unit is relocated in the Strategic Movement
/// Segment (it is not moved), in the map's order.
fn relocations(s: &State, e: usize) -> impl Iterator<Item = Hex> + '_ {
    s.rules
        .map
        .grid
        .hexes()
        .filter(move |&h| Location::Map(h) != s.pos.siege[e].at)
        .filter(move |&h| s.may_deploy_siege(e, h))
}

/// The search of a piece's move and the hexes it may end in, in the order the search
/// settled them (5.13, 5.5, 15.11, 15.14, 5.16).
fn ends(s: &State, piece: Piece, strategic: bool) -> Option<(Searched, Vec<Hex>)> {
    let found = search_moves(s, piece, strategic)?;
    let board = Board::new(&s.rules, &found.moved);
    let ends = found
        .reached
        .iter()
        .filter_map(|(node, _)| match node {
            Node::At(h) if node != found.start && may_end(s, &board, piece, h, strategic) => {
                Some(h)
            }
            _ => None,
        })
        .collect();
    drop(board);
    Some((found, ends))
}

/// Every hex the piece may end its move in, with the hexes entered on the way (the
/// destination last). `strategic` is the Strategic Movement Segment (5.16, 5.17).
pub fn destinations(s: &State, piece: Piece, strategic: bool) -> BTreeMap<Hex, Vec<Hex>> {
    if let (Piece::Siege(e), true) = (piece, strategic) {
        return relocations(s, e).map(|h| (h, vec![h])).collect();
    }
    let Some((found, ends)) = ends(s, piece, strategic) else {
        return BTreeMap::new();
    };
    ends.into_iter()
        .map(|h| (h, found.path(Node::At(h))))
        .collect()
}

/// The hexes of [`destinations`] without the paths to them (which only the move made needs),
/// in the same order.
pub fn destination_hexes(s: &State, piece: Piece, strategic: bool) -> Vec<Hex> {
    let mut out: Vec<Hex> = if let (Piece::Siege(e), true) = (piece, strategic) {
        relocations(s, e).collect()
    } else {
        ends(s, piece, strategic).map_or_else(Vec::new, |(_, ends)| ends)
    };
    out.sort_unstable();
    out
}

/// Acre 15.21, 15.22, 15.24: the charges a Crusader knight cavalry unit may make in a
/// Crusader Movement Segment of the Assault Phase: each hex it may end in next to a Moslem
/// combat unit, reached by a legal move whose last four hexes are Clear and in one straight
/// line ([`crate::cavalry::is_charge`]), with the target's hex and the path of the move. The
/// line may begin wherever the unit can stand (its start included); it does not stop in an
/// enemy zone of control before its last hex (6.21).
pub fn charges(s: &State, unit: usize) -> BTreeMap<(Hex, Hex), Vec<Hex>> {
    /// Acre 15.21: Clear hexes in a straight line.
    const RUN: usize = 4;
    let r = &s.rules;
    let mut out = BTreeMap::new();
    let ty = r.unit_type(unit);
    if r.side_of(unit) != Side::Crusader || !ty.cavalry || !ty.knight {
        return out;
    }
    let Some(found) = search_moves(s, Piece::Unit(unit), false) else {
        return out;
    };
    let enemy = Side::Moslem;
    let board = Board::new(r, &found.moved);
    for (node, cost) in found.reached.iter() {
        let Node::At(first) = node else { continue };
        // The line runs on from here only if the unit could move on from here.
        if node != found.start && zoc::controlled(r, &board, first, enemy) {
            continue;
        }
        for dir in r
            .map
            .neighbours(first)
            .filter_map(|n| first.direction_to(n))
        {
            let mut line = Vec::with_capacity(RUN);
            let mut at = first;
            let mut spent = cost;
            let mut ok = true;
            for i in 0..RUN {
                let next = at + dir;
                let step = movement::entry(r, &board, found.mover, at, next);
                let stops = i + 1 < RUN && zoc::controlled(r, &board, next, enemy);
                let starts_held = i == 0
                    && node == found.start
                    && zoc::controlled(r, &board, first, enemy)
                    && zoc::controlled(r, &board, next, enemy);
                match step {
                    Ok(c) if !stops && !starts_held && r.map.class(next) == Class::Clear => {
                        spent += c;
                        line.push(next);
                        at = next;
                    }
                    _ => {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok || spent > found.budget || !may_end(s, &board, Piece::Unit(unit), at, false) {
                continue;
            }
            let mut path = found.path(node);
            if path.iter().any(|h| line.contains(h)) {
                continue;
            }
            path.extend(line.iter().copied());
            for target in r.map.neighbours(at) {
                let charge = crate::cavalry::is_charge(r, &s.pos, unit, &path, target).is_ok();
                let unit_there = s.pos.unit_at(target).is_some();
                if charge && unit_there {
                    out.entry((at, target)).or_insert_with(|| path.clone());
                }
            }
        }
    }
    out
}

/// Whether the piece may end its move in `hex` (5.13, 5.5, 15.11, 15.14, 5.16).
fn may_end(s: &State, moved: &Board, piece: Piece, hex: Hex, strategic: bool) -> bool {
    let r = &s.rules;
    let side = s.side_of_piece(piece);
    let ok = match piece {
        Piece::Unit(u) => movement::may_end_in(r, moved, u, hex),
        Piece::Leader(_) => moved.leader_at(hex).is_none(),
        // 5.13, 15.14: one siege unit a hex, never with friendly cavalry.
        Piece::Siege(_) => {
            moved.siege_at(hex).is_none()
                && moved.unit_at(hex).is_none_or(|u| !r.unit_type(u).cavalry)
        }
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
