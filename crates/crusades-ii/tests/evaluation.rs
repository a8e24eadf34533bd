//! The evaluation a search scores its leaves with (`Game::evaluate`): losses suffered so far
//! and a share of those the melees in prospect would cost (`doctrine::melee_threat`).

mod common;

use common::*;
use crusades_ii::doctrine::melee_threat;
use engine::Game;

/// A Hab position in the Crusader's Melee Phase with Baldwin's charging knights at `hex`
/// facing `facing`, and Toktagin's horse archers at 1019 facing SSE.
fn knights_at(hex: &str, facing: &str) -> crusades_ii::State {
    let text = format!(
        "{}\n[[unit]]\nname = \"Baldwin c\"\nhex = \"{hex}\"\nfacing = \"{facing}\"\ncharging = true\n\
         [[unit]]\nname = \"Toktagin a\"\nhex = \"1019\"\nfacing = \"SSE\"\n",
        hab_melee()
    );
    position("hab", &text)
}

#[test]
fn no_melee_in_prospect_at_the_start() {
    let s = start("hab", &[], 1);
    for side in ["crusader", "turk"] {
        assert_eq!(melee_threat(&s, seat(&s, side)), 0.0, "{side}");
    }
    assert!((s.evaluate(seat(&s, "crusader")) - 0.5).abs() < 1e-9);
}

#[test]
fn a_charge_in_prospect_counts_for_the_charger() {
    // Next to the archers with them in his front hexes (9.3), and out of reach.
    let close = knights_at("1020", "NNE");
    let far = knights_at("1026", "NNE");
    let (crusader, turk) = (seat(&close, "crusader"), seat(&close, "turk"));
    assert!(
        melee_threat(&close, crusader) > 0.1,
        "{}",
        melee_threat(&close, crusader)
    );
    assert_eq!(melee_threat(&far, crusader), 0.0);
    // The archers, facing the knights, could attack them too, at worse odds.
    assert!(melee_threat(&close, turk) < melee_threat(&close, crusader));
    assert_eq!(
        close.losses(turk),
        far.losses(turk),
        "no loss yet in either"
    );
    assert!(
        close.evaluate(crusader) > far.evaluate(crusader),
        "{} against {}",
        close.evaluate(crusader),
        far.evaluate(crusader)
    );
    assert!(close.evaluate(turk) < far.evaluate(turk));
}

#[test]
fn facing_away_there_is_no_charge() {
    // The same hexes, the knights turned away: the archers are behind them.
    let s = knights_at("1020", "SSW");
    assert_eq!(melee_threat(&s, seat(&s, "crusader")), 0.0);
}

/// The guided search with rewards on the tree's own scale (`Mcts::normalize`) is more than
/// its doctrine: over the first decisions of a Hab played by the doctrine, a search of 200
/// iterations (as `mcts:200` builds it, scaled) chooses otherwise at some of them. On the raw
/// reward scale it never does: the doctrine's prior outweighs every difference the
/// evaluation makes between one move and the next.
#[test]
fn the_search_does_not_merely_repeat_its_doctrine() {
    use ai::{Player, Policy};
    use crusades_ii::doctrine::Tactics;
    use engine::{Log, Pending};
    let mut s = start("hab", &[], 3);
    let mut mcts = ai::Mcts::new(ai::Budget::Iterations(200), 5);
    mcts.playout_depth = Some(ai::DEFAULT_PLAYOUT_DEPTH);
    mcts.exploration = ai::GUIDED_EXPLORATION;
    mcts.normalize = true;
    let mut search = ai::GuidedMcts {
        mcts,
        policy: std::sync::Arc::new(Tactics),
    };
    let (mut asked, mut differs) = (0, 0);
    while let Pending::Seats(seats) = s.pending() {
        if asked == 60 {
            break;
        }
        let seat = seats[0];
        let legal = s.legal_actions(seat);
        let scores = Tactics.scores(&s, seat, &legal);
        let best = (0..legal.len()).fold(0, |b, i| if scores[i] > scores[b] { i } else { b });
        if legal.len() > 1 {
            asked += 1;
            if search.choose(&s, seat) != legal[best] {
                differs += 1;
            }
        }
        s.apply(seat, &legal[best], &mut Log::discarding()).unwrap();
    }
    assert_eq!(asked, 60);
    assert!(
        differs > 0,
        "the search played the doctrine's move at all {asked} decisions"
    );
}
