//! Optional and advanced rules (16.0) and scenario options, as named on the command line.
//! The rules themselves are in [`crate::advanced`] (16.1, 16.11-16.13, 16.3, 16.5),
//! [`crate::melee`] and [`crate::morale`] (16.2, 16.4, 16.6).

use engine::OptionInfo;
use serde::Serialize;

/// The optional rules in force. Options added with the advanced rules are left out of the
/// serialised state while off, so that games without them keep their state hashes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Options {
    /// 16.2 Melee Odds Modifiers.
    pub melee_odds: bool,
    /// 16.6 Unit Type Modifier Table (Optional).
    pub unit_type_modifiers: bool,
    /// The scenario's historical command chits are placed at the start (12.1-15.1 Commands).
    pub historical_commands: bool,
    /// 16.1 Advanced Crusades Sequence of Play with 16.11 Action Chits.
    #[serde(default, skip_serializing_if = "is_false")]
    pub advanced_sequence: bool,
    /// 16.13 "Turn Ends" Chit (with the advanced sequence).
    #[serde(default, skip_serializing_if = "is_false")]
    pub turn_ends_chit: bool,
    /// 16.3 Split Commands.
    #[serde(default, skip_serializing_if = "is_false")]
    pub split_commands: bool,
    /// 16.4 Berserk Units: two step losses in a combat make its units check for berserk.
    #[serde(default, skip_serializing_if = "is_false")]
    pub berserk: bool,
    /// 16.5 Optional Victory Conditions.
    #[serde(default, skip_serializing_if = "is_false")]
    pub optional_victory: bool,
    /// 16.12 Off Map Leader Boxes, shown in the view.
    #[serde(default, skip_serializing_if = "is_false")]
    pub leader_boxes: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Every option name, with what it does.
pub fn catalogue() -> Vec<OptionInfo> {
    [
        ("melee-odds", "16.2 Melee Odds Modifiers: odds of 2-1 or better add +1 to +3 to the attacker's melee roll; 1-2 or worse adds +1 to the defender's."),
        ("unit-type-modifiers", "16.6 Unit Type Modifier Table (optional): the attacker's melee roll is modified by attacker type against defender type."),
        ("historical-commands", "12.1/13.1/14.1/15.1 Commands: every leader begins with his historical command chit."),
        ("advanced-sequence", "16.1/16.11 Advanced Sequence of Play: after the Command Phase, action chits drawn from a cup let one leader's command move or fight at a time; then both players rally and both roll for victory."),
        ("turn-ends-chit", "16.13 \"Turn Ends\" chit (needs advanced-sequence): after five action chits are drawn it goes into the cup, and drawing it ends the Action Phase."),
        ("split-commands", "16.3 Split Commands: a leader on Attack with infantry and cavalry may split his command at the start of a turn: the cavalry attack, the infantry act as if on Stand."),
        ("berserk", "16.4 Berserk Units: when a combat costs two steps, its units check for berserk; a berserk unit fights a second combat at once (16.41-16.43 effects and exhaustion)."),
        ("optional-victory", "16.5 Optional Victory Conditions: a player whose opponent rolls a victory may concede, check morale for all his units, or put one leader's command on Retreat and rout it."),
        ("off-map-leader-boxes", "16.12 Off Map Leader Boxes: the view lists each leader's box with his command (to his own side) and his Moved and Fired chits."),
    ]
    .into_iter()
    .map(|(name, about)| OptionInfo {
        name: name.to_string(),
        about: about.to_string(),
    })
    .collect()
}

impl Options {
    /// Options from their names; an unknown name is an error listing the valid ones.
    pub fn parse(names: &[String]) -> Result<Options, String> {
        let mut o = Options::default();
        for n in names {
            match n.as_str() {
                "melee-odds" => o.melee_odds = true,
                "unit-type-modifiers" => o.unit_type_modifiers = true,
                "historical-commands" => o.historical_commands = true,
                "advanced-sequence" => o.advanced_sequence = true,
                "turn-ends-chit" => o.turn_ends_chit = true,
                "split-commands" => o.split_commands = true,
                "berserk" => o.berserk = true,
                "optional-victory" => o.optional_victory = true,
                "off-map-leader-boxes" => o.leader_boxes = true,
                other => {
                    return Err(format!(
                        "unknown option `{other}`; valid: {}",
                        catalogue()
                            .iter()
                            .map(|i| i.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                }
            }
        }
        if o.turn_ends_chit && !o.advanced_sequence {
            // 16.13: "when using the Advanced sequence of play".
            return Err(
                "option `turn-ends-chit` (16.13) is used with the advanced sequence of play: add `advanced-sequence`"
                    .to_string(),
            );
        }
        Ok(o)
    }
}
