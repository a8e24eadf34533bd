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
//! 4. **Play out** to the end, or for at most [`Mcts::playout_depth`] actions (the
//!    cutoff), then score: a win 1, a draw 0.5, a loss 0, or [`Game::evaluate`] for a game
//!    cut short.
//! 5. **Back up** each node's seat's reward along the path.
//!
//! **Guided by a doctrine.** With a game's [`Policy`] ([`Mcts::search_guided`]), a node
//! considers only the [`Mcts::width`] actions the policy scores best (a Crusades II movement
//! decision has about a thousand), expands them best first, adds the policy's preference to
//! UCB as a bias that fades with visits ([`Mcts::bias`]; progressive bias, Chaslot et al.,
//! 2008), breaks exact ties at the root by the policy's preference, and playouts follow the
//! policy instead of uniform random actions. Without one, every legal action is a candidate
//! and playouts are uniform random.
//!
//! **Secret simultaneous orders.** When several seats must decide at once, the searching
//! seat decides first, in the tree; the other seats of that simultaneous step decide by the
//! playout policy (uniform random, or the doctrine), outside the tree, until each has no decision left. A tree
//! node for them would let them answer orders they cannot see. Other seats' decisions at
//! other times are tree nodes scored for them.
//!
//! The move played is the searching seat's most visited action at the root.

use std::time::{Duration, Instant};

use engine::{Game, Pending, Seat};

use std::sync::Arc;

use crate::heuristic::best;
use crate::{apply_in_search, below, rng, sample_world, Player, Policy, Rng};

/// The exploration constant of UCB by default (rewards are in 0-1).
pub const DEFAULT_EXPLORATION: f64 = 0.7;

/// The playout cutoff by default: the most actions a playout takes before the state is scored
/// with [`Game::evaluate`]. Short, because a game's evaluation is cheap and a Crusades II
/// action is not (listing its legal actions takes milliseconds): a few actions are enough
/// to see a combat resolved.
pub const DEFAULT_PLAYOUT_DEPTH: u32 = 4;

/// How many of a node's actions a search guided by a doctrine considers by default: the best
/// scored.
pub const DEFAULT_WIDTH: usize = 6;

/// The weight of the doctrine's preference in a guided search's selection by default
/// (progressive bias: `bias * rank / (visits + 1)`, the rank 1 for the doctrine's best
/// candidate down towards 0), so that a search with few iterations leans on the doctrine.
pub const DEFAULT_BIAS: f64 = 0.1;

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
    /// The playout cutoff: the most actions a playout takes before the state is scored with
    /// [`Game::evaluate`]; `None` plays every playout to the end.
    pub playout_depth: Option<u32>,
    /// How many actions of a node a guided search considers: those its policy scores best.
    pub width: usize,
    /// The weight of the policy's preference in a guided search's selection (progressive
    /// bias, see [`DEFAULT_BIAS`]).
    pub bias: f64,
    rng: Rng,
}

/// A search guided by a game's doctrine ([`Mcts::search_guided`]) as a player.
pub struct GuidedMcts<G: Game> {
    /// The search.
    pub mcts: Mcts,
    /// The doctrine that guides it.
    pub policy: Arc<dyn Policy<G>>,
}

impl<G: Game> Player<G> for GuidedMcts<G> {
    fn choose(&mut self, state: &G, seat: Seat) -> G::Action {
        let mut search = self.mcts.search_guided(state, seat, Some(&*self.policy));
        search.choices.swap_remove(search.best).action
    }
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
    /// The policy's preference for this decision among its siblings: 1 for the best down
    /// towards 0 (0 without a policy).
    prior: f64,
}

impl<A> Node<A> {
    fn new(seat: Seat, action: Option<A>, prior: f64) -> Self {
        Node {
            seat,
            action,
            children: Vec::new(),
            visits: 0,
            available: 0,
            reward: 0.0,
            prior,
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
    /// A search with this budget, the default exploration, playout cutoff and width, whose
    /// choices are fixed by `seed` (for an iteration budget).
    pub fn new(budget: Budget, seed: u64) -> Self {
        Mcts {
            budget,
            exploration: DEFAULT_EXPLORATION,
            playout_depth: Some(DEFAULT_PLAYOUT_DEPTH),
            width: DEFAULT_WIDTH,
            bias: DEFAULT_BIAS,
            rng: rng(seed),
        }
    }

    /// Searches `state` for `seat`, which must be one of the seats that must decide now,
    /// with uniform random playouts. With one legal action there is nothing to search: it is
    /// returned after no iteration. Panics if `seat` has no legal action.
    pub fn search<G: Game>(&mut self, state: &G, seat: Seat) -> Search<G::Action> {
        self.search_guided(state, seat, None)
    }

    /// [`Mcts::search`], guided by a doctrine when `policy` is given (see the module's
    /// documentation).
    pub fn search_guided<G: Game>(
        &mut self,
        state: &G,
        seat: Seat,
        policy: Option<&dyn Policy<G>>,
    ) -> Search<G::Action> {
        let legal = state.legal_actions(seat);
        assert!(
            !legal.is_empty(),
            "seat {} has no legal action to search",
            seat.0
        );
        // The doctrine's preference at the root, read in a re-sampled world: it picks the
        // root's candidates and breaks ties. The seat's legal actions are the same in every
        // re-sampled world, so the root's candidates are worked out once.
        let prior: Vec<f64> = match policy {
            Some(p) if legal.len() > 1 => {
                let world = sample_world(state, seat, &mut self.rng);
                p.scores(&world, seat, &legal)
            }
            _ => vec![0.0; legal.len()],
        };
        let root: Vec<(G::Action, f64)> = match policy {
            Some(_) => self.ranked(&legal, &prior),
            None => legal.iter().map(|a| (a.clone(), 0.0)).collect(),
        };
        let mut nodes: Vec<Node<G::Action>> = vec![Node::new(seat, None, 0.0)];
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
                self.iterate(state, seat, &mut nodes, policy, &root);
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
        let key = |i: usize| (choices[i].visits, choices[i].value, prior[i]);
        let mut top = 0;
        for i in 0..choices.len() {
            let (v, m, p) = key(i);
            let (bv, bm, bp) = key(top);
            if v > bv || (v == bv && (m > bm || (m == bm && p > bp))) {
                top = i;
            }
        }
        // Exact ties are broken at random: a search that learnt nothing (a game cut short
        // with no evaluation) must not always pick the first action, or a player could undo
        // and redo a choice forever in a game that lets it change its mind.
        let tied: Vec<usize> = (0..choices.len()).filter(|&i| key(i) == key(top)).collect();
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

    /// One iteration: re-sample, select and expand, play out, back up.
    fn iterate<G: Game>(
        &mut self,
        state: &G,
        observer: Seat,
        nodes: &mut Vec<Node<G::Action>>,
        policy: Option<&dyn Policy<G>>,
        root: &[(G::Action, f64)],
    ) {
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
                self.playout_step(&mut world, decider, policy);
                continue;
            }
            let legal = if path.len() == 1 && decider == observer {
                root.to_vec()
            } else {
                self.candidates(&world, decider, policy)
            };
            let here = *path.last().expect("the root is on the path");
            let mut untried = Vec::new();
            let mut available = Vec::new();
            for (action, prior) in legal {
                let child = nodes[here].children.iter().copied().find(|&c| {
                    nodes[c].seat == decider && nodes[c].action.as_ref() == Some(&action)
                });
                match child {
                    Some(c) => available.push(c),
                    None => untried.push((action, prior)),
                }
            }
            for &c in &available {
                nodes[c].available += 1;
            }
            let next = if untried.is_empty() {
                self.select(nodes, &available)
            } else {
                // Guided, candidates come best first: the best untried is expanded.
                let (action, prior) = if policy.is_some() {
                    untried.remove(0)
                } else {
                    untried.swap_remove(below(&mut self.rng, untried.len()))
                };
                let mut node = Node::new(decider, Some(action), prior);
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
        while self.playout_depth.is_none_or(|cap| taken < cap) {
            let seat = match world.pending() {
                Pending::Seats(s) if !s.is_empty() => s[0],
                _ => break,
            };
            self.playout_step(&mut world, seat, policy);
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
                        Some(o) => o.score(seat),
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
                    * (f64::from(n.available.max(1)).ln() / f64::from(n.visits.max(1))).sqrt()
                + self.bias * n.prior / f64::from(n.visits + 1);
            if score > best_score {
                best = c;
                best_score = score;
            }
        }
        best
    }

    /// The actions a node considers for `seat`, each with its prior ([`Node::prior`]): every
    /// legal action, or with a policy the [`Mcts::width`] it scores best, best first (ties in
    /// the game's order).
    fn candidates<G: Game>(
        &self,
        world: &G,
        seat: Seat,
        policy: Option<&dyn Policy<G>>,
    ) -> Vec<(G::Action, f64)> {
        let legal = legal_of(world, seat);
        match policy {
            Some(p) => self.ranked(&legal, &p.scores(world, seat, &legal)),
            None => legal.into_iter().map(|a| (a, 0.0)).collect(),
        }
    }

    /// The [`Mcts::width`] best-scored actions, best first (ties in the given order), with
    /// their priors by rank: 1 for the best, down by `1 / width` a place.
    fn ranked<A: Clone>(&self, legal: &[A], scores: &[f64]) -> Vec<(A, f64)> {
        let width = self.width.max(1);
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
        order.truncate(width);
        order
            .into_iter()
            .enumerate()
            .map(|(rank, i)| (legal[i].clone(), 1.0 - rank as f64 / width as f64))
            .collect()
    }

    /// The playout policy: the policy's best action for `seat` (ties at random), or without
    /// one a uniform random legal action.
    fn playout_step<G: Game>(&mut self, world: &mut G, seat: Seat, policy: Option<&dyn Policy<G>>) {
        let mut legal = legal_of(world, seat);
        let i = match policy {
            Some(p) => best(&p.scores(world, seat, &legal), &mut self.rng),
            None => below(&mut self.rng, legal.len()),
        };
        let action = legal.swap_remove(i);
        apply_in_search(world, seat, &action);
    }
}

/// The legal actions of a seat that must decide; none is a bug in the game: panics naming it.
fn legal_of<G: Game>(world: &G, seat: Seat) -> Vec<G::Action> {
    let legal = world.legal_actions(seat);
    if legal.is_empty() {
        panic!(
            "bug in {}: seat {} must decide but has no legal action",
            world.facts().game,
            seat.0
        );
    }
    legal
}

impl<G: Game> Player<G> for Mcts {
    fn choose(&mut self, state: &G, seat: Seat) -> G::Action {
        let mut search = self.search(state, seat);
        search.choices.swap_remove(search.best).action
    }
}
