//! Information-set Monte Carlo tree search (single observer: Cowling, Powley and Whitehouse,
//! "Information Set Monte Carlo Tree Search", 2012).
//!
//! One tree holds the searching seat's information: a node is a sequence of decisions from
//! the present, whoever took them. Each iteration:
//!
//! 1. **Re-sample** a world the seat cannot tell from the real one ([`sample_world`]: other
//!    seats' secrets re-sampled by the game, dice re-seeded from the search's generator).
//! 2. **Select** down the tree. A node's options for the seat deciding there are worked out
//!    the first time an iteration passes there (every legal action, or the doctrine's best,
//!    below) and kept; untried options are tried first, then the tried ones compete by UCB
//!    plus the doctrine's prior. An option the rules refuse in this world (the dice or the
//!    re-sampled secrets differ) is passed over; a seat's nodes score that seat's reward.
//! 3. **Expand** one untried option.
//! 4. **Play out** uniformly at random to the end, or for at most [`Mcts::playout_depth`]
//!    actions (the cutoff), then score: a win 1, a draw 0.5, a loss 0, or [`Game::evaluate`]
//!    for a game cut short.
//! 5. **Back up** each node's seat's reward along the path.
//!
//! **Guided by a doctrine.** With a game's [`Policy`] ([`Mcts::search_guided`]), a node
//! considers only the [`Mcts::width`] actions the policy scores best (a Crusades II movement
//! decision has about a thousand), expands them best first, and adds the policy's preference
//! to the selection as PUCT's prior term ([`Mcts::bias`]: the best option's prior is half of
//! the total, each next one half the one before), so that where rewards barely differ the
//! doctrine's choice is searched most and played. The doctrine is asked once per node and
//! seat, not at every step of every iteration: it is by far the dearest part of a decision.
//! Its playouts are cut at once by default ([`DEFAULT_PLAYOUT_DEPTH`]): the tree does the
//! looking ahead and the game's evaluation scores its leaves. Without a doctrine, every
//! legal action is an option, tried in a random order.
//!
//! **Planned** ([`Mcts::planned`], a player spec ending in `:planned`): in a game of many
//! small decisions (a Crusades II turn moves dozens of counters one at a time) a tree a few
//! decisions deep never reaches what they lead to. A planned search weighs only the
//! decisions its doctrine deliberates ([`Policy::deliberates`]: the orders and attacks) and
//! takes every other one by the doctrine, in the tree, in the game and in its playouts, which
//! follow the doctrine to the cutoff; so an iteration plays its orders out, through the
//! moves and melees they lead to, before the evaluation reads the result (a portfolio search
//! over the doctrine's own choices: Churchill and Buro, "Portfolio Greedy Search", 2013).
//! Its root tries the candidates in turn, in rounds, every candidate of a round on the same
//! re-sampled world (common random numbers: the same dice and secrets, so that the
//! candidates' means differ by what they do, not by their luck), and plays the best mean
//! (ties: the doctrine's order). Each iteration is dear (a playout to the end of a Crusades
//! II battle is some 0.05 s), so that a planned search takes a budget of some hundred
//! iterations, spent only at the few decisions it deliberates.
//!
//! **Rewards on the tree's own scale.** Selection reads a node's mean reward as log-odds,
//! scaled to the range of the log-odds of the means of the nodes below the root so far
//! ([`Mcts::normalize`], as MuZero scales values: Schrittwieser et al., 2020). An evaluation
//! cut short moves by hundredths from one move to the next, and on the raw scale the
//! doctrine's prior outweighed any such difference: in Crusades II a 1,000-iteration search
//! played the doctrine's move in every one of 284 decisions measured. Log-odds, because an
//! evaluation is a chance of winning: a step that moves an even battle from 0.50 to 0.55
//! moves one nearly won from 0.980 to 0.982, and both are the same step. The range is never
//! taken narrower than [`LEAST_LOG_ODDS_RANGE`], so that the noise of re-sampled dice does
//! not overrule the doctrine either. The scaling is off by default until it proves stronger:
//! in its first games against the heuristic at 1,000 iterations (scaled then as chances) it
//! lost more than the doctrine does.
//!
//! **Secret simultaneous orders.** When several seats must decide at once, the searching
//! seat decides first, in the tree; the other seats of that simultaneous step decide outside
//! the tree, until each has no decision left: by the doctrine's choice, worked out once per
//! node in the first world that reached it, or uniformly at random without a doctrine. A tree
//! node for them would let them answer orders they cannot see. Other seats' decisions at
//! other times are tree nodes scored for them.
//!
//! **Work taken over.** Every iteration replays its tree's decisions in a world of its own,
//! and the rules check each decision replayed. For a game that says so
//! ([`Game::REUSES_WORK`]), each decision of the tree keeps the world it was first reached in,
//! and a later world reaching it takes over what that one has worked out and still holds
//! ([`Game::reuse_work`]; in Crusades II, the selected counter's moves, which checking a move
//! needs: a fifth of a search's cost at Hattin). Only results that follow from the rest of
//! the state are taken over, so the search is the same ([`Mcts::reuses_work`] off, a test
//! checks it).
//!
//! The move played is the searching seat's most visited action at the root (ties: the
//! better scored, then the doctrine's preference, then at random).
//!
//! **Stopping once settled.** A search on an iteration budget stops as soon as its most
//! visited root action leads every other by more than the iterations left
//! ([`Mcts::stops_when_settled`]): no other can then catch it, so the move played is the one
//! the whole budget would have played from the same generator. Guided by a doctrine, whose
//! prior gives its first choice about half the visits and its second a quarter, a search
//! settles after some five-sixths of its budget (Crusades II at 1,000 iterations: 842 a
//! decision at Hattin). Only the generator's later draws differ, so the player is the same
//! player at less cost.

use std::time::{Duration, Instant};

use engine::{Game, Log, Pending, Seat};

use std::sync::Arc;

use crate::heuristic::best;
use crate::{apply_in_search, below, rng, sample_world, Player, Policy, Rng};

/// The exploration constant of UCB by default (rewards are in 0-1).
pub const DEFAULT_EXPLORATION: f64 = 0.7;

/// The playout cutoff of a search guided by a doctrine by default: the leaf of each iteration
/// is scored by [`Game::evaluate`] at once. Random actions after the doctrine's careful ones
/// would only add noise to an evaluation that reads the state, and cost time.
pub const DEFAULT_PLAYOUT_DEPTH: u32 = 0;

/// How many of a node's actions a search guided by a doctrine considers by default: the best
/// scored.
pub const DEFAULT_WIDTH: usize = 6;

/// The weight of the doctrine's preference in a guided search's selection by default (the
/// prior term of PUCT: `bias * prior * sqrt(N) / (1 + visits)`), so that where rewards barely
/// differ the doctrine's choice is searched most, and played.
pub const DEFAULT_BIAS: f64 = 1.0;

/// The exploration constant of UCB in a search guided by a doctrine by default: lower than
/// [`DEFAULT_EXPLORATION`], since the doctrine's prior already spreads the visits.
pub const GUIDED_EXPLORATION: f64 = 0.25;

/// The narrowest range of the log-odds of mean rewards that selection scales rewards to
/// ([`Mcts::normalize`]): 0.2, about 0.05 in the chance of winning of an even battle.
/// Differences of a few thousandths between siblings are mostly the noise of re-sampled dice
/// and secrets, and the doctrine's prior should rule them, while a difference of a few
/// hundredths is worth overruling it for. Measured on Crusades II at 1,000 iterations without
/// a floor, the search overruled its doctrine on such noise and lost games the doctrine wins.
pub const LEAST_LOG_ODDS_RANGE: f64 = 0.2;

/// The chance of winning nearest 0 and 1 that [`log_odds`] reads (about ±9.2 in log-odds):
/// a won or lost game's reward is still a finite number.
const SUREST: f64 = 1e-4;

/// The log-odds of a chance of winning, within [`SUREST`] of certainty.
fn log_odds(p: f64) -> f64 {
    let p = p.clamp(SUREST, 1.0 - SUREST);
    (p / (1.0 - p)).ln()
}

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
    /// Whether selection reads each node's mean reward as log-odds scaled to the range of
    /// those of the nodes below the root so far, at least [`LEAST_LOG_ODDS_RANGE`] (see the
    /// module's documentation). Off by default: in its first games against the heuristic at
    /// 1,000 iterations the scaled search lost more than its doctrine does (BENCHMARKS.md).
    pub normalize: bool,
    /// Whether a guided search is **planned**: it searches only the decisions its doctrine
    /// deliberates ([`Policy::deliberates`]: a game's orders and attacks), takes every other
    /// decision, in the tree and as a player, by the doctrine, and plays its playouts out by
    /// the doctrine rather than at random, so that each iteration reaches what its orders lead
    /// to (see the module's documentation).
    pub planned: bool,
    /// Whether a search on an iteration budget stops once its most visited root action leads
    /// every other by more than the iterations left (see the module's documentation). On by
    /// default; a planned search, which plays the best mean, never stops early.
    pub stops_when_settled: bool,
    /// Whether a search hands the world each decision of its tree was first reached in to
    /// the worlds that reach it later ([`Game::reuse_work`]), for a game that reuses work
    /// ([`Game::REUSES_WORK`]). On by default; it changes only the cost of a search (off, a
    /// test checks that the search is the same).
    pub reuses_work: bool,
    /// The lowest and highest log-odds of the mean reward of a node below the root in the
    /// current search.
    range: (f64, f64),
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
        if self.mcts.planned {
            let world = sample_world(state, seat, &mut self.mcts.rng);
            if !self.policy.deliberates(&world, seat) {
                let mut legal = legal_of(&world, seat);
                let i = best(
                    &self.policy.scores(&world, seat, &legal),
                    &mut self.mcts.rng,
                );
                return legal.swap_remove(i);
            }
        }
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
    /// scored, then one at random); in a planned search, the best scored of those tried.
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

/// A node of the tree: the decision that led to it, its statistics, and what a search
/// considers after it.
struct Node<A, S> {
    /// The seat whose decision led here (the searching seat at the root).
    seat: Seat,
    visits: u32,
    /// Total reward of `seat` over the visits.
    reward: f64,
    /// The policy's preference for this decision among its siblings (its share of the
    /// [`Node::options`] prior; 0 without a policy).
    prior: f64,
    /// The decisions considered after this node, one list per seat that decided here: worked
    /// out the first time an iteration passes here with that seat to decide.
    options: Vec<Options<A, S>>,
    /// The decisions taken here by seats of a simultaneous step other than the searching
    /// seat: (seat, how many it had taken here before, the doctrine's choice). Worked out
    /// once, in the first world that reached this node.
    replies: Vec<(Seat, u32, A)>,
}

/// The decisions a node considers for one seat, each with its prior and, once tried, its
/// child node.
struct Options<A, S> {
    seat: Seat,
    actions: Vec<(A, f64)>,
    children: Vec<Option<usize>>,
    /// The world they were worked out in, for a game that reuses work ([`Game::REUSES_WORK`]):
    /// later iterations that come here take over what it has worked out
    /// ([`Game::reuse_work`]).
    first_world: Option<S>,
}

impl<A, S> Node<A, S> {
    fn new(seat: Seat, prior: f64) -> Self {
        Node {
            seat,
            visits: 0,
            reward: 0.0,
            prior,
            options: Vec::new(),
            replies: Vec::new(),
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
    /// A search with this budget, the default exploration, bias and width and the playout
    /// cutoff of an unguided search ([`crate::UNGUIDED_PLAYOUT_DEPTH`]), whose choices are
    /// fixed by `seed` (for an iteration budget).
    pub fn new(budget: Budget, seed: u64) -> Self {
        Mcts {
            budget,
            exploration: DEFAULT_EXPLORATION,
            playout_depth: Some(crate::UNGUIDED_PLAYOUT_DEPTH),
            width: DEFAULT_WIDTH,
            bias: DEFAULT_BIAS,
            normalize: false,
            planned: false,
            stops_when_settled: true,
            reuses_work: true,
            range: (f64::INFINITY, f64::NEG_INFINITY),
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
        // That world is the root's first, whose work later worlds take over (never the real
        // state: nothing of what the seat cannot see is in it), its legal actions worked out
        // as every other decision's first world has them.
        let mut root_world = None;
        let prior: Vec<f64> = match policy {
            Some(p) if legal.len() > 1 => {
                let world = sample_world(state, seat, &mut self.rng);
                let prior = p.scores(&world, seat, &legal);
                if G::REUSES_WORK && self.reuses_work {
                    let _ = world.legal_actions(seat);
                    root_world = Some(world);
                }
                prior
            }
            _ => vec![0.0; legal.len()],
        };
        let mut nodes: Vec<Node<G::Action, G>> = vec![Node::new(seat, 0.0)];
        let mut iterations = 0u32;
        self.range = (f64::INFINITY, f64::NEG_INFINITY);
        if legal.len() > 1 {
            let root = match policy {
                Some(_) => self.ranked(&legal, &prior),
                None => self.shuffled(legal.clone()),
            };
            nodes[0].options.push(Options {
                seat,
                children: vec![None; root.len()],
                actions: root,
                first_world: root_world,
            });
            let start = Instant::now();
            // A planned search's rounds: the root's candidates in turn, each round on one
            // re-sampled world (common random numbers).
            let candidates = nodes[0].options[0].actions.len();
            let mut round: Option<G> = None;
            loop {
                let done = match self.budget {
                    Budget::Iterations(n) => {
                        iterations >= n
                            || (self.stops_when_settled
                                && !(self.planned && policy.is_some())
                                && settled(&nodes, n - iterations))
                    }
                    Budget::Time(t) => iterations > 0 && start.elapsed() >= t,
                };
                if done {
                    break;
                }
                let planned = self.planned && policy.is_some();
                let (world, root_pick) = if planned {
                    let turn = iterations as usize % candidates;
                    if turn == 0 || round.is_none() {
                        round = Some(sample_world(state, seat, &mut self.rng));
                    }
                    (round.clone(), Some(turn))
                } else {
                    (None, None)
                };
                let world = world.unwrap_or_else(|| sample_world(state, seat, &mut self.rng));
                self.iterate(world, seat, &mut nodes, policy, root_pick);
                iterations += 1;
            }
        }
        let root = nodes[0].options.first();
        let choices: Vec<Choice<G::Action>> = legal
            .into_iter()
            .map(|action| {
                let child = root.and_then(|o| {
                    o.actions
                        .iter()
                        .position(|(a, _)| *a == action)
                        .and_then(|i| o.children[i])
                        .map(|c| &nodes[c])
                });
                Choice {
                    visits: child.map_or(0, |n| n.visits),
                    value: child.map_or(0.0, Node::mean),
                    action,
                }
            })
            .collect();
        // A planned search's candidates share their rounds: the best mean wins among those
        // tried (one may have had a round more than another).
        let planned = self.planned && policy.is_some();
        let key = |i: usize| {
            let visits = if planned {
                u32::from(choices[i].visits > 0)
            } else {
                choices[i].visits
            };
            (visits, choices[i].value, prior[i])
        };
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

    /// One iteration from a re-sampled `world`: select and expand, play out, back up. With
    /// `root_pick`, the root's candidate of that index is taken (a planned search's rounds).
    fn iterate<G: Game>(
        &mut self,
        mut world: G,
        observer: Seat,
        nodes: &mut Vec<Node<G::Action, G>>,
        policy: Option<&dyn Policy<G>>,
        root_pick: Option<usize>,
    ) {
        let mut path = vec![0usize];
        // Seats other than the observer deciding in the current simultaneous step, with the
        // decisions each has taken at the current node.
        let mut simultaneous: Vec<(Seat, u32)> = Vec::new();
        loop {
            let seats = match world.pending() {
                Pending::Over => break,
                Pending::Seats(s) if s.is_empty() => break,
                Pending::Seats(s) => s,
            };
            simultaneous.retain(|(s, _)| seats.contains(s));
            if seats.len() > 1 {
                for &s in &seats {
                    if s != observer && !simultaneous.iter().any(|(o, _)| *o == s) {
                        simultaneous.push((s, 0));
                    }
                }
            }
            let decider = if seats.contains(&observer) {
                observer
            } else {
                seats[0]
            };
            let here = *path.last().expect("the root is on the path");
            if let Some(k) = simultaneous.iter_mut().find(|(s, _)| *s == decider) {
                let taken = k.1;
                k.1 += 1;
                self.reply(&mut world, nodes, here, decider, taken, policy);
                continue;
            }
            if let Some(p) = policy.filter(|p| self.planned && !p.deliberates(&world, decider)) {
                self.doctrine_step(&mut world, decider, p);
                continue;
            }
            let forced = root_pick.filter(|_| here == 0 && decider == observer);
            match self.descend(&mut world, nodes, here, decider, policy, forced) {
                Step::Known(child) => {
                    path.push(child);
                    simultaneous.iter_mut().for_each(|k| k.1 = 0);
                }
                Step::New(child) => {
                    path.push(child);
                    break;
                }
                Step::Outside => break,
            }
        }
        let mut taken = 0u32;
        while self.playout_depth.is_none_or(|cap| taken < cap) {
            let seat = match world.pending() {
                Pending::Seats(s) if !s.is_empty() => s[0],
                _ => break,
            };
            match policy.filter(|_| self.planned) {
                Some(p) => self.doctrine_step(&mut world, seat, p),
                None => self.random_step(&mut world, seat),
            }
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
            if n != 0 && self.normalize {
                let m = log_odds(nodes[n].mean());
                self.range = (self.range.0.min(m), self.range.1.max(m));
            }
        }
    }

    /// Takes `decider`'s decision at node `here` in `world`: the next untried option (best
    /// first when guided), or once every option is tried the child of highest score
    /// ([`Mcts::select`]); the option of index `forced` if given. An option that the rules
    /// refuse in this world (other dice, other re-sampled secrets) is passed over; when every
    /// one is refused, a uniform random legal action is taken outside the tree.
    fn descend<G: Game>(
        &mut self,
        world: &mut G,
        nodes: &mut Vec<Node<G::Action, G>>,
        here: usize,
        decider: Seat,
        policy: Option<&dyn Policy<G>>,
        forced: Option<usize>,
    ) -> Step {
        let o = match nodes[here].options.iter().position(|o| o.seat == decider) {
            Some(o) => o,
            None => {
                let actions = self.candidates(world, decider, policy);
                nodes[here].options.push(Options {
                    seat: decider,
                    children: vec![None; actions.len()],
                    actions,
                    first_world: (G::REUSES_WORK && self.reuses_work).then(|| world.clone()),
                });
                nodes[here].options.len() - 1
            }
        };
        if let Some(first) = &nodes[here].options[o].first_world {
            world.reuse_work(first);
        }
        let mut refused = vec![false; nodes[here].options[o].actions.len()];
        loop {
            let options = &nodes[here].options[o];
            let untried =
                (0..options.actions.len()).find(|&i| options.children[i].is_none() && !refused[i]);
            let forced = forced.filter(|&i| i < options.actions.len() && !refused[i]);
            let pick = match forced.or(untried) {
                Some(i) => Some(i),
                None => self.select(nodes, &nodes[here].options[o], &refused),
            };
            let Some(i) = pick else {
                self.random_step(world, decider);
                return Step::Outside;
            };
            let (action, prior) = &nodes[here].options[o].actions[i];
            if !try_in_search(world, decider, action) {
                refused[i] = true;
                continue;
            }
            let prior = *prior;
            return match nodes[here].options[o].children[i] {
                Some(c) => Step::Known(c),
                None => {
                    nodes.push(Node::new(decider, prior));
                    let c = nodes.len() - 1;
                    nodes[here].options[o].children[i] = Some(c);
                    Step::New(c)
                }
            };
        }
    }

    /// The option of highest score among those tried and not `refused`: the mean reward, an
    /// exploration term (UCB1) and the doctrine's prior (`bias * prior * sqrt(N) / (1 +
    /// visits)`, as in PUCT), so that where rewards barely differ the doctrine's choice gets
    /// most visits. `None` when every tried option is refused.
    fn select<A, S>(
        &self,
        nodes: &[Node<A, S>],
        options: &Options<A, S>,
        refused: &[bool],
    ) -> Option<usize> {
        let total: u32 = options
            .children
            .iter()
            .flatten()
            .map(|&c| nodes[c].visits)
            .sum();
        let (ln, root) = (f64::from(total.max(1)).ln(), f64::from(total.max(1)).sqrt());
        let mut best = None;
        let mut best_score = f64::NEG_INFINITY;
        for (i, child) in options.children.iter().enumerate() {
            let Some(c) = *child else { continue };
            if refused[i] {
                continue;
            }
            let n = &nodes[c];
            let visits = f64::from(n.visits.max(1));
            let (lo, hi) = self.range;
            let mean = if self.normalize && hi > lo {
                (log_odds(n.mean()) - lo) / (hi - lo).max(LEAST_LOG_ODDS_RANGE)
            } else {
                n.mean()
            };
            let score = mean
                + self.exploration * (ln / visits).sqrt()
                + self.bias * n.prior * root / (1.0 + f64::from(n.visits));
            if score > best_score {
                best = Some(i);
                best_score = score;
            }
        }
        best
    }

    /// The decision of a seat of a simultaneous step other than the searching seat: the
    /// doctrine's choice, worked out once per node, seat and decision in the first world that
    /// reached it (a tree node for it would let it answer orders it cannot see); without a
    /// doctrine, or when the rules refuse that choice in this world, a uniform random legal
    /// action.
    fn reply<G: Game>(
        &mut self,
        world: &mut G,
        nodes: &mut [Node<G::Action, G>],
        here: usize,
        seat: Seat,
        taken: u32,
        policy: Option<&dyn Policy<G>>,
    ) {
        let Some(p) = policy else {
            self.random_step(world, seat);
            return;
        };
        let known = nodes[here]
            .replies
            .iter()
            .find(|(s, k, _)| *s == seat && *k == taken)
            .map(|(_, _, a)| a.clone());
        let action = match known {
            Some(a) => a,
            None => {
                let mut legal = legal_of(world, seat);
                let i = best(&p.scores(world, seat, &legal), &mut self.rng);
                let a = legal.swap_remove(i);
                nodes[here].replies.push((seat, taken, a.clone()));
                a
            }
        };
        if !try_in_search(world, seat, &action) {
            self.random_step(world, seat);
        }
    }

    /// The actions a node considers for `seat`, each with its prior ([`Node::prior`]): with
    /// a policy the [`Mcts::width`] it scores best, best first (ties in the game's order);
    /// without one every legal action, in a random order (the order they are tried in).
    fn candidates<G: Game>(
        &mut self,
        world: &G,
        seat: Seat,
        policy: Option<&dyn Policy<G>>,
    ) -> Vec<(G::Action, f64)> {
        let legal = legal_of(world, seat);
        match policy {
            Some(p) => self.ranked(&legal, &p.scores(world, seat, &legal)),
            None => self.shuffled(legal),
        }
    }

    /// Every action, in a random order, with no prior.
    fn shuffled<A>(&mut self, mut legal: Vec<A>) -> Vec<(A, f64)> {
        for i in (1..legal.len()).rev() {
            legal.swap(i, below(&mut self.rng, i + 1));
        }
        legal.into_iter().map(|a| (a, 0.0)).collect()
    }

    /// The [`Mcts::width`] best-scored actions, best first (ties in the given order), with
    /// their priors: halving from one place to the next, summing to 1. An action the doctrine
    /// never takes (scored `f64::NEG_INFINITY`) is left out, unless every one is: a search
    /// one or two decisions deep must not, say, cancel its own orders over and over because
    /// the evaluation reads better before they are carried out.
    fn ranked<A: Clone>(&self, legal: &[A], scores: &[f64]) -> Vec<(A, f64)> {
        let order = ranking(scores, self.width.max(1));
        let total: f64 = (0..order.len()).map(|r| 0.5f64.powi(r as i32)).sum();
        order
            .into_iter()
            .enumerate()
            .map(|(rank, i)| (legal[i].clone(), 0.5f64.powi(rank as i32) / total))
            .collect()
    }

    /// The doctrine's choice for `seat` in this world (exact ties at random), applied.
    fn doctrine_step<G: Game>(&mut self, world: &mut G, seat: Seat, policy: &dyn Policy<G>) {
        let legal = legal_of(world, seat);
        let i = best(&policy.scores(world, seat, &legal), &mut self.rng);
        apply_in_search(world, seat, &legal[i]);
    }

    /// A uniform random legal action of `seat`, applied.
    fn random_step<G: Game>(&mut self, world: &mut G, seat: Seat) {
        let mut legal = legal_of(world, seat);
        let i = below(&mut self.rng, legal.len());
        let action = legal.swap_remove(i);
        apply_in_search(world, seat, &action);
    }
}

/// The indices of the `width` best `scores`, best first (ties in the given order), without
/// those scored `f64::NEG_INFINITY` unless every one is ([`Mcts::ranked`]). Best first, ties
/// in order, is a total order: the `width` best picked out first and then sorted are those a
/// sort of every score puts first.
fn ranking(scores: &[f64], width: usize) -> Vec<usize> {
    let by_score = |&a: &usize, &b: &usize| scores[b].total_cmp(&scores[a]).then(a.cmp(&b));
    let mut order: Vec<usize> = (0..scores.len()).collect();
    if order.len() > width {
        order.select_nth_unstable_by(width - 1, by_score);
        order.truncate(width);
    }
    order.sort_by(by_score);
    if order
        .first()
        .is_some_and(|&i| scores[i] > f64::NEG_INFINITY)
    {
        order.retain(|&i| scores[i] > f64::NEG_INFINITY);
    }
    order
}

/// Applies `action`, which the rules may refuse in this world (other dice, other re-sampled
/// secrets), in a search: to `world` itself for a game that refuses without a change
/// ([`Game::REFUSES_UNCHANGED`]), else to a copy that replaces `world` once accepted. Whether
/// the rules accepted it; a refused action leaves `world` as it was.
fn try_in_search<G: Game>(world: &mut G, seat: Seat, action: &G::Action) -> bool {
    if G::REFUSES_UNCHANGED {
        let _ = world.dice_mut().begin_action(&[]);
        return world.apply(seat, action, &mut Log::discarding()).is_ok();
    }
    let mut next = world.clone();
    let _ = next.dice_mut().begin_action(&[]);
    if next.apply(seat, action, &mut Log::discarding()).is_err() {
        return false;
    }
    *world = next;
    true
}

/// Whether the most visited of the root's options leads every other by more than `left`
/// iterations, so that none can overtake it before the budget runs out.
fn settled<A, S>(nodes: &[Node<A, S>], left: u32) -> bool {
    let Some(root) = nodes[0].options.first() else {
        return false;
    };
    let (mut first, mut second) = (0u32, 0u32);
    for &c in root.children.iter().flatten() {
        let v = nodes[c].visits;
        if v > first {
            (first, second) = (v, first);
        } else if v > second {
            second = v;
        }
    }
    first - second > left
}

/// Where an iteration's descent went at a node.
enum Step {
    /// To a child already in the tree.
    Known(usize),
    /// To a child just added: the descent ends there.
    New(usize),
    /// Outside the tree (every option refused in this world).
    Outside,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// [`ranking`] picks out the `width` best before sorting them: the same actions in the
    /// same order as sorting every action, with ties, actions never taken
    /// (`f64::NEG_INFINITY`) and lists shorter and longer than the width.
    #[test]
    fn the_best_picked_out_are_those_a_whole_sort_puts_first() {
        let whole_sort = |width: usize, scores: &[f64]| -> Vec<usize> {
            let mut order: Vec<usize> = (0..scores.len()).collect();
            order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
            let taken: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&i| scores[i] > f64::NEG_INFINITY)
                .collect();
            let mut best = if taken.is_empty() { order } else { taken };
            best.truncate(width);
            best
        };
        let mut rng = crate::rng(7);
        let mut checked = 0;
        for width in 1..9 {
            for len in 0..40 {
                let scores: Vec<f64> = (0..len)
                    .map(|_| match below(&mut rng, 6) {
                        0 => f64::NEG_INFINITY,
                        k => f64::from(k as u32 % 3) - 1.0,
                    })
                    .collect();
                assert_eq!(
                    ranking(&scores, width),
                    whole_sort(width, &scores),
                    "width {width}, scores {scores:?}"
                );
                checked += 1;
            }
        }
        assert_eq!(checked, 8 * 40);
    }
}
