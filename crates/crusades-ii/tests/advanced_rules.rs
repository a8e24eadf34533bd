//! The advanced and optional rules of 16.0, each in a small position with the dice entered as
//! at a real table (and, with manual dice, the chits drawn from the cup entered as `draw`):
//! 16.1/16.11 the advanced sequence of play and its action chits (the cup, the endings of the
//! Action Phase, what an activation may do, Hattin's first three turns and night turns), 16.12
//! the off-map leader boxes, 16.13 the Turn Ends chit, 16.3 split commands, 16.4-16.43 berserk
//! units and exhaustion, and the three choices of 16.5.

mod common;

use common::*;
use crusades_ii::state::{Fury, Phase, Task};
use crusades_ii::State;
use engine::{DiceMode, Game, Log, Seat, Viewer};
use hexgrid::Direction;

/// A position with options, dice and chit draws entered by hand.
fn at(scenario: &str, options: &[&str], text: &str) -> State {
    start_with(scenario, options, 1, DiceMode::Manual, Some(text))
}

/// Chits for every Hab leader, as position files after the Order Phase need them.
fn hab_chits(crusader: &str, turk: &str) -> String {
    let mut t = String::new();
    for l in ["Baldwin", "Antiochene", "Fulcoy", "Pons of Tripoli"] {
        t.push_str(&format!(
            "[[leader]]\nname = \"{l}\"\nchit = \"{crusader}\"\n"
        ));
    }
    for l in ["Il-Ghazi", "Toktagin"] {
        t.push_str(&format!("[[leader]]\nname = \"{l}\"\nchit = \"{turk}\"\n"));
    }
    t
}

/// A unit table of a position file.
fn u(name: &str, hex: &str, facing: &str) -> String {
    format!("[[unit]]\nname = \"{name}\"\nhex = \"{hex}\"\nfacing = \"{facing}\"\n")
}

/// The printed ids of the hexes next to `id`.
fn around(s: &State, id: &str) -> Vec<String> {
    let h = hex(s, id);
    Direction::ALL
        .into_iter()
        .map(|d| h.neighbour(d))
        .filter(|&n| s.battle.map.contains(n))
        .map(|n| s.id(n))
        .collect()
}

fn cup(s: &State) -> [u8; 2] {
    s.action.as_ref().expect("an action phase").cup
}

fn has(events: &[String], text: &str) -> bool {
    events.iter().any(|e| e.contains(text))
}

const ADVANCED: &[&str] = &["advanced-sequence"];

// ------------------------------------------------------------------------------------------
// Options
// ------------------------------------------------------------------------------------------

#[test]
fn the_advanced_options_are_named_and_turn_ends_needs_the_advanced_sequence() {
    let names: Vec<String> = crusades_ii::options::catalogue()
        .into_iter()
        .map(|o| o.name)
        .collect();
    for n in [
        "advanced-sequence",
        "turn-ends-chit",
        "split-commands",
        "berserk",
        "optional-victory",
        "off-map-leader-boxes",
    ] {
        assert!(names.contains(&n.to_string()), "{n} in {names:?}");
    }
    let parse = |v: &[&str]| {
        crusades_ii::options::Options::parse(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    };
    let err = parse(&["turn-ends-chit"]).unwrap_err();
    assert!(err.contains("advanced-sequence"), "{err}");
    let o = parse(&["advanced-sequence", "turn-ends-chit", "berserk"]).unwrap();
    assert!(o.advanced_sequence && o.turn_ends_chit && o.berserk && !o.optional_victory);
}

// ------------------------------------------------------------------------------------------
// 16.1, 16.11: the cup
// ------------------------------------------------------------------------------------------

/// Two chits per leader whose command is on the map (rules notes, 16.11): one for its move,
/// one for its combat.
#[test]
fn the_cup_holds_two_chits_per_command_on_the_map() {
    let text = format!(
        "turn = \"0800\"\nphase = \"action\"\nactive = \"crusader\"\n{}{}{}{}",
        hab_chits("stand", "stand"),
        u("Baldwin c", "1020", "NNE"),
        u("Fulcoy a", "1220", "NNE"),
        u("Toktagin a", "1010", "SSE"),
    );
    let s = at("hab", ADVANCED, &text);
    assert_eq!(s.phase, Phase::Draw);
    assert_eq!(cup(&s), [4, 2], "Baldwin and Fulcoy; Toktagin");
    // Everyone sees how many chits of each colour are in the cup, not their order.
    let v = s.view(Viewer::Spectator);
    let a = v.action_phase.expect("the action phase in the view");
    assert_eq!((a.in_cup, a.drawer.as_str()), (vec![4, 2], "crusader"));
    // The crusader (first seat) draws first.
    assert_eq!(
        legal(&s, "crusader"),
        vec!["draw crusader".to_string(), "draw turk".to_string()]
    );
    assert!(legal(&s, "turk").is_empty());
}

/// 12.1: "For the first three turns of the game, players using the Advanced Sequence of Play
/// use one action chit per leader on the map or entering the map as a reinforcement for the
/// current turn. After turn three, the standard procedure ... is followed." 12.21: "Only one
/// chit per leader is placed in the cup" at night.
#[test]
fn hattin_first_three_turns_and_night_turns_have_one_chit_per_leader() {
    // Turn 1 from the start: Raymond and Taqi al-Din enter.
    let mut s = start("hattin", &["advanced-sequence", "historical-commands"], 3);
    act(&mut s, "muslim", "deploy-historical", &[]);
    act(&mut s, "crusader", "orders-done", &[]);
    act(&mut s, "muslim", "orders-done", &[]);
    assert_eq!(s.action.as_ref().unwrap().put_in, [1, 1], "turn 1");

    let chits = "[[leader]]\nname = \"King Guy\"\nchit = \"advance\"\n[[leader]]\nname = \"Raymond\"\nchit = \"advance\"\n[[leader]]\nname = \"Balian d'Ibelin\"\nchit = \"advance\"\n[[leader]]\nname = \"Saladin\"\nchit = \"advance\"\n[[leader]]\nname = \"Taqi al-Din\"\nchit = \"advance\"\n[[leader]]\nname = \"Gokbori\"\nchit = \"advance\"\n";
    let hattin = |turn: &str, extra: &str| {
        let text = format!(
            "turn = \"{turn}\"\nphase = \"action\"\nactive = \"crusader\"\n{chits}\
             [[leader]]\nname = \"Raymond\"\nhex = \"2724\"\n[[leader]]\nname = \"Taqi al-Din\"\nhex = \"1806\"\n\
             {}{}{}{extra}",
            u("Ray a", "2724", "NNW"),
            u("Ta a", "1806", "SSE"),
            u("Mat a", "1110", "NNE"),
        );
        at("hattin", ADVANCED, &text)
    };
    // Turn 2 (1930): Raymond on the map, King Guy entering; Taqi al-Din on the map, Saladin
    // entering (his militia are on the map, he is not). Balian and Gokbori are not due.
    assert_eq!(cup(&hattin("1930", "")), [2, 2]);
    // Turn 3 (2000): Balian d'Ibelin enters too.
    let guy = "[[leader]]\nname = \"King Guy\"\nhex = \"2624\"\n[[leader]]\nname = \"Saladin\"\nhex = \"3310\"\n[[unit]]\nname = \"Guy a\"\nhex = \"2624\"\nfacing = \"NNW\"\n[[unit]]\nname = \"Sal a\"\nhex = \"3310\"\nfacing = \"W\"\n";
    assert_eq!(cup(&hattin("2000", guy)), [3, 2]);
    // Turn 4 (2030): the standard count, two a command.
    assert_eq!(cup(&hattin("2030", guy)), [6, 4]);
    // Night 1: one a leader, Gokbori's entering command included.
    let s = hattin("Night 1", guy);
    assert_eq!(cup(&s), [3, 3]);
    // ... and only the move or pass options (12.21).
    let mut s = s;
    act(&mut s, "crusader", "draw muslim", &[]);
    let choices = legal(&s, "muslim");
    assert!(choices.contains(&"pass".to_string()), "{choices:?}");
    assert!(
        choices.contains(&"activate Gokbori move".to_string()),
        "{choices:?}"
    );
    assert!(
        !choices.iter().any(|a| a.ends_with("combat")),
        "no combat at night: {choices:?}"
    );
    assert!(try_act(&mut s.clone(), "muslim", "activate Saladin combat", &[]).is_err());
}

/// 12.1: only the Muslim may withhold reinforcements, so a Crusader chit drawn while a
/// Crusader command is due must bring it on.
#[test]
fn crusader_reinforcements_due_use_the_chit_drawn() {
    let mut s = start("hattin", &["advanced-sequence", "historical-commands"], 3);
    act(&mut s, "muslim", "deploy-historical", &[]);
    act(&mut s, "crusader", "orders-done", &[]);
    act(&mut s, "muslim", "orders-done", &[]);
    // Seeded dice: the program has drawn the first chit.
    let a = s.action.as_ref().unwrap();
    assert_eq!(a.drawn, 1);
    match s.phase {
        Phase::Activation(Seat(0)) => {
            assert_eq!(
                legal(&s, "crusader"),
                vec!["activate Raymond move".to_string()]
            );
        }
        Phase::Activation(Seat(1)) => {
            let l = legal(&s, "muslim");
            assert!(
                l.contains(&"pass".to_string()) && l.contains(&"activate Taqi-al-Din move".into()),
                "the Muslim may withhold: {l:?}"
            );
        }
        p => panic!("{p:?}"),
    }
}

// ------------------------------------------------------------------------------------------
// 16.1 II: the end of the Action Phase
// ------------------------------------------------------------------------------------------

fn hab_two_commands(options: &[&str]) -> State {
    let text = format!(
        "turn = \"0800\"\nphase = \"action\"\nactive = \"crusader\"\n{}\
         [[leader]]\nname = \"Baldwin\"\nhex = \"1020\"\n[[leader]]\nname = \"Toktagin\"\nhex = \"1010\"\n{}{}",
        hab_chits("stand", "stand"),
        u("Baldwin c", "1020", "NNE"),
        u("Toktagin a", "1010", "SSE"),
    );
    at("hab", options, &text)
}

#[test]
fn two_passes_in_succession_end_the_action_phase() {
    let mut s = hab_two_commands(ADVANCED);
    act(&mut s, "crusader", "draw crusader", &[]);
    assert_eq!(s.phase, Phase::Activation(Seat(0)));
    act(&mut s, "crusader", "pass", &[]);
    assert_eq!(s.phase, Phase::Draw);
    // The players alternate drawing: now the turk draws.
    assert!(legal(&s, "crusader").is_empty());
    let ev = act(&mut s, "turk", "draw turk", &[]);
    assert!(has(&ev, "turk draws a turk action chit"), "{ev:?}");
    let ev = act(&mut s, "turk", "pass", &[]);
    assert!(has(&ev, "two passes in succession"), "{ev:?}");
    // Rally, End Phase (no victory rolls yet), and the next turn's Command Phase.
    assert_eq!(s.phase, Phase::Orders);
    assert_eq!(s.battle.turns[s.turn].label, "0830");
    assert!(has(&ev, "turn 0830 begins"), "{ev:?}");
}

#[test]
fn the_same_player_passing_twice_also_ends_it() {
    let mut s = hab_two_commands(ADVANCED);
    act(&mut s, "crusader", "draw crusader", &[]);
    act(&mut s, "crusader", "pass", &[]);
    act(&mut s, "turk", "draw crusader", &[]);
    let ev = act(&mut s, "crusader", "pass", &[]);
    assert!(has(&ev, "two passes in succession"), "{ev:?}");
    assert_eq!(s.phase, Phase::Orders);
}

#[test]
fn an_action_between_passes_keeps_the_phase_going_until_the_cup_is_empty() {
    let mut s = hab_two_commands(ADVANCED);
    assert_eq!(cup(&s), [2, 2]);
    act(&mut s, "crusader", "draw crusader", &[]);
    act(&mut s, "crusader", "pass", &[]);
    act(&mut s, "turk", "draw turk", &[]);
    act(&mut s, "turk", "activate Toktagin move", &[]);
    act(&mut s, "turk", "end-movement", &[]);
    assert_eq!(s.phase, Phase::Draw);
    assert_eq!(s.action.as_ref().unwrap().passes, 0);
    act(&mut s, "crusader", "draw crusader", &[]);
    act(&mut s, "crusader", "pass", &[]);
    assert_eq!(s.phase, Phase::Draw, "one pass after an action");
    // The last chit: a Turk one. Toktagin has moved; he may still fight.
    act(&mut s, "turk", "draw turk", &[]);
    let l = legal(&s, "turk");
    assert!(!l.contains(&"activate Toktagin move".to_string()), "{l:?}");
    assert!(l.contains(&"activate Toktagin combat".to_string()), "{l:?}");
    let ev = act(&mut s, "turk", "activate Toktagin combat", &[]);
    // Nothing to fire at or attack: the combat is over at once, and the cup is empty.
    assert!(has(&ev, "every action chit has been drawn"), "{ev:?}");
    assert_eq!(s.phase, Phase::Orders);
}

/// 16.13: "After 5 action chits have been drawn, the Turn Ends chit is placed in the opaque
/// container with the remaining action chits ... Whenever the Turn Ends chit is drawn, the
/// Action Phase of the current turn ends."
#[test]
fn the_turn_ends_chit_goes_in_after_five_draws_and_ends_the_phase() {
    let text = format!(
        "turn = \"0800\"\nphase = \"action\"\nactive = \"crusader\"\n{}{}{}{}{}",
        hab_chits("stand", "stand"),
        u("Baldwin c", "1020", "NNE"),
        u("Fulcoy a", "1220", "NNE"),
        u("Pons a", "1420", "NNE"),
        u("Toktagin a", "1010", "SSE"),
    );
    let mut s = at("hab", &["advanced-sequence", "turn-ends-chit"], &text);
    assert_eq!(cup(&s), [6, 2]);
    let plan = [
        ("crusader", "crusader", "activate Baldwin move"),
        ("turk", "crusader", "activate Fulcoy move"),
        ("crusader", "crusader", "activate Pons-of-Tripoli move"),
        ("turk", "turk", "activate Toktagin move"),
        ("crusader", "crusader", "activate Baldwin combat"),
    ];
    for (i, (drawer, chit, action)) in plan.iter().enumerate() {
        assert!(
            !legal(&s, drawer).contains(&"draw turn-ends".to_string()),
            "not in the cup before five draws"
        );
        assert!(try_act(&mut s.clone(), drawer, "draw turn-ends", &[]).is_err());
        let ev = act(&mut s, drawer, &format!("draw {chit}"), &[]);
        assert_eq!(
            has(&ev, "the Turn Ends chit goes into the cup"),
            i == 4,
            "{ev:?}"
        );
        let owner = if *chit == "crusader" {
            "crusader"
        } else {
            "turk"
        };
        act(&mut s, owner, action, &[]);
        if action.ends_with("move") {
            act(&mut s, owner, "end-movement", &[]);
        }
    }
    assert_eq!(s.phase, Phase::Draw);
    assert!(s.action.as_ref().unwrap().turn_ends);
    assert_eq!(cup(&s), [2, 1]);
    let drawer = "turk";
    assert!(legal(&s, drawer).contains(&"draw turn-ends".to_string()));
    let ev = act(&mut s, drawer, "draw turn-ends", &[]);
    assert!(has(&ev, "draws the Turn Ends chit"), "{ev:?}");
    assert_eq!(s.phase, Phase::Orders, "three chits left undrawn");
    assert_eq!(s.battle.turns[s.turn].label, "0830");
}

/// With seeded dice the program draws from the cup with the game's generator, and says so in
/// a public event; an action that draws a chit reveals chance and cannot be undone.
#[test]
fn seeded_draws_are_public_deterministic_and_undo_barriers() {
    let text = format!(
        "turn = \"0800\"\nphase = \"orders\"\nactive = \"crusader\"\n{}{}{}",
        hab_chits("stand", "stand"),
        u("Baldwin c", "1020", "NNE"),
        u("Toktagin a", "1010", "SSE"),
    );
    let run = |seed: u64| {
        let mut s = start_with("hab", ADVANCED, seed, DiceMode::Seeded, Some(&text));
        let mut texts = Vec::new();
        let mut revealed = Vec::new();
        for (seat, a) in [("crusader", "orders-done"), ("turk", "orders-done")] {
            let who = seat_of(&s, seat);
            let action = s.parse_action(a).unwrap();
            let mut log = Log::recording();
            s.dice.begin_action(&[]).unwrap();
            let applied = s.apply(who, &action, &mut log).unwrap();
            revealed.push(applied.revealed);
            for e in log.take() {
                assert!(Viewer::Spectator.sees(&e.visibility) || !e.text.contains("draws"));
                texts.push(e.text);
            }
        }
        (texts, revealed, engine::state_hash(&s))
    };
    let (a, revealed, hash) = run(11);
    assert!(a.iter().any(|t| t.contains("draws a")), "{a:?}");
    assert_eq!(
        revealed,
        vec![false, true],
        "the second orders-done drew a chit"
    );
    assert_eq!(
        run(11),
        (a, revealed, hash),
        "the same seed draws the same chits"
    );
}

fn seat_of(s: &State, name: &str) -> Seat {
    seat(s, name)
}

// ------------------------------------------------------------------------------------------
// 16.11: what an activation may do
// ------------------------------------------------------------------------------------------

/// 16.11 Movement Option: "The owning player may move all of the units of one leader's
/// command, plus any skirmish and/or artillery units ... these units may not move again during
/// the current turn."
#[test]
fn a_move_activation_moves_one_command_and_the_skirmishers_once_a_turn() {
    let text = format!(
        "turn = \"0800\"\nphase = \"action\"\nactive = \"turk\"\n{}\
         [[leader]]\nname = \"Toktagin\"\nhex = \"1010\"\n[[leader]]\nname = \"Il-Ghazi\"\nhex = \"1410\"\n{}{}{}{}",
        hab_chits("stand", "stand"),
        u("Baldwin c", "1024", "NNE"),
        u("Toktagin a", "1010", "SSE"),
        u("Il-Ghazi a", "1410", "SSE"),
        u("Il-Ghazi v", "1210", "NNE"),
    );
    let mut s = at("hab", &["advanced-sequence", "off-map-leader-boxes"], &text);
    act(&mut s, "crusader", "draw turk", &[]);
    act(&mut s, "turk", "activate Toktagin move", &[]);
    let moves = legal_moves(&s, "turk");
    let movers = |l: &[String], who: &str| l.iter().any(|a| a.starts_with(&format!("move {who} ")));
    assert!(movers(&moves, "Toktagin-a"), "his command moves");
    assert!(movers(&moves, "Toktagin"), "and he does");
    assert!(
        movers(&moves, "Il-Ghazi-v"),
        "a skirmisher of another command may move"
    );
    assert!(
        !movers(&moves, "Il-Ghazi-a"),
        "another command's units may not"
    );
    assert!(!movers(&moves, "Il-Ghazi"), "nor its leader");
    // Not even by an explicit path.
    let r = try_act(&mut s.clone(), "turk", "move Il-Ghazi-a 1411 SSE", &[]);
    assert!(r.unwrap_err().contains("16.11"));
    act(&mut s, "turk", "move Il-Ghazi-v 1211 NNE", &[]);
    act(&mut s, "turk", "move Toktagin-a 1011 SSE", &[]);
    act(&mut s, "turk", "end-movement", &[]);
    // The leader's Moved box (16.12), public.
    let v = s.view(Viewer::Seat(Seat(0)));
    let boxes = v.leader_boxes.as_ref().expect("16.12 leader boxes");
    let tok = boxes.iter().find(|b| b.leader == "Toktagin").unwrap();
    assert!(tok.moved && !tok.fired);
    assert!(
        tok.command.is_none() && tok.command_hidden,
        "the Turk's chit is secret"
    );
    let bal = boxes.iter().find(|b| b.leader == "Baldwin").unwrap();
    assert_eq!(
        bal.command.as_deref(),
        Some("stand"),
        "his own side's chit shows"
    );
    assert!(v
        .leaders
        .iter()
        .any(|l| l.name == "Toktagin" && l.moved && !l.fought));
    // Il-Ghazi's turn to move (the players alternate drawing): his skirmisher has already
    // moved this turn.
    act(&mut s, "turk", "draw turk", &[]);
    let l = legal(&s, "turk");
    assert!(
        !l.contains(&"activate Toktagin move".to_string()),
        "once a turn"
    );
    act(&mut s, "turk", "activate Il-Ghazi move", &[]);
    let moves = legal_moves(&s, "turk");
    assert!(movers(&moves, "Il-Ghazi-a"));
    assert!(
        !movers(&moves, "Il-Ghazi-v"),
        "a skirmisher moves once a turn"
    );
    assert!(!movers(&moves, "Toktagin-a"));
    // Without the option there are no boxes in the view.
    let plain = hab_two_commands(ADVANCED);
    assert!(plain.view(Viewer::Spectator).leader_boxes.is_none());
}

/// 16.11 Combat Command: fire and melee by one command plus skirmish and artillery units that
/// have not fought this turn. Defensive fire (rules notes, 16.11): each enemy unit once a turn,
/// at units taking part in the combat.
#[test]
fn a_combat_activation_and_defensive_fire_once_a_turn() {
    let text = format!(
        "turn = \"0800\"\nphase = \"action\"\nactive = \"crusader\"\n{}{}{}{}{}",
        hab_chits("stand", "stand"),
        u("Baldwin c", "1020", "NNE"),
        u("Fulcoy a", "1218", "SSE"),
        u("Pons h", "1016", "NNE"),
        u("Il-Ghazi v", "1018", "NNE"),
    );
    let mut s = at("hab", ADVANCED, &text);
    act(&mut s, "crusader", "draw crusader", &[]);
    act(&mut s, "crusader", "activate Baldwin combat", &[]);
    assert_eq!(s.phase, Phase::DefensiveFire);
    // The Turk bowman may fire at Baldwin's unit (range 2) and at Pons's bowman, a skirmisher
    // free to fight with this activation; Fulcoy's unit (also at range 2) takes no part.
    let l = legal(&s, "turk");
    assert!(l.contains(&"fire Il-Ghazi-v 1020".to_string()), "{l:?}");
    assert!(l.contains(&"fire Il-Ghazi-v 1016".to_string()), "{l:?}");
    assert!(!l.iter().any(|a| a.ends_with("1218")), "{l:?}");
    act(&mut s, "turk", "fire Il-Ghazi-v 1020", &[1]);
    // Offensive fire: Pons's bowman fires with Baldwin's activation.
    assert_eq!(s.phase, Phase::OffensiveFire);
    let l = legal(&s, "crusader");
    assert!(l.contains(&"fire Pons-h 1018".to_string()), "{l:?}");
    act(&mut s, "crusader", "fire Pons-h 1018", &[1]);
    assert!(s.unit(unit(&s, "Pons h")).fought);
    assert_eq!(
        s.phase,
        Phase::Draw,
        "no melee possible: the activation is over"
    );
    assert!(s.leaders[s.battle.leader_by_name("Baldwin").unwrap() as usize].chit_fought);
    // Fulcoy fights: the Turk bowman has fired defensively this turn, Pons's bowman has fought.
    act(&mut s, "turk", "draw crusader", &[]);
    let ev = act(&mut s, "crusader", "activate Fulcoy combat", &[]);
    // Nobody may fire: the bowman has used his defensive fire this turn, Pons's bowman has
    // fought, and Fulcoy's unit has no enemy in front: the activation is over at once.
    assert_eq!(s.phase, Phase::Draw, "{ev:?}");
    assert!(s.unit(unit(&s, "Il-Ghazi v")).fired_defending);
    // In a new turn the marks are gone.
    let mut t = s.clone();
    act(&mut t, "crusader", "draw crusader", &[]);
    act(&mut t, "crusader", "pass", &[]);
    act(&mut t, "turk", "draw crusader", &[]);
    act(&mut t, "crusader", "pass", &[]);
    act(&mut t, "crusader", "orders-done", &[]);
    act(&mut t, "turk", "orders-done", &[]);
    assert_eq!(t.phase, Phase::Draw);
    assert!(!t.unit(unit(&t, "Il-Ghazi v")).fired_defending);
    assert!(!t.unit(unit(&t, "Pons h")).fought);
}

// ------------------------------------------------------------------------------------------
// 16.3 Split Commands
// ------------------------------------------------------------------------------------------

/// 16.3: a leader on Attack with infantry and cavalry splits at the start of a turn: the
/// cavalry attack, the infantry act as if on Stand, the leader goes with the cavalry; later,
/// with his infantry within his span again, the rest of his force attacks too.
#[test]
fn a_split_command_attacks_with_its_cavalry_and_stands_with_its_infantry() {
    let text = format!(
        "turn = \"0800\"\nphase = \"orders\"\nactive = \"turk\"\n{}\
         [[leader]]\nname = \"Baldwin\"\nhex = \"1020\"\nchit = \"attack\"\n\
         [[leader]]\nname = \"Fulcoy\"\nhex = \"1220\"\nchit = \"attack\"\n{}{}{}{}",
        hab_chits("attack", "stand"),
        u("Baldwin c", "1020", "NNE"),
        u("Baldwin h", "1120", "NNE"),
        u("Fulcoy a", "1220", "NNE"),
        u("Toktagin a", "1012", "SSE"),
    );
    let mut s = at("hab", &["split-commands"], &text);
    let l = legal(&s, "crusader");
    assert!(l.contains(&"split Baldwin".to_string()), "{l:?}");
    assert!(
        !l.contains(&"split Fulcoy".to_string()),
        "Fulcoy has cavalry only"
    );
    assert!(!l.iter().any(|a| a.starts_with("rejoin")));
    // Without the option there is no split.
    assert!(!legal(&at("hab", &[], &text), "crusader")
        .iter()
        .any(|a| a.starts_with("split")));
    let ev = act(&mut s, "crusader", "split Baldwin", &[]);
    assert!(has(&ev, "Baldwin splits his command"), "{ev:?}");
    let (c, h) = (unit(&s, "Baldwin c"), unit(&s, "Baldwin h"));
    use crusades_ii::scenario::Chit;
    assert_eq!(s.chit(c), Some(Chit::Attack));
    assert_eq!(
        s.chit(h),
        Some(Chit::Stand),
        "the infantry act as if on Stand"
    );
    // The split is announced: the other side sees it.
    let v = s.view(Viewer::Seat(Seat(1)));
    assert!(v.leaders.iter().any(|l| l.name == "Baldwin" && l.split));
    act(&mut s, "crusader", "orders-done", &[]);
    act(&mut s, "turk", "orders-done", &[]);
    act(&mut s, "turk", "end-movement", &[]);
    assert_eq!(s.phase, Phase::Movement);
    assert_eq!(s.active, Seat(0));
    // The infantry move one hex at most (5.13); the cavalry must advance half its allowance.
    let from = hex(&s, "1120");
    assert!(s
        .destinations(h, false)
        .iter()
        .all(|d| d.hex.distance(from) <= 1));
    assert!(s
        .destinations(c, false)
        .iter()
        .all(|d| d.hex.distance(hex(&s, "1020")) >= 2));
    // The leader may go only where his cavalry is, and must go with it.
    let baldwin = s.battle.leader_by_name("Baldwin").unwrap();
    assert!(
        s.leader_destinations(baldwin).is_empty(),
        "no cavalry elsewhere yet"
    );
    act(&mut s, "crusader", "move Baldwin-c 1017 NNE", &[]);
    assert_eq!(
        s.leader_destinations(baldwin)
            .iter()
            .map(|(h, _)| s.id(*h))
            .collect::<Vec<_>>(),
        vec!["1017".to_string()]
    );
    assert!(!legal(&s, "crusader").contains(&"end-movement".to_string()));
    let r = try_act(&mut s.clone(), "crusader", "end-movement", &[]);
    assert!(r.unwrap_err().contains("16.3"));
    act(&mut s, "crusader", "move Fulcoy-a 1217 NNE", &[]);
    act(&mut s, "crusader", "move Baldwin 1017", &[]);
    act(&mut s, "crusader", "move Baldwin-h 1119 NNE", &[]);
    act(&mut s, "crusader", "end-movement", &[]);
    // Next turn: Baldwin is within his span of his infantry: the whole force may attack.
    assert_eq!(s.phase, Phase::Orders);
    let l = legal(&s, "crusader");
    assert!(l.contains(&"rejoin Baldwin".to_string()), "{l:?}");
    let ev = act(&mut s, "crusader", "rejoin Baldwin", &[]);
    assert!(has(&ev, "whole command now attacks"), "{ev:?}");
    assert_eq!(s.chit(h), Some(Chit::Attack));
    // A split ends when the leader's command is no longer Attack.
    let mut t = at("hab", &["split-commands"], &text);
    act(&mut t, "crusader", "split Baldwin", &[]);
    act(&mut t, "crusader", "chit Baldwin stand", &[]); // an Overall Leader (5.2)
    act(&mut t, "crusader", "orders-done", &[]);
    act(&mut t, "turk", "orders-done", &[]);
    assert!(!t.leaders[baldwin as usize].split);
}

// ------------------------------------------------------------------------------------------
// 16.4-16.43 Berserk units
// ------------------------------------------------------------------------------------------

/// Toktagin a (7 strength) at 1019 attacks Baldwin c (6, not charging) at 1020, head on, with
/// no modifiers; another Crusader unit stands next to Toktagin a.
fn hab_berserk(options: &[&str], fury: &str) -> (State, String) {
    let probe = start("hab", &[], 1);
    let other = around(&probe, "1019")
        .into_iter()
        .find(|h| h != "1018" && h != "1020")
        .unwrap();
    let text = format!(
        "turn = \"0800\"\nphase = \"melee\"\nactive = \"turk\"\n{}{}{}{}{fury}",
        hab_chits("advance", "advance"),
        u("Baldwin c", "1020", "NNE"),
        u("Fulcoy a", &other, "NNE"),
        u("Toktagin a", "1019", "SSE"),
    );
    (at("hab", options, &text), other)
}

/// Dice of the melee `melee 1020 Toktagin-a` up to the results: both pass morale; both roll
/// 8: one step lost each (the 7-10 and 4-6 columns); both pass their morale checks.
const TWO_STEPS: [u8; 6] = [1, 1, 8, 8, 1, 1];

/// 16.4: two step losses in one combat: each unit in it checks; a berserk attacker fights a
/// second combat against an adjacent enemy unit (not only the one it fought), with no halt.
#[test]
fn two_step_losses_make_the_units_check_and_a_berserk_attacker_fights_again() {
    let (mut s, other) = hab_berserk(&["berserk"], "");
    // Berserk checks: Toktagin a (Turks berserk on 7-10) rolls 10, Baldwin c (8-10) rolls 1.
    let dice = [&TWO_STEPS[..], &[10, 1]].concat();
    let ev = act(&mut s, "turk", "melee 1020 Toktagin-a", &dice);
    assert!(has(&ev, "Toktagin a goes berserk"), "{ev:?}");
    assert!(has(&ev, "Baldwin c keeps its head"), "{ev:?}");
    let tok = unit(&s, "Toktagin a");
    assert_eq!(s.unit(tok).fury, Fury::Berserk);
    assert!(matches!(
        s.tasks.first(),
        Some(Task::BerserkCombat { only: None, .. })
    ));
    let mut l = legal(&s, "turk");
    l.sort();
    let mut want = vec![
        "melee 1020 Toktagin-a".to_string(),
        format!("melee {other} Toktagin-a"),
    ];
    want.sort();
    assert_eq!(l, want, "any adjacent enemy, and no `halt`");
    // The second combat: Toktagin a (now 3 strength, +2 columns berserk) against Fulcoy a.
    let ev = act(
        &mut s,
        "turk",
        &format!("melee {other} Toktagin-a"),
        &[1, 1, 1, 1],
    );
    assert!(has(&ev, "berserk, fights a second combat"), "{ev:?}");
    assert!(
        ev.iter()
            .any(|e| e.starts_with(&format!("melee at {other}"))),
        "{ev:?}"
    );
    assert!(s.tasks.is_empty());
    // Back in the Turk's melee, which has nothing left: facing changes after melee.
    assert_eq!(s.phase, Phase::MeleeFacing(Seat(1)));
}

/// 16.4: a defender that goes berserk attacks at once, though it is not its side's turn.
#[test]
fn a_berserk_defender_fights_its_second_combat_as_the_attacker() {
    let (mut s, _) = hab_berserk(&["berserk"], "");
    let dice = [&TWO_STEPS[..], &[1, 10]].concat();
    let ev = act(&mut s, "turk", "melee 1020 Toktagin-a", &dice);
    assert!(has(&ev, "Baldwin c goes berserk"), "{ev:?}");
    assert!(legal(&s, "turk").is_empty());
    assert_eq!(
        legal(&s, "crusader"),
        vec!["melee 1019 Baldwin-c".to_string()]
    );
    let ev = act(&mut s, "crusader", "melee 1019 Baldwin-c", &[1, 1, 1, 1]);
    assert!(has(&ev, "Baldwin c attacks 1019"), "{ev:?}");
    assert_eq!(s.active, Seat(1), "still the Turk's turn");
    assert_eq!(s.phase, Phase::MeleeFacing(Seat(1)));
}

/// 16.4: "unless both become berserk, in which case the initial attacker is still considered
/// the attacker": the second combat is between them, the attacker attacking.
#[test]
fn when_both_go_berserk_the_first_attacker_attacks_the_defender_again() {
    let (mut s, _) = hab_berserk(&["berserk"], "");
    let dice = [&TWO_STEPS[..], &[10, 10]].concat();
    act(&mut s, "turk", "melee 1020 Toktagin-a", &dice);
    assert_eq!(legal(&s, "turk"), vec!["melee 1020 Toktagin-a".to_string()]);
    assert!(legal(&s, "crusader").is_empty());
}

/// Fewer than two steps lost, or the option off: no berserk checks (the dice entered must be
/// exactly those used).
#[test]
fn no_berserk_check_under_two_steps_or_without_the_option() {
    let (mut s, _) = hab_berserk(&["berserk"], "");
    // The Turk hits (8), the Crusader misses (1): one step, then one morale check.
    act(&mut s, "turk", "melee 1020 Toktagin-a", &[1, 1, 8, 1, 1]);
    assert!(s.tasks.is_empty());
    let (mut s, _) = hab_berserk(&[], "");
    act(&mut s, "turk", "melee 1020 Toktagin-a", &TWO_STEPS);
    assert!(s.tasks.is_empty());
    assert!(s.unit_ids().all(|u| s.unit(u).fury == Fury::Calm));
}

/// 16.41: "Berserk units of the phasing player function as heavy cavalry in respect to having
/// the possibility of a second movement and attack ... even if the defender's hex is not
/// vacated." In the basic game only a unit that advanced pursues.
#[test]
fn a_berserk_attacker_may_move_and_attack_again_though_the_hex_was_not_vacated() {
    let berserk =
        "[[unit]]\nname = \"Toktagin a\"\nhex = \"1019\"\nfacing = \"SSE\"\nfury = \"berserk\"\n";
    // Both roll 1: no effect either way (the berserk attacker's column is shifted two right).
    let make = |options: &[&str]| {
        let text = format!(
            "turn = \"0800\"\nphase = \"melee\"\nactive = \"turk\"\n{}{}{berserk}",
            hab_chits("advance", "advance"),
            u("Baldwin c", "1020", "NNE"),
        );
        at("hab", options, &text)
    };
    let mut s = make(&["berserk"]);
    let ev = act(&mut s, "turk", "melee 1020 Toktagin-a", &[1, 1, 1, 1]);
    assert!(
        ev.iter()
            .any(|e| e.contains("rolls -; defender") && e.ends_with("rolls -")),
        "{ev:?}"
    );
    assert_eq!(where_is(&s, "Baldwin c").as_deref(), Some("1020"));
    let l = legal(&s, "turk");
    assert!(l.contains(&"halt".to_string()), "{l:?}");
    assert!(
        l.iter().any(|a| a.starts_with("pursue Toktagin-a")),
        "{l:?}"
    );
    act(&mut s, "turk", "halt", &[]);
    assert_eq!(
        legal(&s, "turk"),
        vec!["melee 1020 Toktagin-a".to_string(), "halt".to_string()],
        "and attack again"
    );
    // The basic game: no second movement without an advance.
    let mut s = make(&[]);
    act(&mut s, "turk", "melee 1020 Toktagin-a", &[1, 1, 1, 1]);
    assert!(!legal(&s, "turk").contains(&"halt".to_string()));
}

/// 16.43: in the Rally Phase an exhausted unit not in an enemy ZOC rolls a die and adds its
/// current morale: 14 or more and it is no longer exhausted.
#[test]
fn exhaustion_is_removed_on_fourteen_or_more() {
    let make = |options: &[&str], turk_at: &str| {
        let text = format!(
            "turn = \"0800\"\nphase = \"movement\"\nactive = \"crusader\"\n{}{}{}",
            hab_chits("advance", "stand"),
            "[[unit]]\nname = \"Baldwin c\"\nhex = \"1020\"\nfacing = \"NNE\"\nfury = \"exhausted\"\n",
            u("Toktagin a", turk_at, "SSE"),
        );
        at("hab", options, &text)
    };
    let bc = |s: &State| s.unit(unit(s, "Baldwin c")).fury;
    // Morale 7: a 7 makes 14.
    let mut s = make(&["berserk"], "1010");
    let ev = act(&mut s, "crusader", "end-movement", &[7]);
    assert!(has(&ev, "Baldwin c is no longer exhausted"), "{ev:?}");
    assert_eq!(bc(&s), Fury::Calm);
    assert_eq!(s.phase, Phase::Orders);
    let mut s = make(&["berserk"], "1010");
    let ev = act(&mut s, "crusader", "end-movement", &[6]);
    assert!(has(&ev, "Baldwin c remains exhausted"), "{ev:?}");
    assert_eq!(bc(&s), Fury::Exhausted);
    // In an enemy ZOC (Toktagin a faces it from 1019): no check.
    let mut s = make(&["berserk"], "1019");
    act(&mut s, "crusader", "end-movement", &[]);
    assert_eq!(bc(&s), Fury::Exhausted);
    // Without the option the basic game makes no check (rules notes, 16.4).
    let mut s = make(&[], "1010");
    act(&mut s, "crusader", "end-movement", &[]);
    assert_eq!(bc(&s), Fury::Exhausted);
}

// ------------------------------------------------------------------------------------------
// 16.5 Optional Victory Conditions, 16.1 IV End Phase
// ------------------------------------------------------------------------------------------

/// Crusader units eliminated for 133 loss points (11.0: the charging strength of heavy
/// cavalry): the Turkish victory table's 125-135 row, 8-10 to win.
const CRUSADER_LOSSES: &str = "[[unit]]\nname = \"Baldwin a\"\neliminated = true\n[[unit]]\nname = \"Baldwin b\"\neliminated = true\n[[unit]]\nname = \"Baldwin d\"\neliminated = true\n[[unit]]\nname = \"Baldwin e\"\neliminated = true\n[[unit]]\nname = \"Baldwin f\"\neliminated = true\n[[unit]]\nname = \"Fulcoy a\"\neliminated = true\n[[unit]]\nname = \"Fulcoy b\"\neliminated = true\n[[unit]]\nname = \"Fulcoy c\"\neliminated = true\n[[unit]]\nname = \"Pons a\"\neliminated = true\n[[unit]]\nname = \"Pons b\"\neliminated = true\n[[unit]]\nname = \"Pons c\"\neliminated = true\n[[unit]]\nname = \"Pons d\"\neliminated = true\n[[unit]]\nname = \"Antiochene a\"\neliminated = true\n[[unit]]\nname = \"Antiochene b\"\neliminated = true\n[[unit]]\nname = \"Antiochene c\"\neliminated = true\n[[unit]]\nname = \"Antiochene d\"\neliminated = true\n";

fn routed(name: &str, hex: &str) -> String {
    format!("[[unit]]\nname = \"{name}\"\nhex = \"{hex}\"\nfacing = \"NNE\"\nrouted = true\n")
}

/// The Crusader's Movement Phase at 1000 (turn 5), with 133 losses (134 with a routed
/// bowman): his Rally Phase follows, and the Turk rolls for victory. No leader is on the map,
/// and the routed bowman (a skirmisher, never out of command) stands in Toktagin a's ZOC, so
/// nothing rallies (10.2).
fn hab_victory(crusaders: &str) -> State {
    let text = format!(
        "turn = \"1000\"\nphase = \"movement\"\nactive = \"crusader\"\n{}{CRUSADER_LOSSES}{crusaders}{}",
        hab_chits("stand", "stand"),
        u("Toktagin a", "1010", "SSE"),
    );
    let mut s = at("hab", &["optional-victory"], &text);
    assert_eq!(s.losses(Seat(0)), 134);
    let ev = act(&mut s, "crusader", "end-movement", &[10]);
    assert!(has(&ev, "turk rolls for victory: victory"), "{ev:?}");
    assert!(has(&ev, "crusader may concede, or fight on"), "{ev:?}");
    assert_eq!(s.phase, Phase::Concession(Seat(0)));
    assert!(s.outcome.is_none());
    s
}

fn three_crusaders() -> String {
    format!(
        "{}{}{}",
        u("Baldwin c", "1020", "NNE"),
        u("Baldwin h", "1220", "NNE"),
        routed("Pons h", "1011")
    )
}

#[test]
fn a_player_whose_opponent_rolls_a_victory_may_concede() {
    let mut s = hab_victory(&three_crusaders());
    let mut l = legal(&s, "crusader");
    l.sort();
    assert_eq!(
        l,
        vec![
            "check-morale",
            "concede",
            "retreat-command Baldwin",
            "retreat-command Pons-of-Tripoli"
        ]
    );
    assert!(legal(&s, "turk").is_empty());
    act(&mut s, "crusader", "concede", &[]);
    let o = s.outcome.clone().expect("over");
    assert_eq!(o.winner, Some(Seat(1)));
    assert!(o.reason.contains("16.5"), "{}", o.reason);
    // Without the option the roll simply wins.
    let text = format!(
        "turn = \"1000\"\nphase = \"movement\"\nactive = \"crusader\"\n{}{CRUSADER_LOSSES}{}{}",
        hab_chits("stand", "stand"),
        three_crusaders(),
        u("Toktagin a", "1010", "SSE"),
    );
    let mut s = at("hab", &[], &text);
    act(&mut s, "crusader", "end-movement", &[10]);
    assert_eq!(s.outcome.unwrap().winner, Some(Seat(1)));
}

/// 16.5: "Immediately check morale for every unit on the map—units that fail, rout (units
/// already routed immediately retreat three hexes or take a step loss; then their morale is
/// checked and if they fail, another step loss is taken)."
#[test]
fn or_check_morale_for_every_unit_on_the_map() {
    let mut s = hab_victory(&three_crusaders());
    // Baldwin c passes (1), Baldwin h fails (10) and routs; Pons h, already routed, pays.
    let ev = act(&mut s, "crusader", "check-morale", &[1, 10]);
    assert!(has(&ev, "Baldwin c passes its morale check"), "{ev:?}");
    assert!(has(&ev, "Baldwin h routs"), "{ev:?}");
    assert!(s.unit(unit(&s, "Baldwin h")).routed);
    // The routed Baldwin h retreats 1-3 hexes as usual (10.0).
    let r = legal(&s, "crusader");
    assert!(
        r.iter().all(|a| a.starts_with("retreat Baldwin-h")),
        "{r:?}"
    );
    act(&mut s, "crusader", &r[0], &[]);
    // Pons h: retreat three hexes or lose a step.
    let r = legal(&s, "crusader");
    assert!(r.contains(&"lose-step Pons-h".to_string()), "{r:?}");
    let from = hex(&s, "1011");
    let three = r
        .iter()
        .find(|a| a.starts_with("retreat Pons-h"))
        .expect("a retreat")
        .clone();
    let to = hex(&s, three.split_whitespace().last().unwrap());
    // Three hexes moved (9.5: a path of three; around a ZOC it may end two away).
    let pons_h = unit(&s, "Pons h");
    assert!(s.retreat_destinations(pons_h, 3, 3).contains(&to) && to != from);
    assert!(!s.retreat_destinations(pons_h, 1, 2).is_empty());
    assert!(r.iter().filter(|a| a.starts_with("retreat")).all(|a| s
        .retreat_destinations(pons_h, 3, 3)
        .contains(&hex(&s, a.split_whitespace().last().unwrap()))));
    // It retreats, then fails its morale check (10) and loses a step: a one-step unit, gone.
    let ev = act(&mut s, "crusader", &three, &[10]);
    assert!(has(&ev, "Pons h fails its morale check"), "{ev:?}");
    assert!(has(&ev, "Pons h is eliminated"), "{ev:?}");
    // Play goes on: the Crusader is the second player, so the next turn begins.
    assert!(s.outcome.is_none());
    assert_eq!(s.phase, Phase::Orders);
    assert_eq!(s.battle.turns[s.turn].label, "1030");
}

/// 16.5: "Change any one leader's command to "retreat," and place rout markers on all of that
/// leader's units (units already routed immediately retreat three hexes or take a step
/// loss)."
#[test]
fn or_put_one_command_on_retreat_and_rout_it() {
    let crusaders = format!(
        "{}{}{}",
        u("Baldwin c", "1020", "NNE"),
        u("Pons e", "1220", "NNE"),
        routed("Pons h", "1011")
    );
    let mut s = hab_victory(&crusaders);
    let ev = act(&mut s, "crusader", "retreat-command Pons-of-Tripoli", &[]);
    assert!(
        has(&ev, "Pons of Tripoli's command becomes Retreat"),
        "{ev:?}"
    );
    let pons = s.battle.leader_by_name("Pons of Tripoli").unwrap();
    use crusades_ii::scenario::Chit;
    assert_eq!(s.leaders[pons as usize].chit, Some(Chit::Retreat));
    let e = unit(&s, "Pons e");
    assert!(s.unit(e).routed, "a rout marker");
    assert_eq!(
        where_is(&s, "Pons e").as_deref(),
        Some("1220"),
        "no retreat"
    );
    assert!(!s.unit(unit(&s, "Baldwin c")).routed, "another command");
    // The routed bowman takes the step loss (no morale check follows with this choice).
    act(&mut s, "crusader", "lose-step Pons-h", &[]);
    assert_eq!(
        s.unit(unit(&s, "Pons h")).loc,
        crusades_ii::state::Loc::Eliminated
    );
    assert_eq!(s.phase, Phase::Orders);
}

/// 16.5: "... until one player concedes, or until one player runs out of units."
#[test]
fn a_player_who_runs_out_of_units_paying_has_lost() {
    let mut s = hab_victory(&routed("Pons h", "1011"));
    act(&mut s, "crusader", "check-morale", &[]);
    let ev = act(&mut s, "crusader", "lose-step Pons-h", &[]);
    assert!(has(&ev, "crusader has run out of units"), "{ev:?}");
    assert_eq!(s.outcome.unwrap().winner, Some(Seat(1)));
}

/// Turk losses of 111 (the Crusader victory table's 110-120 row, 5-10 to win).
const TURK_LOSSES: &str = "[[unit]]\nname = \"Il-Ghazi a\"\neliminated = true\n[[unit]]\nname = \"Il-Ghazi b\"\neliminated = true\n[[unit]]\nname = \"Il-Ghazi c\"\neliminated = true\n[[unit]]\nname = \"Il-Ghazi d\"\neliminated = true\n[[unit]]\nname = \"Il-Ghazi e\"\neliminated = true\n[[unit]]\nname = \"Il-Ghazi f\"\neliminated = true\n[[unit]]\nname = \"Il-Ghazi g\"\neliminated = true\n[[unit]]\nname = \"Il-Ghazi h\"\neliminated = true\n[[unit]]\nname = \"Il-Ghazi i\"\neliminated = true\n[[unit]]\nname = \"Il-Ghazi j\"\neliminated = true\n[[unit]]\nname = \"Il-Ghazi k\"\neliminated = true\n[[unit]]\nname = \"Il-Ghazi l\"\neliminated = true\n[[unit]]\nname = \"Il-Ghazi m\"\neliminated = true\n[[unit]]\nname = \"Il-Ghazi n\"\neliminated = true\n[[unit]]\nname = \"Il-Ghazi o\"\neliminated = true\n[[unit]]\nname = \"Il-Ghazi p\"\neliminated = true\n[[unit]]\nname = \"Il-Ghazi q\"\neliminated = true\n[[unit]]\nname = \"Il-Ghazi r\"\neliminated = true\n[[unit]]\nname = \"Il-Ghazi s\"\neliminated = true\n[[unit]]\nname = \"Il-Ghazi t\"\neliminated = true\n[[unit]]\nname = \"Il-Ghazi u\"\neliminated = true\n";

/// The Action Phase at 1000 with both sides able to roll for victory, passed through at once;
/// the dice given are the End Phase's rolls, first player (the Turk) first.
fn hab_end_phase(options: &[&str], dice: &[u8]) -> (State, Vec<String>) {
    let text = format!(
        "turn = \"1000\"\nphase = \"action\"\nactive = \"crusader\"\n{}{CRUSADER_LOSSES}{TURK_LOSSES}{}{}",
        hab_chits("stand", "stand"),
        u("Baldwin c", "1020", "NNE"),
        u("Toktagin a", "1010", "SSE"),
    );
    let mut s = at("hab", options, &text);
    assert_eq!((s.losses(Seat(0)), s.losses(Seat(1))), (133, 111));
    act(&mut s, "crusader", "draw crusader", &[]);
    act(&mut s, "crusader", "pass", &[]);
    act(&mut s, "turk", "draw turk", &[]);
    let ev = act(&mut s, "turk", "pass", dice);
    (s, ev)
}

/// 16.1 IV: "Both players check for automatic victory. If only one player makes a successful
/// die-roll, that player wins. If either both players or neither, make successful die-rolls
/// play continues."
#[test]
fn in_the_end_phase_both_roll_and_a_single_success_wins() {
    let (s, ev) = hab_end_phase(ADVANCED, &[10, 1]);
    assert!(has(&ev, "turk rolls for victory: victory"), "{ev:?}");
    assert!(has(&ev, "crusader rolls for victory: no victory"), "{ev:?}");
    assert_eq!(s.outcome.unwrap().winner, Some(Seat(1)));
    let (s, _) = hab_end_phase(ADVANCED, &[1, 5]);
    assert_eq!(s.outcome.unwrap().winner, Some(Seat(0)));
    let (s, ev) = hab_end_phase(ADVANCED, &[10, 10]);
    assert!(
        has(&ev, "both players roll a victory: play continues"),
        "{ev:?}"
    );
    assert!(s.outcome.is_none());
    assert_eq!(s.phase, Phase::Orders);
    assert_eq!(s.battle.turns[s.turn].label, "1030");
    let (s, _) = hab_end_phase(ADVANCED, &[1, 1]);
    assert!(s.outcome.is_none());
    // With 16.5 the loser of a single success chooses.
    let (s, _) = hab_end_phase(&["advanced-sequence", "optional-victory"], &[1, 10]);
    assert_eq!(s.phase, Phase::Concession(Seat(1)));
    assert!(legal(&s, "turk").contains(&"concede".to_string()));
}

/// 16.1 III: "Both players attempt to rally their disrupted and routed units."
#[test]
fn in_the_advanced_rally_phase_both_players_rally() {
    let text = format!(
        "turn = \"0800\"\nphase = \"action\"\nactive = \"crusader\"\n{}\
         [[leader]]\nname = \"Baldwin\"\nhex = \"1020\"\n[[leader]]\nname = \"Toktagin\"\nhex = \"1010\"\n{}{}",
        hab_chits("stand", "stand"),
        routed("Baldwin c", "1020"),
        routed("Toktagin a", "1010"),
    );
    let mut s = at("hab", ADVANCED, &text);
    act(&mut s, "crusader", "draw crusader", &[]);
    act(&mut s, "crusader", "pass", &[]);
    act(&mut s, "turk", "draw turk", &[]);
    // The first player (the Turk) rallies first, then the Crusader.
    let ev = act(&mut s, "turk", "pass", &[1, 1]);
    let t = ev
        .iter()
        .position(|e| e == "Toktagin a rallies")
        .expect("turk rallies");
    let c = ev
        .iter()
        .position(|e| e == "Baldwin c rallies")
        .expect("crusader rallies");
    assert!(t < c, "{ev:?}");
    assert!(!s.unit(unit(&s, "Baldwin c")).routed);
    assert!(!s.unit(unit(&s, "Toktagin a")).routed);
}
