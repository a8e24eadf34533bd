//! Information-set Monte Carlo tree search (single observer: Cowling, Powley and Whitehouse,
//! "Information Set Monte Carlo Tree Search", 2012).
//!
//! One tree holds the searching seat's information: a node is a sequence of decisions from
//! the present, whoever took them. Each iteration:
//!
//! 1. **Re-sample** a world the seat cannot tell from the real one ([`sample_world`]: other
//!    seats' secrets re-sampled by the game, dice re-seeded from the search's generator).
//! 2. **Select** down the tree: at each decision, the children whose actions are legal in
//!    this world compete by UCB, with the count of iterations in which a child was
//!    *available* in place of the parent's visits; a seat's nodes score that seat's reward.
//! 3. **Expand** one untried legal action.
//! 4. **Roll out** with uniform random actions to the end, or for at most
//!    [`Mcts::rollout_cap`] actions, then score: a win 1, a draw 0.5, a loss 0, or
//!    [`Game::evaluate`] for a game cut short.
//! 5. **Back up** each node's seat's reward along the path.
//!
//! **Secret simultaneous orders.** When several seats must decide at once, the searching
//! seat decides first, in the tree; the other seats of that simultaneous step decide by the
//! rollout policy (uniform random), outside the tree, until each has no decision left. A tree
//! node for them would let them answer orders they cannot see. Other seats' decisions at
//! other times are tree nodes scored for them.
//!
//! The move played is the searching seat's most visited action at the root.

use std::time::{Duration, Instant};

use engine::{Game, Pending, Seat};

use crate::{apply_in_search, below, rng, sample_world, Player, Rng};

/// The exploration constant of UCB by default (rewards are in 0-1).
pub const DEFAULT_EXPLORATION: f64 = 0.7;

/// The most random actions a rollout takes by default before scoring the state with
/// [`Game::evaluate`].
pub const DEFAULT_ROLLOUT_CAP: u32 = 200;

/// How long a search goes on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// This many iterations (deterministic for a seed).
    Iterations(u32),
    /// Iterations until this much time has passed (at least one; not deterministic).
    Time(Duration),
}

/// An information-set Monte Carlo tree search player (see the module's documentation).
#[derive(Clone, Debug)]
pub struct Mcts {
    /// How long each search goes on.
    pub budget: Budget,
    /// The exploration constant of UCB.
    pub exploration: f64,
    /// The most actions a rollout takes before the state is scored with [`Game::evaluate`];
    /// `None` plays every rollout to the end.
    pub rollout_cap: Option<u32>,
    rng: Rng,
}

/// What a search found: each of the seat's legal actions at the root with how often it was
/// tried and how it scored.
#[derive(Clone, Debug, PartialEq)]
pub struct Search<A> {
    /// Iterations run.
    pub iterations: u32,
    /// The seat's legal actions, in the game's order.
    pub choices: Vec<Choice<A>>,
    /// The index in `choices` of the action to play: the most visited (ties: the better
    /// scored, then one at random).
    pub best: usize,
}

/// One action at the root of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice<A> {
    /// The action.
    pub action: A,
    /// Iterations that went through it.
    pub visits: u32,
    /// Its mean reward for the searching seat (0 when never visited).
    pub value: f64,
}

/// A node of the tree: the decision that led to it and its statistics.
struct Node<A> {
    /// The seat that took `action`.
    seat: Seat,
    /// The decision; `None` at the root.
    action: Option<A>,
    children: Vec<usize>,
    visits: u32,
    /// Iterations in which this node's decision was legal when its parent was reached.
    available: u32,
    /// Total reward of `seat` over the visits.
    reward: f64,
}

impl<A> Node<A> {
    fn new(seat: Seat, action: Option<A>) -> Self {
        Node {
            seat,
            action,
            children: Vec::new(),
            visits: 0,
            available: 0,
            reward: 0.0,
        }
    }

    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.reward / f64::from(self.visits)
        }
    }
}

impl Mcts {
    /// A search with this budget, the default exploration and rollout cap, whose choices are
    /// fixed by `seed` (for an iteration budget).
    pub fn new(budget: Budget, seed: u64) -> Self {
        Mcts {
            budget,
            exploration: DEFAULT_EXPLORATION,
            rollout_cap: Some(DEFAULT_ROLLOUT_CAP),
            rng: rng(seed),
        }
    }

    /// Searches `state` for `seat`, which must be one of the seats that must decide now.
    /// With one legal action there is nothing to search: it is returned after no iteration.
    /// Panics if `seat` has no legal action.
    pub fn search<G: Game>(&mut self, state: &G, seat: Seat) -> Search<G::Action> {
        let legal = state.legal_actions(seat);
        assert!(
            !legal.is_empty(),
            "seat {} has no legal action to search",
            seat.0
        );
        let mut nodes: Vec<Node<G::Action>> = vec![Node::new(seat, None)];
        let mut iterations = 0u32;
        if legal.len() > 1 {
            let start = Instant::now();
            loop {
                let done = match self.budget {
                    Budget::Iterations(n) => iterations >= n,
                    Budget::Time(t) => iterations > 0 && start.elapsed() >= t,
                };
                if done {
                    break;
                }
                self.iterate(state, seat, &mut nodes);
                iterations += 1;
            }
        }
        let choices: Vec<Choice<G::Action>> = legal
            .into_iter()
            .map(|action| {
                let child = nodes[0]
                    .children
                    .iter()
                    .map(|&c| &nodes[c])
                    .find(|n| n.seat == seat && n.action.as_ref() == Some(&action));
                Choice {
                    visits: child.map_or(0, |n| n.visits),
                    value: child.map_or(0.0, Node::mean),
                    action,
                }
            })
            .collect();
        let mut top = 0;
        for (i, c) in choices.iter().enumerate() {
            let b = &choices[top];
            if c.visits > b.visits || (c.visits == b.visits && c.value > b.value) {
                top = i;
            }
        }
        // Exact ties are broken at random: a search that learnt nothing (a game cut short
        // with no evaluation) must not always pick the first action, or a player could undo
        // and redo a choice forever in a game that lets it change its mind.
        let tied: Vec<usize> = (0..choices.len())
            .filter(|&i| {
                choices[i].visits == choices[top].visits && choices[i].value == choices[top].value
            })
            .collect();
        let best = if tied.len() > 1 {
            tied[below(&mut self.rng, tied.len())]
        } else {
            top
        };
        Search {
            iterations,
            choices,
            best,
        }
    }

    /// One iteration: re-sample, select and expand, roll out, back up.
    fn iterate<G: Game>(&mut self, state: &G, observer: Seat, nodes: &mut Vec<Node<G::Action>>) {
        let mut world = sample_world(state, observer, &mut self.rng);
        let mut path = vec![0usize];
        // Seats other than the observer deciding in the current simultaneous step.
        let mut simultaneous: Vec<Seat> = Vec::new();
        let mut expanded = false;
        while !expanded {
            let seats = match world.pending() {
                Pending::Over => break,
                Pending::Seats(s) if s.is_empty() => break,
                Pending::Seats(s) => s,
            };
            simultaneous.retain(|s| seats.contains(s));
            if seats.len() > 1 {
                for &s in &seats {
                    if s != observer && !simultaneous.contains(&s) {
                        simultaneous.push(s);
                    }
                }
            }
            let decider = if seats.contains(&observer) {
                observer
            } else {
                seats[0]
            };
            if simultaneous.contains(&decider) {
                self.random_step(&mut world, decider);
                continue;
            }
            let legal = world.legal_actions(decider);
            if legal.is_empty() {
                panic!(
                    "bug in {}: seat {} must decide but has no legal action",
                    world.facts().game,
                    decider.0
                );
            }
            let here = *path.last().expect("the root is on the path");
            let mut untried = Vec::new();
            let mut available = Vec::new();
            for action in legal {
                let child = nodes[here].children.iter().copied().find(|&c| {
                    nodes[c].seat == decider && nodes[c].action.as_ref() == Some(&action)
                });
                match child {
                    Some(c) => available.push(c),
                    None => untried.push(action),
                }
            }
            for &c in &available {
                nodes[c].available += 1;
            }
            let next = if untried.is_empty() {
                self.select(nodes, &available)
            } else {
                let action = untried.swap_remove(below(&mut self.rng, untried.len()));
                let mut node = Node::new(decider, Some(action));
                node.available = 1;
                nodes.push(node);
                let c = nodes.len() - 1;
                nodes[here].children.push(c);
                expanded = true;
                c
            };
            let action = nodes[next].action.clone().expect("a child has an action");
            apply_in_search(&mut world, decider, &action);
            path.push(next);
        }
        let mut taken = 0u32;
        while self.rollout_cap.is_none_or(|cap| taken < cap) {
            let seat = match world.pending() {
                Pending::Seats(s) if !s.is_empty() => s[0],
                _ => break,
            };
            self.random_step(&mut world, seat);
            taken += 1;
        }
        let outcome = world.outcome();
        let mut scores: Vec<(Seat, f64)> = Vec::new();
        for &n in &path {
            let seat = nodes[n].seat;
            let reward = match scores.iter().find(|(s, _)| *s == seat) {
                Some(&(_, r)) => r,
                None => {
                    let r = match &outcome {
                        Some(o) => match o.winner {
                            Some(w) if w == seat => 1.0,
                            Some(_) => 0.0,
                            None => 0.5,
                        },
                        None => world.evaluate(seat).clamp(0.0, 1.0),
                    };
                    scores.push((seat, r));
                    r
                }
            };
            nodes[n].visits += 1;
            nodes[n].reward += reward;
        }
    }

    /// The child of highest UCB among `available` (ties: the first).
    fn select<A>(&self, nodes: &[Node<A>], available: &[usize]) -> usize {
        let mut best = available[0];
        let mut best_score = f64::NEG_INFINITY;
        for &c in available {
            let n = &nodes[c];
            let score = n.mean()
                + self.exploration
                    * (f64::from(n.available.max(1)).ln() / f64::from(n.visits.max(1))).sqrt();
            if score > best_score {
                best = c;
                best_score = score;
            }
        }
        best
    }

    /// The rollout policy: a uniform random legal action of `seat`.
    fn random_step<G: Game>(&mut self, world: &mut G, seat: Seat) {
        let mut legal = world.legal_actions(seat);
        if legal.is_empty() {
            panic!(
                "bug in {}: seat {} must decide but has no legal action",
                world.facts().game,
                seat.0
            );
        }
        let action = legal.swap_remove(below(&mut self.rng, legal.len()));
        apply_in_search(world, seat, &action);
    }
}

impl<G: Game> Player<G> for Mcts {
    fn choose(&mut self, state: &G, seat: Seat) -> G::Action {
        let mut search = self.search(state, seat);
        search.choices.swap_remove(search.best).action
    }
}
