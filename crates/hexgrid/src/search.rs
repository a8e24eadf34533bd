//! Deterministic cheapest-cost search (Dijkstra) over caller-defined states, and the
//! hex-only special case [`field_of_movement`].
//!
//! Costs are plain `u32`s in whatever unit the caller uses (e.g. half movement points).
//! Results never depend on hash order: ties are broken by the order in which states were
//! first generated, so equal inputs give equal outputs on every machine.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::hash::Hash;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::Hex;

/// Marks "no parent" (the start state).
const NO_PARENT: u32 = u32::MAX;

#[derive(Debug, Clone)]
struct Node<S> {
    state: S,
    cost: u32,
    parent: u32,
}

/// The result of a [`search`]: every state reachable within the budget, with its cheapest
/// cost and a canonical cheapest path back to the start.
///
/// Iteration ([`iter`](Self::iter)) is in the order states were settled: non-decreasing
/// cost, ties in the order the states were first generated. Deterministic.
#[derive(Debug, Clone)]
pub struct Reached<S> {
    /// State -> position in `nodes`.
    index: FxHashMap<S, u32>,
    /// Nodes in the order first generated; `nodes[0]` is the start.
    nodes: Vec<Node<S>>,
    /// Positions in `nodes`, in settle order.
    order: Vec<u32>,
}

impl<S: Copy + Eq + Hash> Reached<S> {
    /// The state the search started from (cost 0).
    pub fn start(&self) -> S {
        self.nodes[0].state
    }

    /// Number of reached states (including the start).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: the start is always reached.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// True if `state` was reached within the budget.
    pub fn contains(&self, state: &S) -> bool {
        self.index.contains_key(state)
    }

    /// Cheapest cost to reach `state`, or `None` if it cannot be reached within the budget.
    pub fn cost(&self, state: &S) -> Option<u32> {
        self.index.get(state).map(|&i| self.nodes[i as usize].cost)
    }

    /// The state before `state` on its canonical cheapest path (`None` for the start or an
    /// unreached state).
    pub fn parent(&self, state: &S) -> Option<S> {
        let i = *self.index.get(state)?;
        let p = self.nodes[i as usize].parent;
        (p != NO_PARENT).then(|| self.nodes[p as usize].state)
    }

    /// The canonical cheapest path from the start to `state`, both included; empty if
    /// `state` was not reached. The path for the start is just `[start]`.
    pub fn path_to(&self, state: &S) -> Vec<S> {
        let Some(&i) = self.index.get(state) else {
            return Vec::new();
        };
        let mut path = Vec::new();
        let mut i = i;
        loop {
            let node = &self.nodes[i as usize];
            path.push(node.state);
            if node.parent == NO_PARENT {
                break;
            }
            i = node.parent;
        }
        path.reverse();
        path
    }

    /// All reached states with their costs, in settle order (non-decreasing cost).
    pub fn iter(&self) -> Iter<'_, S> {
        Iter {
            reached: self,
            pos: 0,
        }
    }

    /// For each distinct `key(state)`, the first state settled with that key and its cost
    /// (so the cheapest, ties to the earliest), in settle order. Useful to project a
    /// search over `(hex, facing, ..)` states down to "cheapest way into each hex".
    pub fn best_by_key<K: Clone + Eq + Hash>(
        &self,
        mut key: impl FnMut(&S) -> K,
    ) -> Vec<(K, S, u32)> {
        let mut seen: FxHashSet<K> = FxHashSet::default();
        let mut out = Vec::new();
        for (s, c) in self.iter() {
            let k = key(&s);
            if seen.insert(k.clone()) {
                out.push((k, s, c));
            }
        }
        out
    }
}

/// Iterator over `(state, cost)` of a [`Reached`], in settle order.
#[derive(Debug, Clone)]
pub struct Iter<'a, S> {
    reached: &'a Reached<S>,
    pos: usize,
}

impl<S: Copy> Iterator for Iter<'_, S> {
    type Item = (S, u32);

    fn next(&mut self) -> Option<(S, u32)> {
        let &i = self.reached.order.get(self.pos)?;
        self.pos += 1;
        let n = &self.reached.nodes[i as usize];
        Some((n.state, n.cost))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.reached.order.len() - self.pos;
        (n, Some(n))
    }
}

impl<S: Copy> ExactSizeIterator for Iter<'_, S> {}

impl<'a, S: Copy + Eq + Hash> IntoIterator for &'a Reached<S> {
    type Item = (S, u32);
    type IntoIter = Iter<'a, S>;

    fn into_iter(self) -> Iter<'a, S> {
        self.iter()
    }
}

/// Dijkstra's search over caller-defined states from `start`, up to a total cost of `budget`.
///
/// `successors(s, out)` pushes `(next_state, step_cost)` pairs onto `out` (which arrives
/// empty); a state reached by a cheaper route replaces a dearer one, and among equally
/// cheap routes the first found wins (by settle order of the predecessor, then the order
/// successors were pushed). `may_continue(s)` is asked once per reached state other than
/// the start; `false` means `s` is reached but not expanded further (a stop rule such as
/// entering an enemy zone of control). The start is always expanded.
pub fn search<S: Copy + Eq + Hash>(
    start: S,
    budget: u32,
    mut successors: impl FnMut(&S, &mut Vec<(S, u32)>),
    mut may_continue: impl FnMut(&S) -> bool,
) -> Reached<S> {
    let mut index: FxHashMap<S, u32> = FxHashMap::default();
    let mut nodes: Vec<Node<S>> = Vec::new();
    let mut order: Vec<u32> = Vec::new();
    // Heap keys: (cost << 32) | node position, smallest first.
    let mut heap: BinaryHeap<Reverse<u64>> = BinaryHeap::new();
    let mut buf: Vec<(S, u32)> = Vec::new();

    index.insert(start, 0);
    nodes.push(Node {
        state: start,
        cost: 0,
        parent: NO_PARENT,
    });
    heap.push(Reverse(0));

    while let Some(Reverse(key)) = heap.pop() {
        let cost = (key >> 32) as u32;
        let i = key as u32;
        if nodes[i as usize].cost != cost {
            continue; // stale entry: a cheaper route was found later
        }
        order.push(i);
        let state = nodes[i as usize].state;
        if i != 0 && !may_continue(&state) {
            continue;
        }
        buf.clear();
        successors(&state, &mut buf);
        for &(next, step) in &buf {
            let Some(next_cost) = cost.checked_add(step) else {
                continue;
            };
            if next_cost > budget {
                continue;
            }
            let pos = match index.get(&next) {
                Some(&j) => {
                    let node = &mut nodes[j as usize];
                    if next_cost >= node.cost {
                        continue;
                    }
                    node.cost = next_cost;
                    node.parent = i;
                    j
                }
                None => {
                    let j = u32::try_from(nodes.len())
                        .ok()
                        .filter(|&j| j != NO_PARENT)
                        .expect("search: more than 2^32 - 1 states");
                    index.insert(next, j);
                    nodes.push(Node {
                        state: next,
                        cost: next_cost,
                        parent: i,
                    });
                    j
                }
            };
            heap.push(Reverse((u64::from(next_cost) << 32) | u64::from(pos)));
        }
    }

    Reached {
        index,
        nodes,
        order,
    }
}

/// The cheapest cost from `start` to every hex reachable within `budget`.
///
/// `cost(from, to)` is the cost of stepping from a hex into an adjacent one, or `None` if
/// that step is not allowed. Neighbours are tried in [`Direction::ALL`](crate::Direction::ALL)
/// order, which fixes the canonical paths.
pub fn field_of_movement(
    start: Hex,
    budget: u32,
    mut cost: impl FnMut(Hex, Hex) -> Option<u32>,
) -> Reached<Hex> {
    search(
        start,
        budget,
        |&from, out| {
            for to in from.neighbours() {
                if let Some(c) = cost(from, to) {
                    out.push((to, c));
                }
            }
        },
        |_| true,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Direction;

    #[test]
    fn uniform_cost_field_is_a_disc() {
        let f = field_of_movement(Hex::ORIGIN, 3, |_, _| Some(1));
        assert_eq!(f.len(), 37);
        for (h, c) in f.iter() {
            assert_eq!(c, Hex::ORIGIN.distance(h));
        }
        let costs: Vec<u32> = f.iter().map(|(_, c)| c).collect();
        assert!(costs.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(f.cost(&Hex::new(4, 0)), None);
        assert_eq!(f.start(), Hex::ORIGIN);
        assert_eq!(f.path_to(&Hex::ORIGIN), vec![Hex::ORIGIN]);
        assert!(f.path_to(&Hex::new(9, 9)).is_empty());
    }

    #[test]
    fn impassable_and_expensive_hexes() {
        // A wall of impassable hexes at q == 1 except r == 2; entering (0, 1) costs 5.
        let cost = |_: Hex, to: Hex| {
            if to.q == 1 && to.r != 2 {
                None
            } else if to == Hex::new(0, 1) {
                Some(5)
            } else {
                Some(1)
            }
        };
        let f = field_of_movement(Hex::ORIGIN, 6, cost);
        assert_eq!(f.cost(&Hex::new(1, 0)), None);
        assert_eq!(f.cost(&Hex::new(0, 1)), Some(5)); // entering it costs 5 from anywhere
        assert_eq!(f.cost(&Hex::new(0, 2)), Some(3)); // around via (-1,1), (-1,2)
        assert_eq!(f.cost(&Hex::new(1, 2)), Some(4));
        let p = f.path_to(&Hex::new(2, 2));
        assert_eq!(p.first(), Some(&Hex::ORIGIN));
        assert_eq!(p.last(), Some(&Hex::new(2, 2)));
        assert!(p.contains(&Hex::new(1, 2)));
        for w in p.windows(2) {
            assert!(w[0].is_adjacent(w[1]));
        }
    }

    #[test]
    fn ties_follow_generation_order() {
        // Two equal routes to (1,1) from the origin: via SE (1,0) then S, or via S (0,1)
        // then SE. SE is generated before S, so (1,0) is settled first and wins.
        let f = field_of_movement(Hex::ORIGIN, 2, |_, _| Some(1));
        assert_eq!(
            f.path_to(&Hex::new(1, 1)),
            vec![Hex::ORIGIN, Hex::new(1, 0), Hex::new(1, 1)]
        );
        // Same search with the successors reversed picks the other route.
        let r = search(
            Hex::ORIGIN,
            2,
            |&h, out| {
                for d in Direction::ALL.iter().rev() {
                    out.push((h.neighbour(*d), 1));
                }
            },
            |_| true,
        );
        assert_eq!(
            r.path_to(&Hex::new(1, 1)),
            vec![Hex::ORIGIN, Hex::new(0, 1), Hex::new(1, 1)]
        );
    }

    #[test]
    fn stop_rule_reaches_but_does_not_expand() {
        // A "zone of control" at (0,1): may enter, must stop.
        let zoc = Hex::new(0, 1);
        let r = search(
            Hex::ORIGIN,
            10,
            |&h, out| {
                if h == Hex::ORIGIN {
                    out.push((zoc, 1));
                } else {
                    out.push((h.neighbour(Direction::S), 1));
                }
            },
            |&h| h != zoc,
        );
        assert_eq!(r.cost(&zoc), Some(1));
        assert_eq!(r.cost(&Hex::new(0, 2)), None);
        // The start is expanded even if the stop rule would hold there.
        let r = search(
            Hex::ORIGIN,
            2,
            |&h, out| out.push((h + Direction::S, 1)),
            |_| false,
        );
        assert_eq!(r.len(), 2);
    }

    #[test]
    fn facing_states() {
        // State (hex, facing): moving forward costs 2, turning one vertex costs 1.
        use crate::Vertex;
        type St = (Hex, Vertex);
        let r = search(
            (Hex::ORIGIN, Vertex::NNE),
            4,
            |&(h, f): &St, out: &mut Vec<(St, u32)>| {
                out.push(((h, f.rotate(1)), 1));
                out.push(((h, f.rotate(-1)), 1));
                for d in f.sides() {
                    out.push(((h.neighbour(d), f), 2));
                }
            },
            |_| true,
        );
        assert_eq!(r.cost(&(Hex::ORIGIN, Vertex::SSW)), Some(3));
        assert_eq!(r.cost(&(Hex::new(0, -2), Vertex::NNE)), Some(4));
        assert_eq!(r.cost(&(Hex::new(0, 1), Vertex::SSE)), Some(4));
        let best = r.best_by_key(|s| s.0);
        let hexes: Vec<Hex> = best.iter().map(|b| b.0).collect();
        assert_eq!(hexes[0], Hex::ORIGIN);
        let mut dedup = hexes.clone();
        dedup.sort();
        dedup.dedup();
        assert_eq!(dedup.len(), hexes.len());
        for (h, s, c) in best {
            assert_eq!(s.0, h);
            let cheapest = Vertex::ALL.iter().filter_map(|&v| r.cost(&(h, v))).min();
            assert_eq!(Some(c), cheapest);
        }
    }

    #[test]
    fn zero_costs_and_overflow() {
        let r = search(
            0u8,
            u32::MAX,
            |&s, out| {
                if s < 5 {
                    out.push((s + 1, 0));
                    out.push((s + 1, u32::MAX));
                }
            },
            |_| true,
        );
        assert_eq!(r.len(), 6);
        assert!(r.iter().all(|(_, c)| c == 0));
        assert_eq!(r.path_to(&5), vec![0, 1, 2, 3, 4, 5]);
        let r = search(
            0u8,
            u32::MAX,
            |&s, out| {
                if s < 2 {
                    out.push((s + 1, u32::MAX));
                }
            },
            |_| true,
        );
        assert_eq!(r.cost(&1), Some(u32::MAX));
        assert_eq!(r.cost(&2), None);
        assert_eq!(r.parent(&1), Some(0));
        assert_eq!(r.parent(&0), None);
    }
}
